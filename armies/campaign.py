"""Reads of a campaign roster (a crew): its history of scenarios, and the finished battles it fought that may be
carried into it. Game-free: the system's campaign part (rules/contract/campaign.py) is reached only through the
registry, and the battles are read as plain data through the source settings name (battles/carry.py): the battles
app reads armies, never the other way round.

Who may carry a battle into a roster: the roster's owner, who played that roster's side in the battle (or created
the battle and left that side to nobody). Anyone else is told the battle does not exist (404).
"""

from __future__ import annotations

from django.conf import settings
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _

from armies.models import Roster, ScenarioRecord
from rules.contract import CampaignPart
from rules.registry import get_system, known


def campaign_part(system: str) -> CampaignPart | None:
    """The campaign part of a registered system, or None (unknown system, or one without a campaign)."""
    return get_system(system).campaign if known(system) else None


def render_text(text) -> str:
    """A record line kept as data ({"msgid", "params"}, a param may be such a text itself) in the reader's language;
    the system's catalogue holds the msgid. Older records keep plain strings."""
    if not isinstance(text, dict) or not isinstance(text.get("msgid"), str):
        return str(text)
    params = {k: render_text(v) for k, v in (text.get("params") or {}).items()}
    try:
        return _(text["msgid"]).format(**params)
    except (KeyError, IndexError, ValueError):
        return text["msgid"]


def scenario_dict(record: ScenarioRecord) -> dict:
    """One scenario as the page and the API show it."""
    data = record.record if isinstance(record.record, dict) else {}
    return {
        "number": record.number,
        "battle": record.battle_id,
        "battle_name": record.battle_name,
        "side": record.side_index,
        "played_at": record.played_at.isoformat(),
        "carried_at": record.created_at.isoformat(),
        "carried_by": record.created_by.get_username() if record.created_by_id else None,
        "agents": data.get("agents") or [],
        "repairs": data.get("repairs") or [],
        "lines": [render_text(t) for t in data["texts"]]
        if data.get("texts")
        else [str(line) for line in data.get("lines") or []],
        "dice": record.dice if isinstance(record.dice, list) else [],
    }


def roster_history(roster: Roster) -> list[dict]:
    """The crew's scenarios, the latest first."""
    records = ScenarioRecord.objects.filter(roster=roster).select_related("created_by").order_by("-number")
    return [scenario_dict(r) for r in records]


def _finished_battles():
    """The battles' side of carrying, named in settings (CAMPAIGN_BATTLES = "battles.carry.SOURCE"), so armies never
    imports the battles app, which imports armies."""
    return import_string(settings.CAMPAIGN_BATTLES)


def battles_to_carry(user, roster: Roster) -> list[dict]:
    """Finished battles of this roster that the user may carry and that are not carried yet, the latest first:
    [{"id", "name", "side", "ended_at"}]."""
    if campaign_part(roster.system) is None:
        return []
    carried = set(
        ScenarioRecord.objects.filter(roster=roster, battle_id__isnull=False).values_list("battle_id", "side_index")
    )
    return [b for b in _finished_battles().to_carry(user, roster) if (b["id"], b["side"]) not in carried]


def battle_for_carry(user, roster: Roster, battle_id) -> dict:
    """The finished battle to carry into `roster`, as plain data: {"id", "name", "side", "ended_at", "finished",
    "settings", "final"}, where `final` is the battle's final state as the campaign part reads it ({"game",
    "units": {key: {"side", "profile", "state"}}}). Http404 when the user may not carry it."""
    return _finished_battles().for_carry(user, roster, battle_id)
