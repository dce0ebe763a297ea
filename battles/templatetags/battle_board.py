"""Board fragments drawn through a memo (battles/memo.py): a unit's card or a log line that did not change since
the last render is not rendered again. The fragments' templates see only their own item (and `undo_enabled` for a
log line), so the item's content, the flag and the language are all a fragment depends on."""

from __future__ import annotations

import copy

from django import template
from django.template.loader import get_template
from django.urls import get_script_prefix
from django.utils import translation

from battles.board_widgets import with_json_inputs
from battles.memo import Memo, digest

register = template.Library()

CARDS: Memo[str] = Memo(4096)  # about 20 units per battle x a few states each x two languages x the club's battles
EVENTS: Memo[str] = Memo(4096)
WIDGETS: Memo[str] = Memo(4096)  # the turn bar's and the footer's widgets: a few per battle and viewer
PANELS: Memo[str] = Memo(1024)  # a battle's result panel before any result: one per battle, side and language


@register.simple_tag
def board_card(card: dict) -> str:
    """A unit's card as the system declared it (not yet prepared: that is done only on a miss)."""
    key = (translation.get_language(), digest(card))
    return CARDS.get_or_make(
        key, lambda: get_template("battles/widgets/card.html").render({"card": with_json_inputs(copy.deepcopy(card))})
    )


@register.simple_tag
def board_widget(widget: dict) -> str:
    """A widget of the turn bar or the footer (prepared with the board): like a card, only its own content and the
    language draw it (battles/widgets/widget.html reads nothing else)."""
    key = (translation.get_language(), digest(widget))
    return WIDGETS.get_or_make(key, lambda: get_template("battles/widgets/widget.html").render({"widget": widget}))


@register.simple_tag
def board_event(event: dict, undo_enabled: bool) -> str:
    key = (translation.get_language(), bool(undo_enabled), digest(event))
    return EVENTS.get_or_make(
        key, lambda: get_template("battles/_event.html").render({"event": event, "undo_enabled": undo_enabled})
    )


@register.simple_tag
def board_result_panel(panel: dict, battle) -> str:
    """The result panel (results/_panel.html) while the game goes on and nobody has proposed a result, which is
    nearly every board: then it shows only the battle's sides, the clubs its result may count for and whether this
    viewer may end the game, so those and the language are its key. "" for any other panel: the board includes the
    template as it stands."""
    if panel.get("result") is not None or panel.get("over"):
        return ""
    key = (
        translation.get_language(),
        get_script_prefix(),  # the panel's links
        battle.pk,
        bool(panel.get("can_end")),
        tuple((c.pk, c.name) for c in panel.get("clubs") or ()),
        tuple((s.index, s.name) for s in panel.get("sides") or ()),
    )
    return PANELS.get_or_make(
        key, lambda: get_template("results/_panel.html").render({"result_panel": panel, "battle": battle})
    )
