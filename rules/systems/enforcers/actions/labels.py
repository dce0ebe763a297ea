"""The odds page's words for the actions of «Энфорсеры»: a title per input field, the enums' values and the odds'
keys, marked N_() and translated where the page reads them (contract.schema.translate_schema, Action.describe).
The stat abbreviations stay as the book prints them (glossary.py)."""

from __future__ import annotations

from rules.contract.schema import translate_schema
from rules.i18n import N_, _
from rules.systems.enforcers import tables, words

TITLES = {
    **{stat: stat for stat in tables.STATS},
    "agent": N_("Agent"), "aim": N_("Aim stacks"), "ammo": N_("Ammo"), "amount": N_("Damage to take"),
    "anointing": N_("Anointing does"), "ap": N_("AP"), "ap_at_end": N_("AP at the end"), "armour": N_("Armour"),
    "as_fear_action": N_("Forced by Fear"), "attacker": N_("Attacker"), "attacker_weapon": N_("Attacker's weapon"),
    "benediction": N_("Under Benediction"), "by": N_("Caused by"), "bypass_armour": N_("Past armour"),
    "capacity": N_("Magazine"), "cause": N_("Cause"), "counter_used": N_("Counter-attack used"),
    "cover": N_("Cover"), "crit": N_("Crit chances"), "crit_chance": N_("Crit chance"), "curses": N_("Curses"),
    "blessings": N_("Blessings"), "damage": N_("Weapon damage"), "defender": N_("Defender"),
    "defender_weapon": N_("Defender's weapon"), "difficult_cm": N_("Difficult terrain (cm)"),
    "difficulty": N_("Difficulty"), "direction_deg": N_("Scatter direction (degrees)"),
    "distance_cm": N_("Distance (cm)"), "drawn": N_("Drawn"), "enemy_in_reach": N_("An enemy within reach"),
    "extra_actions": N_("Extra actions"), "extra_blessings": N_("The GM's blessings"),
    "extra_curses": N_("The GM's curses"), "flags": N_("Wounds in the scenario"),
    "friendly_ld": N_("A friend's LD"), "half_hp": N_("Fell to half HP"), "has_medkit": N_("Has a med-kit"),
    "has_prayer_perk": N_("Has the perk Prayer"), "healer": N_("Healer"), "height_cm": N_("Height (cm)"),
    "hp": N_("HP"), "items": N_("Items carried"), "jump_across_cm": N_("Jump across (cm)"),
    "jump_up_cm": N_("Jump up (cm)"), "lowest_hp": N_("Lowest HP in the scenario"), "kinetic": N_("Kinetic"), "mode": N_("Mode"), "modifier": N_("Modifier"),
    "moment": N_("When"), "name": N_("Agent's name"), "out_of_arc": N_("Outside the arc"), "overwatch": N_("On overwatch"),
    "prayed_this_round": N_("Prayed this round"), "prayer": N_("Prayer"), "priest": N_("Priest"),
    "range_band": N_("Range band"), "ranged_drawn": N_("A ranged weapon drawn"), "reach_cm": N_("Reach (cm)"),
    "ref": N_("Reference"), "remove_status": N_("Status to remove"), "repairer": N_("Repairer"),
    "rerolls": N_("Intercession re-rolls"), "same_point": N_("The same point"), "shooter": N_("Shooter"),
    "stacks": N_("Stacks"), "start_distance_cm": N_("Distance at the start (cm)"), "stat": N_("Stat"),
    "stats": N_("Stats"), "statuses": N_("Statuses"), "stray_victim": N_("Model on the line of fire"),
    "stray_victim_off_line_cm": N_("Its distance from the line (cm)"), "target": N_("Target"),
    "target_moved_twice": N_("The target moved twice"), "targets": N_("Targets"), "thrower": N_("Thrower"),
    "took_cover": N_("Took cover"), "traits": N_("Traits"), "turns": N_("Turns"), "use_reroll": N_("Use a re-roll"),
    "weapon": N_("Weapon"), "weapons_carried": N_("Weapons carried"),
    **words.STATUS,
}  # fmt: skip

ENUM_WORDS = {
    **words.STATUS, **words.COVER, **words.RANGE, **words.FIRE_MODE, **words.AID_MODE,
    "kinetic": N_("Kinetic"), "punching": N_("Punching"), "two_handed": N_("Two-handed"),
    "heal": N_("heal 1 HP"), "remove_status": N_("remove a status"),
    "anointing": N_("Anointing"), "benediction": N_("Benediction"), "intercession": N_("Intercession"),
    "last_rites": N_("Last Rites"),
    "end_of_activation": N_("at the end of its activation"), "end_of_round": N_("at the end of the round"),
}  # fmt: skip

RESULT_LABELS = {
    "p": N_("Probability"), "p_success": N_("Success"), "p_crit": N_("Critical success"),
    "p_rerolled": N_("Re-rolled"), "result": N_("Result of the roll"), "actions": N_("Actions"),
    "p_still_afraid": N_("Still afraid"), "fear_action": N_("Fear action"), "p_crosses": N_("Crosses the terrain"),
    "p_hit": N_("Hit"), "target_hp": N_("Target's HP"), "target_ap": N_("Target's AP"),
    "target_state": N_("Target's state"), "p_stray_hit": N_("The stray shot hits"),
    "p_aim_lost": N_("The target loses its aim"), "p_hit_on_test": N_("Hit on the test"),
    "p_double": N_("A double on the scatter"), "scatter_cm": N_("Scatter (cm)"),
    "p_attacker_hits": N_("The attacker hits"), "p_counter": N_("A counter-attack"),
    "p_defender_hit_by_counter": N_("The defender lands a counter-attack"),
    "p_attacker_hit_back": N_("The attacker hits back"), "attacker_hp": N_("Attacker's HP"),
    "defender_hp": N_("Defender's HP"), "defender_state": N_("Defender's state"),
    "attacker_state": N_("Attacker's state"), "hp": N_("HP"), "ap": N_("AP"), "state": N_("State"),
    "p_afraid": N_("Afraid"), "p_stunned": N_("Stunned"), "p_passed": N_("Holds firm"), "action": N_("Fear action"),
    "p_dead": N_("Dead"), "p_poison_ends": N_("The poison ends"), "p_injured": N_("Injured"),
    "days": N_("Days out"), "expected_days": N_("Days out on average"), "p_repaired": N_("Repaired"),
    **{f"p_{status}": label for status, label in words.STATUS.items()},
    "p_target_down": N_("The target is out of the fight"), "p_defender_down": N_("The defender is out of the fight"),
    "attacker_ap": N_("Attacker's AP"), "defender_ap": N_("Defender's AP"),
    # The joint outcome (common.joint) and its parts: what the players write on the sheets after the test.
    "sheet_after": N_("The sheets after the test, together"), "aim_lost": N_("The target loses its aim"),
    "stray_hit": N_("The stray shot hits"), "stray_hp": N_("HP of the model on the line"),
    "stray_ap": N_("AP of the model on the line"), "stray_state": N_("State of the model on the line"),
    "injuries": N_("Injuries"), "wl_lost": N_("WL lost"), "stat_lost": N_("Stat lost"),
    "stunned": N_("Stunned"), **words.STATUS,
}  # fmt: skip
# A status in a joint outcome belongs to one of the sheets: «Цель: Кровотечение».
PART_OWNERS = {"target_": N_("Target"), "attacker_": N_("Attacker"), "defender_": N_("Defender"),
               "stray_": N_("Model on the line of fire")}  # fmt: skip

# The odds answer keeps codes as the values of its distributions ("seriously_wounded", "fight"): the odds page shows
# them with these words, per result key (a Fear action's "none" is not a wound state's "none").
_FEAR_ACTIONS = {**words.FEAR_ACTION, "none": N_("no Fear action")}
VALUE_LABELS = {
    **dict.fromkeys(("state", "target_state", "defender_state", "attacker_state"), words.STATE),
    "fear_action": _FEAR_ACTIONS,
    "action": _FEAR_ACTIONS,
    "hp": {"unknown": N_("HP unknown")},
}


def result_labels() -> dict:
    """RESULT_LABELS in the reader's language, with a status of each sheet of a joint outcome («Цель: Оглушён»)."""
    out = {key: _(label) for key, label in RESULT_LABELS.items()}
    for prefix, owner in PART_OWNERS.items():
        for status, word in words.STATUS.items():
            out[f"{prefix}{status}"] = _("{who}: {what}").format(who=_(owner), what=_(word))
    return out


def _yes_no_keys() -> list[str]:
    """The parts of a joint outcome that are yes or no: a status on a sheet, a lost aim, a stray hit."""
    return ["aim_lost", "stray_hit", *words.STATUS, *(f"{p}{s}" for p in PART_OWNERS for s in words.STATUS)]


def value_labels() -> dict:
    """VALUE_LABELS in the reader's language: {result key: {code: word}}; the yes/no parts of a joint outcome, and
    the injuries' codes ("light+critical") as the book's tiers."""
    from itertools import combinations

    out = {key: {code: _(word) for code, word in table.items()} for key, table in VALUE_LABELS.items()}
    yes_no = {"true": _("yes"), "false": _("no")}
    out.update(dict.fromkeys(_yes_no_keys(), yes_no))
    out["stray_state"] = out["state"]
    tiers = list(words.TIER)
    codes = {"none": _("no injury")}
    for n in (1, 2, 3):
        for chosen in combinations(tiers, n):
            codes["+".join(chosen)] = ", ".join(_(words.TIER[t]) for t in chosen)
    out["injuries"] = codes
    out["stat_lost"] = {"none": _("none")}
    return out


def _with_enum_labels(node: dict) -> None:
    values = node.get("enum")
    if isinstance(values, list):
        node["x-labels"] = {
            str(v): _(ENUM_WORDS[v]) if v in ENUM_WORDS else (tables.ARMOUR[v]["name"] if v in tables.ARMOUR else v)
            for v in values
            if v is not None
        }


def translated_schema(schema: dict) -> dict:
    """The input schema in the reader's language: a title per field, the help translated, the enums named."""
    return translate_schema(schema, TITLES, finish=_with_enum_labels)
