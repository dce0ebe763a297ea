"""The reaction tables taken by a group (spec §3.2, §3.4, §3.9, §3.11, §3.12, §3.14, §3.15), each a
GroupTestAction over the shared engine in common.py: the result of each figure is the table's row as transcribed.
"""

from __future__ import annotations

from fractions import Fraction

from rules.contract import prob
from rules.dice import rolls
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.thw5150 import core, equipment, words
from rules.systems.thw5150.actions.common import (
    LEVEL_WORDS,
    REF,
    REP,
    GroupTestAction,
    TestSpec,
    ThwAction,
    dice_text,
    echo,
    err,
    figure_name,
    gone_takes_no_test,
    hero_may_choose,
    hero_trigger_on,
    is_hero,
    joint_fields,
    member_summary,
    one_leader,
    read_result,
    readers,
)

IN_SIGHT = TestSpec(
    "in_sight", N_("«IN SIGHT»"), leader_three=False, hero_choice="never", hero_kind="none", covering_extra=True
)
RECEIVED_FIRE = TestSpec("received_fire", N_("«RECEIVED FIRE»"))
WANTING_TO_CHARGE = TestSpec("wanting_to_charge", N_("«WANTING TO CHARGE»"), leader_die=True)
BEING_CHARGED = TestSpec("being_charged", N_("«BEING CHARGED»"))
RALLY = TestSpec("rally", N_("«RALLY»"))
RECOVERY = TestSpec("recovery", N_("«RECOVERY»"), hero_choice="duck_back")
FAST_MOVE = TestSpec(
    "fast_move", N_("«FAST MOVE»"), leader_three=False, leader_die=True, hero_choice="never", hero_kind="table"
)
TABLES = {s.key: s for s in (IN_SIGHT, RECEIVED_FIRE, WANTING_TO_CHARGE, BEING_CHARGED, RALLY, RECOVERY, FAST_MOVE)}

BOOL = {"type": "boolean"}
IN_COVER = {"type": "boolean", "description": "In cover (a building counts as cover)"}
FLANK = {"type": "boolean", "description": "Fired on / charged from the flank or rear"}
OWN_WEAPON = {
    "type": "object",
    "additionalProperties": False,
    "required": ["weapon"],
    "properties": {"weapon": equipment.WEAPON_REF, "loaded": BOOL},
}


def condition_effect(role: str, m: dict, value: str) -> dict:
    return {"kind": "condition", "role": role, "value": value, **echo(m)}


class GroupReactionTest(GroupTestAction):
    """Any 2/1/0 table's dice rules without its outcomes: who reads which dice, Leader Die, 3d6, Heroes."""

    key = "group_reaction_test"
    label = "Group reaction test"
    spec_ref = "§3.0 (L557–566, L262–282, L1161–1167)"
    description = (
        "2d6 once for the group, compared with each tester's Rep: passed by 2, 1 or 0 dice. A real Leader reads a "
        "third die (not on In Sight); covering fire adds a die on In Sight; tables marked LD roll the Leader Die "
        "against the Leader's Rep and add one pass to the others; double 1s make a Hero, who may choose his result "
        "where the table lets him. Dice: the group's, then each Leader's own 3d6 (own_three_dice), then the Leader "
        "Die."
    )
    spec = TestSpec("group_reaction_test", N_("group test"))
    outcome_codes = ("pass 2", "pass 1", "pass 0")
    member_fields = {"covering_fire": BOOL, "sees_leader": BOOL}
    extra_properties = {
        "table": {"enum": sorted(TABLES), "description": "Which table's dice rules apply"},
        "use_leader_die": BOOL,
    }

    def check_more(self, inputs, settings):
        return {**inputs, "table": inputs.get("table", "received_fire")}

    def spec_for(self, clean):
        return TABLES[clean["table"]]

    def outcome_of(self, level, m, settings, clean):
        return f"pass {level}"


class InSight(GroupTestAction):
    key = "in_sight"
    label = "In Sight test"
    spec_ref = "§3.4 (L593–624)"
    description = (
        "Taken by figures an enemy moved into the sight or range of. 2d6 (+1 on covering fire; Leaders do not "
        "roll 3 here, and double 1s make no Hero). Pass 2: fire (a hidden figure with a Leader may hold fire). "
        "Pass 1: in cover fire at full RoF at Rep −1; in the open duck back or go prone. Pass 0: hidden figures "
        "are revealed without firing; the others stand and do nothing."
    )
    spec = IN_SIGHT
    outcome_codes = ("fire", "may_fire_or_stay_hidden", "fire_max_rof_minus_1", "duck_back_or_prone",
                     "revealed_no_fire", "stand_and_do_nothing")  # fmt: skip
    member_fields = {"hidden": BOOL, "in_cover": IN_COVER, "covering_fire": BOOL}

    def check_more(self, inputs, settings):
        for i, m in enumerate(inputs["members"]):
            if m.get("hidden") and not settings.get("hidden_deployment"):
                raise err(f"members.{i}.hidden", tr("Hidden figures exist only with hidden deployment (L580–589)."))
        return inputs

    def outcome_of(self, level, m, settings, clean):
        has_leader = any(x.get("leader") for x in clean["members"])
        return core.in_sight_outcome(
            level, hidden=bool(m.get("hidden")), leader_in_group=has_leader, in_cover=bool(m.get("in_cover"))
        )

    def effects_of(self, row, m, settings, clean):
        role = f"members.{row['index']}"
        out = row["outcome"]
        effects = []
        if m.get("hidden") and out != "may_fire_or_stay_hidden":
            effects.append({"kind": "hidden", "role": role, "value": False, **echo(m)})
        if out == "fire":
            effects.append({"kind": "fires", "role": role, "rep_modifier": 0, **echo(m)})
        elif out == "fire_max_rof_minus_1":
            effects.append({"kind": "fires", "role": role, "rep_modifier": -1, "full_rof": True, **echo(m)})
        elif out == "duck_back_or_prone":
            effects.append({"kind": "choose", "role": role, "options": [core.DUCK_BACK, "prone"], **echo(m)})
        return effects


class ReceivedFire(GroupTestAction):
    key = "received_fire"
    label = "Received Fire test"
    spec_ref = "§3.11 (L923–951), §3.13 (L962–972)"
    description = (
        "Taken by a figure fired on that took no damage (once per simultaneous volley). 2d6 (Leader 3), no Leader "
        "Die; a Hero chooses. The row depends on cover, being outgunned (the shooter's Outgun Rating above the "
        "figure's own), fire from the flank or rear, and how it moved. An inactive figure fires back only at its "
        "shooter; an active one at anyone. A hunkered-down figure fired on runs away without a test (L998)."
    )
    spec = RECEIVED_FIRE
    outcome_codes = ("fire", "fire_minus_1", "may_charge", core.DUCK_BACK, "move_to_cover_and_duck_back",
                     "duck_back_or_stay", "stay", "prone", core.HUNKER_DOWN, core.RUNAWAY)  # fmt: skip
    member_fields = {
        "in_cover": IN_COVER,
        "outgunned": {"type": "boolean", "description": "Outgunned (else computed from ПД when given)"},
        "own_outgun": {"type": "integer", "minimum": 1, "maximum": 5, "description": "ПД of its own weapon"},
        "weapons": {"type": "array", "maxItems": 4, "items": OWN_WEAPON},
        "flank_or_rear": FLANK,
        "moving": {"enum": ["none", "normal", "fast"], "description": "How it was moving when fired on"},
        "cover_within_3": {"type": "boolean", "description": "Cover within 3″ (outgunned fast movers head there)"},
        "active": {"type": "boolean", "description": "Activated at the start of the firefight"},
        "can_fire": {"type": "boolean", "description": "Its weapon can reach, is loaded and exists"},
        "can_charge": {"type": "boolean", "description": "The shooter is within charge reach"},
        "cover_reachable": {"type": "boolean", "description": "It can reach cover to duck back"},
    }
    extra_properties = {
        "shooter_outgun": {"type": "integer", "minimum": 1, "maximum": 5, "description": "ПД of the weapon fired"}
    }

    def check_more(self, inputs, settings):
        members = []
        for i, m in enumerate(inputs["members"]):
            m = dict(m)
            if "outgunned" not in m:
                m["outgunned"] = self._outgunned(inputs.get("shooter_outgun"), m, settings, i)
            m.setdefault("in_cover", False)
            m.setdefault("flank_or_rear", False)
            m.setdefault("moving", "none")
            if m.get("condition") == core.HUNKER_DOWN and m.get("tests", True):
                m["tests"], m["hunkered_fired_on"] = False, True  # «тут же обратится в бегство»
            members.append(m)
        return {**inputs, "members": members}

    @staticmethod
    def _outgunned(shooter_or, m: dict, settings: dict, i: int) -> bool:
        if shooter_or is None:
            return False
        if "own_outgun" in m:
            own = m["own_outgun"]
        else:
            own = 1  # unarmed or every weapon empty: a melee weapon, ПД 1 (spec §3.13)
            for j, w in enumerate(m.get("weapons", [])):
                if w.get("loaded", True) or settings.get("own_outgun_weapon") == "best":
                    own = max(own, equipment.outgun(equipment.weapon(w["weapon"], f"members.{i}.weapons.{j}")))
        return core.outgunned(shooter_or, own)

    def outcome_of(self, level, m, settings, clean):
        out = core.received_fire_outcome(level, m, settings)
        if out in ("fire", "fire_minus_1") and not m.get("can_fire", True):
            # «РЕАГИРОВАТЬ ИЛИ НЕТ» (L953–960): charge if in reach, else duck back (if cover is reachable) or stay
            if m.get("can_charge"):
                return "may_charge"
            return "duck_back_or_stay" if m.get("cover_reachable", True) else "stay"
        return out

    def resolve_clean(self, clean, settings, dice):
        hunkered = [i for i, m in enumerate(clean["members"]) if m.get("hunkered_fired_on")]
        if readers(clean["members"], settings):
            outcome = super().resolve_clean(clean, settings, dice)
        else:
            outcome = self.outcome("", {"test": self.key, "group_dice": [], "leader_die": None, "members": []}, [], [])
        for i in hunkered:
            m = clean["members"][i]
            outcome.result["members"].append(
                {"index": i, "name": m.get("name") or figure_name(i), "outcome": core.RUNAWAY}
            )
            outcome.effects.append(condition_effect(f"members.{i}", m, core.RUNAWAY))
            outcome.steps.append(tr("{name} was hunkered down and runs away (L998).").format(
                name=m.get("name") or figure_name(i)))  # fmt: skip
        outcome.summary = "; ".join(member_summary(r) for r in outcome.result["members"])
        return outcome

    def check(self, inputs, settings):
        members = inputs["members"]
        one_leader(members)
        for i, m in enumerate(members):
            if m.get("condition") in (core.OUT_OF_FIGHT, core.DEAD, core.CAPTURED, core.REMOVED):
                raise err(f"members.{i}.condition", gone_takes_no_test(m["condition"]))
        if not any(m.get("tests", True) for m in members) and settings.get("group_test_readers") != "whole_group":
            raise err("members", tr("Nobody in the group takes this test: mark at least one figure with tests = true."))
        return self.check_more(inputs, settings)

    def effects_of(self, row, m, settings, clean):
        role, out = f"members.{row['index']}", row["outcome"]
        row["fires_at"] = "any target" if m.get("active") else "only the figure that fired on it"
        if out in (core.DUCK_BACK, "move_to_cover_and_duck_back"):
            return [condition_effect(role, m, core.DUCK_BACK)]
        if out in (core.RUNAWAY, core.HUNKER_DOWN):
            return [condition_effect(role, m, out)]
        if out == "prone":
            return [{"kind": "prone", "role": role, "value": True, **echo(m)}]
        if out in ("fire", "fire_minus_1"):
            target = "any" if m.get("active") else "shooter"
            return [{"kind": "fires", "role": role, "rep_modifier": -1 if out == "fire_minus_1" else 0, "at": target}]
        return []

    def fixed_outcomes(self, clean):
        hunkered = sum(1 for m in clean["members"] if m.get("hunkered_fired_on"))
        return {core.RUNAWAY: hunkered} if hunkered else {}

    def odds_clean(self, clean, settings):
        if readers(clean["members"], settings):
            odds = super().odds_clean(clean, settings)
        else:  # every figure fired on was hunkered down: they run away, nobody tests
            odds = {"test": self.key, "members": [], **joint_fields([], {}, None, self.outcome_codes,
                                                                    self.fixed_outcomes(clean))}  # fmt: skip
        for i, m in enumerate(clean["members"]):
            if m.get("hunkered_fired_on"):
                odds["members"].append({"index": i, "name": m.get("name") or figure_name(i),
                                        "outcomes": {core.RUNAWAY: prob(1)}})  # fmt: skip
        return odds


class WantingToCharge(GroupTestAction):
    key = "wanting_to_charge"
    label = "Wanting to Charge test"
    spec_ref = "§3.14 (L1042–1058), §3.20 (L1236–1243)"
    description = (
        "Taken before a charge (the charger must be able to reach the enemy). 2d6 (Leader 3) with the Leader Die; a "
        "Hero chooses. Pass 2: all charge. Pass 1: those in cover stay and fire if they can, the others charge. "
        "Pass 0: all stay. A figure moving to a wounded comrade takes it when fired on: a charge result ignores the "
        "fire, any other result takes Received Fire."
    )
    spec = WANTING_TO_CHARGE
    outcome_codes = ("charge", "ignores_fire_keeps_moving", "stay_and_fire", "stay", "takes_received_fire")
    member_fields = {"in_cover": IN_COVER}
    extra_properties = {"rescuing": {"type": "boolean", "description": "Moving to a wounded comrade, fired on"}}

    def outcome_of(self, level, m, settings, clean):
        out = core.wanting_to_charge_outcome(level, in_cover=bool(m.get("in_cover")))
        if clean.get("rescuing"):
            return "ignores_fire_keeps_moving" if out == "charge" else "takes_received_fire"
        return out

    def effects_of(self, row, m, settings, clean):
        if row["outcome"] == "charge":
            return [{"kind": "charges", "role": f"members.{row['index']}", **echo(m)}]
        return []


class BeingCharged(GroupTestAction):
    key = "being_charged"
    label = "Being Charged test"
    spec_ref = "§3.15 (L1060–1078), §5 A21, A39"
    description = (
        "Taken by a figure successfully charged. 2d6 (Leader 3); a Hero chooses. Pass 2: fire if able and prepare; "
        "charged in the flank or rear: turn to face, Rep −1 in the first melee round. Pass 1: in cover fire and "
        "prepare; flanked run away; others prepare without firing. Pass 0: in cover prepare; others run away."
    )
    spec = BEING_CHARGED
    outcome_codes = ("fire_and_prepare", "turn_fire_and_prepare_minus_1", "prepare", "turn_and_prepare_minus_1",
                     "prepare_no_fire", core.RUNAWAY)  # fmt: skip
    member_fields = {"in_cover": IN_COVER, "flank_or_rear": FLANK, "can_fire": BOOL}

    def outcome_of(self, level, m, settings, clean):
        return core.being_charged_outcome(
            level, {"in_cover": bool(m.get("in_cover")), "flank_or_rear": bool(m.get("flank_or_rear")),
                    "can_fire": m.get("can_fire", True)}, settings)  # fmt: skip

    def resolve_clean(self, clean, settings, dice):
        outcome = super().resolve_clean(clean, settings, dice)
        outcome.result["charger_takes_received_fire_if_missed"] = bool(settings.get("charger_received_fire"))
        return outcome

    def effects_of(self, row, m, settings, clean):
        role, out = f"members.{row['index']}", row["outcome"]
        if out == core.RUNAWAY:
            return [condition_effect(role, m, core.RUNAWAY)]
        effects = [{"kind": "in_melee", "role": role, "value": True, **echo(m)}]
        if out.endswith("minus_1"):
            effects.append({"kind": "first_round_flank_penalty", "role": role, "value": True, **echo(m)})
        return effects


class Rally(GroupTestAction):
    key = "rally"
    label = "Rally test"
    spec_ref = "§3.12 (L1002–1023), §5 A19, A20"
    description = (
        "A runaway with a friendly figure in normal state within 2″ may take it at its activation. 2d6 (Leader 3); "
        "a Hero chooses. Pass 2: all return and may act at once. Pass 1: those in cover or a building return, the "
        "others are removed from play. Pass 0: all are removed. Under the A19 house rule a hunkered-down figure "
        "takes it the same way."
    )
    spec = RALLY
    outcome_codes = ("returns_may_act", "returns", core.REMOVED)
    member_fields = {"in_cover": IN_COVER}
    extra_properties = {
        "friend_within_2": {"type": "boolean", "description": "A friendly figure in normal state within 2″"}
    }

    def check_more(self, inputs, settings):
        if not inputs.get("friend_within_2", True):
            raise err("friend_within_2", tr("Rally needs a friendly figure in normal state within 2″ (L1010–1012)."))
        for i, m in enumerate(inputs["members"]):
            cond = m.get("condition", core.RUNAWAY)
            if not m.get("tests", True):
                continue
            if cond == core.HUNKER_DOWN and settings.get("hunker_down_recovery") == "never":
                raise err(
                    f"members.{i}.condition", tr("Under these settings a hunkered-down figure cannot be rallied.")
                )
            if cond not in (core.RUNAWAY, core.HUNKER_DOWN):
                raise err(f"members.{i}.condition", tr("Only a runaway (or a hunkered-down figure, A19) takes Rally."))
        return inputs

    def outcome_of(self, level, m, settings, clean):
        return core.rally_outcome(level, in_cover=bool(m.get("in_cover")))

    def effects_of(self, row, m, settings, clean):
        value = core.REMOVED if row["outcome"] == core.REMOVED else core.FINE
        return [condition_effect(f"members.{row['index']}", m, value)]


class FastMove(GroupTestAction):
    key = "fast_move"
    label = "Fast Move test"
    spec_ref = "§3.2 (L474–499)"
    description = (
        "2d6 once for the moving group against each figure's Rep; figures that see their Leader may use the Leader "
        "Die. Pass 2: up to 16″, pass 1: up to 12″, pass 0: up to 8″. Every figure counts as fast moving, whatever "
        "distance it moves. A lone carrier cannot move fast (L515–517)."
    )
    spec = FAST_MOVE
    outcome_codes = tuple(f"up to {core.FAST_MOVE_INCHES[level]}″" for level in (2, 1, 0))
    member_fields = {"sees_leader": BOOL, "carrying_alone": BOOL}

    def check_more(self, inputs, settings):
        for i, m in enumerate(inputs["members"]):
            if m.get("carrying_alone") and m.get("tests", True):
                raise err(f"members.{i}.carrying_alone", tr("A figure carrying someone alone cannot move fast (L516)."))
        return inputs

    def outcome_of(self, level, m, settings, clean):
        return f"up to {core.FAST_MOVE_INCHES[level]}″"

    def effects_of(self, row, m, settings, clean):
        role = f"members.{row['index']}"
        row["max_inches"] = core.FAST_MOVE_INCHES[row["level"]]
        return [{"kind": "fast_moved", "role": role, "value": True, "max_inches": row["max_inches"], **echo(m)}]


class Recovery(ThwAction):
    key = "recovery"
    label = "Recovery test (Knocked Down or Duck Back)"
    spec_ref = "§3.9 (L749–762)"
    description = (
        "At its next activation a Knocked Down or Duck Back figure rolls 2d6 (Leader 3) against its Rep. Pass 2: it "
        "returns to the fight and may act at once. Pass 1: roll again at once; a second pass 1 counts as pass 0. "
        "Pass 0: Knocked Down → out of the fight, Duck Back → runs away. A Hero chooses only when recovering from "
        "Duck Back. Dice: the first roll, then the re-roll if any."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["figure"],
        "properties": {
            "figure": {
                "type": "object",
                "additionalProperties": False,
                "required": ["rep", "state"],
                "properties": {
                    "name": {"type": "string", "maxLength": 80},
                    "ref": REF,
                    "rep": REP,
                    "leader": BOOL,
                    "hero": BOOL,
                    "star": BOOL,
                    "state": {"enum": [core.KNOCKED_DOWN, core.DUCK_BACK]},
                    "hero_choice": {"type": "integer", "minimum": 0, "maximum": 2},
                },
            }
        },
    }
    spec = RECOVERY
    result_labels = {
        "p_returns": N_("back in the fight, it may act at once"),
        "level": N_("The result after the re-roll"),
        "outcomes": N_("What becomes of the figure"),
        "p_becomes_hero": N_("becomes a Hero"),
    }
    value_labels = {"level": LEVEL_WORDS, "outcomes": {c: words.OUTCOMES[c] for c in (
        "returns_may_act", core.OUT_OF_FIGHT, core.RUNAWAY)}}  # fmt: skip

    def check(self, inputs, settings):
        return inputs

    @staticmethod
    def _final(level: int) -> int:
        """A chosen result is final; a chosen pass 1 is the re-roll's pass 1 again, i.e. pass 0."""
        return 2 if level == 2 else 0

    def resolve_clean(self, clean, settings, dice):
        f = clean["figure"]
        ctx = {"duck_back": f["state"] == core.DUCK_BACK}
        n = 3 if f.get("leader") else 2
        first = read_result(self.spec, f, settings, dice.roll_many(n, 6, N_("Recovery die")), False, 0, **ctx)
        steps = [tr("First roll {dice} against Rep {rep}: passed by {level}.").format(
            dice=dice_text(first["dice"]), rep=f["rep"], level=first["level"])]  # fmt: skip
        rolls, hero = [first], first["became_hero"]
        if first["hero_chose"] is not None:
            level = self._final(first["hero_chose"])
            steps.append(tr("The Hero chooses passed by {level}.").format(level=first["hero_chose"]))
        elif first["level"] == 1:
            again = dice.roll_many(n, 6, N_("Recovery re-roll die"))
            second = read_result(self.spec, f, settings, again, False, 0, **ctx)
            rolls.append(second)
            hero = hero or second["became_hero"]
            if second["hero_chose"] is not None:
                level = self._final(second["hero_chose"])
            else:
                level = 0 if second["level"] == 1 else second["level"]
            line = (tr("Passed by 1: re-roll at once {dice}: passed by 1 again, counts as passed by 0.")
                    if second["level"] == 1 else tr("Passed by 1: re-roll at once {dice}: passed by {level}."))  # fmt: skip
            steps.append(line.format(dice=dice_text(second["dice"]), level=second["level"]))
        else:
            level = first["level"]
        out = core.recovery_outcome(level, f["state"])
        steps.append(tr("Result: {outcome}.").format(outcome=words.outcome(out)))
        effects = [{"kind": "hero", "role": "figure", "value": True, **echo(f)}] if hero else []
        effects.append({"kind": "condition", "role": "figure", "value": core.FINE if level == 2 else out, **echo(f)})
        text = words.say(N_("{name}: {outcome} (passed by {level})."), name=f.get("name") or words.say(N_("The figure")),
                         outcome=words.code(out), level=level)  # fmt: skip
        result = {"state": f["state"], "rolls": rolls, "level": level, "outcome": out, "became_hero": hero,
                  "text": text}  # fmt: skip
        return self.outcome(words.render(text), result, effects, steps)

    def _single(self, n: int, f: dict, settings: dict):
        """One roll: ({0,1,2}: P of a rolled level, {0,2}: P of a Hero's final choice, P(double 1s make a Hero))."""
        ctx = {"duck_back": f["state"] == core.DUCK_BACK}
        trigger = hero_trigger_on(self.spec, settings) and not is_hero(f, settings)
        can_choose = f.get("hero_choice") is not None and hero_may_choose(self.spec, settings, **ctx)
        rolled = {0: Fraction(0), 1: Fraction(0), 2: Fraction(0)}
        chosen = {0: Fraction(0), 2: Fraction(0)}
        p_double = Fraction(0)
        each = Fraction(1, 6**n)
        for roll in rolls(6, n):
            became = trigger and core.double_ones(roll)
            p_double += each if became else 0
            if can_choose and (became or is_hero(f, settings)):
                chosen[self._final(f["hero_choice"])] += each
            else:
                rolled[core.pass_level(roll, f["rep"])] += each
        return rolled, chosen, p_double

    def odds_clean(self, clean, settings):
        f = clean["figure"]
        n = 3 if f.get("leader") else 2
        rolled, chosen, p_double = self._single(n, f, settings)
        # The re-roll only follows a rolled pass 1, which is never double 1s: it is the same figure again.
        again = rolled[1]
        final = {
            2: chosen[2] + rolled[2] + again * (chosen[2] + rolled[2]),
            0: chosen[0] + rolled[0] + again * (chosen[0] + rolled[0] + rolled[1]),
        }
        outcomes = {}
        for level, p in final.items():
            if p:
                out = core.recovery_outcome(level, f["state"])
                outcomes[out] = outcomes.get(out, Fraction(0)) + p
        return {
            "state": f["state"],
            "p_returns": prob(final[2]),
            "level": {str(k): prob(v) for k, v in sorted(final.items())},
            "outcomes": {k: prob(v) for k, v in sorted(outcomes.items())},
            "p_becomes_hero": prob(p_double * (1 + again)),
        }
