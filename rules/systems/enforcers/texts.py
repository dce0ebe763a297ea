"""Texts that are stored in the log and read later in the reader's language.

`T(msgid, **args)` is a `str` (translated now, for the answer to the request) that also keeps its msgid and
arguments in `.parts`; texts joined with `+` or `join()` keep all their parts. An event stores `parts(text)` and
`render()` translates it again when someone reads the log, so a Russian and an English player each read their own
language. Arguments are data (names, numbers) or texts themselves.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from rules.i18n import _, ngettext

# While the exact odds walk every branch of a procedure, nobody reads its texts: they keep their parts but are not
# rendered (rendering was most of the time of a shot's odds).
_QUIET: ContextVar[bool] = ContextVar("enforcers_texts_quiet", default=False)


@contextmanager
def quiet() -> Iterator[None]:
    token = _QUIET.set(True)
    try:
        yield
    finally:
        _QUIET.reset(token)


def _render_arg(value):
    if isinstance(value, dict) and "t" in value:
        return render(value["t"])
    return value


def _render_part(part) -> str:
    if isinstance(part, str):
        return part
    if len(part) == 2:
        msgid, args = part
        return _(msgid).format(**{k: _render_arg(v) for k, v in args.items()})
    singular, plural, n, args = part
    return ngettext(singular, plural, n).format(n=n, **{k: _render_arg(v) for k, v in args.items()})


def render(parts) -> str:
    """A stored text in the current language (a plain string from an older event is shown as it is)."""
    if isinstance(parts, str):
        return parts
    return "".join(_render_part(p) for p in parts)


def parts(text) -> list:
    return list(text.parts) if isinstance(text, Text) else [str(text)]


class Text(str):
    def __new__(cls, items: list):
        obj = super().__new__(cls, "" if _QUIET.get() else render(items))
        obj.parts = items
        return obj

    def __add__(self, other):
        return Text(self.parts + parts(other))

    def __radd__(self, other):
        return Text(parts(other) + self.parts)


def _arg(value):
    return {"t": value.parts} if isinstance(value, Text) else value


def T(msgid: str, **args) -> Text:  # noqa: N802 (reads like _())
    if _QUIET.get():
        return _SILENT
    return Text([[msgid, {k: _arg(v) for k, v in args.items()}]])


def NT(singular: str, plural: str, n: int, **args) -> Text:  # noqa: N802
    if _QUIET.get():
        return _SILENT
    return Text([[singular, plural, n, {k: _arg(v) for k, v in args.items()}]])


_SILENT = Text([])  # what a text is while nobody reads it (quiet): empty, and empty when joined


def join(separator: str, texts) -> Text:
    if _QUIET.get():
        return _SILENT
    out: list = []
    for i, text in enumerate(texts):
        if i:
            out.append(separator)
        out += parts(text)
    return Text(out)
