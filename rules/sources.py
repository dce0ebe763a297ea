"""Where a setting comes from, as a reader says it: a system gives its sources as data ("§1.2 p.2", "§5 A2 (L28)"),
the pages (battle set-up, a balance job) show them in the reader's language («§1.2, с. 2», «§5 A2 (строка 28)»).
Pure Python: the translator is the one rules.i18n has installed."""

from __future__ import annotations

import re

from rules.i18n import _

_PAGE = re.compile(r"\bp\.\s?(\d+(?:[–-]\d+)?)")
_LINE = re.compile(r"\bL(\d+)(?:[–-](\d+))?")
WORDS = ("Errata", "errata", "not in the text", "campaign layer")  # msgids of the sources' own words


def book_source(source: str) -> str:
    """ "§1.2 p.2" -> «§1.2, с. 2»; "§5 A2 (L28–30)" -> «§5 A2 (строки 28–30)»; errata by name. A system may translate
    a whole source of its own words in its catalogue (the whole text is looked up first)."""
    source = str(source or "")
    if not source:
        return ""
    translated = _(source)
    if translated != source:
        return translated
    text = re.sub(r"(§[\d.]+)\s+p\.", r"\1, p.", source)
    text = _PAGE.sub(lambda m: _("p. {n}").format(n=m[1]), text)
    text = _LINE.sub(
        lambda m: _("lines {a}–{b}").format(a=m[1], b=m[2]) if m[2] else _("line {n}").format(n=m[1]), text
    )
    for word in WORDS:
        text = text.replace(word, _(word))
    # A bare "7.4" inside is a section too ("§1.8 p.33 (7.4 IV)"): written as one, never like a unit's key.
    return re.sub(r"(?<![§\d.,])(\d+\.\d+)(?![\d.])", r"§\1", text)
