"""The odds and the rule at the moment of the roll (issue #31): a system's optional `at_roll` part.

The board knows the units, their state and the battle's settings; the system knows which of its actions a command
rolls and how the board maps to that action's inputs. This part joins the two, so that a command's form shows the
exact odds before the dice fall, computed by the same `Action.odds` the odds API answers with:

    at_roll.roll_odds(state, "shoot", {"unit": "0.1", "target": "1.2", "distance": 12}, viewer_sides)
        → RollOdds(action="real_shot", inputs={...the action's inputs...}, headline="p_destroyed")

The generic board (battles/odds.py, static/battles/odds.js) asks it as the player fills the form, and ranks the
values of a field ("which target?", "which weapon?") by the headline chance. A form with a missing or refused input
shows no odds: `roll_odds` raises RuleInputError naming what is missing, as the command itself would.

`rules` holds each command's and each status's rule in the book's words (Russian in the system's catalogue, the
msgid in English), with the section and page, and the battle setting that decides it where the book is ambiguous.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.contract.battle import GameState


@dataclass
class RollOdds:
    """The action whose exact odds a command's form shows, with its inputs built from the board.

    `headline`: the odds key that ranks targets and weapons (a chance: {"exact", "p"}, e.g. "p_destroyed") and
    `headline_label` what it means in words (a msgid, e.g. N_("destroyed")). `place`: where a resolved outcome falls
    (`where`), as (odds key of an ordered distribution, key of the outcome's result holding the value): the board
    says "a 12 % result" after the roll."""

    action: str
    inputs: dict
    headline: str = ""
    headline_label: str = ""
    place: tuple[str, str] | None = None


@dataclass(frozen=True)
class Rule:
    """A rule at hand: its title and a short statement in the book's words (msgids), the book's section and page,
    and the setting of the battle that decides it where the book is ambiguous (a key of the system's settings)."""

    title: str
    text: str
    source: str
    setting: str = ""


class AtRollPart:
    """Default: no command shows odds, no rule is at hand. A system fills in what it has."""

    #: {command name: (input fields a "which …?" view may vary, e.g. ("target", "weapon"))}
    compare_fields: dict[str, tuple[str, ...]] = {}
    #: {key: Rule}: a command's name, or a status's key (the board links each to its rule)
    rules: dict[str, Rule] = {}

    def roll_odds(self, state: GameState, command: str, inputs: dict, sides: frozenset[int]) -> RollOdds | None:
        """The action and inputs whose odds the form of `command` shows for these (possibly unfinished) inputs on
        this state, as seen by `sides`. None: the command rolls nothing. Raise RuleInputError naming what is missing
        or refused: the form then shows no odds and says why."""
        return None

    def rule(self, key: str) -> Rule | None:
        return self.rules.get(key)
