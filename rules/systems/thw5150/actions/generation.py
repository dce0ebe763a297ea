"""A random Normal as an action (spec §2.9): the same tables as random_normal.py, with exact odds."""

from __future__ import annotations

from rules.contract import prob
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.thw5150 import random_normal, words
from rules.systems.thw5150.actions.common import ThwAction, dice_text


class RandomNormal(ThwAction):
    key = "random_normal"
    label = "Random Normal"
    spec_ref = "§2.4, §2.9 (L1413–1481), §5 A11, A35, A36"
    description = (
        "Rep: 1d6, 1 → Rep 5, 2–4 → Rep 4, 5–6 → Rep 3. Weapon: 2d6 + law level (Lax +1, Low +2) + 1 for a Leader, "
        "then 2d6 again: a 12 swaps it for the corresponding laser weapon. Armour: 2d6 + the same modifiers; 12+ "
        "rolls 2d6 on the special armour table. Dice in that order."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {"leader": {"type": "boolean", "description": "The figure is a Leader: +1 to both rolls"}},
    }

    def resolve_clean(self, clean, settings, dice):
        figure = random_normal.roll_with(dice, leader=bool(clean.get("leader")), settings=settings)
        figure.pop("dice")
        rolls = figure["rolls"]
        steps = [
            tr("Rep die {die}: Rep {rep}.").format(die=rolls["rep"], rep=figure["rep"]),
            tr("Weapon dice {dice} + {modifier}: {weapon} (laser check {laser}).").format(
                dice=dice_text(rolls["weapon"]), modifier=figure["modifier"], weapon=figure["weapon_name"],
                laser=dice_text(rolls["laser_check"])),
            (tr("Armour dice {dice} + {modifier}, special {special}: {armour}.") if rolls["special_armour"] else
             tr("Armour dice {dice} + {modifier}: {armour}.")).format(
                dice=dice_text(rolls["armour"]), modifier=figure["modifier"], armour=figure["armour_name"],
                special=dice_text(rolls["special_armour"] or [])),
        ]  # fmt: skip
        text = words.say(N_("Rep {rep}, {weapon}, {armour}: {cost} points."), rep=figure["rep"],
                         weapon=figure["weapon_name"], armour=figure["armour_name"], cost=figure["cost"])  # fmt: skip
        figure["text"] = text
        summary = words.render(text)
        effects = [{"kind": "random_normal", "figure": {k: figure[k] for k in ("rep", "weapon", "armour", "cost")}}]
        return self.outcome(summary, figure, effects, steps)

    def odds_clean(self, clean, settings):
        d = random_normal.distributions(leader=bool(clean.get("leader")), settings=settings)
        return {part: {k: prob(v) for k, v in sorted(values.items())} for part, values in d.items()}
