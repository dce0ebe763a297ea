"""The frame every action of «Звездный Десант» shares: raw inputs are validated (schema, then rules), dice come from
a DiceSource (seeded or typed in, each D20 recorded with its purpose), and odds are exact fractions.

Schemas bound every number, so junk can neither loop nor run long: at most MAX_FIGURES figures in a unit, MAX_SKR
dice per figure, MAX_UNITS units in an activation order or a melee.
"""

from __future__ import annotations

from abc import abstractmethod
from fractions import Fraction
from math import comb

from rules.contract import CleanAction, RuleInputError, convolve, distribution, exact, prob
from rules.contract.schema import translate_schema
from rules.i18n import N_, _
from rules.systems.zvezdny_desant import tables
from rules.systems.zvezdny_desant.glossary import GLOSSARY
from rules.systems.zvezdny_desant.settings import CATALOGUE

MAX_FIGURES = 50
MAX_SKR = 10
MAX_UNITS = 24
MAX_ROLLOFF_ROUNDS = 100  # 100 ties in a row: probability 20**-100

REF = {"description": N_("Anything that identifies the unit or figure for the caller; echoed in effects.")}
ORDER = {"enum": list(tables.ORDERS), "description": N_("Move, Defence or Attack")}
ORDER_OR_NONE = {"enum": [*tables.ORDERS, None], "description": N_("The unit's order; null: no order card")}
SHOOTER_ORDER = {"enum": ["defence", "attack"], "description": N_("Only «Defence» and «Attack» may shoot (L352)")}
KIND = {"enum": list(tables.KINDS), "default": "infantry"}
COVER = {"enum": list(tables.COVERS)}
ARMOUR = {"type": "string", "maxLength": 4, "description": N_("A–E, Latin or Cyrillic")}
HRK = {
    "anyOf": [
        {"type": "string", "minLength": 1, "maxLength": 60},
        {
            "type": "object",
            "minProperties": 1,
            "maxProperties": 5,
            "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 40},
        },
    ],
    "description": N_('«B12», «A10 B12 C16» or {"B": 12}: the wound-test roll per armour class'),
}
WEAPON = {
    "type": "object",
    "additionalProperties": False,
    "required": ["hrk"],
    "properties": {
        "name": {"type": "string", "maxLength": 80},
        "dln": {"type": "integer", "minimum": 0, "maximum": 200, "description": N_("Rng, steps")},
        "skr": {"type": "integer", "minimum": 1, "maximum": MAX_SKR, "default": 1, "description": N_("ROF")},
        "msch": {"type": "integer", "minimum": 1, "maximum": 10, "default": 1, "description": N_("Pow")},
        "hrk": HRK,
    },
}
PLAYERS = {
    "type": "array",
    "minItems": 2,
    "maxItems": 2,
    "items": {"type": "string", "minLength": 1, "maxLength": 60},
    "default": ["Игрок 1", "Игрок 2"],
    "description": N_("The two players' names"),
}


def err(field: str, message: str, limits: dict | None = None) -> RuleInputError:
    """A refusal naming the field; where the limit broken is the rule's, `limits` gives it as data a program reads
    (the API answers it as the body's "limits")."""
    return RuleInputError({field: message}, data={"limits": limits} if limits else None)


def rolled_for(dice, count: int, what: str, name: str) -> list[int]:
    """`count` D20 for `what` (a msgid: "hit test", "strike") of `name` (a weapon, «unit → unit»). The purpose is
    stored in English, «hit test: Автомат 2 of 4», and worded when shown in the reader's language
    (rules.dice.purpose_words): a battle written on an English phone reads in Russian on a Russian one."""
    return [dice.roll(tables.D20, f"{what}: {name} {i} of {count}") for i in range(1, count + 1)]


def roll_tests(dice, count: int, need: int | None, purpose: str) -> list[int]:
    """`count` D20 rolled for one kind of test, each recorded as "<purpose> i of n"."""
    return dice.roll_many(count, tables.D20, purpose) if count > 0 else []


def binomial(n: int, p: Fraction) -> dict[int, Fraction]:
    """Exact number of successes of `n` independent tests passing with probability `p`."""
    if p == 0 or n == 0:
        return {0: Fraction(1)}
    if p == 1:
        return {n: Fraction(1)}
    q = 1 - p
    return {k: comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)}


def scaled(d: dict[int, Fraction], factor: int) -> dict[int, Fraction]:
    return {k * factor: v for k, v in d.items()}


def mapped(d: dict, fn) -> dict:
    out: dict = {}
    for k, v in d.items():
        key = fn(k)
        out[key] = out.get(key, Fraction(0)) + v
    return out


def mean(d: dict[int, Fraction]) -> Fraction:
    return sum((Fraction(k) * v for k, v in d.items()), Fraction(0))


def exact_mean(d: dict[int, Fraction]) -> dict:
    """The expected value, exact."""
    return exact(mean(d))


def dist(d: dict) -> list[dict]:
    return distribution(d)


def joint(d: dict[tuple, Fraction], names: tuple[str, ...]) -> list[dict]:
    """An exact joint distribution as a sorted JSON list of {"value": {name: part, …}, "exact", "p"}; a part may be
    None (a tie), sorted last."""

    def order(kv):
        return tuple((part is None, part if part is not None else 0) for part in kv[0])

    return [{"value": dict(zip(names, key, strict=True)), **prob(p)} for key, p in sorted(d.items(), key=order)]


def roll_off(dice, players: list[str], settings: dict, purpose: str, *, previous: int | None = None) -> dict:
    """Both players roll D20; the higher wins (L156, L774). A tie re-rolls (A6), or keeps last turn's First
    Player when the setting says so and there is one."""
    rounds = []
    for n in range(MAX_ROLLOFF_ROUNDS):  # purposes kept in English («First Player roll: Синие»), worded when shown
        suffix = f" (re-roll {n})" if n else ""
        rolls = [dice.roll(tables.D20, f"{purpose}: {p}{suffix}") for p in players]
        rounds.append(rolls)
        if rolls[0] != rolls[1]:
            return {"winner": 0 if rolls[0] > rolls[1] else 1, "rounds": rounds, "kept": False}
        if settings["rolloff_ties"] == "keep_previous" and previous is not None:
            return {"winner": previous, "rounds": rounds, "kept": True}
    raise err("dice", _("The roll-off tied every time; roll again."))


# The odds page labels each input by its schema "title": the book's abbreviations stay as printed (L52–72).
TITLES = {
    "alive": N_("Figures alive"), "already_rerolled": N_("Already re-rolled"), "armour": N_("AC"),
    "between": N_("Between"), "bsp": N_("CA"), "command_points": N_("Command points"), "context": N_("Context"),
    "cost": N_("Cost"), "count": N_("Number of figures"), "cover": N_("Cover"), "cover_size": N_("Size of the cover"),
    "dice": N_("Dice"), "distance": N_("Distance, steps"), "dln": N_("Rng"), "figures": N_("Number of figures"),
    "first_player": N_("First Player"), "grade": N_("Grade"), "grey_zone": N_("Grey zone"), "groups": N_("Groups"),
    "hidden": N_("Figures out of sight or range"), "hits": N_("Hits"), "hrk": N_("Pen"), "impassable": N_("Impassable"),
    "in_command_distance": N_("Within Command Distance"), "in_contact": N_("Figures in base contact"),
    "in_melee": N_("In close combat"), "in_range_of": N_("In range of groups"), "initiative": N_("Initiative"),
    "killable": N_("Can be killed"), "kind": N_("Kind"), "markers": N_("Wound markers"), "modifier": N_("Modifier"),
    "msch": N_("Pow"), "name": N_("Name"), "near": N_("Figures within 3 steps"), "need": N_("Roll needed"),
    "observer_depth": N_("Observer's depth in the grey zone"), "opposite_sides": N_("On opposite sides"),
    "order": N_("Order"), "others": N_("Other units"), "panicked": N_("Panic"), "pdv": N_("Mob"), "place": N_("Place"),
    "players": N_("Players"), "previous": N_("Previous First Player"), "reductions": N_("Initiative cuts"),
    "ref": N_("Reference"), "reroll": N_("Re-roll"), "rolls": N_("Rolls"), "same_unit_as_target": N_(
    "Same unit as the target"), "seen_by": N_("Seen by groups"), "shooter": N_("Shooter"),
    "shooter_order": N_("Shooter's order"), "shot_at": N_("Shot at"), "side": N_("Side"), "size": N_("Size"),
    "skr": N_("ROF"), "slope": N_("Slope"), "start": N_("Figures at the start"), "stk": N_("Tgh"),
    "strikes_per_figure": N_("Strikes per figure"), "suppressed": N_("Fire suppression"),
    "table_length": N_("Table length"), "target": N_("Target"), "target_depth": N_("Target's depth in the grey zone"),
    "target_height_ratio": N_("Target's height ratio"), "target_initiative": N_("Target's initiative"),
    "target_kind": N_("Target's kind"), "target_order": N_("Target's order"), "targets": N_("Targets"),
    "terrain": N_("Terrain"), "unit": N_("Unit name"), "units": N_("Unit names"), "uphill": N_("Uphill"),
    "visible": N_("Visible"), "weapon": N_("Weapon"), "wounds": N_("Wounds"), "wounds_per_strike": N_(
    "Wounds per strike"),
}  # fmt: skip


def translated_schema(schema, name: str | None = None):
    """The schema with a title per property, its descriptions in the reader's language and the book's words for
    its enums (x-labels)."""
    return translate_schema(schema, TITLES, name=name, finish=_with_enum_labels)


def _with_enum_labels(node: dict) -> None:
    labels = enum_labels(node.get("enum"))
    if labels:
        node["x-labels"] = labels


def enum_labels(values) -> dict | None:
    """The book's words for an enum of orders, covers, kinds, sizes or terrain (the odds form shows them)."""
    if not values:
        return None
    known = {v for v in values if v is not None}
    for words in (tables.ORDER_WORDS, tables.COVER_WORDS, tables.KIND_WORDS, SIZE_WORDS, TERRAIN_WORDS):
        if known <= set(words):
            return {v: _(words[v]) for v in known}
    return None


SIZE_WORDS = {s: GLOSSARY[f"size_{s}"] for s in tables.SIZES}
TERRAIN_WORDS = {t: GLOSSARY[f"terrain_{t}"] for t in tables.TERRAIN}


# The odds page's words for the keys odds() answers (Action.result_labels), the book's terms in Russian.
RESULT_LABELS = {
    "p": N_("Chance"), "p_hit": N_("Chance to hit"), "hits": N_("Hits"), "expected_hits": N_("Hits on average"),
    "p_wound": N_("Chance to wound"), "wounds": N_("Wounds"), "expected_wounds": N_("Wounds on average"),
    "passed": N_("Tests passed"), "passes": N_("Tests passed"), "expected_passes": N_("Tests passed on average"),
    "p_die_passes": N_("Chance per die to pass"), "p_die_wounds": N_("Chance per die to wound"),
    "p_strike_hits": N_("Chance per strike to hit"), "removed": N_("Figures removed"),
    "markers": N_("Wound markers"), "p_destroyed": N_("Chance the unit is destroyed"),
    "p_any_removed": N_("Chance to remove at least one figure"),
    "p_no_winner": N_("Chance of no winner"), "p_tie_on_first_roll": N_("Chance of a tie on the first roll"),
    "removed_and_markers": N_("Figures removed and wound markers left"),
    "p_first": N_("Chance to be First Player"), "first_player": N_("First Player"),
    "p_wins_first_roll": N_("Chance to roll higher on the first roll"),
    "roll_off": N_("First roll and First Player"), "first_roll": N_("First roll won by"),
    "p_chooses_zone": N_("Chance to pick the deployment zone"), "p_side_wins": N_("Chance each side wins"),
    "p_wins": N_("Chance to win the close combat"),
}  # fmt: skip

# The odds page's words for the codes of a result (Action value_labels): a roll-off's tie is no player's name; a
# melee's sides by their order in the inputs (p_wins names them by their units).
VALUE_LABELS = {"first_roll": {"null": N_("a tie")},
                "p_side_wins": {"0": N_("the first side"), "1": N_("the second side")}}  # fmt: skip


class ZdAction(CleanAction):
    """The frame of «Звездный Десант»'s actions (CleanAction: full settings, validate, resolve_clean / odds_clean)
    with its words and the schema's top-level defaults filled in before check_inputs(). Subclasses implement
    resolve_clean(clean, settings, dice) and odds_clean(clean, settings)."""

    settings_catalogue = CATALOGUE
    result_labels = RESULT_LABELS

    def describe(self) -> dict:
        """Label, description and the input schema's titles and help in the reader's language, and the words for
        the codes of its results."""
        values = {key: {code: _(word) for code, word in words.items()} for key, words in VALUE_LABELS.items()}
        return {**super().describe(), "label": _(self.label), "description": _(self.description),
                "input_schema": translated_schema(self.input_schema), "value_labels": values}  # fmt: skip

    def check(self, inputs: dict, settings: dict) -> dict:
        return self.check_inputs(self.with_defaults(inputs), settings)

    def with_defaults(self, inputs: dict) -> dict:
        """Top-level schema defaults filled in."""
        out = dict(inputs)
        for key, prop in (self.input_schema.get("properties") or {}).items():
            if key not in out and isinstance(prop, dict) and "default" in prop:
                out[key] = prop["default"]
        return out


class RuleAction(ZdAction):
    """A procedure with no dice (activation order, movement, cover, victory points…): resolve() gives the ruling,
    odds() the same ruling with probability 1, so the «three forms» still agree."""

    @abstractmethod
    def rule(self, clean: dict, settings: dict) -> tuple[str, dict, list[dict], list[str]]: ...

    def resolve_clean(self, clean, settings, dice):
        return self.outcome(*self.rule(clean, settings))

    def odds_clean(self, clean, settings):
        summary, result, _effects, _steps = self.rule(clean, settings)
        return {"deterministic": True, "p": prob(1), "summary": summary, "result": result}


__all__ = ["MAX_FIGURES", "RuleAction", "ZdAction", "binomial", "convolve", "dist", "err", "joint", "mean", "prob"]
