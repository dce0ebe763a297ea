"""Encounter and table dice from the QRS and the terrain rules (spec §3.22, §3.23): Contact, Awareness, river
fordability and the collapse of an upper building zone."""

from __future__ import annotations

from fractions import Fraction

from rules.contract import prob
from rules.dice import rolls
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.thw5150 import core, words
from rules.systems.thw5150.actions.common import REP, ThwAction, dice_text, err

AWARENESS_MODIFIERS = {"shots_fired": 2, "at_war": 1, "police_containment": 1, "safe_area": -1}  # L1725–1733
CONTACT = {2: "contact_hidden_enemy", 1: "contact_enemy_spotted", 0: "no_contact"}
AWARENESS = {
    2: "facing_you_ready_in_sight_extra_die",  # «используя дополнительный кубик и учитывая 2 лучших результата»
    1: "facing_you_ready_in_sight",
    0: "surprised_no_in_sight",
}


def _levels(n: int, target: int) -> dict[int, Fraction]:
    dist = {0: Fraction(0), 1: Fraction(0), 2: Fraction(0)}
    for roll in rolls(6, n):
        dist[core.pass_level(roll, target)] += Fraction(1, 6**n)
    return dist


class Contact(ThwAction):
    key = "contact"
    label = "Contact"
    spec_ref = "§3.22 (L1710–1722), §5 A29"
    description = (
        "2d6 against the КСВ rating (a rating of the untranslated campaign part; give it as a number). Pass 2: "
        "contact with a hidden enemy; pass 1: the enemy is spotted and not hidden; both go to the Awareness test. "
        "Pass 0: no contact."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["rating"],
        "properties": {"rating": {"type": "integer", "minimum": 0, "maximum": 12, "description": "КСВ"}},
    }

    def resolve_clean(self, clean, settings, dice):
        rolled = dice.roll_many(2, 6, N_("Contact die"))
        level = core.pass_level(rolled, clean["rating"])
        steps = [tr("{dice} against КСВ {rating}: passed by {level}.").format(dice=dice_text(rolled),
                                                                          rating=clean["rating"], level=level)]  # fmt: skip
        text = words.say(N_("{outcome}."), outcome=words.code(CONTACT[level]))
        return self.outcome(words.render(text), {"level": level, "outcome": CONTACT[level], "text": text}, [], steps)

    def odds_clean(self, clean, settings):
        dist = _levels(2, clean["rating"])
        return {"outcomes": {CONTACT[k]: prob(v) for k, v in dist.items()}}


class Awareness(ThwAction):
    key = "awareness"
    label = "Awareness level"
    spec_ref = "§3.22 (L1725–1753), §5 A29"
    description = (
        "2d6 against a Leader's Rep with the modifiers: shots already fired +2, at war +1, a police containment "
        "plan +1, a «safe» area −1. Pass 2: the enemy faces your group, ready, and takes In Sight with an extra "
        "die (best two). Pass 1: faces you, ready, In Sight as usual. Pass 0: 1d6 per enemy figure, 1–3 faces you, "
        "4–6 faces away; no In Sight. Dice: the two test dice, then one per enemy figure on pass 0."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["contacted_leader_rep"],
        "properties": {
            "contacted_leader_rep": {**REP, "description": "Rep of the contacted (enemy) group's Leader"},
            "contacting_leader_rep": {**REP, "description": "Rep of your own group's Leader"},
            "modifiers": {"type": "array", "uniqueItems": True, "items": {"enum": sorted(AWARENESS_MODIFIERS)}},
            "enemy_figures": {"type": "integer", "minimum": 0, "maximum": 30, "description": "Figures to face"},
        },
    }

    def check(self, inputs, settings):
        if settings.get("awareness_leader") == "contacting_group":
            if "contacting_leader_rep" not in inputs:
                raise err(
                    "contacting_leader_rep", tr("Under this setting your own Leader takes the test: give his Rep.")
                )
            base = inputs["contacting_leader_rep"]
        else:
            base = inputs["contacted_leader_rep"]
        target = base + sum(AWARENESS_MODIFIERS[m] for m in inputs.get("modifiers", []))
        return {**inputs, "target": target}

    def resolve_clean(self, clean, settings, dice):
        rolled = dice.roll_many(2, 6, N_("Awareness die"))
        level = core.pass_level(rolled, clean["target"])
        steps = [tr("{dice} against {target}: passed by {level}.").format(dice=dice_text(rolled), target=clean["target"],
                                                                      level=level)]  # fmt: skip
        result = {"target": clean["target"], "level": level, "outcome": AWARENESS[level]}
        if level == 0:
            facing = dice.roll_many(clean.get("enemy_figures", 0), 6, N_("facing die"))  # one per enemy figure
            result["facing_you"] = [i for i, r in enumerate(facing) if r <= 3]
            steps.append(tr("Facing dice {dice}: 1–3 face your group, 4–6 face away.").format(dice=dice_text(facing)))
        result["text"] = words.say(N_("{outcome}."), outcome=words.code(AWARENESS[level]))
        return self.outcome(words.render(result["text"]), result, [], steps)

    def odds_clean(self, clean, settings):
        dist = _levels(2, clean["target"])
        return {"target": clean["target"], "outcomes": {AWARENESS[k]: prob(v) for k, v in dist.items()},
                "p_each_faces_you_if_surprised": prob(Fraction(1, 2))}  # fmt: skip


class River(ThwAction):
    key = "river"
    label = "River fordability"
    spec_ref = "§1.7, §3.23 (L386–393)"
    description = "After placing a river, 1d6: 1 not fordable (place a bridge); 2–3 up to half fordable; 4–6 fordable."
    input_schema = {"type": "object", "additionalProperties": False, "properties": {}}
    RESULTS = {1: "bridge", 2: "half_fordable", 3: "half_fordable"}

    def resolve_clean(self, clean, settings, dice):
        r = dice.roll(6, N_("river die"))
        out = self.RESULTS.get(r, "fordable")
        text = words.say(N_("{outcome}."), outcome=words.code(out))
        step = tr("River die {die}: {outcome}.").format(die=r, outcome=words.outcome(out))
        return self.outcome(words.render(text), {"roll": r, "outcome": out, "text": text}, [], [step])

    def odds_clean(self, clean, settings):
        return {"bridge": prob(Fraction(1, 6)), "half_fordable": prob(Fraction(1, 3)), "fordable": prob(Fraction(1, 2))}


class ZoneCollapse(ThwAction):
    key = "zone_collapse"
    label = "Upper zone collapse"
    spec_ref = "§1.8, §3.23 (L1302–1306)"
    description = "A collapsed zone with a zone above it: 1d6, 1–4 the upper zone collapses too, 5–6 it stands."
    input_schema = {"type": "object", "additionalProperties": False, "properties": {}}

    def resolve_clean(self, clean, settings, dice):
        r = dice.roll(6, N_("collapse die"))
        out = "collapses" if r <= 4 else "stands"
        text = words.say(N_("{outcome}."), outcome=words.code(out))
        step = tr("Collapse die {die}: {outcome}.").format(die=r, outcome=words.outcome(out))
        return self.outcome(words.render(text), {"roll": r, "outcome": out, "text": text}, [], [step])

    def odds_clean(self, clean, settings):
        return {"collapses": prob(Fraction(2, 3)), "stands": prob(Fraction(1, 3))}
