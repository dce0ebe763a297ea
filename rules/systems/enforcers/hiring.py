"""A crew as the rules read it (spec §2.3–§2.5, L21–59): each agent's stats, gear and price, and the armour and
perks other entries of the roster give it. Pure functions over the roster the army part sees."""

from __future__ import annotations

from rules.systems.enforcers import tables

HIRED_KINDS = ("archetype",)
GIVEN_KINDS = ("armour", "perk")  # given to one of the crew's agents
CARD_KINDS = ("prayer",)  # a card of the crew's: who may pray it


def count_of(entry: dict) -> int:
    count = entry.get("count", 1)
    return count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else 0


def base_stats(profile: dict, options: dict) -> dict | None:
    """The entry's own stats (typed in or rolled), else the archetype's defaults (L23); None until all nine are
    given."""
    stats = options.get("stats") or (profile.get("data") or {}).get("stats")
    if not stats or any(s not in stats for s in tables.STATS):
        return None
    return dict(stats)


def missing_stats(profile: dict, options: dict) -> list[str]:
    """The stats the entry still lacks, in the book's order (L31–39)."""
    if (profile.get("data") or {}).get("stats") and not options.get("stats"):
        return []
    given = options.get("stats") or {}
    return [s for s in tables.STATS if s not in given]


def agent_stats(profile: dict, options: dict) -> dict | None:
    """Stats as hired (+1 to all per bump, L53) minus what injuries took (L256, L258)."""
    stats = base_stats(profile, options)
    if stats is None:
        return None
    bump = options.get("stat_bump", 0)
    losses = (options.get("campaign") or {}).get("stat_losses") or {}
    return {s: max(tables.STAT_MIN, v + bump - losses.get(s, 0)) for s, v in stats.items()}


def gear_spent(options: dict) -> int:
    """REQ of the agent's gear: armour (the table's price), weapons and items (the group's prices; the book prices
    no med-kit or magazine, spec §2.6)."""
    armour = tables.ARMOUR.get(options.get("armour") or "")
    spent = armour["req"] if armour else 0
    spent += sum(w.get("req", 0) for w in options.get("weapons") or [])
    spent += sum(i.get("req", 0) for i in options.get("items") or [])
    return spent


def entry_cost(profile: dict, options: dict) -> int:
    """REQ of one agent: the hire (L51–57) plus gear bought beyond what its own allowance covers."""
    data = profile.get("data") or {}
    own = options.get("own_gear", True)
    hire = tables.hire_cost(options.get("stat_bump", 0), own, data.get("gear_req", 0))
    if own:
        return hire  # its gear comes out of its own allowance (spending more is an error issue)
    return hire + gear_spent(options)


def label_of(entry: dict) -> str:
    """An entry as the player named it: the agent's name, else the profile's."""
    return (entry.get("options") or {}).get("name") or (entry.get("profile") or {}).get("name", "?")


def _entries(roster: dict) -> list[dict]:
    return [e for e in roster.get("entries") or [] if isinstance(e, dict) and isinstance(e.get("profile"), dict)]


def crew(roster: dict) -> dict[str, dict]:
    """{agent entry key: its options as the rules read them}: its own, plus the armour and the perks given to it by
    other entries ("given_armour" lists every armour given, for the check that it wears one)."""
    entries = _entries(roster)
    merged = {e["key"]: dict(e.get("options") or {}) for e in entries if e["profile"].get("kind") in HIRED_KINDS}
    for e in entries:
        kind, holder = e["profile"].get("kind"), (e.get("options") or {}).get("agent")
        if kind not in GIVEN_KINDS or holder not in merged:
            continue
        options = merged[holder]
        if kind == "armour":
            options["given_armour"] = [*options.get("given_armour", []), e["profile"].get("slug")]
            if not options.get("armour") and e["profile"].get("slug") in tables.ARMOUR:
                options["armour"] = e["profile"]["slug"]
        elif e["profile"].get("name") and e["profile"]["name"] not in (options.get("perks") or []):
            options["perks"] = [*(options.get("perks") or []), e["profile"]["name"]]
    return merged


def given_cost(entry: dict, merged: dict[str, dict]) -> int:
    """A piece of armour given to an agent: paid from that agent's allowance when it came with its own gear (L57),
    else at the table's price."""
    if entry["profile"].get("kind") != "armour":
        return 0
    holder = merged.get((entry.get("options") or {}).get("agent"))
    if holder is not None and holder.get("own_gear", True):
        return 0
    return count_of(entry) * entry["profile"].get("cost", 0)
