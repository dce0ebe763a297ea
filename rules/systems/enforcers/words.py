"""The book's words for the codes the rules pass around (statuses, wound states, roles, Fear actions, injury tiers,
fire modes …), as texts (texts.py) so a log line that names them is read in the reader's language. The Russian is
the glossary's (glossary.py), in the package's catalogue (locale/ru)."""

from __future__ import annotations

from rules.i18n import N_
from rules.systems.enforcers.texts import T, Text, join

STATUS = {
    "fear": N_("Fear"),
    "bleeding": N_("Bleeding"),
    "poisoned": N_("Poisoned"),
    "burning": N_("Burning"),
    "stunned": N_("Stunned"),
    "disoriented": N_("Disoriented"),
    "pinned": N_("Pinned"),
    "seriously_wounded": N_("Seriously wounded"),
    "dying": N_("Dying"),
    "dead": N_("dead (status)"),
}
STATE = {**STATUS, "none": N_("unhurt")}
# Who plays a part in an action, when the sheet carries no name (the odds page, a bare API call).
ROLE = {
    "agent": N_("The agent"),
    "target": N_("The target"),
    "shooter": N_("The shooter"),
    "thrower": N_("The thrower"),
    "attacker": N_("The attacker"),
    "defender": N_("The defender"),
    "healer": N_("The healer"),
    "priest": N_("The priest"),
    "repairer": N_("The repairer"),
    "stray_victim": N_("a model on the line"),
    "model": N_("The model"),
}
FEAR_ACTION = {"fight": N_("Fight (Fear)"), "flee": N_("Flee"), "freeze": N_("Freeze"), "melee": N_("Melee")}
TIER = {"light": N_("light injury"), "medium": N_("medium injury"), "critical": N_("critical injury")}
COVER = {"none": N_("no cover"), "partial": N_("partial cover"), "full": N_("full cover")}
RANGE = {"short": N_("short range"), "medium": N_("medium range"), "long": N_("long range")}
FIRE_MODE = {"single": N_("single shot"), "burst": N_("burst fire"), "auto": N_("automatic fire")}
AID_MODE = {"restore_hp": N_("restore HP"), "revive": N_("revive"), "stabilize": N_("stabilize")}
FALL_DAMAGE = {"whole_height": N_("the whole height"), "excess": N_("the excess only")}


# A prayer's card (L129–138) in the reader's language, by its key: the pack keeps the book's Russian cells, the
# catalogue the same words for a Russian reader.
PRAYER_RANGE = {"touch": N_("Touch"), "line_of_sight": N_("In line of sight")}
PRAYER_EFFECT = {
    "anointing": N_("The target may take an HL test. On a success it may heal 1 HP or shed one status."),
    "benediction": N_("Raises every crit chance of the target by 2."),
    "intercession": N_("The target may re-roll 1 test a round."),
    "last_rites": N_("The target's soul goes to the Emperor. For the dying."),
}


def prayer_card(data: dict) -> tuple[str, str]:
    """(«1 Раунд · Линия видимости», the effect) of a prayer, in the reader's language; a prayer of a custom pack
    without the book's keys keeps its own words."""
    from rules.i18n import _, ngettext

    rounds = data.get("duration_rounds")
    if isinstance(rounds, int):
        duration = _("Instant") if rounds == 0 else ngettext("{n} round", "{n} rounds", rounds).format(n=rounds)
    else:
        duration = data.get("duration") or ""
    reach = _(PRAYER_RANGE[data["range_kind"]]) if data.get("range_kind") in PRAYER_RANGE else data.get("range", "")
    effect = _(PRAYER_EFFECT[data["key"]]) if data.get("key") in PRAYER_EFFECT else data.get("effect", "")
    return " · ".join(x for x in (duration, reach) if x), effect


def word(table: dict, key) -> Text | str:
    """The word for a code, or the code itself when the table does not know it (a custom status)."""
    return T(table[key]) if key in table else str(key)


def status(key: str) -> Text | str:
    return word(STATE, key)


def statuses(keys) -> Text:
    return join(", ", [status(k) for k in keys])


def role(name: str) -> Text | str:
    """A role's word: "target", "The target" and "targets.2" all read as the target."""
    key = str(name).lower().removeprefix("the ").split(".")[0].rstrip("s") if name else "model"
    key = {"stray_victim": "stray_victim", "target": "target"}.get(key, key)
    return T(ROLE[key]) if key in ROLE else T(ROLE["model"])
