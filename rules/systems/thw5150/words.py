"""The words of the tables' outcomes and of damage, by the code the rules store (events keep codes, not text).

`outcome(code)` reads a code in the viewer's language: the system's catalogue gives the book's row text (spec §3,
glossary.py). An unknown code comes back as it is, so old stored events stay readable.
"""

from rules.i18n import N_, _

OUTCOMES = {
    # conditions and damage (spec §4.3, «УЩЕРБ ОТ СТРЕЛЬБЫ» L813–829)
    "fine": N_("fine"), "no_damage": N_("no damage"), "knocked_down": N_("Knocked Down"),
    "out_of_fight": N_("Out of the Fight"), "dead": N_("Obviously Dead"), "duck_back": N_("Duck Back"),
    "hunker_down": N_("Hunker Down"), "runaway": N_("Runaway"), "captured": N_("taken prisoner"),
    "removed": N_("removed from play"),
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


def outcome(code) -> str:
    """The outcome's words in the viewer's language (an unknown code or text as it is)."""
    return _(OUTCOMES[code]) if isinstance(code, str) and code in OUTCOMES else str(code)
