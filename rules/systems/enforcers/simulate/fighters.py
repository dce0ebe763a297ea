"""Compiling a roster side into the one agent that fights the duel, and the duel's parameters.

A side is a roster snapshot ({"faction", "entries": [...]}) as the army part sees it. Its first hired agent
fights (a duel is agent against agent); its price is the army part's formula price of that one agent.

The texts a person reads (warnings, errors, a fighter's line, the parameters' labels) are msgids: `_()` where
they are made, in the language active then; `N_()` where the job form translates them (rules/jobs/forms.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.errors import RuleInputError
from rules.i18n import N_, _
from rules.systems.enforcers import agents, tables, words
from rules.systems.enforcers.army import HIRED_KINDS, agent_stats, entry_cost

# "title" labels a field, "description" helps, "x-labels" name an enum's values (rules/jobs/forms.py); all N_().
PARAMS_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "distance_cm": {"type": "integer", "minimum": 0, "maximum": 200, "default": 24,
                        "title": N_("Starting distance, cm"),
                        "description": N_("How far apart the two agents start, in cm")},
        "rounds": {"type": "integer", "minimum": 1, "maximum": 50, "default": 12, "title": N_("Rounds before a draw"),
                   "description": N_("Rounds before the duel is called a draw")},
        "cover": {"enum": list(tables.COVER_CURSES), "default": "none", "title": N_("Cover"),
                  "description": N_("Both agents' cover"), "x-labels": dict(words.COVER)},
        "default_band": {"enum": list(tables.RANGE_BAND), "default": "medium", "title": N_("Default range band"),
                         "description": N_("Range band of a weapon with no bands given (the book's table is missing)"),
                         "x-labels": dict(words.RANGE)},
        "unarmed_damage": {"type": "integer", "minimum": 0, "maximum": 10, "default": 1, "title": N_("Fist damage"),
                           "description": N_("Damage of a blow without a melee weapon (not in the book)")},
        "initiative": {"enum": ["last_picks_itself", "random"], "default": "last_picks_itself",
                       "title": N_("Popcorn initiative"),
                       "description": N_("Popcorn: the agent that went last picks itself first next round, or a coin"),
                       "x-labels": {"last_picks_itself": N_("the model that went last picks itself"),
                                    "random": N_("a coin toss")}},
    },
}  # fmt: skip
# A side's name as a person reads it; the label itself ("side_a") stays the key of a RuleInputError.
SIDE_NAMES = {"side_a": N_("Side A"), "side_b": N_("Side B")}
BANDS = ("short", "medium", "long")


@dataclass
class Weapon:
    name: str  # as the player wrote it ("" when unnamed: `default` names it in the reader's language)
    damage: int
    kinetic: bool
    reach: int = 0  # melee
    bands: dict[str, int] = field(default_factory=dict)  # ranged: upper bound of each band, cm
    default: str = ""  # a msgid: "fists", "melee weapon", "ranged weapon"

    def data(self) -> dict:
        return {"name": self.name, "default": self.default, "damage": self.damage, "reach": self.reach}

    def max_range(self) -> float:
        return float(max(self.bands.values())) if self.bands else float("inf")

    def band(self, distance: float, default: str) -> str | None:
        """The band a distance falls in (None: out of range)."""
        if not self.bands:
            return default
        for band in BANDS:
            if band in self.bands and distance <= self.bands[band]:
                return band
        return None


@dataclass
class Fighter:
    name: str
    price: int
    hp: int
    ap: int
    kinetic_reduction: int
    bs: int
    ws: int
    move: int
    crit_bs: int
    crit_ws: int
    melee: Weapon
    ranged: Weapon | None

    def data(self) -> dict:
        """The fighter as data (numbers and the names the player wrote): a job stores this, never a sentence, and
        the job page words it in the reader's language (`describe_fighter`)."""
        return {"name": self.name, "bs": self.bs, "ws": self.ws, "move": self.move, "hp": self.hp, "ap": self.ap,
                "price": self.price, "melee": self.melee.data(),
                "ranged": self.ranged.data() if self.ranged else None}  # fmt: skip

    def describe(self) -> str:
        """The fighter in one line, in the active language (the job page's forces)."""
        return describe_fighter(self.data())


def _weapon_name(w: dict) -> str:
    return w.get("name") or (_(w["default"]) if w.get("default") else "")


def describe_fighter(data: dict) -> str:
    """A stored fighter (Fighter.data) in one line, in the active language."""
    melee = data.get("melee") or {}
    values = {k: data.get(k) for k in ("name", "bs", "ws", "move", "hp", "ap", "price")}
    values.update(melee=_weapon_name(melee), melee_damage=melee.get("damage"), reach=melee.get("reach"))
    ranged = data.get("ranged")
    if not ranged:
        return _("{name}: BS {bs}, WS {ws}, move {move} cm, HP {hp}, AP {ap}; no ranged weapon; "
                 "{melee} {melee_damage} (reach {reach}); {price} REQ").format(**values)  # fmt: skip
    return _("{name}: BS {bs}, WS {ws}, move {move} cm, HP {hp}, AP {ap}; {ranged} {ranged_damage}; "
             "{melee} {melee_damage} (reach {reach}); {price} REQ").format(
        ranged=_weapon_name(ranged), ranged_damage=ranged.get("damage"), **values
    )  # fmt: skip


def _weapon(w: dict, default: str) -> Weapon:
    return Weapon(
        name=w.get("name") or "",
        damage=w.get("damage", 0),
        kinetic="kinetic" in (w.get("traits") or ()),
        reach=w.get("reach_cm", 0),
        bands={k: v for k, v in (w.get("range_bands_cm") or {}).items() if k in BANDS},
        default=default,
    )


def compile_side(side: dict, params: dict, settings: dict, label: str) -> tuple[Fighter, list[str]]:
    """The side's fighter and the warnings about it, in the active language; `label` ("side_a") keys the errors."""
    warnings: list[str] = []
    side_name = _(SIDE_NAMES[label]) if label in SIDE_NAMES else label
    hired = [e for e in side.get("entries") or [] if (e.get("profile") or {}).get("kind") in HIRED_KINDS]
    if not hired:
        raise RuleInputError({label: _("This side hires no agent: a duel needs one archetype entry.")})
    if len(hired) > 1 or hired[0].get("count", 1) != 1:
        warnings.append(_("{side}: only the first agent fights the duel.").format(side=side_name))
    entry = hired[0]
    profile, options = entry["profile"], dict(entry.get("options") or {})
    stats = agent_stats(profile, options)
    if stats is None:
        raise RuleInputError({label: _("{name} has no stats (the book gives none): set them first.").format(
            name=profile.get("name"))})  # fmt: skip
    armour = options.get("armour") if not (options.get("campaign") or {}).get("armour_broken") else None
    sheet = {"stats": stats, "armour": armour, "items": len(options.get("weapons") or []) + len(options.get("items") or []),
             "crit": (profile.get("data") or {}).get("crit") or {}}  # fmt: skip
    eff = agents.effective_stats(sheet)
    weapons = options.get("weapons") or []
    ranged = [w for w in weapons if w.get("ranged") or w.get("range_bands_cm")]
    melee = [w for w in weapons if w.get("reach_cm") and not w.get("ranged")]
    best_melee = (
        _weapon(max(melee, key=lambda w: w.get("damage", 0)), N_("melee weapon"))
        if melee
        else Weapon("", params["unarmed_damage"], False, 0, default=N_("fists"))
    )
    best_ranged = _weapon(max(ranged, key=lambda w: w.get("damage", 0)), N_("ranged weapon")) if ranged else None
    if not weapons:
        warnings.append(_("{side}: no weapons; it fights with its fists ({damage} damage).").format(
            side=side_name, damage=params["unarmed_damage"]))  # fmt: skip
    entry_armour = tables.armour(armour)
    fighter = Fighter(
        name=options.get("name") or profile.get("name") or side_name,
        price=entry_cost(profile, options),
        hp=eff["HL"],
        ap=entry_armour["ap"] if entry_armour else 0,
        kinetic_reduction=entry_armour["kinetic_reduction"] if entry_armour else 0,
        bs=eff["BS"],
        ws=eff["WS"],
        move=agents.max_move(sheet, settings),
        crit_bs=agents.crit_chance(sheet, "BS"),
        crit_ws=agents.crit_chance(sheet, "WS"),
        melee=best_melee,
        ranged=best_ranged,
    )
    return fighter, warnings


def action_choice(me: Fighter, distance: float) -> str:
    """The duel's policy, the same in both engines: fight when in reach and the blow is at least as hard as the
    shot; else shoot when in range; else move toward the enemy."""
    in_reach = distance <= me.melee.reach
    if in_reach and (me.ranged is None or me.melee.damage >= me.ranged.damage):
        return "melee"
    if me.ranged is not None and distance <= me.ranged.max_range():
        return "shoot"
    return "move"


def move_goal(me: Fighter) -> float:
    """Where a move stops: in reach of its blow if that is its best attack, else in range of its gun."""
    if me.ranged is None or me.melee.damage >= me.ranged.damage:
        return float(me.melee.reach)
    return me.ranged.max_range() if me.ranged.bands else float(me.melee.reach)
