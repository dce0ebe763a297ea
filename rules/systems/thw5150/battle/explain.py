"""The acting phone's result says what the roll obliges anyone to, and what each side does next, as the board of
both phones does (prompts.py): the command's events are folded into a copy of the state to read it after them."""

from __future__ import annotations

import copy
import functools

from rules.contract import Event
from rules.i18n import _
from rules.systems.thw5150.battle import fold, prompts, view
from rules.systems.thw5150.battle.units import system_settings


def after(ctx, events) -> list[str]:
    state = copy.deepcopy(ctx.state)
    for offset, new in enumerate(events):
        fold.apply(state, Event(ctx.next_seq + offset, new.type, new.payload, new.side, new.visible_to))
    settings = system_settings(ctx.settings)
    units = [{"key": k, "name": u.name, "side": u.side, "state": u.state} for k, u in state.units.items()]
    table = prompts.Table({"game": state.game, "units": units}, frozenset(ctx.sides), True, settings)
    names = {"units": {k: u.name for k, u in state.units.items()}}
    lines = prompts.last_roll_lines(table, lambda last: view.describe(view._last_event(last), names))[1:]
    if state.game.get("result") is not None:
        return [*lines, view.result_banner(state.game, table)["text"]]
    steps = [x["value"] for x in prompts.side_lines(table, settings, view.stay_or_run_due) if x["value"] not in lines]
    return [*lines, _("What next:"), *steps]


def explained(handle):
    """Wraps a rolling command's handler: its result ends with what the roll means and what comes next."""

    @functools.wraps(handle)
    def wrapper(self, ctx, inputs):
        events = handle(self, ctx, inputs)
        ctx.notices.extend(after(ctx, events))
        return events

    return wrapper
