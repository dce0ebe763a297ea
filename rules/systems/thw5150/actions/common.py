"""The actions' common frame and the group reaction test (spec §3.0), shared by every 2/1/0 table.

The group test (L557–566): 2d6 are rolled ONCE for the group and each figure taking the test compares them with its
own Rep, so the figures' results go together: the exact odds give each figure's chances and the group's joint result
(`joint`, `joint_passed`, `joint_outcomes`), both read through the same `read_result` the resolver uses. A real
Leader reads a third die (L269–270; §5 A2 picks whether it is added to the group's roll or is his own 3d6); a figure
on covering fire reads a third die on In Sight (L611). Where the table allows the Leader Die («ЛД»/«КЛ»), one more
die is rolled against the Leader's Rep and, if it passes, adds one pass to each other tester, capped at 2
(L273–282). Double 1s make a «Герой» (L1163–1167, §5 A5); a Hero may choose his result where the table (or the A6
setting) lets him.

Dice order, for typed-in dice: the group's dice (as many as the figure reading most of them needs), then each
Leader's own 3d6 under «own_three_dice», then the Leader Die when it is used.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from fractions import Fraction

from rules.contract import CleanAction, RuleInputError, prob
from rules.contract.schema import translate_schema
from rules.dice import rolls
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.thw5150 import core, words
from rules.systems.thw5150.settings import CATALOGUE

REF = {"description": "Anything that identifies the figure for the caller; echoed in effects."}
REP = {"type": "integer", "minimum": 1, "maximum": 7, "description": "Умение (Rep), 1–7"}
LEVEL = {"type": "integer", "minimum": 0, "maximum": 2}
MEMBER_BASE = {
    "name": {"type": "string", "maxLength": 80},
    "ref": REF,
    "rep": REP,
    "leader": {"type": "boolean", "description": "The group's real Leader (not an acting Group Leader)"},
    "hero": {"type": "boolean", "description": "Already a «Герой» (double 1s earlier this battle)"},
    "star": {
        "type": "boolean",
        "description": "A Star of the roster (a Hero from the start with the setting «Stars play as Heroes»)",
    },
    "tests": {"type": "boolean", "description": "The trigger applies to this figure (default true)"},
    "condition": {"enum": list(core.CONDITIONS)},
}
HERO_CHOICE = {**LEVEL, "description": "The result a Hero chooses (passed by 2, 1 or 0), where he may choose"}
# The codes of a damage result, named on the odds page and the board (value_labels): the tracker's words.
DAMAGE_WORDS = {c: words.OUTCOMES[c] for c in core.DAMAGE_ORDER}
LEVEL_WORDS = {"2": N_("passed by 2 dice"), "1": N_("passed by 1 die"), "0": N_("passed by 0 dice")}


def gone_takes_no_test(condition: str) -> str:
    return tr("A figure that is {condition} takes no test.").format(condition=words.outcome(condition))


def err(field: str, message: str, **limits) -> RuleInputError:
    """A refusal naming its field; a limit that is part of the rule goes with it as data (the API answers
    `limits` beside the message, e.g. {"leaders": 1})."""
    return RuleInputError({field: message}, data={"limits": limits} if limits else None)


def one_leader(members: list[dict]) -> None:
    """At most one real Leader per group: the Leader Die is rolled against «Умением Лидера» (L273–274), one Rep;
    the limit is answered as data."""
    if sum(1 for m in members if m.get("leader")) > 1:
        raise err("members", tr("A group has one real Leader: mark only one figure as leader."), leaders=1)


def members_schema(extra: dict, *, hero_choice: bool = True, max_items: int = 20) -> dict:
    props = {**MEMBER_BASE, **extra}
    if hero_choice:
        props["hero_choice"] = HERO_CHOICE
    return {
        "type": "array",
        "minItems": 1,
        "maxItems": max_items,
        "items": {"type": "object", "additionalProperties": False, "required": ["rep"], "properties": props},
    }


def echo(m: dict) -> dict:
    return {k: m[k] for k in ("ref", "name") if k in m}


@dataclass(frozen=True)
class TestSpec:
    """What a table says about itself: its name, who reads 3 dice, whether «ЛД» applies, and the Hero's rights."""

    key: str
    word: str
    leader_three: bool = True  # «Лидеры кидают 3к6 для всех персональных тестов … за исключением» In Sight
    leader_die: bool = False  # header «2 ЛД» / «2 КЛ»
    hero_choice: str = "always"  # "always" | "duck_back" | "never"
    hero_kind: str = "reaction"  # which double 1s make a Hero: "reaction" | "table" | "none" (In Sight)
    covering_extra: bool = False  # In Sight: «+1к6 если фигурка прикрывает»
    dice: int = 2  # the number in the table's top-left corner (L76–77)


def is_hero(m: dict, settings: dict) -> bool:
    return bool(m.get("hero")) or (bool(m.get("star")) and settings.get("stars", True))


def hero_trigger_on(spec: TestSpec, settings: dict) -> bool:
    if spec.hero_kind == "none" or settings.get("hero_from_shared_roll") == "off":
        return False
    return spec.hero_kind == "reaction" or settings.get("hero_tests", "all_tables") == "all_tables"


def hero_may_choose(spec: TestSpec, settings: dict, *, duck_back: bool = False) -> bool:
    if spec.hero_kind == "none":
        return False  # In Sight has no Hero clause and its double 1s do not count (L1163–1164)
    if settings.get("hero_choice") == "any_test":
        return True
    return spec.hero_choice == "always" or (spec.hero_choice == "duck_back" and duck_back)


def readers(members: list[dict], settings: dict) -> list[int]:
    """Indexes of the figures that read the roll (§5 A1)."""
    if settings.get("group_test_readers") == "whole_group":  # but a hunkered-down figure fired on runs untested
        return [i for i, m in enumerate(members) if not m.get("hunkered_fired_on")]
    return [i for i, m in enumerate(members) if m.get("tests", True)]


def dice_count(m: dict, spec: TestSpec) -> int:
    n = spec.dice
    if m.get("leader") and spec.leader_three:
        n += 1
    if spec.covering_extra and m.get("covering_fire"):
        n += 1
    return n


def group_leader(members: list[dict]) -> dict | None:
    return next((m for m in members if m.get("leader")), None)


def leader_die_rep(spec: TestSpec, members: list[dict], use: bool) -> int | None:
    """The Rep the Leader Die is rolled against, or None when no Leader Die is rolled (a Leader «на ногах»)."""
    if not (spec.leader_die and use):
        return None
    leader = group_leader(members)
    if leader is None or leader.get("condition", core.FINE) != core.FINE:
        return None
    return leader["rep"]


def leader_die_applies(m: dict, spec: TestSpec, settings: dict) -> bool:
    if m.get("leader") and not settings.get("leader_die_on_leader"):
        return False  # §5 A4: the Leader already rolls 3d6
    return m.get("sees_leader", True)  # Fast Move: only figures that see their Leader (L476–477)


def roll_group_test(spec: TestSpec, members: list[dict], settings: dict, dice, *, use_leader_die=True, **ctx):
    """Rolls one group test. Returns (rows, info): a row per tester {index, dice, passes, leader_die, level,
    became_hero, hero_chose}; info {group_dice, leader_die}."""
    who = readers(members, settings)
    if not who:
        raise err("members", tr("Nobody in the group takes this test: mark at least one figure with tests = true."))
    own = settings.get("leader_dice") == "own_three_dice"
    counts = {i: dice_count(members[i], spec) for i in who}
    own_leaders = [i for i in who if own and members[i].get("leader") and spec.leader_three]
    shared_n = max((n for i, n in counts.items() if i not in own_leaders), default=0)
    # The dice's purposes are msgids, stored in English and worded when shown (rules.dice.purpose_words); the
    # result names the table.
    group_dice = dice.roll_many(shared_n, 6, N_("group die")) if shared_n else []
    own_dice = {i: dice.roll_many(counts[i], 6, N_("Leader's own die")) for i in own_leaders}
    ld_rep = leader_die_rep(spec, members, use_leader_die)
    ld_roll = dice.roll(6, N_("Leader Die")) if ld_rep is not None else None
    ld_pass = ld_roll is not None and ld_roll <= ld_rep
    rows = []
    for i in who:
        m = members[i]
        read = own_dice[i] if i in own_dice else group_dice[: counts[i]]
        rows.append(read_result(spec, m, settings, read, ld_pass, i, **ctx))
    info = {"group_dice": group_dice, "leader_die": None}
    if own_dice:
        info["leaders_own_dice"] = {str(i): d for i, d in own_dice.items()}
    if ld_roll is not None:
        info["leader_die"] = {"roll": ld_roll, "rep": ld_rep, "passed": ld_pass}
    return rows, info


def read_result(spec: TestSpec, m: dict, settings: dict, read: list[int], ld_pass: bool, index: int, **ctx) -> dict:
    raw = core.pass_level(read, m["rep"])
    level = raw
    ld_used = ld_pass and leader_die_applies(m, spec, settings) and raw < 2
    if ld_used:
        level = raw + 1
    became = hero_trigger_on(spec, settings) and core.double_ones(read) and not is_hero(m, settings)
    chose = None
    hero = is_hero(m, settings) or became
    if hero and m.get("hero_choice") is not None and hero_may_choose(spec, settings, **ctx):
        chose = level = m["hero_choice"]
    return {
        "index": index,
        "name": m.get("name") or figure_name(index),
        "rep": m["rep"],
        "dice": list(read),
        "passes": core.passes(read, m["rep"]),
        "leader_die": ld_used,
        "level": level,
        "became_hero": became,
        "hero_chose": chose,
    }


# Exact odds of one tester ----------------------------------------------------------------------------------
def reader_odds(spec: TestSpec, m: dict, settings: dict, members: list[dict], *, use_leader_die=True, **ctx):
    """(level distribution {0,1,2}: Fraction, P(becomes a Hero)) of one tester, by enumerating his dice."""
    k = dice_count(m, spec)
    ld_rep = leader_die_rep(spec, members, use_leader_die)
    q = Fraction(min(ld_rep, 6), 6) if ld_rep is not None else Fraction(0)
    ld_applies = leader_die_applies(m, spec, settings)
    trigger = hero_trigger_on(spec, settings) and not is_hero(m, settings)
    can_choose = m.get("hero_choice") is not None and hero_may_choose(spec, settings, **ctx)
    dist = {0: Fraction(0), 1: Fraction(0), 2: Fraction(0)}
    p_hero = Fraction(0)
    each = Fraction(1, 6**k)
    for roll in rolls(6, k):
        raw = core.pass_level(roll, m["rep"])
        became = trigger and core.double_ones(roll)
        p_hero += each if became else 0
        if can_choose and (is_hero(m, settings) or became):
            dist[m["hero_choice"]] += each
            continue
        if ld_applies and raw < 2:
            dist[raw + 1] += each * q
            dist[raw] += each * (1 - q)
        else:
            dist[raw] += each
    return dist, p_hero


# Exact odds of the whole group -----------------------------------------------------------------------------
def _reads(spec, members, settings, who, counts, n, ld_pass, context) -> dict[tuple, Fraction]:
    """{((level, became_hero) of each of `who`): P} over every ordered roll of `n` dice that they all read, each
    reading its first dice through read_result, as the resolver does."""
    out: dict[tuple, Fraction] = {}
    each = Fraction(1, 6**n)
    memo: dict = {}
    for roll in rolls(6, n):
        vec = []
        for i in who:
            read = roll[: counts[i]]
            if (i, read) not in memo:
                r = read_result(spec, members[i], settings, list(read), ld_pass, i, **context(members[i]))
                memo[i, read] = (r["level"], r["became_hero"])
            vec.append(memo[i, read])
        key = tuple(vec)
        out[key] = out.get(key, Fraction(0)) + each
    return out


def joint_odds(spec: TestSpec, members: list[dict], settings: dict, *, use_leader_die=True, context=None):
    """(the testers' indexes, {((level, became_hero) of each tester, in that order): P}), exact.

    Every tester reads the same group roll (L557–566), so their results go together: a high roll fails them all,
    and double 1s make every one of them a Hero at once. Given the Leader Die, the group's dice and each Leader's
    own 3d6 (§5 A2) are independent: each is enumerated once and the parts are multiplied."""
    context = context or (lambda m: {})
    who = readers(members, settings)
    own = settings.get("leader_dice") == "own_three_dice"
    counts = {i: dice_count(members[i], spec) for i in who}
    own_leaders = [i for i in who if own and members[i].get("leader") and spec.leader_three]
    shared = [i for i in who if i not in own_leaders]
    shared_n = max((counts[i] for i in shared), default=0)
    ld_rep = leader_die_rep(spec, members, use_leader_die)
    q = Fraction(min(ld_rep, 6), 6) if ld_rep is not None else Fraction(0)
    order = shared + own_leaders
    place = [order.index(i) for i in who]
    joint: dict[tuple, Fraction] = {}
    for ld_pass, weight in ((True, q), (False, 1 - q)):
        if not weight:
            continue
        combined = {(): weight}
        parts = [_reads(spec, members, settings, shared, counts, shared_n, ld_pass, context)]
        parts += [_reads(spec, members, settings, [i], counts, counts[i], ld_pass, context) for i in own_leaders]
        for part in parts:
            combined = {a + b: pa * pb for a, pa in combined.items() for b, pb in part.items()}
        for vec, p in combined.items():
            key = tuple(vec[k] for k in place)
            joint[key] = joint.get(key, Fraction(0)) + p
    return who, joint


PASSED = {2: "passed_2", 1: "passed_1", 0: "passed_0"}
# The odds page names each key it draws, and each part of a joint value, by result_labels.
JOINT_LABELS = {
    "joint_passed": N_("The whole group: how many figures passed"),
    "joint_outcomes": N_("The whole group: how many figures on each row of the table"),
    "passed_2": N_("passed by 2 dice"), "passed_1": N_("passed by 1 die"), "passed_0": N_("passed by 0 dice"),
}  # fmt: skip


def joint_fields(who: list[int], joint: dict, outcome, codes: tuple, fixed: dict | None = None) -> dict:
    """The group's joint result as JSON, beside each figure's own odds:
    - `joint`: {"members": tester indexes, "distribution": [{"value": {"levels", "outcomes", "heroes"} (one per
      tester, in that order), exact, p}]}, most passes first;
    - `joint_passed`: [{"value": {"passed_2", "passed_1", "passed_0"} (how many testers read each row), exact, p}];
    - `joint_outcomes`: [{"value": {outcome code: how many figures}, exact, p}], the table's rows in `codes` order,
      counting also the figures whose result is `fixed` (a hunkered-down figure fired on runs away untested).
    `outcome(index, level)` is the row a tester reads at that level."""
    fixed = fixed or {}
    rank = {c: n for n, c in enumerate(codes)}
    cases, passed, rows = [], {}, {}
    for vec, p in sorted(joint.items(), key=lambda kv: ([-lv for lv, _ in kv[0]], [h for _, h in kv[0]])):
        levels = [lv for lv, _ in vec]
        outs = [outcome(i, lv) for i, lv in zip(who, levels, strict=True)]
        cases.append({"value": {"levels": levels, "outcomes": outs, "heroes": [h for _, h in vec]}, **prob(p)})
        key = tuple(levels.count(lv) for lv in (2, 1, 0))
        passed[key] = passed.get(key, Fraction(0)) + p
        tally = dict(fixed)
        for o in outs:
            tally[o] = tally.get(o, 0) + 1
        row = tuple(sorted(tally.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0])))
        rows[row] = rows.get(row, Fraction(0)) + p
    if not who:  # nobody tested (every figure fired on was hunkered down): the fixed results, for sure
        rows = {tuple(sorted(fixed.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0]))): Fraction(1)}
        passed = {(0, 0, 0): Fraction(1)}
        cases = [{"value": {"levels": [], "outcomes": [], "heroes": []}, **prob(1)}]

    def row_order(kv):
        tally = dict(kv[0])
        return [-tally.get(c, 0) for c in codes], sorted(tally)

    return {
        "joint": {"members": list(who), "distribution": cases},
        "joint_passed": [{"value": dict(zip(PASSED.values(), k, strict=True)), **prob(p)}
                         for k, p in sorted(passed.items(), reverse=True)],
        "joint_outcomes": [{"value": dict(k), **prob(p)} for k, p in sorted(rows.items(), key=row_order)],
    }  # fmt: skip


def map_distribution(dist: dict, fn) -> dict:
    out: dict = {}
    for value, p in dist.items():
        if p:
            key = fn(value)
            out[key] = out.get(key, Fraction(0)) + p
    return out


def hero_effects(rows: list[dict], members: list[dict]) -> list[dict]:
    return [
        {"kind": "hero", "role": f"members.{r['index']}", "value": True, **echo(members[r["index"]])}
        for r in rows
        if r["became_hero"]
    ]


def figure_name(index: int) -> str:
    """An unnamed figure, in the reader's language."""
    return tr("figure #{n}").format(n=index + 1)


def dice_text(values: list[int]) -> str:
    return ", ".join(map(str, values)) if values else tr("none")


def member_summary(row: dict) -> str:
    """One tester's result in the viewer's language, from the stored data (name, level, outcome code)."""
    if "level" not in row:  # a hunkered-down figure fired on runs away without a test (L998)
        return tr("{name}: {outcome}").format(name=row["name"], outcome=words.outcome(row["outcome"]))
    return tr("{name}: passed by {level}, {outcome}").format(name=row["name"], level=row["level"],
                                                             outcome=words.outcome(row["outcome"]))  # fmt: skip


# The odds page labels each input by its schema "title"; the book's abbreviations and armour columns stay as
# printed (L125–201).
TITLES = {
    "active": N_("Active"), "armour": N_("Personal protection"), "around_thrower": N_("Figures around the thrower"),
    "blast": N_("Blast"), "bonus_dice": N_("Extra dice"), "can_charge": N_("Can charge"), "can_fire": N_("Can fire"),
    "carrying": N_("Carrying someone"), "carrying_alone": N_("Carrying someone alone"), "casualties": N_("Casualties"),
    "concealed": N_("Concealed"), "condition": N_("Condition"), "contacted_leader_rep": N_("Rep of their Leader"),
    "contacting_leader_rep": N_("Rep of our Leader"), "cost": N_("Cost, points"), "cover_reachable": N_("Cover in reach"),
    "cover_within_3": N_("Cover within 3″"), "covering_fire": N_("Covering fire"), "dice": N_("Dice"),
    "distance": N_("Distance, inches"), "enemy_figures": N_("Enemy figures"), "energy": N_("Energy weapon"),
    "fast_moved": N_("Fast moved"), "fighter": N_("Fighter"), "figure": N_("Figure"), "figures": N_("The figures"),
    "fired_with": N_("Weapons fired"), "first_round_flank_penalty": N_("First round after a flank charge"),
    "flank_or_rear": N_("Flank or rear"), "friend_within_2": N_("A friend within 2″"),
    "grenade_ready": N_("Grenade ready"), "groups": N_("Groups"), "heavy_impact": N_("Impact against heavy armour"), "hero": N_("Hero"),
    "hero_choice": N_("The Hero's choice"), "hidden": N_("Hidden"), "impact": N_("Impact"),
    "improvised": N_("Improvised weapon"), "in_cover": N_("In cover"), "initial_count": N_("Figures at the start"),
    "intermediate": N_("Intermediate group"), "kind": N_("Kind"), "launcher": N_("Grenade launcher"),
    "leader": N_("Leader"), "leader_rep": N_("Leader's Rep"), "loaded": N_("Loaded"),
    "medical_care": N_("Medical care"), "members": N_("Figures of the group"), "modifiers": N_("Modifiers"),
    "motivation": N_("Motivation"), "moving": N_("Moving"), "name": N_("Name"), "opponents": N_("Opponents"),
    "outgun": N_("Outgun Rating"), "outgunned": N_("Outgunned"), "own_outgun": N_("Own Outgun Rating"), "own_weapons": N_("Own weapons"),
    "profit_goal_met": N_("Profit goal met"), "prone": N_("Prone"), "rating": N_("Rating"),
    "ref": N_("Reference"), "rep": N_("Rep"), "rep_modifier": N_("Rep modifier"), "reps": N_("Reps"),
    "rescuing": N_("Rescuing a comrade"), "rof": N_("RoF"), "second_weapon": N_("Second weapon"),
    "sees_leader": N_("Sees the Leader"), "shooter": N_("Shooter"), "shooter_outgun": N_("Shooter's Outgun Rating"),
    "sides": N_("Sides"), "star": N_("Star"), "state": N_("State"), "table": N_("Table"), "target": N_("Target"),
    "targets": N_("Targets"), "tested_at": N_("Casualties at the last test"), "tests": N_("Takes the test"),
    "thrower": N_("Thrower"), "turn": N_("Turn"), "two_melee_weapons": N_("Two melee weapons"),
    "use_leader_die": N_("Leader Die"), "weapon": N_("Weapon"), "weapons": N_("Armament"),
}  # fmt: skip


def translated_schema(schema, name: str | None = None):
    """The schema with a title per property and its descriptions in the reader's language."""
    return translate_schema(schema, TITLES, name=name)


# The frame ----------------------------------------------------------------------------------------------
class ThwAction(CleanAction):
    """The frame of «5150»'s actions (CleanAction: full settings, validate, resolve_clean / odds_clean) with its
    words. Subclasses implement check(), resolve_clean(clean, settings, dice) and odds_clean(clean, settings)."""

    settings_catalogue = CATALOGUE

    #: {odds key: {code: msgid}}: the words of the codes a distribution of that key is keyed by
    value_labels: dict[str, dict[str, str]] = {}

    def describe(self) -> dict:
        """Label, description and the input schema's titles and help in the reader's language (locale/)."""
        out = {**super().describe(), "label": tr(self.label), "description": tr(self.description),
               "input_schema": translated_schema(self.input_schema)}  # fmt: skip
        if self.value_labels:
            out["value_labels"] = {k: {c: tr(m) for c, m in v.items()} for k, v in self.value_labels.items()}
        return out


class GroupTestAction(ThwAction):
    """A 2/1/0 table taken by a group: subclasses give the spec, the members' extra fields and `outcome_of`."""

    spec: TestSpec
    member_fields: dict = {}
    extra_properties: dict = {}
    extra_required: tuple[str, ...] = ()
    #: Every row code `outcome_of` can answer, in the table's printed order (joint_outcomes follows it and the
    #: odds page names each code in the reader's language).
    outcome_codes: tuple[str, ...] = ()
    result_labels = JOINT_LABELS

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "spec" in cls.__dict__:
            props = {"members": members_schema(cls.member_fields, hero_choice=cls.spec.hero_kind != "none")}
            if cls.spec.leader_die:
                props["use_leader_die"] = {
                    "type": "boolean",
                    "description": "Use the Leader Die when the Leader is with the group and on his feet (optional)",
                }
            props.update(cls.extra_properties)
            cls.input_schema = {
                "type": "object",
                "additionalProperties": False,
                "required": ["members", *cls.extra_required],
                "properties": props,
            }

    def describe(self) -> dict:
        """Also the words of the table's rows, the parts of a joint_outcomes value (outcome codes, some of them
        patterns such as «pass 2» that words.outcome reads)."""
        out = super().describe()
        out["result_labels"] = {**{c: words.outcome(c) for c in self.outcome_codes}, **out["result_labels"]}
        return out

    def check(self, inputs: dict, settings: dict) -> dict:
        members = inputs["members"]
        one_leader(members)
        for i, m in enumerate(members):
            if m.get("condition") in (core.OUT_OF_FIGHT, core.DEAD, core.CAPTURED, core.REMOVED):
                raise err(f"members.{i}.condition", gone_takes_no_test(m["condition"]))
        if not readers(members, settings):
            raise err("members", tr("Nobody in the group takes this test: mark at least one figure with tests = true."))
        return self.check_more(inputs, settings)

    def check_more(self, inputs: dict, settings: dict) -> dict:
        return inputs

    @abstractmethod
    def outcome_of(self, level: int, m: dict, settings: dict, clean: dict) -> str: ...

    def context(self, m: dict) -> dict:
        return {}

    def spec_for(self, clean: dict) -> TestSpec:
        return self.spec

    def resolve_clean(self, clean, settings, dice):
        members = clean["members"]
        spec = self.spec_for(clean)
        rows, info = roll_group_test(spec, members, settings, dice, use_leader_die=clean.get("use_leader_die", True))
        steps = [tr("{table}: group dice {dice}.").format(table=tr(spec.word), dice=dice_text(info["group_dice"]))]
        if info.get("leader_die"):
            ld = info["leader_die"]
            text = "Leader Die {roll} against Rep {rep}: passed." if ld["passed"] else (
                "Leader Die {roll} against Rep {rep}: failed.")  # fmt: skip
            steps.append(tr(text).format(roll=ld["roll"], rep=ld["rep"]))
        effects = hero_effects(rows, members)
        for r in rows:
            m = members[r["index"]]
            r["outcome"] = self.outcome_of(r["level"], m, settings, clean)
            line = tr("{name} (Rep {rep}) reads {dice}: passed by {passes}").format(
                name=r["name"], rep=r["rep"], dice=dice_text(r["dice"]), passes=r["passes"]
            )
            if r["leader_die"]:
                line += tr(" + Leader Die")
            if r["hero_chose"] is not None:
                line += tr("; the Hero chooses passed by {level}").format(level=r["hero_chose"])
            steps.append(
                line
                + tr(" → passed by {level}: {outcome}.").format(level=r["level"], outcome=words.outcome(r["outcome"]))
            )
            effects += self.effects_of(r, m, settings, clean)
        result = {"test": spec.key, "group_dice": info["group_dice"], "leader_die": info["leader_die"]}
        if "leaders_own_dice" in info:
            result["leaders_own_dice"] = info["leaders_own_dice"]
        result["members"] = rows
        summary = "; ".join(member_summary(r) for r in rows)
        return self.outcome(summary, result, effects, steps)

    def effects_of(self, row: dict, m: dict, settings: dict, clean: dict) -> list[dict]:
        return []

    def fixed_outcomes(self, clean: dict) -> dict[str, int]:
        """Figures of the group whose row is certain without a test: {code: how many}."""
        return {}

    def joint_clean(self, clean: dict, settings: dict) -> dict:
        """The group's joint result (joint_fields), beside each figure's own odds."""
        members = clean["members"]
        who, joint = joint_odds(self.spec_for(clean), members, settings, use_leader_die=clean.get("use_leader_die",
                                True), context=self.context)  # fmt: skip

        def outcome(i: int, level: int) -> str:
            return self.outcome_of(level, members[i], settings, clean)

        return joint_fields(who, joint, outcome, self.outcome_codes, self.fixed_outcomes(clean))

    def odds_clean(self, clean, settings):
        members = clean["members"]
        spec = self.spec_for(clean)
        out = []
        for i in readers(members, settings):
            m = members[i]
            dist, p_hero = reader_odds(
                spec, m, settings, members, use_leader_die=clean.get("use_leader_die", True), **self.context(m)
            )
            outcomes = map_distribution(dist, lambda lvl, m=m: self.outcome_of(lvl, m, settings, clean))
            out.append(
                {
                    "index": i,
                    "name": m.get("name") or figure_name(i),
                    "level": {str(k): _p(v) for k, v in dist.items()},
                    "outcomes": {k: _p(v) for k, v in sorted(outcomes.items())},
                    "p_becomes_hero": _p(p_hero),
                }
            )
        return {"test": spec.key, "members": out, **self.joint_clean(clean, settings)}


def _p(x: Fraction) -> dict:
    return prob(x)
