"""Ranged combat (spec §3.5–§3.8, §3.13): the Hit table with the lucky shot, damage against armour with «Спец.»
and the Hand of Fate, running out of ammo, two-gun firing, and Outgun ratings.

Dice order of a shot, for typed-in dice: every to-hit die first (they are sorted highest first and given to the
targets in the declared order, L678–681); then target by target: its lucky-shot re-rolls (a natural 6 that missed),
then for each of its hits the absorb/reflect die («Спец.»), the two Hand of Fate dice («НЭ») and the damage die.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb, factorial, lcm

from rules.contract import distribution, prob
from rules.dice import charge
from rules.i18n import N_, ngettext
from rules.i18n import _ as tr
from rules.systems.thw5150 import core, equipment, words
from rules.systems.thw5150.actions.common import DAMAGE_WORDS, REF, ThwAction, dice_text, echo, err

BOOL = {"type": "boolean"}
SHOOTER = {
    "type": "object",
    "additionalProperties": False,
    "required": ["rep", "weapon"],
    "properties": {
        "name": {"type": "string", "maxLength": 80},
        "ref": REF,
        "rep": {"type": "integer", "minimum": 1, "maximum": 7},
        "rep_modifier": {"type": "integer", "minimum": -2, "maximum": 0, "description": "−1 from a pass-1 reaction"},
        "weapon": equipment.WEAPON_REF,
        "second_weapon": {**equipment.WEAPON_REF, "description": "Two-gun firing: the other pistol or SMG"},
        "fast_moved": BOOL,
        "carrying": {
            "type": "boolean",
            "description": "Carrying a comrade or a wounded figure: targets count as in cover",
        },
        "loaded": {"type": "boolean", "description": "False after two 1s: it must reload first"},
    },
}
TARGET_PROPS = {
    "name": {"type": "string", "maxLength": 80},
    "ref": REF,
    "armour": {"enum": equipment.ARMOUR_CHOICES},
    "in_cover": BOOL,
    "concealed": BOOL,
    "prone": BOOL,
    "fast_moved": BOOL,
    "condition": {"enum": list(core.CONDITIONS)},
}
TARGET = {
    "type": "object",
    "additionalProperties": False,
    "required": ["dice"],
    "properties": {"dice": {"type": "integer", "minimum": 1, "maximum": 6}, **TARGET_PROPS},
}
STANDING = (core.FINE, core.DUCK_BACK, core.HUNKER_DOWN)  # may take Received Fire (a KD figure lies, §5 A23)


def target_situation(t: dict, settings: dict, *, shooter_fast=False, two_gun=False, carrying=False) -> dict:
    armour = equipment.armour_slug(t.get("armour", "none"))
    lying = t.get("prone") or (t.get("condition") == core.KNOCKED_DOWN and settings.get("knocked_down_is_prone"))
    return {
        # ИБ «всегда считается как бы находящейся в укрытии» (L228); a carrier's targets count as in cover (L519)
        "cover": bool(t.get("in_cover")) or armour == "distortion" or carrying,
        "concealed": bool(t.get("concealed")),
        "prone": bool(lying),
        "fast": bool(t.get("fast_moved")) or shooter_fast,
        "two_gun": two_gun,
    }


def hit_chance(die: int, total: int, situation: dict, index: int, lucky: bool, lucky_target: int) -> Fraction:
    """P(hit) of one die already rolled: the table, else a natural 6's lucky re-roll (L793–798)."""
    if core.hit(total, index=index, **situation)[0]:
        return Fraction(1)
    if lucky and die == 6:
        return Fraction(max(0, min(lucky_target, 6)), 6)
    return Fraction(0)


def shot_summary(result: dict) -> str:
    """A volley's summary in the viewer's language, from the stored result (names, hits, damage codes)."""
    parts = [ngettext("{name}: {n} hit, {result}", "{name}: {n} hits, {result}", r["hits"]).format(
        name=r["name"], n=r["hits"], result=words.outcome(r["result"])) for r in result["targets"]]  # fmt: skip
    if result.get("out_of_ammo"):
        parts.append(tr("out of ammo"))
    return "; ".join(parts)


# Damage of one hit ----------------------------------------------------------------------------------------
def roll_hit_damage(dice, cell, fallback, steps: list[str], who: str) -> str:
    """One hit's damage (§3.6): «Спец.» 1–3 absorbed else the ТБ value; «НЭ» needs double 1 (Impact 1)."""
    if cell == equipment.SPECIAL:
        r = dice.roll(6, f"{N_('absorb/reflect die')}: {who}")
        if r <= 3:
            steps.append(tr("{who}: the armour absorbs or reflects the hit ({die}).").format(who=who, die=r))
            return core.NO_DAMAGE
        steps.append(
            tr("{who}: absorb/reflect die {die}: the hit counts against heavy armour (Impact {impact}).").format(
                who=who, die=r, impact=fallback
            )
        )
        cell = fallback
    if cell == equipment.NO_EFFECT:
        a = dice.roll(6, f"{N_('first Hand of Fate die')}: {who}")
        b = dice.roll(6, f"{N_('second Hand of Fate die')}: {who}")
        if not (a == 1 and b == 1):
            steps.append(tr("{who}: NE, Hand of Fate {a} and {b}: no damage.").format(who=who, a=a, b=b))
            return core.NO_DAMAGE
        steps.append(tr("{who}: NE, Hand of Fate 1 and 1: Impact 1 for this hit.").format(who=who))
        cell = 1
    roll = dice.roll(6, f"{N_('damage die')}: {who}")
    result = core.damage_result(roll, cell)
    steps.append(
        tr("{who}: damage die {die} against Impact {impact}: {result}.").format(
            who=who, die=roll, impact=cell, result=words.outcome(result)
        )
    )
    return result


def hit_damage_distribution(cell, fallback) -> dict[str, Fraction]:
    """Exact: what one hit does, {no_damage, knocked_down, out_of_fight, dead}."""
    out = dict.fromkeys(core.DAMAGE_ORDER, Fraction(0))
    weight = Fraction(1)
    if cell == equipment.SPECIAL:
        out[core.NO_DAMAGE] += Fraction(1, 2)
        weight, cell = Fraction(1, 2), fallback
    if cell == equipment.NO_EFFECT:
        out[core.NO_DAMAGE] += weight * Fraction(35, 36)
        weight, cell = weight / 36, 1
    for k, p in core.damage_distribution(cell).items():
        out[k] += weight * p
    return out


def rof_of(weapon: dict, second: dict | None, settings: dict) -> int:
    if second is None:
        return weapon["rof"]
    if settings.get("two_gun_rof") == "best_plus_one":
        return max(weapon["rof"], second["rof"]) + 1
    return weapon["rof"] + second["rof"]  # §5 A26: «большую скорострельность» = both weapons


class Shooting(ThwAction):
    key = "shooting"
    label = "Shooting"
    spec_ref = "§3.5–§3.8 (L660–813), Hit table L688–706, damage L726–747"
    description = (
        "Roll up to RoF dice, sort them highest first and give them to the targets in the declared order. Each "
        "die + Rep on the Hit table: 7 or less misses; 8 misses a target in cover, concealed or prone, when the "
        "target or shooter moved fast, when firing two guns, or at a 2nd+ target; 9 misses a target in cover or a "
        "3rd+ target; 10+ hits. A natural 6 that misses may be re-rolled at Rep 3+: at most the Rep hits. Each hit "
        "rolls damage against the target's armour. Two or more 1s: out of ammo after this volley. A target that "
        "took no damage takes Received Fire."
    )
    # The volley as a whole (what the board's shot form shows): hits of every target, the worst damage done to a
    # target still up, a casualty among them; each target's own odds stay under "targets".
    result_labels = {
        "hits": N_("Hits of the volley"),
        "worst_result": N_("The worst damage of the volley"),
        "p_casualty": N_("a target out of the fight or dead"),
        "p_out_of_ammo": N_("out of ammo after this volley"),
    }
    value_labels = {"worst_result": DAMAGE_WORDS}
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["shooter", "targets"],
        "properties": {"shooter": SHOOTER, "targets": {"type": "array", "minItems": 1, "maxItems": 6, "items": TARGET}},
    }

    def check(self, inputs, settings):
        s = dict(inputs["shooter"])
        w = equipment.weapon(s["weapon"], "shooter.weapon")
        if w.get("rof") is None:
            raise err("shooter.weapon", tr("Grenades are thrown, not fired: use the grenade action."))
        second = None
        if "second_weapon" in s:
            second = equipment.weapon(s["second_weapon"], "shooter.second_weapon")
            for field, x in (("shooter.weapon", w), ("shooter.second_weapon", second)):
                if x.get("slug") not in equipment.TWO_GUN_WEAPONS:
                    raise err(field, tr("Two-gun firing is two pistols or two SMGs (L780–781)."))
        if s.get("loaded") is False:
            raise err("shooter.loaded", tr("Out of ammo: this figure must reload (a whole activation) first (L777)."))
        rof = rof_of(w, second, settings)
        dice = sum(t["dice"] for t in inputs["targets"])
        if dice > rof:
            raise err("targets", tr("{dice} dice declared but the rate of fire is {rof}.").format(dice=dice, rof=rof),
                      dice=rof)  # fmt: skip
        targets = []
        for i, t in enumerate(inputs["targets"]):
            armour = equipment.armour_slug(t.get("armour", "none"), f"targets.{i}.armour")
            cell = equipment.ranged_impact(w, armour, settings)
            targets.append({**t, "armour": armour, "cell": cell, "fallback": equipment.special_fallback(w, settings)})
        base = s["rep"]
        eff = base + s.get("rep_modifier", 0)
        return {
            "shooter": s,
            "weapon": w,
            "second": second,
            "targets": targets,
            "rep": eff,
            "lucky": core.lucky_shot_allowed(base, eff, settings),
            "lucky_target": core.lucky_reroll_target(base, eff, settings),
            "n": dice,
            "outgun": max(equipment.outgun(w), equipment.outgun(second)),
        }

    def _situation(self, clean, t, settings):
        s = clean["shooter"]
        return target_situation(
            t, settings, shooter_fast=bool(s.get("fast_moved")), two_gun=clean["second"] is not None,
            carrying=bool(s.get("carrying")),
        )  # fmt: skip

    def resolve_clean(self, clean, settings, dice):
        rolls = sorted(dice.roll_many(clean["n"], 6, N_("to-hit die")), reverse=True)
        ones = rolls.count(1)
        out_of_ammo = ones >= 2
        steps = [
            tr("To-hit dice, highest first: {dice} (+ Rep {rep}).").format(dice=dice_text(rolls), rep=clean["rep"])
        ]
        every_hit = settings.get("damage_every_hit", True)
        effects, results, at = [], [], 0
        for idx, t in enumerate(clean["targets"], start=1):
            who = t.get("name") or tr("target {n}").format(n=idx)
            sit = self._situation(clean, t, settings)
            status = core.DEAD if t.get("condition") == core.DEAD else core.NO_DAMAGE
            dice_rows = []
            for d in rolls[at : at + t["dice"]]:
                row = {"die": d, "total": d + clean["rep"]}
                if out_of_ammo and d == 1 and settings.get("out_of_ammo_volley") == "stops":
                    row.update(hit=False, reason=tr("the weapon jammed (A40)"))
                    dice_rows.append(row)
                    continue
                ok, reason = core.hit(row["total"], index=idx, **sit)
                reason = tr(reason)
                if not ok and d == 6 and clean["lucky"]:
                    again = dice.roll(6, f"{N_('lucky shot re-roll')}: {who}")
                    ok = again <= clean["lucky_target"]
                    reason = tr("natural 6, lucky shot re-roll {die} against Rep {rep}").format(
                        die=again, rep=clean["lucky_target"]
                    )
                row.update(hit=ok, reason=reason)
                dice_rows.append(row)
            at += t["dice"]
            hits = sum(1 for r in dice_rows if r["hit"])
            read = ", ".join(f"{r['total']} ({r['reason']})" for r in dice_rows)
            steps.append(
                ngettext("{who}: {read}; {n} hit.", "{who}: {read}; {n} hits.", hits).format(who=who, read=read, n=hits)
            )
            for row in dice_rows:
                if row["hit"] and status != core.DEAD and (every_hit or status == core.NO_DAMAGE):
                    row["damage"] = roll_hit_damage(dice, t["cell"], t["fallback"], steps, who)
                    status = core.worst(status, row["damage"])
            role = f"targets.{idx - 1}"
            took = status not in (core.NO_DAMAGE,) and t.get("condition") != core.DEAD
            if took:
                effects.append({"kind": "condition", "role": role, "value": status, **echo(t)})
            elif t.get("condition", core.FINE) in STANDING:
                effects.append({"kind": "received_fire", "role": role, "shooter_outgun": clean["outgun"], **echo(t)})
            results.append({"name": who, "dice": dice_rows, "hits": hits, "result": status, "received_fire": not took
                            and t.get("condition", core.FINE) in STANDING})  # fmt: skip
        if out_of_ammo:
            steps.append(tr("{n} ones: out of ammo after this volley (L774–777).").format(n=ones))
            effects.append({"kind": "loaded", "role": "shooter", "value": False, **echo(clean["shooter"])})
        effects.append({"kind": "fired", "role": "shooter", **echo(clean["shooter"])})
        result = {"dice": rolls, "targets": results, "out_of_ammo": out_of_ammo, "rep": clean["rep"],
                  "hits": sum(r["hits"] for r in results)}  # fmt: skip
        return self.outcome(shot_summary(result), result, effects, steps)

    def odds_clean(self, clean, settings):
        """Exact, over every unordered roll of the volley's dice (sorted highest first and dealt to the targets in
        order, L678–681). Given the roll, each die hits or not on its own and each hit's damage is its own: each
        target's damage and hits are counted in whole numbers over a common denominator (a die's hit chance in
        sixths, a hit's damage in 1/432 at most), so the Fractions come only at the end: a two-gun volley of 6 dice costs
        milliseconds, not a fifth of a second."""
        n = clean["n"]
        every_hit = settings.get("damage_every_hit", True)
        stops = settings.get("out_of_ammo_volley") == "stops"
        ranks = len(core.DAMAGE_ORDER)
        plans = []  # per target: its dice, whether it is dead already, each face's hit chance ×6, a hit's damage ×D
        for idx, t in enumerate(clean["targets"], start=1):
            sit = self._situation(clean, t, settings)
            per_hit = hit_damage_distribution(t["cell"], t["fallback"])
            chances = [Fraction(0)] + [hit_chance(d, d + clean["rep"], sit, idx, clean["lucky"],
                                                  clean["lucky_target"]) for d in range(1, 7)]  # fmt: skip
            plans.append([t["dice"], t.get("condition") == core.DEAD, chances, per_hit])
        sixths = lcm(*(c.denominator for plan in plans for c in plan[2]))  # a die's hit chance: 6 (lucky shot)
        denom = lcm(*(p.denominator for plan in plans for p in plan[3].values()))  # a hit's damage: up to 432
        for plan in plans:
            plan[2] = [int(c * sixths) for c in plan[2]]
            plan[3] = {r: int(p * denom) for r, p in plan[3].items()}
        scale = sixths * denom  # one die's step

        memo: dict = {}

        def target(i: int, dice: tuple, skip_ones: bool):
            """(status numerators by rank over scale^dice, hits numerators over sixths^dice) of target i."""
            key = (i, dice, skip_ones)
            if key in memo:
                return memo[key]
            _count, dead, chance, per_hit = plans[i]
            status = [0] * ranks
            status[core.DAMAGE_RANK[core.DEAD] if dead else 0] = 1
            hits = [1]
            for d in dice:
                a = 0 if (skip_ones and d == 1) else chance[d]
                nxt = [0] * ranks
                for rank, w in enumerate(status):
                    if not w:
                        continue
                    nxt[rank] += w * (sixths - a) * denom
                    if dead or (rank and not every_hit):  # the spec's guard: a figure down takes no more rolls
                        nxt[rank] += w * a * denom
                        continue
                    for result, q in per_hit.items():
                        nxt[max(rank, core.DAMAGE_RANK[result])] += w * a * q
                status = nxt
                hits = [h * (sixths - a) + (hits[k - 1] * a if k else 0) for k, h in enumerate(hits)] + [hits[-1] * a]
            memo[key] = status, hits
            return memo[key]

        per_status = [[0] * ranks for _ in plans]
        per_hits = [[0] * (plan[0] + 1) for plan in plans]
        total_hits = [0] * (n + 1)
        worst = [0] * ranks
        p_ammo = 0
        charge(comb(n + 5, n))  # every unordered roll of n d6 (rules/dice.py: the request's limit)
        for multiset in combinations_with_replacement(range(6, 0, -1), n):
            ways = _arrangements(multiset)
            empty = multiset.count(1) >= 2
            p_ammo += ways if empty else 0
            at = 0
            volley = [1]
            below = [1] * ranks  # P(worst ≤ rank) of the targets up, as numerators
            for i, (count, dead, _chance, _per_hit) in enumerate(plans):
                status, hits = target(i, multiset[at : at + count], empty and stops)
                at += count
                for rank, w in enumerate(status):
                    per_status[i][rank] += ways * w
                for k, h in enumerate(hits):
                    per_hits[i][k] += ways * h
                volley = _convolve_counts(volley, hits)
                if not dead:
                    cumulative = 0
                    for rank in range(ranks):
                        cumulative += status[rank]
                        below[rank] *= cumulative
            for k, h in enumerate(volley):
                total_hits[k] += ways * h
            for rank in range(ranks):
                worst[rank] += ways * (below[rank] - (below[rank - 1] if rank else 0))
        rolls = 6**n
        up_dice = sum(plan[0] for plan in plans if not plan[1])
        worst_of_volley = {r: Fraction(worst[k], rolls * scale**up_dice) for k, r in enumerate(core.DAMAGE_ORDER)}
        targets = []
        for t, plan, st, hits in zip(clean["targets"], plans, per_status, per_hits, strict=True):
            over = rolls * scale ** plan[0]
            targets.append(
                {
                    "name": t.get("name", ""),
                    "impact": t["cell"],
                    "hits": distribution({k: Fraction(h, rolls * sixths ** plan[0]) for k, h in enumerate(hits) if h}),
                    **{f"p_{r}": prob(Fraction(st[core.DAMAGE_RANK[r]], over))
                       for r in (core.DEAD, core.OUT_OF_FIGHT, core.KNOCKED_DOWN, core.NO_DAMAGE)},
                }
            )  # fmt: skip
        return {
            "dice": n,
            "rep": clean["rep"],
            "targets": targets,
            "p_casualty": prob(sum((worst_of_volley[r] for r in core.CASUALTIES), Fraction(0))),
            "worst_result": {r: prob(p) for r, p in worst_of_volley.items()},
            "hits": distribution({k: Fraction(h, rolls * sixths**n) for k, h in enumerate(total_hits) if h}),
            "p_out_of_ammo": prob(Fraction(p_ammo, rolls)),
        }


def _convolve_counts(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for x, pa in enumerate(a):
        if pa:
            for y, pb in enumerate(b):
                out[x + y] += pa * pb
    return out


def _arrangements(multiset: tuple[int, ...]) -> int:
    """In how many orders the dice of an unordered roll can fall."""
    ways = factorial(len(multiset))
    for face in set(multiset):
        ways //= factorial(multiset.count(face))
    return ways


def worst_of(statuses: list[dict[str, Fraction]]) -> dict[str, Fraction]:
    """The worst of independent damage results ({result: P} each), as DAMAGE_ORDER ranks them: P(worst ≤ r) is
    the product of each P(≤ r). No target: no damage."""
    below, out = Fraction(0), {}
    for rank, result in enumerate(core.DAMAGE_ORDER):
        at_most = Fraction(1)
        for st in statuses:
            at_most *= sum((st.get(r, Fraction(0)) for r in core.DAMAGE_ORDER[: rank + 1]), Fraction(0))
        out[result] = at_most - below
        below = at_most
    return out


def add_bernoulli(dist: dict[int, Fraction], p: Fraction) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for h, q in dist.items():
        for k, w in ((h, q * (1 - p)), (h + 1, q * p)):
            if w:
                out[k] = out.get(k, Fraction(0)) + w
    return out


class RangedDamage(ThwAction):
    key = "ranged_damage"
    label = "Ranged damage of one hit"
    spec_ref = "§3.6 (L726–747), §3.7 Hand of Fate (L800–813), §2.5 ПБ/ОБ (L218–227)"
    description = (
        "1d6 against the weapon's Impact for the target's armour: at most the Impact kills on a 1 and otherwise puts "
        "the figure out of the fight; above it knocks the figure down. Special (absorbing armour against bullets, "
        "reflective against beams): 1–3 absorbed, 4–6 read the heavy armour value. NE (no effect): two dice, both 1 "
        "→ Impact 1 for this hit, else nothing. Give either the weapon and the armour, or the Impact itself."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "weapon": equipment.WEAPON_REF,
            "armour": {"enum": equipment.ARMOUR_CHOICES},
            "impact": equipment.IMPACT_VALUE,
            "heavy_impact": {"type": "integer", "minimum": 0, "maximum": 6, "description": "ТБ value for «Спец.»"},
            "target": {"type": "object", "additionalProperties": False, "properties": {"name": TARGET_PROPS["name"],
                                                                                        "ref": REF}},
        },
    }  # fmt: skip

    def check(self, inputs, settings):
        if "impact" in inputs:
            if "weapon" in inputs:
                raise err("impact", tr("Give the weapon and armour, or the Impact, not both."))
            cell, fallback = inputs["impact"], inputs.get("heavy_impact")
            if cell == equipment.SPECIAL and fallback is None:
                raise err("heavy_impact", tr("Special needs the weapon's heavy-armour value for a 4–6."))
        else:
            if "weapon" not in inputs:
                raise err("weapon", tr("Give the weapon (and the target's armour) or the Impact."))
            w = equipment.weapon(inputs["weapon"])
            armour = equipment.armour_slug(inputs.get("armour", "none"))
            cell, fallback = equipment.ranged_impact(w, armour, settings), equipment.special_fallback(w, settings)
        return {**inputs, "cell": cell, "fallback": fallback}

    def resolve_clean(self, clean, settings, dice):
        steps: list[str] = []
        target = clean.get("target", {})
        who = target.get("name") or tr("the target")
        result = roll_hit_damage(dice, clean["cell"], clean["fallback"], steps, who)
        effects = [{"kind": "condition", "role": "target", "value": result, **echo(target)}]
        if result == core.NO_DAMAGE:
            effects = [{"kind": "received_fire", "role": "target", **echo(target)}]
        text = words.say(N_("{name}: {result}."), name=who, result=words.code(result))
        return self.outcome(words.render(text), {"impact": clean["cell"], "result": result, "text": text}, effects,
                            steps)  # fmt: skip

    def odds_clean(self, clean, settings):
        d = hit_damage_distribution(clean["cell"], clean["fallback"])
        return {"impact": clean["cell"], **{f"p_{k}": prob(v) for k, v in d.items()}}


class Outgun(ThwAction):
    key = "outgun"
    label = "Outgun Rating"
    spec_ref = "§2.8, §3.13 (L962–972), §5 A18"
    description = (
        "Outgun Rating 5: flamethrowers, plasma and blast weapons; 4 machine guns; 3 RoF 3; 2 RoF 2 or less; 1 "
        "melee. A figure is outgunned when the weapon fired at it has a higher rating than its own (several shooters "
        "together: the highest). No dice."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["fired_with"],
        "properties": {
            "fired_with": {"type": "array", "minItems": 1, "maxItems": 10, "items": equipment.WEAPON_REF},
            "own_weapons": {
                "type": "array",
                "maxItems": 4,
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["weapon"],
                    "properties": {"weapon": equipment.WEAPON_REF, "loaded": BOOL},
                },
            },
        },
    }

    def check(self, inputs, settings):
        attack = max(
            equipment.outgun(equipment.weapon(w, f"fired_with.{i}")) for i, w in enumerate(inputs["fired_with"])
        )
        own = 1
        for i, w in enumerate(inputs.get("own_weapons", [])):
            if w.get("loaded", True) or settings.get("own_outgun_weapon") == "best":
                own = max(own, equipment.outgun(equipment.weapon(w["weapon"], f"own_weapons.{i}.weapon")))
        return {"attack": attack, "own": own, "outgunned": core.outgunned(attack, own)}

    def resolve_clean(self, clean, settings, dice):
        text = words.say(N_("Outgunned (Outgun Rating {attack} against {own}).") if clean["outgunned"] else
                         N_("Not outgunned (Outgun Rating {attack} against {own})."), attack=clean["attack"], own=clean["own"])  # fmt: skip
        summary = words.render(text)
        return self.outcome(summary, {**clean, "text": text}, [], [summary])

    def odds_clean(self, clean, settings):
        return {**clean, "p_outgunned": prob(1 if clean["outgunned"] else 0)}
