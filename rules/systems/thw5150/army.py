"""Army building for «5150» (spec §2.1–§2.9): a force of figures, each a Rep bought from the Normals list plus the
weapons, armour and grenades its player picks, in groups with Leaders.

A roster entry (see rules/contract/army.py) is one profile (У5/У4/У3 of a kind of Normals) × count, with options:
    {"weapon": ranged slug | null, "second_weapon": pistol/SMG slug | null (two-gun firing),
     "melee_weapon": melee slug | null (null: fights unarmed, free), "armour": armour slug,
     "grenades": n (14 points each, §5 A16), "group": name, "leader": bool, "star": bool}
Pricing is the book's «китайское меню» (L326–345): Rep + weapons + armour + grenades. The introductory game is
1000 points (L333); a roster's own limit replaces it. Going over is an error; the book's advice is a warning.
"""

from __future__ import annotations

import secrets

import jsonschema

from rules.contract import ArmyPart, BuilderResult, BuilderTool, Issue, RosterReport, RuleInputError
from rules.i18n import N_, _
from rules.systems.thw5150 import equipment, random_normal

INTRO_POINTS = 1000  # «Для вводной игры стоит начать с 1000 очков» (L333)
INTRO_FIGURES = 10  # «от 1 до 10» (L311–312), «10 будет хорошим числом для начинающих» (L122–123)
GRENADE_COST = equipment.GRENADES["cost"]
NOT_FOR_NORMALS = ("exo", "battle")  # «Они не могут иметь экзо-броню или Боевую Броню» (L1459–1460)
FACTION_NAMES = {f["slug"]: f["name"] for f in equipment.PACK["factions"]}
BUYABLE_RANGED = sorted(slug for slug in equipment.RANGED if slug != "grenades")

PROFILE_SCHEMA = {
    "type": "object",
    "required": ["slug", "name", "kind", "cost", "data"],
    "properties": {
        "slug": {"type": "string", "pattern": r"^[a-z0-9_-]+$", "maxLength": 80},
        "name": {"type": "string", "minLength": 1, "maxLength": 120},
        "faction": {"type": "string", "maxLength": 80},
        "kind": {"enum": ["figure"]},
        "cost": {"type": "integer", "minimum": 0, "maximum": 1000, "description": "Points for the Rep"},
        "notes": {"type": "string", "maxLength": 1000},
        "data": {
            "type": "object",
            "required": ["rep"],
            "additionalProperties": False,
            "properties": {
                "rep": {"type": "integer", "minimum": 1, "maximum": 7, "description": "Умение"},
                "race": {"type": "string", "maxLength": 80},
                "random_roll": {"type": "array", "items": {"type": "integer"}, "maxItems": 2},
                "abilities": {"type": "array", "items": {"type": "string", "maxLength": 80}, "maxItems": 10},
            },
        },
    },
}

OPTIONS_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "weapon": {"enum": [*BUYABLE_RANGED, None], "description": "Стрелковое оружие"},
        "second_weapon": {"enum": [*sorted(equipment.TWO_GUN_WEAPONS), None], "description": "Two-gun firing"},
        "melee_weapon": {"enum": [*sorted(equipment.MELEE), None], "description": "Оружие ближнего боя"},
        "armour": {"enum": sorted(equipment.ARMOUR), "description": "Персональная защита"},
        "grenades": {"type": "integer", "minimum": 0, "maximum": 20, "description": "Гранаты, 14 points each"},
        "group": {"type": "string", "minLength": 1, "maxLength": 40, "description": "The group it starts in"},
        "leader": {"type": "boolean", "description": "The group's Leader"},
        "star": {"type": "boolean", "description": "A Star: plays as a «Герой» from the start"},
        "random": {
            "type": "object",
            "maxProperties": 8,
            "description": "How a random Normal was rolled (seed and dice), kept to be shown",
            "properties": {"seed": {"type": "integer", "minimum": 0}, "rolls": {"type": "object"}},
        },
    },
}
DEFAULT_OPTIONS = {
    "weapon": "pistol",
    "second_weapon": None,
    "melee_weapon": None,
    "armour": "none",
    "grenades": 0,
    "group": "1",
    "leader": False,
    "star": False,
}


def options_of(entry: dict) -> dict:
    options = entry.get("options")
    return {**DEFAULT_OPTIONS, **(options if isinstance(options, dict) else {})}


def count_of(entry: dict) -> int:
    count = entry.get("count", 1)
    return count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else 0


def figure_cost(profile: dict, options: dict) -> int:
    """Rep + weapons + armour + grenades, as the spec's D14 adds them (У4 66 + assault rifle 41 + ЛБ 27 = 134)."""
    cost = int(profile.get("cost") or 0)
    for key in ("weapon", "second_weapon"):
        if options.get(key) in equipment.RANGED:
            cost += equipment.RANGED[options[key]]["cost"]
    if options.get("melee_weapon") in equipment.MELEE:
        cost += equipment.MELEE[options["melee_weapon"]]["cost"]
    cost += equipment.ARMOUR.get(options.get("armour"), {}).get("cost") or 0
    grenades = options.get("grenades") or 0
    return cost + GRENADE_COST * (grenades if isinstance(grenades, int) else 0)


def _issue(issues: list, severity: str, code: str, message: str, entry: str | None = None) -> None:
    issues.append(Issue(severity=severity, code=code, message=message, entry=entry))


def _check_entry(e: dict, options: dict, issues: list) -> None:
    key, profile = e["key"], e["profile"]
    name = profile.get("name", key)
    faction = profile.get("faction")
    errors = list(jsonschema.Draft202012Validator(OPTIONS_SCHEMA).iter_errors(e.get("options") or {}))
    if errors:
        _issue(
            issues,
            "error",
            "bad_options",
            _("{name}: the choices cannot be read ({why}).").format(name=name, why=errors[0].message),
            key,
        )
        return
    for field in ("weapon", "second_weapon"):
        slug = options.get(field)
        if slug is None:
            continue
        w = equipment.RANGED[slug]
        if faction in FACTION_NAMES and faction not in w["available_to"]:
            who = ", ".join(FACTION_NAMES[f] for f in w["available_to"])
            _issue(
                issues,
                "error",
                "weapon_not_available",
                _("{name}: «{weapon}» is only for {who} (L1511).").format(name=name, weapon=w["name"], who=who),
                key,
            )
    if options.get("second_weapon"):
        first = options.get("weapon")
        if first not in equipment.TWO_GUN_WEAPONS:
            _issue(
                issues,
                "error",
                "two_gun",
                _(
                    "{name}: firing two guns needs two pistols or two SMGs (L780–781); the first weapon is not one."
                ).format(name=name),
                key,
            )
    if options.get("grenades") and faction in FACTION_NAMES and faction not in equipment.GRENADES["available_to"]:
        _issue(
            issues,
            "error",
            "grenades_not_available",
            _("{name}: only Police and Colonists have grenades (L1512).").format(name=name),
            key,
        )
    if options.get("armour") in NOT_FOR_NORMALS:
        armour = equipment.ARMOUR[options["armour"]]["name"]
        _issue(
            issues,
            "error",
            "armour_not_available",
            _("{name}: Normals cannot wear «{armour}» (L1459–1460).").format(name=name, armour=armour),
            key,
        )
    if options.get("weapon") is None and options.get("melee_weapon") is None:
        _issue(
            issues,
            "warning",
            "unarmed",
            _("{name} carries no weapon and can only fight unarmed.").format(name=name),
            key,
        )


def cost_roster(roster: dict) -> RosterReport:
    entries = [e for e in roster.get("entries") or [] if isinstance(e, dict) and isinstance(e.get("profile"), dict)]
    issues: list[Issue] = []
    entry_costs: dict[str, int] = {}
    total = figures = stars = lasers = 0
    groups: dict[str, int] = {}  # group -> leaders in it
    kinds = set()
    for e in entries:
        count, options = count_of(e), options_of(e)
        if count == 0:
            _issue(
                issues, "error", "bad_count", _("The number of figures must be a whole number of 1 or more."), e["key"]
            )
        _check_entry(e, options, issues)
        cost = figure_cost(e["profile"], options) * count
        entry_costs[e["key"]] = cost
        total += cost
        figures += count
        group = str(options.get("group") or "1")
        groups[group] = groups.get(group, 0) + (count if options.get("leader") else 0)
        stars += count if options.get("star") else 0
        lasers += count if equipment.RANGED.get(options.get("weapon") or "", {}).get("kind") == "beam" else 0
        kinds.add(e["profile"].get("faction"))
    for group, leaders in sorted(groups.items()):
        if leaders == 0:
            _issue(issues, "warning", "no_leader",
                   _("Group {group} has no Leader: every group has one (L264); without him the highest Rep only "
                   "activates the group, with no 3d6 and no Leader Die (L289–294).").format(group=group))  # fmt: skip
        elif leaders > 1:
            _issue(issues, "warning", "many_leaders",
                   _("Group {group} has {leaders} Leaders: only one gives the Leader Die; split the group.").format(
                   group=group, leaders=leaders))  # fmt: skip
    if len(kinds - {None}) > 1:
        names = ", ".join(FACTION_NAMES.get(k, str(k)) for k in sorted(k for k in kinds if k))
        _issue(issues, "info", "mixed_kinds", _("This force mixes kinds of Normals ({names}).").format(names=names))
    if stars:
        _issue(issues, "info", "stars",
               _("The basic rules have no Star/Grunt split: a Star plays as a Hero from the start (setting \"Stars "
                 "play as Heroes\")."))  # fmt: skip
    if lasers:
        _issue(issues, "info", "lasers", _('Normals have laser weapons "in very limited numbers" (L1445–1446).'))
    if figures > INTRO_FIGURES:
        _issue(issues, "warning", "many_figures",
               _("{n} figures: the book suggests 1 to 10 for an introductory game (L311–312).").format(n=figures))  # fmt: skip
    limit = roster.get("points_limit") or INTRO_POINTS
    if total > limit:
        if roster.get("points_limit"):
            over = _("The force costs {total}, over its limit of {limit} by {by}.")
        else:
            over = _("The force costs {total}, over the introductory game's {limit} points (L333) by {by}.")
        _issue(issues, "error", "over_limit", over.format(total=total, limit=limit, by=total - limit))
    return RosterReport(total=total, entry_costs=entry_costs, issues=issues)


MAX_SEED = 2**53 - 1  # a seed a phone's number field keeps exactly
NEW_SEEDS = 1_000_000  # a new seed short enough to say across the table
LAW_LEVELS = (("normal", N_("Normal (+0)")), ("lax", N_("Lax (+1)")), ("low", N_("Low (+2)")))

RANDOM_NORMAL = BuilderTool(
    key="random-normal",
    label=N_("Roll a random Normal"),
    help=N_(
        "By the book's tables: Rep 1d6; weapon 2d6 + law level + 1 for a Leader, then 2d6 for a laser (12); armour "
        "2d6 + the same, 12+ on the special armour table. The seed and every die are shown; the same seed gives the "
        "same figure."
    ),
    fields=(
        {"name": "seed", "label": N_("Seed (empty: a new one)"), "type": "int", "min": 0, "max": MAX_SEED},
        {"name": "leader", "label": N_("A Leader (+1 to weapon and armour)"), "type": "check"},
        {"name": "law_level", "label": N_("Planet law level"), "type": "select", "choices": LAW_LEVELS},
    ),
    input_schema={
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "seed": {"type": "integer", "minimum": 0, "maximum": MAX_SEED},
            "leader": {"type": "boolean"},
            "law_level": {"enum": [k for k, _label in LAW_LEVELS]},
        },
    },
)


def roll_figure(roster: dict, profiles: list[dict], inputs: dict) -> BuilderResult:
    """One random Normal of the roster's kind: the profile of its Rep, the weapon and armour the tables gave."""
    seed = inputs["seed"] if "seed" in inputs else secrets.randbelow(NEW_SEEDS)
    leader = bool(inputs.get("leader"))
    law = inputs.get("law_level", "normal")
    figure = random_normal.roll_random_normal(seed=seed, leader=leader, settings={"law_level": law})
    faction = roster.get("faction")
    profile = next(
        (p for p in profiles if p.get("faction") == faction and (p.get("data") or {}).get("rep") == figure["rep"]),
        None,
    )
    if profile is None:
        raise RuleInputError(
            {"tool": _("This pack has no Rep {rep} figure of «{faction}».").format(rep=figure["rep"], faction=faction)}
        )
    record = {"seed": seed, "leader": leader, "law_level": law, "modifier": figure["modifier"],
              "rolls": figure["rolls"]}  # fmt: skip
    options = {**DEFAULT_OPTIONS, "weapon": figure["weapon"], "armour": figure["armour"], "leader": leader,
               "random": record}  # fmt: skip
    lines = [
        _("Random Normal, seed {seed}: {figure}.").format(seed=seed, figure=said_figure(figure)),
        *said_rolls(record),
    ]
    result = {k: figure[k] for k in ("rep", "weapon", "armour", "cost", "modifier", "rolls", "dice")}
    return BuilderResult(
        entries=[{"profile": profile["slug"], "count": 1, "options": options}],
        lines=lines,
        result={**result, "seed": seed, "profile": profile["slug"]},
    )


def said_figure(figure: dict) -> str:
    return _("Rep {rep}, {weapon}, {armour}").format(
        rep=figure["rep"], weapon=figure["weapon_name"], armour=figure["armour_name"]
    )


def _dice(values) -> str:
    return " + ".join(str(v) for v in values)


def said_rolls(record: dict) -> list[str]:
    """Every die of a random Normal as the player reads it."""
    rolls, mod = record["rolls"], record.get("modifier", 0)
    plus = f" + {mod}" if mod else ""
    lines = [
        _("Rep: 1d6 = {roll}.").format(roll=rolls["rep"]),
        _("Weapon: {dice}{plus} = {total}; laser check {laser}.").format(
            dice=_dice(rolls["weapon"]), plus=plus, total=sum(rolls["weapon"]) + mod, laser=_dice(rolls["laser_check"])
        ),
        _("Armour: {dice}{plus} = {total}.").format(
            dice=_dice(rolls["armour"]), plus=plus, total=sum(rolls["armour"]) + mod
        ),
    ]
    if rolls.get("special_armour"):
        lines.append(_("Special armour: {dice}.").format(dice=_dice(rolls["special_armour"])))
    return lines


# Entry views ---------------------------------------------------------------------------------------------------
def _choices(slugs, table: dict, value, *, none_label: str | None = None, blocked=()) -> list[dict]:
    out = [{"value": None, "label": none_label, "selected": value is None}] if none_label is not None else []
    for slug in slugs:
        item = table[slug]
        cost = item.get("cost") or 0
        label = f"{item['name']} ({cost})" if cost else item["name"]
        out.append({"value": slug, "label": label, "selected": slug == value, "disabled": slug in blocked})
    return out


def _yes_no(value: bool) -> list[dict]:
    return [{"value": False, "label": _("no"), "selected": not value}, {"value": True, "label": _("yes"),
            "selected": bool(value)}]  # fmt: skip


def entry_view(entry: dict) -> dict:
    o = options_of(entry)
    rep = (entry["profile"].get("data") or {}).get("rep")
    blocks = [
        {"type": "choice", "option": "weapon", "label": _("Ranged weapon"), "resets": [],
         "choices": _choices(BUYABLE_RANGED, equipment.RANGED, o["weapon"], none_label="—")},
        {"type": "choice", "option": "second_weapon", "label": _("Second gun (firing with both hands)"), "resets": [],
         "choices": _choices(sorted(equipment.TWO_GUN_WEAPONS), equipment.RANGED, o["second_weapon"], none_label="—")},
        {"type": "choice", "option": "melee_weapon", "label": _("Melee weapon"), "resets": [],
         "choices": _choices(sorted(equipment.MELEE), equipment.MELEE, o["melee_weapon"], none_label=_("unarmed"))},
        {"type": "choice", "option": "armour", "label": _("Personal protection"), "resets": [],
         "choices": _choices(sorted(equipment.ARMOUR), equipment.ARMOUR, o["armour"], blocked=NOT_FOR_NORMALS)},
        {"type": "number", "option": "grenades", "label": _("Grenades"), "value": o["grenades"], "min": 0, "max": 20},
        {"type": "input", "option": "group", "label": _("Group"), "value": o["group"]},
        {"type": "choice", "option": "leader", "label": _("Leader"), "resets": [], "choices": _yes_no(o["leader"])},
        {"type": "choice", "option": "star", "label": _("Star (Hero)"), "resets": [],
         "choices": _yes_no(o["star"])},
    ]  # fmt: skip
    summary = _("Rep {rep}, {weapon}, {armour}").format(
        rep=rep,
        weapon=equipment.RANGED.get(o["weapon"] or "", {}).get("name", "—"),
        armour=equipment.ARMOUR.get(o["armour"], {}).get("name", "—"),
    )
    if o["grenades"]:
        summary += ", " + _("grenades: {n}").format(n=o["grenades"])
    summary += ", " + _("group {group}").format(group=o["group"]) + (", " + _("Leader") if o["leader"] else "")
    lines = [summary]
    record = o.get("random")
    if isinstance(record, dict) and isinstance(record.get("rolls"), dict):
        try:
            rolled = [_("Rolled with seed {seed}.").format(seed=record.get("seed")), *said_rolls(record)]
        except (KeyError, TypeError):  # an imported record that is not ours: say nothing rather than fail
            rolled = []
        if rolled:
            blocks.insert(0, {"type": "text", "text": " ".join(rolled)})
            lines.append(" ".join(rolled))
    return {"blocks": blocks, "card": [{"type": "text", "text": summary}], "summary": summary, "lines": lines}


def entry_views(roster: dict) -> dict[str, dict]:
    return {
        e["key"]: entry_view(e)
        for e in roster.get("entries") or []
        if isinstance(e, dict) and isinstance(e.get("profile"), dict) and "key" in e
    }


class Thw5150Army(ArmyPart):
    """Figures priced by the book's points: Rep from the Normals list, weapons, armour and grenades."""

    pricing = "points"
    currency = "pts"
    profile_schema = PROFILE_SCHEMA
    profile_kinds = {"figure": N_("Figure")}  # armies/systems.py reads it in the reader's language

    def options_schema(self, profile: dict) -> dict:
        return OPTIONS_SCHEMA

    def default_options(self, profile: dict) -> dict:
        return dict(DEFAULT_OPTIONS)

    def cost_roster(self, roster: dict) -> RosterReport:
        return cost_roster(roster)

    builder_tools = (RANDOM_NORMAL,)

    def run_builder_tool(self, key: str, roster: dict, profiles: list[dict], inputs: dict) -> BuilderResult:
        if key != RANDOM_NORMAL.key:
            return super().run_builder_tool(key, roster, profiles, inputs)
        return roll_figure(roster, profiles, inputs)

    def entry_views(self, roster: dict) -> dict[str, dict]:
        return entry_views(roster)


ARMY = Thw5150Army()
