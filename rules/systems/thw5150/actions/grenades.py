"""Grenades (spec §3.10, L815–895): a throw on the Hit table whose single total is read against every figure
under the template, «ГДЕ ГРАНАТА?» after a hand-thrown miss, and «БОМБЫ УШЛИ» for dropping or rolling one.

Dice order: the hit die; then, figure by figure under the template, the damage dice of each hit (absorb die for
«Спец.», Hand of Fate for «НЭ», damage die). On a miss: the «ГДЕ ГРАНАТА?» dice; on «Берегись!» a new hit die
against the intermediate group and its damage dice; on «Взрыв под ногами!» one die per figure around the thrower
against its Rep, and the damage dice of those that failed.
"""

from __future__ import annotations

from fractions import Fraction

from rules.contract import prob
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.thw5150 import core, equipment, words
from rules.systems.thw5150.actions.common import (
    DAMAGE_WORDS,
    LEVEL_WORDS,
    REF,
    TestSpec,
    ThwAction,
    dice_text,
    echo,
    err,
    read_result,
    reader_odds,
)
from rules.systems.thw5150.actions.shooting import (
    hit_damage_distribution,
    roll_hit_damage,
    target_situation,
    worst_of,
)

BOOL = {"type": "boolean"}
FIGURE = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "maxLength": 80},
        "ref": REF,
        "rep": {"type": "integer", "minimum": 1, "maximum": 7},
        "armour": {"enum": equipment.ARMOUR_CHOICES},
        "in_cover": BOOL,
        "concealed": BOOL,
        "prone": BOOL,
        "fast_moved": BOOL,
        "condition": {"enum": [core.FINE, core.KNOCKED_DOWN, core.DUCK_BACK, core.HUNKER_DOWN]},
        "distance": {"type": "number", "minimum": 0, "maximum": 100, "description": "Inches from the blast centre"},
    },
}
THROWER = {
    "type": "object",
    "additionalProperties": False,
    "required": ["rep"],
    "properties": {
        **FIGURE["properties"],
        "hero": BOOL,
        "star": BOOL,
        "hero_choice": {"type": "integer", "minimum": 0, "maximum": 2},
        "grenade_ready": {"type": "boolean", "description": "Readied by a whole turn stationary (§5 A16 setting)"},
    },
}
FIGURES = {"type": "array", "maxItems": 12, "items": FIGURE}
WHERE = TestSpec(
    "where_is_the_grenade", N_("«WHERE'S THE GRENADE?»"), leader_three=False, hero_choice="never", hero_kind="table"
)
BOMBS = TestSpec("bombs_away", N_("«BOMBS AWAY»"), leader_three=False, hero_choice="never", hero_kind="table")
DUCKED = "prone_and_duck_back"  # «залегли и испугались, и избежали осколков»


def radius(settings: dict) -> float:
    r = equipment.GRENADES["blast_radius"]
    return r / 2 if settings.get("grenade_template") == "diameter_5" else r


def under_template(figures: list[dict], settings: dict) -> list[int]:
    """Indexes of the figures the template covers: all listed, unless a distance puts one outside it."""
    return [i for i, f in enumerate(figures) if f.get("distance", 0) <= radius(settings)]


def blast_hits(total: int, f: dict, index: int, settings: dict, *, point_cover: bool | None = None) -> bool:
    sit = target_situation(f, settings)
    if point_cover is not None:
        sit["cover"] = point_cover  # «БОМБЫ УШЛИ»: the impact point counts as in the open / in cover
    order = index if settings.get("grenade_later_targets") else 1  # §5 A16: every figure is a first target
    return core.hit(total, index=order, **sit)[0]


def where_spec(settings: dict) -> TestSpec:
    one = settings.get("grenade_miss_dice") == "1d6"  # §5 A15
    return TestSpec(WHERE.key, WHERE.word, False, False, "never", "table", dice=1 if one else 2)


class _GrenadeBase(ThwAction):
    def check(self, inputs, settings):
        t = inputs["thrower"]
        if settings.get("grenade_preparation") and not t.get("grenade_ready"):
            raise err(
                "thrower.grenade_ready", tr("Under this setting a grenade is readied by a whole turn stationary.")
            )
        return inputs

    def _done(self, text: dict, result: dict, effects: list, steps: list):
        """The outcome with its summary kept as msgid + parameters in the result (events store the result)."""
        result["text"] = text
        return self.outcome(words.render(text), result, effects, steps)

    def _blast(self, dice, total, figures, role, settings, steps, effects, *, point_cover=None):
        """The hit total read against every figure under the template; returns whether any was hit."""
        cells = [self._cell(f, settings) for f in figures]
        rows, any_hit = [], False
        for i in under_template(figures, settings):
            f = figures[i]
            who = f.get("name") or tr("figure #{n}").format(n=i + 1)
            if not blast_hits(total, f, i + 1, settings, point_cover=point_cover):
                rows.append({"name": who, "hit": False, "result": core.NO_DAMAGE})
                if settings.get("grenade_miss_received_fire"):
                    effects.append({"kind": "received_fire", "role": f"{role}.{i}", "shooter_outgun": 5, **echo(f)})
                continue
            any_hit = True
            result = roll_hit_damage(dice, cells[i][0], cells[i][1], steps, who)
            rows.append({"name": who, "hit": True, "result": result})
            if result == core.NO_DAMAGE:
                effects.append({"kind": "received_fire", "role": f"{role}.{i}", "shooter_outgun": 5, **echo(f)})
            else:
                effects.append({"kind": "condition", "role": f"{role}.{i}", "value": result, **echo(f)})
        return rows, any_hit

    @staticmethod
    def _cell(f, settings):
        armour = equipment.armour_slug(f.get("armour", "none"))
        g = equipment.GRENADES
        return equipment.ranged_impact(g, armour, settings), equipment.special_fallback(g, settings)

    def _at_feet(self, dice, clean, settings, steps, effects):
        """«Взрыв под ногами!»: each figure around the thrower rolls 1d6 against its Rep (L857–861)."""
        around = clean.get("around_thrower") or [clean["thrower"]]
        rows = []
        for i, f in enumerate(around):
            who = f.get("name") or tr("figure #{n}").format(n=i + 1)
            if "rep" not in f:
                raise err(f"around_thrower.{i}.rep", tr("Each figure at the thrower's feet tests against its Rep."))
            r = dice.roll(6, f"{N_('blast at feet die')}: {who}")
            if r <= f["rep"]:
                steps.append(tr("{who}: {die} against Rep {rep}: goes prone and ducks back, no fragments.").format(
                    who=who, die=r, rep=f["rep"]))  # fmt: skip
                rows.append({"name": who, "roll": r, "result": DUCKED})
                effects.append({"kind": "prone", "role": f"around_thrower.{i}", "value": True, **echo(f)})
                effects.append({"kind": "condition", "role": f"around_thrower.{i}", "value": core.DUCK_BACK, **echo(f)})
                continue
            cell, fallback = self._cell(f, settings)
            result = roll_hit_damage(dice, cell, fallback, steps, who)
            rows.append({"name": who, "roll": r, "result": result})
            if result != core.NO_DAMAGE:
                effects.append({"kind": "condition", "role": f"around_thrower.{i}", "value": result, **echo(f)})
        return rows

    # Exact odds helpers ------------------------------------------------------------------------------------
    def _blast_odds(self, figures, total, settings, acc, weight, *, point_cover=None) -> bool:
        any_hit = False
        for i in under_template(figures, settings):
            f = figures[i]
            if blast_hits(total, f, i + 1, settings, point_cover=point_cover):
                any_hit = True
                for s, p in hit_damage_distribution(*self._cell(f, settings)).items():
                    acc[i][s] = acc[i].get(s, Fraction(0)) + weight * p
            else:
                acc[i][core.NO_DAMAGE] = acc[i].get(core.NO_DAMAGE, Fraction(0)) + weight
        return any_hit

    def _blast_given(self, figures, total, settings) -> list[dict]:
        """What the hit total does to each figure under the template: independent damage given the total."""
        out = []
        for i in under_template(figures, settings):
            f = figures[i]
            if blast_hits(total, f, i + 1, settings):
                out.append(hit_damage_distribution(*self._cell(f, settings)))
        return out

    def _feet_odds(self, clean, settings, acc, weight):
        around = clean.get("around_thrower") or [clean["thrower"]]
        for i, f in enumerate(around):
            if "rep" not in f:
                raise err(f"around_thrower.{i}.rep", tr("Each figure at the thrower's feet tests against its Rep."))
            ok = Fraction(min(f["rep"], 6), 6)
            acc[i][DUCKED] = acc[i].get(DUCKED, Fraction(0)) + weight * ok
            for s, p in hit_damage_distribution(*self._cell(f, settings)).items():
                acc[i][s] = acc[i].get(s, Fraction(0)) + weight * (1 - ok) * p

    @staticmethod
    def _answer(acc: list[dict], figures: list[dict]) -> list[dict]:
        out = []
        for i, (f, a) in enumerate(zip(figures, acc, strict=True)):
            a = dict(a)
            a[core.NO_DAMAGE] = a.get(core.NO_DAMAGE, Fraction(0)) + 1 - sum(a.values())  # untouched paths
            out.append(
                {
                    "name": f.get("name") or tr("figure #{n}").format(n=i + 1),
                    **{f"p_{k}": prob(v) for k, v in sorted(a.items())},
                }
            )
        return out


class Grenade(_GrenadeBase):
    key = "grenade"
    label = "Grenade throw"
    spec_ref = "§3.10 (L815–861), §5 A15, A16"
    description = (
        "Thrown up to 6″: 1d6 + Rep on the Hit table, the same total read against every figure under the 5″ template "
        "with its own cover (Impact 2, heavy armour 1, shimmer 0). A hand-thrown miss goes to Where's the grenade? "
        "(2d6 against the thrower's Rep): pass 2 harmless; pass 1 Look out!, roll to hit again against the nearest "
        "group on the line of the throw; pass 0 Blast at your feet!, each figure around the thrower rolls 1d6 "
        "against its Rep: pass → prone and ducked back, fail → damage. A launcher's miss is harmless, but the target "
        "still counts as outgunned."
    )
    # The blast at the aim point as a whole (what the board's grenade form shows), beside each figure's odds.
    result_labels = {
        "p_casualty": N_("a figure under the template out of the fight or dead"),
        "worst_result": N_("The worst damage under the template"),
        "p_missed": N_("the throw misses"),
        "where_is_the_grenade": N_("Where's the grenade? after a miss"),
    }
    value_labels = {"worst_result": DAMAGE_WORDS, "where_is_the_grenade": LEVEL_WORDS}
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["thrower", "blast"],
        "properties": {
            "thrower": THROWER,
            "launcher": {"type": "boolean", "description": "Fired from a grenade launcher"},
            "blast": {**FIGURES, "description": "Figures under the template at the aim point"},
            "intermediate": {**FIGURES, "description": "The nearest group on the line of the throw («Берегись!»)"},
            "around_thrower": {**FIGURES, "description": "Figures under a template on the thrower (default: him)"},
        },
    }

    def resolve_clean(self, clean, settings, dice):
        t = clean["thrower"]
        steps, effects = [], []
        d = dice.roll(6, N_("grenade hit die"))
        total = d + t["rep"]
        steps.append(tr("Hit die {die} + Rep {rep} = {total}.").format(die=d, rep=t["rep"], total=total))
        blast, any_hit = self._blast(dice, total, clean["blast"], "blast", settings, steps, effects)
        result = {"hit_total": total, "blast": blast, "missed": False}
        if not clean["blast"]:
            any_hit = core.hit(total, cover=False, concealed=False, prone=False, fast=False, two_gun=False, index=1)[0]
        if any_hit:
            return self._done(words.say(N_("Hit total {total}."), total=total), result, effects, steps)
        result["missed"] = True
        if clean.get("launcher"):
            steps.append(tr("A launcher's miss explodes harmlessly; the target still counts as outgunned (L840–843)."))
            text = words.say(N_("Missed ({total}): harmless, the target is outgunned."), total=total)
            return self._done(text, result, effects, steps)
        spec = where_spec(settings)
        row = read_result(spec, t, settings, dice.roll_many(spec.dice, 6, N_("Where Is The Grenade? die")),
                          False, 0)  # fmt: skip
        result["where_is_the_grenade"] = row
        if row["became_hero"]:
            effects.append({"kind": "hero", "role": "thrower", "value": True, **echo(t)})
        steps.append(tr("{table}: {dice} against Rep {rep}: passed by {level}.").format(
            table=tr(spec.word), dice=dice_text(row["dice"]), rep=t["rep"], level=row["level"]))  # fmt: skip
        if row["level"] == 2:
            text = words.say(N_("Missed: the grenade explodes harmlessly."))
        elif row["level"] == 1:
            if clean.get("intermediate"):
                d2 = dice.roll(6, N_("Look Out! hit die"))
                again = d2 + t["rep"]
                steps.append(tr("Look out! New hit die {die}: total {total} against the intermediate group.").format(
                    die=d2, total=again))  # fmt: skip
                result["intermediate"], _ = self._blast(dice, again, clean["intermediate"], "intermediate", settings,
                                                        steps, effects)  # fmt: skip
                text = words.say(N_("Look out!: it lands in the intermediate group (total {total})."), total=again)
            else:
                text = words.say(N_("Look out!: choose the nearest group on the line of the throw and roll to hit it "
                                    "again."))  # fmt: skip
        else:
            result["at_feet"] = self._at_feet(dice, clean, settings, steps, effects)
            text = words.say(N_("Blast at your feet!: the grenade drops at the thrower's feet."))
        return self._done(text, result, effects, steps)

    def odds_clean(self, clean, settings):
        t = clean["thrower"]
        blast = [{} for _ in clean["blast"]]
        inter = [{} for _ in clean.get("intermediate") or []]
        around = [{} for _ in (clean.get("around_thrower") or [t])]
        p_miss, levels = Fraction(0), {0: Fraction(0), 1: Fraction(0), 2: Fraction(0)}
        spec = where_spec(settings)
        where, _ = reader_odds(spec, t, settings, [t])
        worst = dict.fromkeys(core.DAMAGE_ORDER, Fraction(0))
        for d in range(1, 7):
            total = d + t["rep"]
            for k, v in worst_of(self._blast_given(clean["blast"], total, settings)).items():
                worst[k] += v / 6
            hit = self._blast_odds(clean["blast"], total, settings, blast, Fraction(1, 6))
            if not clean["blast"]:
                hit = total >= 8
            if hit or clean.get("launcher"):
                p_miss += 0 if hit else Fraction(1, 6)
                continue
            p_miss += Fraction(1, 6)
            for level, p in where.items():
                levels[level] += p / 6
            if clean.get("intermediate"):
                for d2 in range(1, 7):
                    self._blast_odds(clean["intermediate"], d2 + t["rep"], settings, inter, where[1] / 36)
            self._feet_odds(clean, settings, around, where[0] / 6)
        return {
            "p_casualty": prob(sum((worst[k] for k in core.CASUALTIES), Fraction(0))),
            "worst_result": {k: prob(v) for k, v in worst.items()},
            "p_missed": prob(p_miss),
            "where_is_the_grenade": {str(k): prob(v) for k, v in levels.items()},
            "blast": self._answer(blast, clean["blast"]),
            "intermediate": self._answer(inter, clean.get("intermediate") or []),
            "around_thrower": self._answer(around, clean.get("around_thrower") or [t]),
        }


class BombsAway(_GrenadeBase):
    key = "bombs_away"
    label = "Drop or roll a grenade"
    spec_ref = "§3.10 (L863–887)"
    description = (
        "Over a wall, in through a window or round a corner without showing: 2d6 against the roller's Rep on Bombs "
        "away. Pass 2: roll on the Hit table as if the point were in the open; pass 1: as if in cover (a miss is a "
        "dud or harmless); pass 0: Blast at your feet!"
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["thrower", "blast"],
        "properties": {
            "thrower": THROWER,
            "blast": {**FIGURES, "description": "Figures under the template where it lands"},
            "around_thrower": {**FIGURES, "description": "Figures under a template on the roller (default: him)"},
        },
    }

    def resolve_clean(self, clean, settings, dice):
        t = clean["thrower"]
        steps, effects = [], []
        row = read_result(BOMBS, t, settings, dice.roll_many(2, 6, N_("Bombs Away die")),
                          False, 0)  # fmt: skip
        if row["became_hero"]:
            effects.append({"kind": "hero", "role": "thrower", "value": True, **echo(t)})
        steps.append(tr("{table}: {dice} against Rep {rep}: passed by {level}.").format(
            table=tr(BOMBS.word), dice=dice_text(row["dice"]), rep=t["rep"], level=row["level"]))  # fmt: skip
        result = {"bombs_away": row}
        if row["level"] == 0:
            result["at_feet"] = self._at_feet(dice, clean, settings, steps, effects)
            return self._done(words.say("«Взрыв под ногами!»"), result, effects, steps)
        d = dice.roll(6, N_("grenade hit die"))
        total = d + t["rep"]
        point_cover = row["level"] == 1
        line = (tr("Hit die {die} + Rep {rep} = {total}, the point in cover.") if point_cover else
                tr("Hit die {die} + Rep {rep} = {total}, the point in the open."))  # fmt: skip
        steps.append(line.format(die=d, rep=t["rep"], total=total))
        result["hit_total"] = total
        result["blast"], _ = self._blast(dice, total, clean["blast"], "blast", settings, steps, effects,
                                         point_cover=point_cover)  # fmt: skip
        word = "«Частичная удача!»" if point_cover else "«Удача!»"
        return self._done(words.say(N_("{word} Hit total {total}."), word=word, total=total), result, effects, steps)

    def odds_clean(self, clean, settings):
        t = clean["thrower"]
        level, _ = reader_odds(BOMBS, t, settings, [t])
        blast = [{} for _ in clean["blast"]]
        around = [{} for _ in (clean.get("around_thrower") or [t])]
        for lvl in (2, 1):
            for d in range(1, 7):
                self._blast_odds(clean["blast"], d + t["rep"], settings, blast, level[lvl] / 6, point_cover=lvl == 1)
        self._feet_odds(clean, settings, around, level[0])
        return {
            "bombs_away": {str(k): prob(v) for k, v in level.items()},
            "blast": self._answer(blast, clean["blast"]),
            "around_thrower": self._answer(around, clean.get("around_thrower") or [t]),
        }
