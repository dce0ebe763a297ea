"""The rule primitives of «5150» (spec §3.0–§3.17): passing dice, the Hit table, damage, the reaction tables'
outcomes as the book prints them, and Stay or Run. Pure functions of plain values; the actions roll the dice and
the exact odds and the simulator read the same functions, so one rule has one text.
"""

from __future__ import annotations

from fractions import Fraction

from rules.i18n import N_

# Conditions of a figure (spec §4.3), the tracker's words in glossary.py.
FINE = "fine"
KNOCKED_DOWN = "knocked_down"
OUT_OF_FIGHT = "out_of_fight"
DEAD = "dead"
DUCK_BACK = "duck_back"
HUNKER_DOWN = "hunker_down"
RUNAWAY = "runaway"
CAPTURED = "captured"
REMOVED = "removed"
CONDITIONS = (FINE, KNOCKED_DOWN, DUCK_BACK, HUNKER_DOWN, RUNAWAY, OUT_OF_FIGHT, DEAD, CAPTURED, REMOVED)
CASUALTIES = (OUT_OF_FIGHT, DEAD)  # what Stay or Run counts (L1190–1191)
GONE = (OUT_OF_FIGHT, DEAD, RUNAWAY, CAPTURED, REMOVED)  # not counted for victory (L1331–1332, §5 A32)

# Damage results, worst last: the order a volley keeps the worst of (a later die may still kill, errata §3.5).
NO_DAMAGE = "no_damage"
DAMAGE_ORDER = (NO_DAMAGE, KNOCKED_DOWN, OUT_OF_FIGHT, DEAD)
DAMAGE_RANK = {r: i for i, r in enumerate(DAMAGE_ORDER)}

MOTIVATIONS = ("conquest", "colonization", "religious", "profit")


# Passing dice (L68–77, §3.0) -----------------------------------------------------------------------------
def passes(dice, target: int) -> int:
    """«пройти по кубику»: a die passes when its face is at most the target (usually Rep)."""
    return sum(1 for d in dice if d <= target)


def pass_level(dice, target: int) -> int:
    """The table row: passed by 2, 1 or 0 dice. Extra dice only raise the result up to 2 (L281, §5 A3)."""
    return min(2, passes(dice, target))


def double_ones(dice) -> bool:
    """Heroic behaviour: two «1»s on a reaction test (L1163)."""
    return sum(1 for d in dice if d == 1) >= 2


def move_inches(rep: int) -> int:
    """Normal move: Rep 2 or less moves 6″, all others 8″ (L469–470)."""
    return 6 if rep <= 2 else 8


FAST_MOVE_INCHES = {2: 16, 1: 12, 0: 8}  # «БЫСТРОЕ ПЕРЕМЕЩЕНИЕ» (L492–499)


# The Hit table (L688–724) ----------------------------------------------------------------------------------
def hit(total: int, *, cover: bool, concealed: bool, prone: bool, fast: bool, two_gun: bool, index: int):
    """(hit?, the row's reason) for one die. `cover` already includes ИБ and a shooter carrying someone;
    `fast`: target or shooter moved fast; `index`: 1 for the first target, 2 for the second…"""
    if total <= 7:  # the table prints 3–7; any lower total misses too (§5 A13)
        return False, N_("miss")
    if total == 8:
        for flag, reason in (
            (cover, N_("8: target in cover")),
            (concealed, N_("8: target concealed")),
            (prone, N_("8: target prone")),
            (fast, N_("8: target or shooter moved fast")),
            (two_gun, N_("8: two-gun firing")),
            (index >= 2, N_("8: second or later target")),
        ):
            if flag:
                return False, reason
        return True, N_("8: hit")
    if total == 9:
        if cover:
            return False, N_("9: target in cover")
        if index >= 3:
            return False, N_("9: third or later target")
        return True, N_("9: hit")
    return True, N_("10+: hit")


def lucky_shot_allowed(base_rep: int, effective_rep: int, settings: dict) -> bool:
    """«СТРЕЛЬБА НА УДАЧУ» needs Rep at least 3 (L795); which Rep is §5 A14."""
    rep = effective_rep if settings.get("lucky_shot_rep") == "effective" else base_rep
    return rep >= 3


def lucky_reroll_target(base_rep: int, effective_rep: int, settings: dict) -> int:
    """The re-roll hits when it is at most the Rep (L797–798); which Rep is §5 A14."""
    return base_rep if settings.get("lucky_shot_rep") == "base" else effective_rep


# Damage (L726–747, L1126–1134) -----------------------------------------------------------------------------
def damage_result(roll: int, impact: int) -> str:
    """«УЩЕРБ»: at most the Impact kills on a 1, else puts out of the fight; above the Impact knocks down."""
    if roll <= impact:
        return DEAD if roll == 1 else OUT_OF_FIGHT
    return KNOCKED_DOWN


def worst(a: str, b: str) -> str:
    return a if DAMAGE_RANK[a] >= DAMAGE_RANK[b] else b


def damage_distribution(impact: int) -> dict[str, Fraction]:
    """Exact: one damage die against a numeric Impact."""
    out = {DEAD: Fraction(0), OUT_OF_FIGHT: Fraction(0), KNOCKED_DOWN: Fraction(0)}
    for roll in range(1, 7):
        out[damage_result(roll, impact)] += Fraction(1, 6)
    return out


# Outgun (L962–972, §3.13) ----------------------------------------------------------------------------------
def outgunned(attacker_or: int, own_or: int) -> bool:
    """Fired on by a weapon with a higher ПД than one's own."""
    return attacker_or > own_or


# Reaction tables, as transcribed (spec §3.4, §3.11, §3.12, §3.14, §3.15) ----------------------------------
def in_sight_outcome(level: int, *, hidden: bool, leader_in_group: bool, in_cover: bool) -> str:
    """«В ПОЛЕ ВИДИМОСТИ» (L609–624)."""
    if hidden:
        if level == 0:
            return "revealed_no_fire"  # «Невидимые фигурки становятся видимыми, но не стреляют»
        if leader_in_group:
            return "may_fire_or_stay_hidden"  # «с лидером могут выбрать стрелять или нет»
        # «без лидера действуют как остальные» (pass 2) / «как находящиеся в укрытии» (pass 1)
        return "fire" if level == 2 else "fire_max_rof_minus_1"
    if level == 2:
        return "fire"
    if level == 1:
        return "fire_max_rof_minus_1" if in_cover else "duck_back_or_prone"
    return "stand_and_do_nothing"


def received_fire_outcome(level: int, m: dict, settings: dict) -> str:
    """«ОБСТРЕЛЯН» (L932–951): `m` has in_cover, outgunned, flank_or_rear, moving ("none"|"normal"|"fast") and
    cover_within_3. Conditions in one cell are checked in the printed order, first match (§5 A18)."""
    cover, og, flank, moving = m["in_cover"], m["outgunned"], m["flank_or_rear"], m["moving"]
    if level == 2:
        if cover:
            return DUCK_BACK if og else "fire"
        if og and moving == "fast":
            if m.get("cover_within_3", True):
                return "move_to_cover_and_duck_back"  # «продолжат движение к укрытию в пределе 3-ех дюймов»
            return "prone" if settings.get("no_cover_within_reach", "prone") == "prone" else DUCK_BACK  # A17
        if og and moving == "normal":
            return "prone"
        if og and settings.get("outgunned_stationary_in_open", "prone") == "prone":
            return "prone"  # errata §3.11: the book covers only a moving figure
        return "fire"  # «Иначе прекратят движение и выстрелят в противника»
    if level == 1:
        flank_first = settings.get("received_fire_order") == "flank_first"
        if cover:
            if flank:
                return RUNAWAY
            return DUCK_BACK if og else "fire_minus_1"
        if og and not (flank and flank_first):
            return "prone"  # «Подавленные немедленно залягут»
        if flank:
            return RUNAWAY
        return "fire_minus_1"
    return HUNKER_DOWN if cover else RUNAWAY  # «В укрытии – запаникуют. Остальные обратятся в бегство»


def wanting_to_charge_outcome(level: int, *, in_cover: bool) -> str:
    """«ХОЧУ АТАКОВАТЬ» (L1050–1058)."""
    if level == 2:
        return "charge"
    if level == 1:
        return "stay_and_fire" if in_cover else "charge"
    return "stay"


def being_charged_outcome(level: int, m: dict, settings: dict) -> str:
    """«МЕНЯ АТАКОВАЛИ» (L1062–1078): `m` has in_cover, flank_or_rear, can_fire."""
    cover, flank, can_fire = m["in_cover"], m["flank_or_rear"], m.get("can_fire", True)
    if level == 2:
        if flank:  # «развернутся на встречу противнику и будут иметь «-1» … в первый раунд»
            fires = can_fire and settings.get("flanked_pass2_fires", True)  # §5 A21
            return "turn_fire_and_prepare_minus_1" if fires else "turn_and_prepare_minus_1"
        return "fire_and_prepare" if can_fire else "prepare"
    if level == 1:
        if flank and (not cover or settings.get("being_charged_order") == "flank_first"):
            return RUNAWAY  # «Атакованные во фланг или тыл обратятся в бегство» (§5 A39)
        if cover:
            return "fire_and_prepare" if can_fire else "prepare"
        return "prepare_no_fire"
    return "prepare_no_fire" if cover else RUNAWAY


def rally_outcome(level: int, *, in_cover: bool) -> str:
    """«ВОЗВРАЩЕНИЕ» (L1014–1023)."""
    if level == 2:
        return "returns_may_act"
    if level == 1:
        return "returns" if in_cover else REMOVED
    return REMOVED


def recovery_outcome(level: int, state: str) -> str:
    """«ВОССТАНОВЛЕНИЕ ОГЛУШЕННОГО ИЛИ ИСПУГАВШЕГОСЯ» after the re-roll rule: 2 returns, else KD → OOF and
    Duck Back → Runaway (L754–762)."""
    if level == 2:
        return "returns_may_act"
    return OUT_OF_FIGHT if state == KNOCKED_DOWN else RUNAWAY


def wound_recovery_outcome(level: int) -> str:
    """«ВОССТАНОВЛЕНИЕ ОТ РАН» (L1270–1280)."""
    return {2: "returns_unhurt", 1: "returns_rep_minus_1", 0: "lost"}[level]


# Stay or Run (L1181–1221) ----------------------------------------------------------------------------------
def stay_or_run_threshold(initial: int, settings: dict) -> int:
    """«Разделите это на шесть и округлите до ближайшего целого», never below 1 (§5 A24)."""
    if settings.get("stay_or_run_rounding") == "half_even":
        value = round(Fraction(initial, 6))
    else:
        value = (2 * initial + 6) // 12  # half up: floor(initial / 6 + 1/2)
    return max(1, int(value))


def stay_or_run_tests_due(initial: int, casualties: int, already_tested_at: int, settings: dict) -> int:
    """How many Stay or Run tests the side takes now: one per threshold crossed since the last check
    (`already_tested_at` casualties), or a single one (§5 A24)."""
    step = stay_or_run_threshold(initial, settings)
    crossed = casualties // step - already_tested_at // step
    if crossed <= 0:
        return 0
    return crossed if settings.get("stay_or_run_per_threshold", "each") == "each" else 1


def stays(level: int, motivation: str, loss: Fraction, profit_done: bool) -> bool:
    """One figure's Stay or Run result, in the printed order (spec §3.17)."""
    if level == 2:
        if loss >= Fraction(3, 4) and motivation != "colonization":
            return False
        if motivation == "profit":
            return not (profit_done or loss >= Fraction(1, 2))
        return True
    if level == 1:
        if loss >= Fraction(3, 4):
            return False
        if motivation in ("conquest", "colonization"):
            return loss < Fraction(1, 2)
        if motivation == "religious":
            return True
        return not (profit_done or loss >= Fraction(1, 3))
    if motivation == "religious":
        return loss < Fraction(1, 2)
    return False
