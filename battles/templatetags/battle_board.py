"""Board fragments drawn through a memo (battles/memo.py): a unit's card or a log line that did not change since
the last render is not rendered again. The fragments' templates see only their own item (and `undo_enabled` for a
log line), so the item's content, the flag and the language are all a fragment depends on."""

from __future__ import annotations

import copy

from django import template
from django.template.loader import get_template
from django.utils import translation

from battles.board_widgets import with_json_inputs
from battles.memo import Memo, digest

register = template.Library()

CARDS: Memo[str] = Memo(4096)  # about 20 units per battle x a few states each x two languages x the club's battles
EVENTS: Memo[str] = Memo(4096)


@register.simple_tag
def board_card(card: dict) -> str:
    """A unit's card as the system declared it (not yet prepared: that is done only on a miss)."""
    key = (translation.get_language(), digest(card))
    return CARDS.get_or_make(
        key, lambda: get_template("battles/widgets/card.html").render({"card": with_json_inputs(copy.deepcopy(card))})
    )


@register.simple_tag
def board_event(event: dict, undo_enabled: bool) -> str:
    key = (translation.get_language(), bool(undo_enabled), digest(event))
    return EVENTS.get_or_make(
        key, lambda: get_template("battles/_event.html").render({"event": event, "undo_enabled": undo_enabled})
    )
