"""A scenario carried into a campaign roster (a crew): the system's campaign part rolls what happens after the
battle (injuries, repairs…) on the server, or with the dice typed in at the table, and answers each entry's new
options and a readable record; they are saved together with the roster's history, once per battle and side."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from armies import systems
from armies.campaign import campaign_part
from armies.models import Roster, ScenarioRecord
from armies.selectors import entry_for_rules, roster_entries, roster_for_rules
from armies.services.common import ServiceError, lock_and_bump, rule_errors
from rules import dice as dicelib


class ScenarioConflict(ServiceError):
    """The scenario cannot be carried now (409): the battle is not over, or it is carried already."""

    status = 409
    code = "conflict"


@transaction.atomic
def scenario_carry(
    *,
    roster: Roster,
    user,
    battle: dict,
    dice: list | None = None,
    seed: int | None = None,
    expected_version: int | None = None,
) -> ScenarioRecord:
    """Carries a finished battle (armies.campaign.battle_for_carry) into `roster`; changes nothing when refused."""
    part = campaign_part(roster.system)
    if part is None:
        raise ServiceError(
            _("{system} has no campaign: nothing carries over from a battle.").format(
                system=systems.system_name(roster.system)
            ),
            {"roster": _("not a campaign roster")},
        )
    if not battle["finished"]:
        raise ScenarioConflict(_("The battle is not over yet: end the scenario in the battle first."))
    lock_and_bump(roster, expected_version)
    done = ScenarioRecord.objects.filter(roster=roster, battle_id=battle["id"], side_index=battle["side"]).first()
    if done is not None:
        raise ScenarioConflict(
            _("This battle is already carried into the roster (scenario {number}).").format(number=done.number)
        )
    entries = {e.key: e for e in roster_entries(roster)}
    source = dicelib.dice_source(seed=seed, dice=dice)
    with rule_errors(_("The scenario cannot be carried:")):
        out = part.after_battle(
            roster=roster_for_rules(roster, entries=list(entries.values())),
            side_index=battle["side"],
            final=battle["final"],
            settings=battle["settings"],
            dice=source,
        )
        source.finish()
        before = {}
        for key, options in (out.get("entries") or {}).items():
            entry = entries.get(key)
            if entry is None:  # an entry removed since the battle: nothing to carry into
                continue
            cleaned = systems.validate_options(roster.system, entry_for_rules(entry)["profile"], options)
            before[key] = entry.options
            entry.options = cleaned
            entry.save(update_fields=["options"])
    number = (ScenarioRecord.objects.filter(roster=roster).aggregate(n=Max("number"))["n"] or 0) + 1
    return ScenarioRecord.objects.create(
        roster=roster,
        number=number,
        battle_id=battle["id"],
        battle_name=(battle.get("name") or "")[:120],
        side_index=battle["side"],
        played_at=battle["ended_at"],
        record=out.get("record") or {},
        dice=out.get("dice") or source.as_list(),
        options_before=before,
        created_by=user,
    )
