"""The actions' common frame: each action writes its procedure once, `run(clean, settings, roller)`, against a
roller (rolling.py). `resolve` runs it with real dice; `odds` runs it over every branch and summarises the exact
outcome. Shared input schemas (weapons, modifiers) and helpers live here.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass, field
from fractions import Fraction

from rules.contract import CleanAction, Outcome, distribution, prob
from rules.errors import RuleInputError
from rules.i18n import _
from rules.systems.enforcers import agents, rolling
from rules.systems.enforcers.core import RollSpec, test_name
from rules.systems.enforcers.settings import CATALOGUE
from rules.systems.enforcers.statuses import incapacitated
from rules.systems.enforcers.texts import T, Text
from rules.systems.enforcers.words import role as role_word

STATUS_TRAITS = ("bleeding", "poisoned", "burning", "stunned", "disoriented")  # L228–230, L293–311
TRAITS = ("kinetic", "punching", "two_handed", *STATUS_TRAITS)

WEAPON = {
    "type": "object",
    "additionalProperties": False,
    "required": ["damage"],
    "properties": {
        "name": {"type": "string", "maxLength": 120},
        "damage": {"type": "integer", "minimum": 0, "maximum": 99, "description": "The weapon's damage (L146)"},
        "traits": {"type": "array", "items": {"enum": list(TRAITS)}, "uniqueItems": True, "maxItems": len(TRAITS)},
        "reach_cm": {"type": "integer", "minimum": 0, "maximum": 50, "description": "Melee reach in cm (L194)"},
        "ammo": {
            "type": ["integer", "null"],
            "minimum": 0,
            "maximum": 999,
            "description": "Ammo left; null: untracked",
        },
        "capacity": {"type": ["integer", "null"], "minimum": 1, "maximum": 999, "description": "A full magazine"},
        "drawn": {"type": "boolean", "description": "Only a drawn weapon can be used (L73)"},
    },
}
GM_DICE = {
    "extra_blessings": {"type": "integer", "minimum": 0, "maximum": 10, "description": "The GM's own blessings"},
    "extra_curses": {"type": "integer", "minimum": 0, "maximum": 10, "description": "The GM's own curses"},
    "modifier": {"type": "integer", "minimum": -20, "maximum": 20, "description": "Added to the roll (L7)"},
}
USE_REROLL = {"type": "boolean", "description": "Re-roll a failure with an Intercession re-roll (L135)"}


@dataclass
class Run:
    """What one run of a procedure gives: text, structured result and the effects for the tracker."""

    summary: str
    result: dict
    effects: list[dict] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)


def err(path: str, message: str, limits: dict | None = None) -> RuleInputError:
    """A refusal naming the field; where the limit broken is the rule's (a throw's reach, a move's allowance), `limits`
    gives it as data a program reads (the API answers it as the body's "limits")."""
    return RuleInputError({path: message}, data={"limits": limits} if limits else None)


def name_of(sheet: dict, role) -> str:
    """The agent's name, or its role in the reader's language ("target" reads «Цель»)."""
    return sheet.get("name") or (role if isinstance(role, Text) else role_word(role))


def who(sheet: dict, role: str) -> dict:
    return {"role": role, **({"ref": sheet["ref"]} if "ref" in sheet else {})}


def check_can_act(sheet: dict, field: str) -> None:
    if incapacitated(sheet):
        raise err(
            f"{field}.statuses",
            _("{name} is out of the fight and cannot act (L321–325).").format(name=name_of(sheet, field)),
        )


def reaction_shot_due(sheet: dict, role: str, settings: dict) -> dict:
    """L317: a pinned model that moves or shoots draws a shot from its suppressor at once (A15: one a time, or
    as many as the suppressor likes: `shots` None)."""
    shots = 1 if settings.get("suppressor_reactions", "one_per_action") == "one_per_action" else None
    by = sheet["statuses"]["pinned"].get("by")
    return {"kind": "reaction_shot_due", **who(sheet, role), "by": by, "reason": "pinned", "shots": shots}


def check_alive(sheet: dict, field: str) -> None:
    if "dead" in (sheet.get("statuses") or {}):
        raise err(f"{field}.statuses", _("{name} is dead.").format(name=name_of(sheet, field)))


def check_not_disoriented(sheet: dict, field: str) -> None:
    if agents.has(sheet, "disoriented"):
        raise err(f"{field}.statuses", _("A disoriented model cannot do this (L311)."))


def reroll_wanted(sheet: dict, clean: dict, field: str) -> bool:
    """An Intercession re-roll: only when asked for and the agent has one left this round."""
    if not clean.get("use_reroll"):
        return False
    if sheet.get("rerolls", 0) < 1:
        raise err(
            f"{field}.rerolls",
            _("{name} has no Intercession re-roll left this round (L135).").format(name=name_of(sheet, field)),
        )
    return True


def note_reroll(record: dict, sheet: dict, effects: list, role: str) -> None:
    if record.get("rerolled"):
        from rules.systems.enforcers.wounds import emit

        emit(sheet, effects, {"kind": "reroll_used", **who(sheet, role)})


def spec_for(sheet: dict, stat: str, label: str, *, blessings=0, curses=0, modifier=0, reroll=False,
             crit_success=True, crit_effect=True, difficulty_bonus=0) -> RollSpec:  # fmt: skip
    value = agents.effective_stats(sheet)[stat]
    return RollSpec(
        label=T(
            "{label} ({stat} {value})",
            label=label if isinstance(label, Text) else T(label),
            stat=stat,
            value=value + difficulty_bonus,
        ),
        difficulty=value + difficulty_bonus,
        blessings=blessings,
        curses=curses,
        modifier=modifier,
        crit_chance=agents.crit_chance(sheet, stat),
        crit_success=crit_success,
        crit_effect=crit_effect,
        reroll=reroll,
        name=test_name(label if isinstance(label, Text) else T(label)),
    )


def bool_prob(runs, predicate) -> dict:
    return prob(rolling.probability_of(runs, predicate))


def dist(runs, key) -> list[dict]:
    return distribution(rolling.distribution_of(runs, key))


SHEET_AFTER = "sheet_after"  # the odds key of the joint outcome: what the players write on the sheets


def joint(runs, parts) -> list[dict]:
    """The exact joint distribution of what the players write on the sheets after the test: `parts(run)` names the
    sheet's values of one branch ({"target_hp": 3, "target_ap": 0, "target_state": "none", "target_bleeding":
    True}); the answer lists each distinct value once, {"value": {...}, "exact", "p"}, sorted by its parts. The
    existing fields (target_hp, p_bleeding …) are its marginals, exactly."""
    acc: dict[tuple, Fraction] = {}
    for p, run in runs:
        key = tuple(parts(run).items())
        acc[key] = acc.get(key, Fraction(0)) + p

    def order(kv):
        return tuple((isinstance(v, str), str(v) if isinstance(v, str) else v) for _name, v in kv[0])

    return [{"value": dict(key), **prob(p)} for key, p in sorted(acc.items(), key=order) if p]


def sheet_parts(prefix: str, hp: int, ap: int, statuses, tracked=()) -> dict:
    """One agent's sheet after a test, as parts of a joint outcome: HP, AP, its wound state, and whether it has each
    of the `tracked` statuses (a weapon's traits, Fear)."""
    from rules.systems.enforcers.wounds import current_wound

    present = set(statuses)
    state = current_wound({"statuses": dict.fromkeys(present)})
    return {f"{prefix}hp": hp, f"{prefix}ap": ap, f"{prefix}state": state,
            **{f"{prefix}{s}": s in present for s in tracked}}  # fmt: skip


def expected(runs, value) -> dict:
    from rules.contract import exact

    return exact(rolling.expectation_of(runs, value))


class EnfAction(CleanAction):
    """The frame of «Энфорсеры»'s actions (CleanAction: full settings, validate, then the procedure on the clean
    inputs). Each action writes its procedure once, run(clean, settings, roller), against a roller (rolling.py):
    resolve_clean() runs it with the dice, odds_clean() over every branch, which summarise() makes the odds of.
    Subclasses implement check_inputs(), run(clean, settings, roller) and summarise(clean, settings, runs)."""

    settings_catalogue = CATALOGUE

    def describe(self) -> dict:
        """Label, description, the input schema's titles and help, and the odds' keys in the reader's language."""
        from rules.systems.enforcers.actions.labels import result_labels, translated_schema, value_labels

        return {**super().describe(), "label": _(self.label), "description": _(self.description),
                "input_schema": translated_schema(self.input_schema), "result_labels": result_labels(),
                "value_labels": value_labels()}  # fmt: skip

    def resolve_clean(self, clean: dict, settings: dict, dice) -> Outcome:
        run = self.run(clean, settings, rolling.LiveRoller(dice, settings))
        return self.outcome(run.summary, run.result, run.effects, run.steps)

    def odds_clean(self, clean: dict, settings: dict) -> dict:
        return self.summarise(clean, settings, self.runs_clean(clean, settings))

    def runs(self, inputs: dict, settings: dict) -> list[tuple[Fraction, Run]]:
        """Every branch of the procedure with its probability (tests and the odds page read these)."""
        settings = self.full_settings(settings)
        return self.runs_clean(self.validate(inputs, settings), settings)

    def runs_clean(self, clean: dict, settings: dict) -> list[tuple[Fraction, Run]]:
        return rolling.enumerate_runs(lambda roller: self.run(clean, settings, roller), settings)

    @abstractmethod
    def run(self, clean: dict, settings: dict, roller) -> Run: ...

    @abstractmethod
    def summarise(self, clean: dict, settings: dict, runs: list[tuple[Fraction, Run]]) -> dict: ...
