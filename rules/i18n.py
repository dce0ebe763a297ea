"""The rules core's translation hook. Pure Python: no Django import.

The core marks its texts with `_()` and `ngettext()`; the Django app installs the real translators at start-up
(rules/apps.py installs django.utils.translation.gettext/ngettext), so a text made inside a request (an error, a
board widget, a log line) comes out in the viewer's language. Without an installed translator the text comes back
unchanged (English, the msgid). `N_()` only marks a msgid for the catalogue (module-level labels); translate it
with `_()` where it is shown.
"""

from __future__ import annotations

from collections.abc import Callable

_gettext: Callable[[str], str] | None = None
_ngettext: Callable[[str, str, int], str] | None = None


def install(gettext: Callable[[str], str] | None, ngettext: Callable[[str, str, int], str] | None) -> None:
    """Sets the translators (None removes them)."""
    global _gettext, _ngettext
    _gettext, _ngettext = gettext, ngettext


def _(message: str) -> str:
    """The message in the current language (unchanged when no translator is installed or it is empty)."""
    if _gettext is None or not message or not isinstance(message, str):
        return message
    return _gettext(message)


gettext = _


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for n in the current language (Russian has three forms)."""
    if _ngettext is None:
        return singular if n == 1 else plural
    return _ngettext(singular, plural, n)


def N_(message: str) -> str:  # noqa: N802 - gettext's own name for "mark only"
    """Marks a msgid for the catalogue without translating it now."""
    return message
