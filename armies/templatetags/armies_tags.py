"""Small filters of the builder's pages: words joined as people write them, and the light markup of the lines a
system gives as pure data (`code`, **bold**)."""

import re

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def join_words(words) -> str:
    """["squads", "vehicles", "guns"] -> "squads, vehicles and guns" (in the reader's language: «и»)."""
    words = [str(w) for w in words or []]
    if len(words) < 2:
        return "".join(words)
    # Translators: the last two items of a list, as in "squads, vehicles and guns".
    return _("{items} and {last}").format(items=", ".join(words[:-1]), last=words[-1])


@register.filter
def kind_label(kind, labels) -> str:
    """A unit's kind in the system's words ({kind: msgid} of the army part), never the raw key when one is known."""
    label = (labels or {}).get(kind)
    return _(label) if label else str(kind)


@register.filter
def markup(text) -> str:
    """Escapes `text`, then shows `x` as code and **x** in bold."""
    html = escape(str(text or ""))
    html = re.sub(r"`([^`]+)`", r"<code>\1</code>", html)
    return mark_safe(re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", html))  # noqa: S308 (escaped above)
