"""Small filters of the builder's pages: words joined as people write them, and the light markup of the lines a
system gives as pure data (`code`, **bold**)."""

import re

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe

register = template.Library()


@register.filter
def join_words(words) -> str:
    """["squads", "vehicles", "guns"] -> "squads, vehicles and guns"."""
    words = [str(w) for w in words or []]
    return " and ".join([", ".join(words[:-1]), words[-1]]) if len(words) > 1 else "".join(words)


@register.filter
def markup(text) -> str:
    """Escapes `text`, then shows `x` as code and **x** in bold."""
    html = escape(str(text or ""))
    html = re.sub(r"`([^`]+)`", r"<code>\1</code>", html)
    return mark_safe(re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", html))  # noqa: S308 (escaped above)
