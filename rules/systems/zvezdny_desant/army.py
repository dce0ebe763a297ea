"""Army building for «Звездный Десант» (spec §2, L740–760): unit cost = its figures + their weapons' extra costs +
upgrades (all from the ЛБХ); army cost = the sum; «Стычка» allows 500 points (501 is an error). Mixing factions is
a warning, an error at tournaments (L758–760).

The contract's cost_roster() gets no system settings, so a roster may carry them under "settings" (the battle's or
the club's: army_limit, tournament, mixed_stk); a roster's own points_limit, when set, wins over army_limit.
"""

from __future__ import annotations

import jsonschema

from rules.contract import ArmyPart, Issue, RosterReport, RuleInputError
from rules.i18n import N_, _
from rules.systems.zvezdny_desant import profile as lbh
from rules.systems.zvezdny_desant import roster_view, tables
from rules.systems.zvezdny_desant.glossary import GLOSSARY
from rules.systems.zvezdny_desant.settings import full_settings

EXAMPLE_CARD_COST = 50  # see example_roster
FACTION_WORDS = {"forcers": GLOSSARY["forcers"], "humans": GLOSSARY["human_army"]}  # the example pack's sides


def _cost(value, typed: dict, key: str) -> tuple[int, bool]:
    """A cost from the profile, else typed from the card; (cost, known?)."""
    if value is not None:
        return int(value), True
    if key in typed:
        return int(typed[key]), True
    return 0, False


def cost_entry(entry: dict, settings: dict) -> tuple[int, list[Issue]]:
    """The cost of one roster entry (its count of units) and what is wrong with it, in plain words."""
    key = entry.get("key")
    prof = entry["profile"]
    name = prof.get("name") or prof.get("slug", "?")
    options = entry.get("options") or {}
    figures, weapons, upgrades = lbh.figures_of(prof), lbh.weapons_of(prof), lbh.upgrades_of(prof)
    typed = options.get("card_costs") or {}
    issues: list[Issue] = []
    unknown: set[str] = set()
    rows = lbh.loadout_of(entry)
    counts: dict[str, int] = {}
    per_unit = 0
    for row in rows:
        fig = figures.get(row["figure"])
        if fig is None:
            issues.append(
                Issue(
                    "error",
                    "unknown_figure",
                    _("{name}: the card has no figure «{figure}».").format(name=name, figure=row["figure"]),
                    key,
                )
            )
            continue
        counts[fig["key"]] = counts.get(fig["key"], 0) + row["count"]
        cost, known = _cost(fig.get("cost"), typed.get("figures") or {}, fig["key"])
        if not known:
            unknown.add(f"«{fig['name']}»")
        per_unit += cost * row["count"]
        weapon_key = row.get("weapon")
        if weapon_key is None:
            continue
        weapon = weapons.get(weapon_key)
        if weapon is None:
            issues.append(
                Issue(
                    "error",
                    "unknown_weapon",
                    _("{name}: the card has no weapon «{weapon_key}».").format(name=name, weapon_key=weapon_key),
                    key,
                )
            )
            continue
        if weapon_key not in (fig.get("weapons") or []):
            issues.append(
                Issue(
                    "error",
                    "weapon_not_allowed",
                    _("{name}: «{name2}» cannot carry «{name3}».").format(
                        name=name, name2=fig["name"], name3=weapon["name"]
                    ),
                    key,
                )
            )
        w_cost, known = _cost(weapon.get("cost", 0), typed.get("weapons") or {}, weapon_key)
        if not known:
            unknown.add(f"«{weapon['name']}»")
        per_unit += w_cost * row["count"]  # a weapon's extra cost adds to each figure carrying it (L68)
    total_figures = sum(counts.values())
    if total_figures == 0:
        issues.append(
            Issue("error", "empty_unit", _("{name}: a unit needs at least one figure.").format(name=name), key)
        )
    for fig in figures.values():
        n = counts.get(fig["key"], 0)
        low, high = fig.get("min", 0), fig.get("max", 10)
        if not low <= n <= high:
            issues.append(
                Issue(
                    "error",
                    "figure_count",
                    _("{name}: {n} × «{name2}», the card allows {low} to {high}.").format(
                        name=name, n=n, name2=fig["name"], low=low, high=high
                    ),
                    key,
                )
            )
    for up_key in options.get("upgrades") or []:
        upgrade = upgrades.get(up_key)
        if upgrade is None:
            issues.append(
                Issue(
                    "error",
                    "unknown_upgrade",
                    _("{name}: the card has no upgrade «{up_key}».").format(name=name, up_key=up_key),
                    key,
                )
            )
            continue
        cost, known = _cost(upgrade.get("cost"), typed.get("upgrades") or {}, up_key)
        if not known:
            unknown.add(f"«{upgrade['name']}»")
        per_unit += cost * (total_figures if upgrade.get("per") == "figure" else 1)
    stks = sorted({figures[k]["stk"] for k in counts if counts[k]})
    if len(stks) > 1:  # one pool of markers needs one СТК (L544, §5 A10)
        severity = "error" if settings["mixed_stk"] == "refuse" else "warning"
        listed = ", ".join(map(str, stks))
        text = (
            _("{name}: its figures have Tgh {stks}; a unit pools wounds against one Tgh.")
            if severity == "error"
            else _(
                "{name}: its figures have Tgh {stks}; a unit pools wounds against one Tgh, the lowest ({lowest}) "
                "is used."
            )
        )
        issues.append(Issue(severity, "mixed_stk", text.format(name=name, stks=listed, lowest=stks[0]), key))
    if unknown:  # never a silent 0: the roster is not valid until every cost is typed from the card (L754)
        issues.append(
            Issue(
                "error",
                "cost_unknown",
                _(
                    "{name}: type the cost of {unknown} from your ЛБХ card: the demo rules print no costs (L754)."
                ).format(name=name, unknown=", ".join(sorted(unknown))),
                key,
            )
        )
    return per_unit * int(entry.get("count", 1) or 1), issues


def cost_roster(roster: dict) -> RosterReport:
    settings = full_settings(roster.get("settings"))
    costs: dict[str, int] = {}
    issues: list[Issue] = []
    for entry in roster.get("entries") or []:
        cost, found = cost_entry(entry, settings)
        costs[entry["key"]] = cost
        issues += found
    total = sum(costs.values())
    limit = roster.get("points_limit")
    limit = settings["army_limit"] if limit is None else limit
    if total > limit:
        issues.append(
            Issue(
                "error",
                "over_limit",
                _(
                    "The army costs {total} points: at most {limit} are allowed («Skirmish»: 500, so 501 is too much, L756)."
                ).format(total=total, limit=limit),
            )
        )
    own = roster.get("faction") or ""
    factions = sorted({(e["profile"].get("faction") or "") for e in roster.get("entries") or []} - {""})
    foreign = [f for f in factions if f != own] if own else factions[1:]
    if foreign:
        listed = ", ".join(FACTION_WORDS.get(f, f) for f in factions)
        if settings["tournament"]:
            issues.append(
                Issue(
                    "error",
                    "mixed_factions",
                    _("Units of several factions ({factions}) are not allowed at tournaments (L760).").format(
                        factions=listed
                    ),
                )
            )
        else:
            issues.append(
                Issue(
                    "warning",
                    "mixed_factions",
                    _(
                        "This army mixes factions ({factions}): allowed by "
                        "agreement, not recommended, never at tournaments (L758–760)."
                    ).format(factions=listed),
                )
            )
    return RosterReport(total=total, entry_costs=costs, issues=issues)


def _option_error(path: list[str], value, profile: dict) -> str:
    """What is wrong with one field of an entry's options, in the player's words, naming what it is about."""
    if path[:1] == ["card_costs"]:
        tables = {"figures": lbh.figures_of(profile), "weapons": lbh.weapons_of(profile),
                  "upgrades": lbh.upgrades_of(profile)}  # fmt: skip
        item = tables.get(path[1], {}).get(path[2], {}) if len(path) > 2 else {}
        name = item.get("name") or (path[2] if len(path) > 2 else "")
        return _("«{name}»: a cost is a whole number of points from 0 to {most}.").format(
            name=name, most=roster_view.MAX_COST
        )
    if path[:1] == ["loadout"] and path[-1:] == ["count"]:
        return _("A number of figures is a whole number from 1 to {most}.").format(most=lbh.MAX_PER_FIGURE)
    if path[:1] == ["loadout"] and path[-1:] == ["figure"]:
        return _("The card has no figure «{value}».").format(value=value)
    if path[:1] == ["loadout"] and path[-1:] == ["weapon"]:
        return _("The card has no weapon «{value}».").format(value=value)
    if path[:1] == ["upgrades"] and len(path) > 1:
        return _("The card has no upgrade «{value}».").format(value=value)
    if path and path[0] not in ("loadout", "upgrades", "card_costs"):
        return _("This unit has no such choice.")
    return _("This value does not fit here.")


class ZvezdnyDesantArmy(ArmyPart):
    pricing = "points"
    currency = N_("points")
    profile_schema = lbh.PROFILE_SCHEMA
    profile_kinds = lbh.PROFILE_KINDS
    kind_groups = {"infantry": N_("Infantry")}

    @property
    def profile_editor(self) -> dict:  # read per request, so in the reader's language
        return lbh.translated(lbh.PROFILE_EDITOR)

    def options_schema(self, profile: dict) -> dict:
        return lbh.options_schema(profile)

    def default_options(self, profile: dict) -> dict:
        return lbh.default_options(profile)

    words_option_errors = True

    def validate_options(self, profile: dict, options: dict) -> dict:
        """The options schema's check, each error said in the player's words and naming its field."""
        validator = jsonschema.Draft202012Validator(self.options_schema(profile))
        errors: dict[str, str] = {}
        for err in sorted(validator.iter_errors(options), key=lambda e: [str(p) for p in e.absolute_path]):
            path = [str(p) for p in err.absolute_path]
            errors.setdefault(".".join(["options", *path]), _option_error(path, err.instance, profile))
        if errors:
            raise RuleInputError(errors)
        return options

    def cost_roster(self, roster: dict) -> RosterReport:
        return cost_roster(roster)

    def profile_note(self, profile: dict) -> str:
        """The first figure's stats, short enough for a 360 px line (the name already says «(пример)»)."""
        data = profile.get("data") or {}
        figs = data.get("figures") or [{}]
        f = figs[0]
        stat = tables.stat
        return (f"{stat('pdv')} {f.get('pdv')} · {stat('stk')} {f.get('stk')} · {stat('kbr')} "
                f"{tables.armour_letter(f.get('kbr'))} · {stat('bsp')} {f.get('bsp')}")  # fmt: skip

    def entry_views(self, roster: dict) -> dict[str, dict]:
        return roster_view.entry_views(roster)

    def example_roster(self, profiles: list[dict], side: int) -> dict:
        """Two units of one faction's first profile. The demo prints no costs (they are on the ЛБХ cards), so the
        example types a card cost of 50 per figure: 2 units × 5 figures = 500 points, exactly the «Стычка»
        limit (the only cost the book gives). Labelled as typed-in example costs, not the book's."""
        factions = sorted({p.get("faction", "") for p in profiles})
        faction = factions[side % len(factions)] if factions else ""
        chosen = next((p for p in profiles if p.get("faction", "") == faction), profiles[0])
        options = lbh.default_options(chosen)
        first = options["loadout"][0]
        options["loadout"] = [{**first, "count": 5}]
        typed = {"figures": {first["figure"]: EXAMPLE_CARD_COST}}
        weapon = lbh.weapons_of(chosen).get(first.get("weapon") or "")
        if weapon is not None and weapon.get("cost") is None:
            typed["weapons"] = {weapon["key"]: 0}
        options["card_costs"] = typed
        entries = [{"key": f"e{i}", "profile": chosen, "count": 1, "options": dict(options)} for i in (1, 2)]
        return {"faction": faction, "points_limit": 500, "entries": entries}


ARMY = ZvezdnyDesantArmy()
