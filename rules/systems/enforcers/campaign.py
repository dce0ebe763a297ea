"""The campaign part (rules/contract/campaign.py): after a scenario, each surviving agent of the side takes its
injury tests (§3.18, L236–258) and broken armour is repaired (§3.19, L260–268), with the dice source; the results
are carried into the roster entries' options ("campaign") and told in a readable record.

Armour left at 0 AP is broken. The team's living agents repair it, the one with the best IT first, one piece each
(L264); a piece nobody can try stays broken. Armour that kept AP is back to full (A14 setting; otherwise the
AP it kept is carried). Injury days add to none: an agent is out for the longest downtime it has (L248).

Downtime counts down by scenarios: the book counts it in days but keeps no calendar (spec §1 "an implied campaign
calendar", §4 campaign scope "injury days remaining"), so each scenario carried into the crew while an agent is out
takes the "days_between_scenarios" setting off its injury days and off its armour's unusable days.

The record keeps each line twice: "lines" in English, and "texts" as data ({"msgid", "params"}, a param may itself
be such a text) that the crew's page renders in the reader's language (armies/campaign.py).
"""

from __future__ import annotations

from rules.contract import CampaignPart
from rules.i18n import N_
from rules.systems.enforcers import aftermath, agents, tables
from rules.systems.enforcers.army import HIRED_KINDS
from rules.systems.enforcers.rolling import LiveRoller
from rules.systems.enforcers.settings import full_settings
from rules.systems.enforcers.wounds import DEAD


def _units_by_entry(final: dict, side_index: int) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for key, unit in (final.get("units") or {}).items():
        if unit.get("side") != side_index:
            continue
        state = unit.get("state") or {}
        out.setdefault(state.get("entry", key), []).append({"key": key, **state})
    return out


TIER_MSGIDS = {"light": N_("light injury"), "medium": N_("medium injury"), "critical": N_("critical injury")}


class Record:
    """The readable record: each line as data (msgid and params) and in English."""

    def __init__(self):
        self.lines: list[str] = []
        self.texts: list[dict] = []

    def say(self, msgid: str, **params) -> None:
        self.texts.append({"msgid": msgid, "params": params})
        plain = {k: v["msgid"].format(**v.get("params", {})) if isinstance(v, dict) else v for k, v in params.items()}
        self.lines.append(msgid.format(**plain))


def _count_down(name: str, campaign: dict, days: int, record: Record) -> None:
    """An agent out of this scenario (injured, or its armour unusable): the scenario's days pass (module doc)."""
    if campaign.get("injury_days"):
        left = max(0, campaign["injury_days"] - days)
        if left:
            campaign["injury_days"] = left
            record.say(N_("{name} sat out the scenario, injured: {days} more days."), name=name, days=left)
        else:
            del campaign["injury_days"]
            record.say(N_("{name} has healed and may take part again."), name=name)
    if campaign.get("armour_unusable_days"):
        left = max(0, campaign["armour_unusable_days"] - days)
        if left:
            campaign["armour_unusable_days"] = left
            record.say(N_("{name}'s armour stays unusable: {days} more days."), name=name, days=left)
        else:
            del campaign["armour_unusable_days"]
            record.say(N_("{name}'s armour is usable again."), name=name)


def _tell_injuries(name: str, result: dict, record: Record) -> None:
    for test in result["tests"]:
        tier = {"msgid": TIER_MSGIDS[test["tier"]]}
        if test["passed"]:
            record.say(N_("{name}: TN test against a {tier}: passed."), name=name, tier=tier)
        else:
            record.say(N_("{name}: TN test against a {tier}: failed, out for {days} days."), name=name, tier=tier,
                       days=test["days"])  # fmt: skip
        if test["wl_lost"]:
            record.say(N_("{name}: a natural 1 or 20 on the TN test: WL −1 (L258)."), name=name)
        if test["stat_lost"]:
            record.say(N_("{name}: critical injury: {stat} −1 (L256)."), name=name, stat=test["stat_lost"])


class EnforcersCampaign(CampaignPart):
    def after_battle(self, *, roster: dict, side_index: int, final: dict, settings: dict, dice) -> dict:
        settings = full_settings(settings)
        roller = LiveRoller(dice, settings)
        units = _units_by_entry(final, side_index)
        entries = [e for e in roster.get("entries") or [] if (e.get("profile") or {}).get("kind") in HIRED_KINDS]
        new_options: dict[str, dict] = {}
        record_agents: list[dict] = []
        record = Record()
        broken: list[tuple[str, dict]] = []  # (entry key, unit) whose armour ended at 0 AP
        for entry in entries:
            options = dict(entry.get("options") or {})
            campaign = dict(options.get("campaign") or {})
            campaign["scenarios"] = campaign.get("scenarios", 0) + 1
            label = options.get("name") or entry["profile"].get("name") or entry["key"]
            _count_down(label, campaign, settings["days_between_scenarios"], record)  # before this scenario's rolls
            for unit in units.get(entry["key"], []):
                name = unit.get("name") or options.get("name") or entry["profile"].get("name")
                line = {"entry": entry["key"], "unit": unit["key"], "name": name}
                if DEAD in (unit.get("statuses") or {}):
                    campaign["dead"] = True
                    line["dead"] = True
                    record.say(N_("{name} died in the scenario."), name=name)
                    record_agents.append(line)
                    continue
                result = aftermath.injuries(unit, roller, settings)
                _tell_injuries(name, result, record)
                if result["days"]:
                    campaign["injury_days"] = max(campaign.get("injury_days", 0), result["days"])
                losses = dict(campaign.get("stat_losses") or {})
                for stat, amount in result["stat_losses"].items():
                    losses[stat] = losses.get(stat, 0) + amount
                if losses:
                    campaign["stat_losses"] = losses
                line.update(injuries=result["injuries"], days=result["days"], stat_losses=result["stat_losses"],
                            tests=[{k: t[k] for k in ("tier", "passed", "days")} for t in result["tests"]])  # fmt: skip
                armour = unit.get("armour")
                if armour and unit.get("ap", 0) == 0:
                    broken.append((entry["key"], unit))
                    campaign["armour_broken"] = True
                elif armour and not settings["armour_restored_after_scenario"]:
                    campaign["armour_ap"] = unit.get("ap", 0)
                elif "armour_ap" in campaign:
                    del campaign["armour_ap"]
                record_agents.append(line)
            options["campaign"] = campaign
            new_options[entry["key"]] = options
        repairs = self._repair(broken, units, new_options, roller, settings, record)
        return {
            "entries": new_options,
            "record": {"agents": record_agents, "repairs": repairs, "lines": record.lines, "texts": record.texts},
            "dice": [r.as_dict() for r in dice.rolls],
        }

    @staticmethod
    def _repair(broken, units, new_options, roller, settings, record: Record) -> list[dict]:
        """L262–268: each living agent may try to repair one broken piece; the best IT goes first."""
        repairers = sorted(
            (u for group in units.values() for u in group if DEAD not in (u.get("statuses") or {})),
            key=lambda u: -agents.effective_stats(u).get("IT", 0),
        )
        out = []
        for (entry_key, unit), repairer in zip(broken, repairers, strict=False):
            result = aftermath.repair(repairer, unit["armour"], roller, settings)
            campaign = new_options[entry_key]["campaign"]
            campaign["armour_broken"] = False
            if result["repaired"]:
                campaign.pop("armour_unusable_days", None)
            else:
                campaign["armour_unusable_days"] = result["days"]
            name = tables.ARMOUR[unit["armour"]]["name"]
            who = repairer.get("name") or repairer["key"]
            if result["repaired"]:
                record.say(N_("{name} repairs {armour}: repaired, usable in the next scenario at full AP."), name=who,
                           armour=name)  # fmt: skip
            else:
                record.say(N_("{name} repairs {armour}: not repaired, unusable for {days} days (L268)."), name=who,
                           armour=name, days=result["days"])  # fmt: skip
            out.append({"entry": entry_key, "armour": unit["armour"], "repairer": repairer["key"],
                        "repaired": result["repaired"], "days": result["days"]})  # fmt: skip
        for entry_key, unit in broken[len(repairers) :]:
            record.say(
                N_("Nobody is left to repair {armour}: it stays broken."), armour=tables.ARMOUR[unit["armour"]]["name"]
            )
            out.append({"entry": entry_key, "armour": unit["armour"], "repairer": None, "repaired": False, "days": 0})
        return out


CAMPAIGN = EnforcersCampaign()
