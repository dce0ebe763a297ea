"""The words of the tables' outcomes and of damage, by the code the rules store (events keep codes, not text).

`outcome(code)` reads a code in the viewer's language: the system's catalogue gives the book's row text (spec §3,
glossary.py). An unknown code comes back as it is, so old stored events stay readable.
"""

import re

from rules.i18n import N_, _

OUTCOMES = {
    # conditions and damage (spec §4.3, «УЩЕРБ ОТ СТРЕЛЬБЫ» L813–829)
    "fine": N_("fine"), "no_damage": N_("no damage"), "knocked_down": N_("Knocked Down"),
    "out_of_fight": N_("Out of the Fight"), "dead": N_("Obviously Dead"), "duck_back": N_("Duck Back"),
    "hunker_down": N_("Hunker Down"), "runaway": N_("Runaway"), "captured": N_("taken prisoner"),
    "removed": N_("removed from play"), "prone_and_duck_back": N_("goes prone and ducks back, no fragments"),
    # «В ПОЛЕ ВИДИМОСТИ», «ОБСТРЕЛЯН», «ХОЧУ АТАКОВАТЬ», «МЕНЯ АТАКОВАЛИ», «ВОЗВРАЩЕНИЕ» rows
    "fire": N_("fire"), "fire_minus_1": N_("fire at Rep −1"),
    "fire_max_rof_minus_1": N_("fire at full RoF and Rep −1"), "may_fire_or_stay_hidden": N_(
        "may fire or stay hidden"), "revealed_no_fire": N_("revealed, do not fire"),
    "duck_back_or_prone": N_("duck back or go prone"), "stand_and_do_nothing": N_("stand and do nothing"),
    "prone": N_("go prone"), "move_to_cover_and_duck_back": N_("move to cover and duck back"),
    "may_charge": N_("may charge"), "duck_back_or_stay": N_("duck back or stay"), "charge": N_("charge"),
    "stay_and_fire": N_("stay and fire"), "stay": N_("stay"), "ignores_fire_keeps_moving": N_(
        "ignore the fire and keep moving"), "takes_received_fire": N_("take Received Fire"),
    "fire_and_prepare": N_("fire and prepare for melee"), "prepare": N_("prepare for melee"),
    "prepare_no_fire": N_("prepare for melee without firing"),
    "turn_fire_and_prepare_minus_1": N_("turn, fire and prepare, Rep −1"),
    "turn_and_prepare_minus_1": N_("turn and prepare, Rep −1"),
    "returns": N_("return to the fight"), "returns_may_act": N_("return to the fight and may act"),
    "stays": N_("keep fighting"), "stops_fighting": N_("stop fighting"),
}  # fmt: skip


OUTCOMES.update({
    # Contact, Awareness, river and collapse rows (QRS, spec §3.22–§3.23), wound recovery (§3.21)
    "no_contact": N_("no contact"), "contact_hidden_enemy": N_("contact: the enemy is hidden"),
    "contact_enemy_spotted": N_("contact: the enemy is spotted"),
    "surprised_no_in_sight": N_("surprised: no In Sight test"),
    "facing_you_ready_in_sight": N_("facing you, ready: In Sight as usual"),
    "facing_you_ready_in_sight_extra_die": N_("facing you, ready: In Sight with +1 die"),
    "bridge": N_("a bridge"), "fordable": N_("fordable"), "half_fordable": N_("fordable in half the places"),
    "collapses": N_("the upper zone collapses"), "stands": N_("the upper zone stands"),
    "returns_unhurt": N_("back unhurt"), "returns_rep_minus_1": N_("back with Rep −1"),
    "lost": N_("dead or gone for good"),
    # melee rows (§3.16)
    "loses_by_2": N_("loses by 2"), "loses_by_1": N_("loses by 1"), "tie": N_("tie"), "wins_by_1": N_("wins by 1"),
    "wins_by_2": N_("wins by 2"),
})  # fmt: skip
PASS = re.compile(r"^pass ([0-2])$")  # the generic group test's rows (actions/reactions.py)
UP_TO = re.compile(r"^up to (\d+)″$")  # the Fast Move rows


def outcome(code) -> str:
    """The outcome's words in the viewer's language (an unknown code or text as it is)."""
    if isinstance(code, str) and code in OUTCOMES:
        return _(OUTCOMES[code])
    if isinstance(code, str) and (m := PASS.match(code)):
        return _("pass {n}").format(n=m[1])
    if isinstance(code, str) and (m := UP_TO.match(code)):
        return _("up to {n}″").format(n=m[1])
    return str(code)


# Texts kept as msgid + parameters (results stored in events): each reader renders them in his own language.
def say(msgid: str, **params) -> dict:
    """A text to render later: `msgid` is marked where it is written (N_ is implied by the extraction test)."""
    return {"msgid": msgid, "params": params}


def code(value) -> dict:
    """A parameter that is an outcome code, read with outcome() when rendered."""
    return {"code": value}


def _param(value):
    if isinstance(value, dict) and "code" in value:
        return outcome(value["code"])
    if isinstance(value, dict) and "msgid" in value:
        return render(value)
    if isinstance(value, list):
        return ", ".join(str(_param(v)) for v in value) if value else _("none")
    return value


def render(text) -> str:
    """A stored text (one say() or a list of them, joined by «; ») in the reader's language."""
    if isinstance(text, str):
        return text
    if isinstance(text, dict):
        text = [text]
    return "; ".join(_(t["msgid"]).format(**{k: _param(v) for k, v in t.get("params", {}).items()}) for t in text)
