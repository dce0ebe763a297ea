"""A data pack's own words, for every system's test that its pack reads in the reader's language."""

from __future__ import annotations


def pack_words(pack: dict) -> tuple[list[str], list[str]]:
    """The words of a pack (its JSON) that its page shows through the catalogues: (the source and the units' notes,
    plain msgids, the source first; the provenance's keys and texts, which the page words under the context «pack
    provenance», armies/views/packs.py). Each once, in the pack's order; empty texts are not words."""
    shown = list(dict.fromkeys(t for t in [pack["source"], *(p.get("notes") for p in pack["profiles"])] if t))
    provenance: list[str] = []

    def walk(value):
        if isinstance(value, dict):
            for key, item in value.items():
                provenance.append(key)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and value:
            provenance.append(value)

    walk(pack["provenance"])
    return shown, provenance
