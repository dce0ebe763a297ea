"""The turn: the initiative roll and its order (§3.1, L12, §5 B22), and the seven actions a unit may take after a
successful activation (§3.3, L17–24).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from rules.contract import prob
from rules.i18n import _
from rules.systems.squads import names, tables
from rules.systems.squads import names as book  # the names of the dice (the parameter `names` is the players')
from rules.systems.squads.actions.common import DISTANCE, WEAPON, SquadAction, deterministic, err, length, pair

MAX_REROLLS = 100  # a tie 100 times running has probability below 1e-70: the typed-in dice ran away


def _roll_order(dice, names: list[str], mods: dict, steps: list[str], rounds: list, settle_all: bool, depth=0):
    """Orders `names` by d6 + modifier, re-rolling ties among the tied (all ties, or only a tie for first)."""
    if depth > MAX_REROLLS:
        raise err("dice", _("The initiative kept tying; roll again."))
    if depth:
        again = _("(re-roll {n})").format(n=depth)
        scores = {n: dice.roll(6, f"{book.whose(book.INITIATIVE_DIE, n)} {again}") + mods[n] for n in names}
        line = _("Initiative (re-roll {n}): {scores}.")
    else:
        scores = {n: dice.roll(6, book.whose(book.INITIATIVE_DIE, n)) + mods[n] for n in names}
        line = _("Initiative: {scores}.")
    rounds.append(dict(scores))
    steps.append(line.format(n=depth, scores=", ".join(f"{n} {s}" for n, s in scores.items())))
    by_score: dict[int, list[str]] = {}
    for n in names:
        by_score.setdefault(scores[n], []).append(n)
    order: list[str] = []
    for score in sorted(by_score, reverse=True):
        tied = by_score[score]
        if len(tied) > 1 and (settle_all or not order):
            steps.append(_("A tie at {score}: {players} re-roll (L12).").format(score=score, players=", ".join(tied)))
            order += _roll_order(dice, tied, mods, steps, rounds, settle_all, depth + 1)
        else:
            order += tied  # lower ties keep the seating order (initiative_ties = top_only)
    return order


def _scores(mods: tuple[int, ...]):
    """Per player: {score: P(exactly)} and a function P(score < v)."""
    return [{d + m: Fraction(1, 6) for d in range(1, 7)} for m in mods]


@cache
def _p_first(mods: tuple[int, ...]) -> tuple[Fraction, ...]:
    """Exact P(each player ends first) when the players tied for first re-roll until one is alone (§3.1)."""
    n = len(mods)
    if n == 1:
        return (Fraction(1),)
    eq = _scores(mods)
    values = sorted({v for d in eq for v in d})
    win = [Fraction(0)] * n
    p_all_tie = Fraction(0)
    for v in values:
        below = [sum((p for s, p in eq[i].items() if s < v), Fraction(0)) for i in range(n)]
        at = [eq[i].get(v, Fraction(0)) for i in range(n)]
        for mask in range(1, 2**n):
            members = [i for i in range(n) if mask >> i & 1]
            p = Fraction(1)
            for i in range(n):
                p *= at[i] if mask >> i & 1 else below[i]
            if not p:
                continue
            if len(members) == 1:
                win[members[0]] += p
            elif len(members) == n:
                p_all_tie += p
            else:
                sub = _p_first(tuple(mods[i] for i in members))
                for k, i in enumerate(members):
                    win[i] += p * sub[k]
    return tuple(w / (1 - p_all_tie) for w in win)


def _p_decided_first_roll(mods: tuple[int, ...]) -> Fraction:
    """P(no tie for first on the first roll)."""
    eq = _scores(mods)
    total = Fraction(0)
    for v in sorted({v for d in eq for v in d}):
        for i in range(len(mods)):
            p = eq[i].get(v, Fraction(0))
            for j in range(len(mods)):
                if j != i:
                    p *= sum((q for s, q in eq[j].items() if s < v), Fraction(0))
            total += p
    return total


class Initiative(SquadAction):
    key = "initiative"
    label = "Initiative"
    spec_ref = "§3.1 (L12), §5 B22"
    description = (
        "Each player rolls d6 + scenario modifiers; ties are re-rolled. The highest activates first; on a failed "
        "activation the initiative passes to the next player (initiative order, or round the table, §5 B22)."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["players"],
        "properties": {
            "players": {
                "type": "array",
                "minItems": 2,
                "maxItems": 6,
                "description": "The players in seating order",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["name"],
                    "properties": {
                        "name": {"type": "string", "minLength": 1, "maxLength": 60},
                        "modifier": {"type": "integer", "minimum": -5, "maximum": 5, "description": "Scenario"},
                    },
                },
            }
        },
    }

    def check_inputs(self, inputs, settings):
        players = [p["name"] for p in inputs["players"]]
        if len(set(players)) != len(players):
            raise err("players", _("Each player is listed once."))
        return inputs

    def resolve_clean(self, clean, settings, dice):
        seating = [p["name"] for p in clean["players"]]
        mods = {p["name"]: p.get("modifier", 0) for p in clean["players"]}
        steps: list[str] = []
        rounds: list[dict] = []
        order = _roll_order(dice, seating, mods, steps, rounds, settings["initiative_ties"] == "all_ties")
        first = order[0]
        if settings["pass_order"] == "seating_order":
            start = seating.index(first)
            passes = seating[start:] + seating[:start]
        else:
            passes = order
        steps.append(
            _("First to activate: {player}; on a failed activation the initiative passes: {order}.").format(
                player=first, order=" → ".join(passes)
            )
        )
        effects = [{"kind": "initiative", "role": "game", "first": first, "order": order, "pass_order": passes}]
        result = {"first": first, "order": order, "pass_order": passes, "rolls": rounds}
        return self.outcome(_("The initiative: {player}.").format(player=first), result, effects, steps)

    def odds_clean(self, clean, settings):
        mods = tuple(p.get("modifier", 0) for p in clean["players"])
        first = _p_first(mods)
        return {
            "p_first": {p["name"]: prob(first[i]) for i, p in enumerate(clean["players"])},
            "p_decided_first_roll": prob(_p_decided_first_roll(mods)),
        }


def may_fire(action: str, weapon: str, settings: dict) -> bool:
    """Which weapons a unit may fire with its action (L18–24, §5 B6)."""
    if action in tables.NO_FIRE_ACTIONS or action == "assault":
        return False
    if action == "walk" and settings["walk_fire"] == "small_arms_and_grenades":
        w = tables.WEAPONS[weapon]
        return w.table == "small_arms" or w.thrown
    return True


class UnitAction(SquadAction):
    key = "unit_action"
    label = "Action after a successful activation"
    spec_ref = "§3.3 (L17–24), §5 B6"
    description = (
        'One of the seven actions: Walk 6" (may fire small arms or throw grenades), Run 12" (no fire), Crouch 8" '
        '(no fire, counts as in light cover), On Guard 0" (one reaction fire this turn), Go to ground 3" (no '
        'fire, cover +1), Aimed fire 0" (+1 to every fire die), Assault 8" (may start melee). No dice.'
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["action"],
        "properties": {
            "action": {"enum": list(tables.ACTIONS)},
            "moved": {**DISTANCE, "description": "How far the unit moves (checked against the action's move)"},
            "weapons": {"type": "array", "items": WEAPON, "maxItems": 50, "description": "The unit's weapons"},
        },
    }

    def check_inputs(self, inputs, settings):
        allowance = pair(tables.MOVES[inputs["action"]], settings)
        if inputs.get("moved", 0) > allowance:
            raise err(
                "moved",
                _("«{action}» moves at most {allowance} (got {moved}).").format(
                    action=names.action(inputs["action"]),
                    allowance=length(allowance, settings),
                    moved=length(inputs["moved"], settings),
                ),
                {"moved": allowance},
            )
        return inputs

    def _result(self, clean, settings) -> dict:
        action = clean["action"]
        weapons = clean.get("weapons", list(tables.WEAPONS))
        result = {
            "action": action,
            "name": names.action(action),
            "move": pair(tables.MOVES[action], settings),
            "units": settings["units"],
            "may_fire": sorted({w for w in weapons if may_fire(action, w, settings)}),
            "aimed": action == "aimed_fire",
            "counts_as_cover": "light" if action == "crouch" else None,
            "cover_bonus": 1 if action == "go_to_ground" else 0,
            "reaction": action == "on_guard",
            "may_assault": action == "assault",
        }
        if "moved" in clean:
            result["moved"] = clean["moved"]
        return result

    def resolve_clean(self, clean, settings, dice):
        result = self._result(clean, settings)
        effects = [{"kind": "stance", "role": "unit", "stance": clean["action"]}]
        if "moved" in clean:
            effects.append({"kind": "moved", "role": "unit", "distance": clean["moved"]})
        move = length(result["move"], settings)
        if result["may_fire"]:
            fire = ", ".join(names.weapon(w) for w in result["may_fire"])
            summary = _("{action}: move up to {move}; may fire: {weapons}.").format(
                action=result["name"], move=move, weapons=fire
            )
        else:
            summary = _("{action}: move up to {move}; no fire.").format(action=result["name"], move=move)
        return self.outcome(summary, result, effects, [summary])

    def odds_clean(self, clean, settings):
        return deterministic(self._result(clean, settings))
