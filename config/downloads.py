"""File names of downloads (roster exports, balance results): RFC 6266 Content-Disposition with an ASCII fallback
and the real name in RFC 5987 form, so a roster called «Синяя армия» downloads as «Синяя армия.armlist.json» and
an old browser still gets a plain "sinyaya-armiya.armlist.json" instead of raw JSON on the screen."""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

# Characters no file system likes, and controls: never part of a file name.
_UNSAFE = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|]+')


def safe_filename(name: str, *, limit: int = 80) -> str:
    """`name` without characters a file system refuses, spaces collapsed, at most `limit` characters."""
    cleaned = " ".join(_UNSAFE.sub(" ", name or "").split())
    return cleaned[:limit].strip(" .")


def ascii_filename(name: str, *, default: str = "download") -> str:
    """An ASCII stand-in: accents dropped, anything else outside [A-Za-z0-9._-] becomes one hyphen."""
    folded = unicodedata.normalize("NFKD", name or "").encode("ascii", "ignore").decode("ascii")
    folded = re.sub(r"[^A-Za-z0-9._-]+", "-", folded).strip("-.")
    return folded or default


def attachment(filename: str, *, fallback: str | None = None) -> str:
    """The Content-Disposition value for downloading `filename`; `fallback` is the ASCII name for old clients
    (derived from `filename` if not given)."""
    name = safe_filename(filename) or "download"
    plain = ascii_filename(fallback if fallback is not None else name)
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(name, safe='')}"
