"""Melee (spec §3.16, L1080–1159): each fighter rolls its own 2d6 against its modified Rep; passes are compared
pair by pair. Equal: the melee goes on. One more: the winner rolls on «УЩЕРБ В РУКОПАШНОЙ». Two more: 1d6, 1 dead,
else out of the fight.

One fighter against 1–3 opponents (each opponent fights only him). Dice order: the fighter's dice, each opponent's
dice in order, then for each pair in order the winner's damage die (two Hand of Fate dice first when that setting
applies to «НЭ»).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from rules.contract import distribution, prob
from rules.dice import rolls
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.thw5150 import core, equipment, words
from rules.systems.thw5150.actions.common import DAMAGE_WORDS, REF, ThwAction, dice_text, echo, err
from rules.systems.thw5150.actions.shooting import add_bernoulli, worst_of

BOOL = {"type": "boolean"}
FIGHTER = {
    "type": "object",
    "additionalProperties": False,
    "required": ["rep"],
    "properties": {
        "name": {"type": "string", "maxLength": 80},
        "ref": REF,
        "rep": {"type": "integer", "minimum": 1, "maximum": 7},
        "weapon": {**equipment.MELEE_REF, "description": "Melee weapon (default: unarmed)"},
        "energy": {"type": "boolean", "description": "Energy-powered: Impact +1, «НЭ» → 1 (L199–201)"},
        "improvised": {"type": "boolean", "description": "A pipe or a stool leg: Impact 1 (L1148–1152)"},
        "armour": {"enum": equipment.ARMOUR_CHOICES},
        "prone": {"type": "boolean", "description": "Lying: −1d6 (Knocked Down counts when §5 A23 says so)"},
        "condition": {"enum": [core.FINE, core.KNOCKED_DOWN, core.DUCK_BACK, core.HUNKER_DOWN]},
        "bonus_dice": {"type": "integer", "minimum": 0, "maximum": 2, "description": "Attributes: +1d6 each"},
        "two_melee_weapons": {"type": "boolean", "description": "One in each hand: one extra opponent free"},
        "first_round_flank_penalty": {"type": "boolean", "description": "Charged in the flank, passed 2: Rep −1"},
    },
}
RESULT_ROWS = ("loses_by_2", "loses_by_1", "tie", "wins_by_1", "wins_by_2")


def _clean_fighter(f: dict, field: str, settings: dict) -> dict:
    f = dict(f)
    f["armour"] = equipment.armour_slug(f.get("armour", "none"), f"{field}.armour")
    f["w"] = equipment.weapon(f.get("weapon", "unarmed"), f"{field}.weapon", melee=True)
    lying = f.get("prone") or (f.get("condition") == core.KNOCKED_DOWN and settings.get("knocked_down_is_prone"))
    f["dice"] = max(1, 2 + f.get("bonus_dice", 0) - (1 if lying else 0))  # «Фигурка лежит −1к6»
    return f


def impact_against(f: dict, other: dict, settings: dict, *, for_difference: bool):
    armour = "none" if for_difference and settings.get("melee_impact_basis") == "no_armour" else other["armour"]
    return equipment.melee_impact(
        f["w"], armour, settings, energy=bool(f.get("energy")), improvised=bool(f.get("improvised"))
    )


def melee_rep(f: dict, opp: dict, opponents: int, settings: dict) -> int:
    """The fighter's Rep against one opponent (L1090–1098, L1156–1159): never below 1."""
    rep = f["rep"]
    counted = opponents - (1 if f.get("two_melee_weapons") else 0)
    rep -= 2 if counted >= 3 else (1 if counted == 2 else 0)
    mine = impact_against(f, opp, settings, for_difference=True)
    theirs = impact_against(opp, f, settings, for_difference=True)
    gap = max(0, theirs if isinstance(theirs, int) else 0) - max(0, mine if isinstance(mine, int) else 0)
    rep -= max(0, gap)  # «минус тому, у кого Ущерб меньше»
    rep -= 1 if f.get("first_round_flank_penalty") else 0
    return max(1, rep)


def count_passes(dice, rep: int, settings: dict) -> int:
    n = core.passes(dice, rep)
    return min(2, n) if settings.get("melee_pass_cap", "two") == "two" else n


def melee_damage_distribution(cell, settings: dict) -> dict[str, Fraction]:
    out = dict.fromkeys(core.DAMAGE_ORDER, Fraction(0))
    weight = Fraction(1)
    if cell == equipment.NO_EFFECT:
        if not settings.get("melee_hand_of_fate"):
            out[core.NO_DAMAGE] = Fraction(1)
            return out
        out[core.NO_DAMAGE] = Fraction(35, 36)
        weight, cell = Fraction(1, 36), 1
    for k, p in core.damage_distribution(cell).items():
        out[k] += weight * p
    return out


BY_TWO = {core.DEAD: Fraction(1, 6), core.OUT_OF_FIGHT: Fraction(5, 6)}  # «1 – убит, иначе выведен из боя»


class Melee(ThwAction):
    key = "melee"
    label = "Hand-to-hand fight"
    spec_ref = "§3.16 (L1080–1159), §5 A22, A23"
    description = (
        "Each fighter rolls 2d6 (+1d6 per attribute, −1d6 lying) against its Rep, modified by −1 for two opponents, "
        "−2 for three, minus the difference of Impacts to the weaker weapon, −1 in the first round after a flank "
        "charge passed by 2 (never below 1). Equal passes: the melee continues. One more: the winner rolls 1d6 "
        "against his weapon's Impact on the loser's armour (1 dead, at most Impact out of the fight, above knocked "
        "down). Two more: 1d6, 1 dead, else out of the fight."
    )
    # The fight as a whole (what the board's melee form shows), beside each pair's own odds under "pairs".
    result_labels = {
        "p_opponent_casualty": N_("an opponent out of the fight or dead"),
        "p_fighter_casualty": N_("the fighter out of the fight or dead"),
        "opponents_worst": N_("The worst damage to the opponents"),
        "fighter_status": N_("What happens to the fighter"),
        "opponents_casualties": N_("Opponents out of the fight or dead"),
    }
    value_labels = {"opponents_worst": DAMAGE_WORDS, "fighter_status": DAMAGE_WORDS}
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["fighter", "opponents"],
        "properties": {
            "fighter": FIGHTER,
            "opponents": {"type": "array", "minItems": 1, "maxItems": 3, "items": FIGHTER},
        },
    }

    def check(self, inputs, settings):
        fighter = _clean_fighter(inputs["fighter"], "fighter", settings)
        opponents = [_clean_fighter(o, f"opponents.{i}", settings) for i, o in enumerate(inputs["opponents"])]
        for field, f in (("fighter", fighter), *((f"opponents.{i}", o) for i, o in enumerate(opponents))):
            if f.get("condition") == core.HUNKER_DOWN:
                raise err(f"{field}.condition", tr("A hunkered-down figure takes no action (L995–997)."))
        n = len(opponents)
        pairs = []
        for i, o in enumerate(opponents):
            pair = {
                "fighter_rep": melee_rep(fighter, o, n, settings),
                "opponent_rep": melee_rep(o, fighter, 1, settings),
                "fighter_impact": impact_against(fighter, o, settings, for_difference=False),
                "opponent_impact": impact_against(o, fighter, settings, for_difference=False),
            }
            for field, key in (("fighter.weapon", "fighter_impact"), (f"opponents.{i}.weapon", "opponent_impact")):
                if pair[key] == equipment.SPECIAL:  # the melee table has no «Спец.» (§2.7)
                    raise err(
                        field, tr("Special is a ranged armour rule: a melee Impact is a number or NE (no effect).")
                    )
            pairs.append(pair)
        return {"fighter": fighter, "opponents": opponents, "pairs": pairs}

    def _damage(self, dice, cell, winner: str, loser: str, settings, steps) -> str:
        if cell == equipment.NO_EFFECT:
            if not settings.get("melee_hand_of_fate"):
                steps.append(tr("{winner}'s weapon has NE (no effect) against {loser}'s armour: no damage.").format(
                    winner=winner, loser=loser))  # fmt: skip
                return core.NO_DAMAGE
            a = dice.roll(6, f"{N_('first Hand of Fate die')}: {loser}")
            b = dice.roll(6, f"{N_('second Hand of Fate die')}: {loser}")
            if not (a == 1 and b == 1):
                steps.append(tr("Hand of Fate {a} and {b}: no damage to {loser}.").format(a=a, b=b, loser=loser))
                return core.NO_DAMAGE
            cell = 1
        roll = dice.roll(6, f"{N_('melee damage die')}: {loser}")
        result = core.damage_result(roll, cell)
        steps.append(tr("Melee damage {die} against Impact {impact}: {name}, {result}.").format(
            die=roll, impact=cell, name=loser, result=words.outcome(result)))  # fmt: skip
        return result

    def resolve_clean(self, clean, settings, dice):
        fighter, opponents = clean["fighter"], clean["opponents"]
        fname = fighter.get("name") or tr("the fighter")
        names = [o.get("name") or tr("opponent {n}").format(n=i + 1) for i, o in enumerate(opponents)]
        f_dice = dice.roll_many(fighter["dice"], 6, f"{N_('melee die')}: {fname}")
        o_dice = [dice.roll_many(o["dice"], 6, f"{N_('melee die')}: {names[i]}") for i, o in enumerate(opponents)]
        steps = [tr("{name} rolls {dice}.").format(name=fname, dice=dice_text(f_dice))]
        fighter_status, pairs = core.NO_DAMAGE, []
        effects = []
        for i, (o, od, pr) in enumerate(zip(opponents, o_dice, clean["pairs"], strict=True)):
            oname = names[i]
            pa, pb = count_passes(f_dice, pr["fighter_rep"], settings), count_passes(od, pr["opponent_rep"], settings)
            diff = max(-2, min(2, pa - pb))
            steps.append(tr("Against {opponent}: {fighter} at Rep {fighter_rep} passes {pa}; {opponent} rolls {dice} "
                            "at Rep {opponent_rep}, passes {pb}.").format(
                opponent=oname, fighter=fname, fighter_rep=pr["fighter_rep"], pa=pa, dice=dice_text(od),
                opponent_rep=pr["opponent_rep"], pb=pb))  # fmt: skip
            opp_status = core.NO_DAMAGE
            if diff == 0:
                steps.append(tr("Equal: everyone misses, the melee continues."))
            elif abs(diff) == 1:
                if diff > 0:
                    opp_status = self._damage(dice, pr["fighter_impact"], fname, oname, settings, steps)
                else:
                    hit = self._damage(dice, pr["opponent_impact"], oname, fname, settings, steps)
                    fighter_status = core.worst(fighter_status, hit)
            else:
                loser = oname if diff > 0 else fname
                roll = dice.roll(6, f"{N_('won by 2 die')}: {loser}")
                res = core.DEAD if roll == 1 else core.OUT_OF_FIGHT
                steps.append(tr("Won by 2: 1d6 = {die}: {name}, {result}.").format(die=roll, name=loser,
                                                                                 result=words.outcome(res)))  # fmt: skip
                if diff > 0:
                    opp_status = res
                else:
                    fighter_status = core.worst(fighter_status, res)
            row = RESULT_ROWS[diff + 2]
            pairs.append({"opponent": oname, "fighter_passes": pa, "opponent_passes": pb, "result": row,
                          "opponent_dice": od, "opponent_status": opp_status, **pr})  # fmt: skip
            role = f"opponents.{i}"
            if opp_status != core.NO_DAMAGE:
                effects.append({"kind": "condition", "role": role, "value": opp_status, **echo(o)})
            else:
                effects.append({"kind": "in_melee", "role": role, "value": True, **echo(o)})
        if fighter_status != core.NO_DAMAGE:
            effects.append({"kind": "condition", "role": "fighter", "value": fighter_status, **echo(fighter)})
        effects.append({"kind": "first_round_flank_penalty", "role": "fighter", "value": False, **echo(fighter)})
        continues = "when one of them activates" if settings.get("melee_continues") == "on_activation" else "next turn"
        text = [words.say(N_("{name}: {result}"), name=p["opponent"], result=words.code(p["result"])) for p in pairs]
        if fighter_status != core.NO_DAMAGE:
            text.append(words.say(N_("{name}: {result}"), name=fname, result=words.code(fighter_status)))
        result = {"fighter_dice": f_dice, "fighter_status": fighter_status, "pairs": pairs, "continues": continues,
                  "text": text,
                  "opponents_casualties": sum(1 for p in pairs if p["opponent_status"] in core.CASUALTIES)}  # fmt: skip
        return self.outcome(words.render(text), result, effects, steps)

    def odds_clean(self, clean, settings):
        fighter, opponents = clean["fighter"], clean["opponents"]
        k = fighter["dice"]
        opp_passes = []
        for o, pr in zip(opponents, clean["pairs"], strict=True):
            dist: dict[int, Fraction] = {}
            for roll in rolls(6, o["dice"]):
                n = count_passes(roll, pr["opponent_rep"], settings)
                dist[n] = dist.get(n, Fraction(0)) + Fraction(1, 6 ** o["dice"])
            opp_passes.append(dist)
        rows = [dict.fromkeys(RESULT_ROWS, Fraction(0)) for _ in opponents]
        opp_status = [dict.fromkeys(core.DAMAGE_ORDER, Fraction(0)) for _ in opponents]
        fighter_status = dict.fromkeys(core.DAMAGE_ORDER, Fraction(0))
        casualties: dict[int, Fraction] = {}  # how many opponents end out of the fight or dead
        opponents_worst = dict.fromkeys(core.DAMAGE_ORDER, Fraction(0))
        # Only the fighter's passes against each opponent's Rep matter: the 6**k rolls fall into a few such tuples,
        # and the exact arithmetic below runs once per tuple, weighted by how many rolls give it.
        by_passes = Counter(
            tuple(count_passes(roll, pr["fighter_rep"], settings) for pr in clean["pairs"]) for roll in rolls(6, k)
        )
        for passes, count in by_passes.items():
            each = Fraction(count, 6**k)
            mine = {core.NO_DAMAGE: Fraction(1)}  # the fighter's status over all pairs, given his dice
            theirs = []  # each opponent's status given the fighter's dice: their own dice are independent
            for i, pr in enumerate(clean["pairs"]):
                pa = passes[i]
                hurt = dict.fromkeys(core.DAMAGE_ORDER, Fraction(0))  # what opponent i does to the fighter
                given = dict.fromkeys(core.DAMAGE_ORDER, Fraction(0))
                for pb, p in opp_passes[i].items():
                    diff = max(-2, min(2, pa - pb))
                    rows[i][RESULT_ROWS[diff + 2]] += each * p
                    if diff == 1:
                        for s, q in melee_damage_distribution(pr["fighter_impact"], settings).items():
                            given[s] += p * q
                    elif diff == 2:
                        for s, q in BY_TWO.items():
                            given[s] += p * q
                    else:
                        given[core.NO_DAMAGE] += p
                    if diff == -1:
                        for s, q in melee_damage_distribution(pr["opponent_impact"], settings).items():
                            hurt[s] += p * q
                    elif diff == -2:
                        for s, q in BY_TWO.items():
                            hurt[s] += p * q
                    else:
                        hurt[core.NO_DAMAGE] += p
                for s, q in given.items():
                    opp_status[i][s] += each * q
                theirs.append(given)
                combined: dict = {}
                for s1, p1 in mine.items():
                    for s2, p2 in hurt.items():
                        w = core.worst(s1, s2)
                        combined[w] = combined.get(w, Fraction(0)) + p1 * p2
                mine = combined
            for s, p in mine.items():
                fighter_status[s] += each * p
            count = {0: Fraction(1)}
            for given in theirs:
                count = add_bernoulli(count, sum((given[c] for c in core.CASUALTIES), Fraction(0)))
            for n, p in count.items():
                casualties[n] = casualties.get(n, Fraction(0)) + each * p
            for s, p in worst_of(theirs).items():
                opponents_worst[s] += each * p
        return {
            "pairs": [
                {
                    "opponent": o.get("name") or tr("opponent {n}").format(n=i + 1),
                    "fighter_rep": pr["fighter_rep"],
                    "opponent_rep": pr["opponent_rep"],
                    "result": {r: prob(v) for r, v in rows[i].items()},
                    "opponent_status": {s: prob(v) for s, v in opp_status[i].items()},
                }
                for i, (o, pr) in enumerate(zip(opponents, clean["pairs"], strict=True))
            ],
            "fighter_status": {s: prob(v) for s, v in fighter_status.items()},
            "p_opponent_casualty": prob(1 - casualties.get(0, Fraction(0))),
            "p_fighter_casualty": prob(sum((fighter_status[c] for c in core.CASUALTIES), Fraction(0))),
            "opponents_worst": {s: prob(v) for s, v in opponents_worst.items()},
            "opponents_casualties": distribution(casualties),
        }
