"""The numbers and small pure rules of «Звездный Десант» (demo), shared by the actions, the simulator's reference
loop and the battle tracker. Every function takes plain values and full settings (settings.full_settings).

Sign convention (§0.1, L76–82): a plus RAISES the number a test needs, so «+2 к тесту на попадание» is harder.
"""

from __future__ import annotations

from fractions import Fraction

from rules.errors import RuleInputError
from rules.i18n import N_, _

D20 = 20

# §1.4 / §3.10: orders and the hit test -------------------------------------------------------------------
ORDERS = ("move", "defence", "attack")
# The book's words are the Russian of these msgids: «Движение», «Оборона», «Атака» (L180–202); read with order_word().
ORDER_WORDS = {"move": N_("Move"), "defence": N_("Defence"), "attack": N_("Attack")}
HIT_BASE = 8  # «8+» for everybody (L434)
HIT_MIN, HIT_MAX = 4, 20  # never below 4+ (L522), never above 20+ (L524)
SHOOTER_ORDER_MOD = {"defence": 0, "attack": 2}  # shooting on the move is harder (L444)
TARGET_ORDER_MOD = {"move": 0, "defence": 2, "attack": -2}  # L448–452 (A1 for the sign of «Атака»)
TARGET_KIND_MOD = {"infantry": 0, "vehicle": -4}  # L456–457
KINDS = ("infantry", "vehicle")
KIND_WORDS = {"infantry": N_("infantry"), "vehicle": N_("a vehicle")}  # «Пехота», «Техника» (L40)

# §3.9 cover -------------------------------------------------------------------------------------------
COVERS = ("open", "light", "medium", "heavy")
COVER_BONUS = {"open": 0, "light": 2, "medium": 4, "heavy": 6}  # L490–494
# «открытая местность», «легкое», «среднее», «тяжелое» (L486–494); read with cover_word().
COVER_WORDS = {"open": N_("open ground"), "light": N_("light cover"), "medium": N_("medium cover"),
               "heavy": N_("heavy cover")}  # fmt: skip
SIZES = ("small", "medium", "large")

# §3.6 movement ---------------------------------------------------------------------------------------
ATTACK_MOBILITY = -3  # L304
TERRAIN = ("light", "medium", "severe")
TERRAIN_PENALTY = {"light": 2, "medium": 4, "severe": 6}  # L322–324
COMMAND_DISTANCE = 3  # L104
MELEE_DISTANCE = 3  # L601, L640
GREY_ZONE_DEPTH = 3  # L382–390
DEPLOYMENT_GAP = 20  # L770

# The characteristics by their abbreviations (L35–66): the book's own (ПДВ, СТК…) are the Russian of these msgids,
# so an English page reads English ones. Read with stat().
STAT_WORDS = {"pdv": N_("Mob"), "stk": N_("Tgh"), "kbr": N_("AC"), "bsp": N_("CA"), "ldr": N_("Ldr"),
              "dln": N_("Rng"), "skr": N_("ROF"), "msch": N_("Pow"), "hrk": N_("Pen")}  # fmt: skip


def order_word(order: str) -> str:
    """An order in the reader's language: «Оборона» in Russian, «Defence» in English."""
    return _(ORDER_WORDS[order])


def order_card(order: str, initiative) -> str:
    """An order card as the table reads it: «Оборона» 7."""
    return f"«{order_word(order)}» {initiative}"


def cover_word(cover: str) -> str:
    return _(COVER_WORDS[cover])


def stat(key: str) -> str:
    """A characteristic's abbreviation in the reader's language (ПДВ / Mob)."""
    return _(STAT_WORDS[key])


# §2.2 armour classes: the book writes Cyrillic А, В, С, Е and a Latin D (L43–50) ---------------------------
ARMOUR_CLASSES = ("A", "B", "C", "D", "E")
_LETTERS = {"A": "A", "B": "B", "C": "C", "D": "D", "E": "E", "А": "A", "В": "B", "С": "C", "Д": "D", "Е": "E"}


def armour_class(text, field: str = "armour") -> str:
    """«В», «b», «C» (Latin or Cyrillic, any case) -> "B". Raises RuleInputError naming the field."""
    if not isinstance(text, str) or len(text.strip()) != 1 or text.strip().upper() not in _LETTERS:
        raise RuleInputError(
            {field: _("{text!r} is not an armour class: write one letter A, B, C, D or E.").format(text=text)}
        )
    return _LETTERS[text.strip().upper()]


def armour_letter(text) -> str:
    """An armour class as one letter that reads the same in both alphabets (В is B): the Latin one; anything else
    as it is."""
    try:
        return armour_class(text)
    except RuleInputError:
        return str(text)


def parse_hrk(value, field: str = "hrk") -> dict[str, int]:
    """Хрк as the cards write it: «В12», «A10 В12 С16» (commas or spaces), or {"В": 12}. A number is the roll the
    wound test needs against that class (L530); a class left out cannot be wounded by the weapon (A8)."""
    pairs: list[tuple[str, object]] = []
    if isinstance(value, dict):
        pairs = list(value.items())
    elif isinstance(value, str):
        text = value.strip()
        if text[:3].lower() in ("хрк", "hrk"):  # the book writes «ХРК: В12» (L534)
            text = text[3:]
        compact = text.replace(",", " ").replace(";", " ").replace(":", " ").split()
        chunks: list[str] = []
        for part in compact:  # «В 12» is one pair written with a space
            if part.isdigit() and chunks and chunks[-1].isalpha():
                chunks[-1] += part
            else:
                chunks.append(part)
        for chunk in chunks:
            if len(chunk) < 2 or not chunk[1:].isdigit():
                raise RuleInputError(
                    {field: _("{chunk!r}: write Pen as a class letter and a number, e.g. B12.").format(chunk=chunk)}
                )
            pairs.append((chunk[0], int(chunk[1:])))
    else:
        raise RuleInputError({field: _("write Pen as text such as «B12 C15» or as {class: number}.")})
    out: dict[str, int] = {}
    for letter, number in pairs:
        cls = armour_class(letter, f"{field}.{letter}")
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 40:
            raise RuleInputError(
                {f"{field}.{letter}": _("{number!r}: the number for a class is 1 to 40.").format(number=number)}
            )
        if cls in out:
            raise RuleInputError({field: _("class {cls} is given twice.").format(cls=cls)})
        out[cls] = number
    if not out:
        raise RuleInputError({field: _("Pen names no armour class.")})
    return out


def hrk_text(hrk: dict[str, int]) -> str:
    return " ".join(f"{k}{v}" for k, v in sorted(hrk.items()))


# Tests ----------------------------------------------------------------------------------------------
def p_pass(need: int) -> Fraction:
    """P(D20 >= need): «N+» passes on N or more (L434, L530, L644)."""
    return Fraction(max(0, min(D20, D20 + 1 - need)), D20)


def clamp_hit(raw: int) -> int:
    return min(HIT_MAX, max(HIT_MIN, raw))


def target_order_mod(order: str | None, initiative: int | None, settings: dict) -> int:
    """The hit modifier for the target's order: A1 (sign on «Атака»), A18 (0-initiative), A20 (no order)."""
    if order is None:
        order = settings["no_order_target"]
    elif initiative == 0 and not settings["zero_initiative_order_counts"]:
        order = "move"
    if order == "attack" and settings["attack_target_modifier"] == "example":
        return 2
    return TARGET_ORDER_MOD[order]


def hit_need(
    *,
    shooter_order: str,
    target_order: str | None,
    target_kind: str,
    cover: str,
    extra: int,
    settings: dict,
    target_initiative: int | None = None,
) -> tuple[int, int, list[str]]:
    """(raw sum, clamped need, the terms as text) of the hit test (L434–524)."""
    terms = [(HIT_BASE, _("base «8+»"))]
    terms.append(
        (
            SHOOTER_ORDER_MOD[shooter_order],
            _("shooter on «{shooter_order}»").format(shooter_order=order_word(shooter_order)),
        )
    )
    target_word = order_word(target_order) if target_order else _("no order")
    terms.append(
        (
            target_order_mod(target_order, target_initiative, settings),
            _("target on «{target_word}»").format(target_word=target_word),
        )
    )
    terms.append(
        (TARGET_KIND_MOD[target_kind], _("target is {target_kind}").format(target_kind=_(KIND_WORDS[target_kind])))
    )
    terms.append((COVER_BONUS[cover], _("cover: {cover}").format(cover=cover_word(cover))))
    if extra:
        terms.append((extra, _("other pluses and minuses")))
    raw = sum(v for v, _why in terms)
    return raw, clamp_hit(raw), [f"{v:+d} {label}" if i else f"{v} {label}" for i, (v, label) in enumerate(terms)]


def wound_need(hrk: dict[str, int], armour: str, settings: dict) -> int | None:
    """The roll a wound test needs against `armour`, or None when the weapon cannot wound it (A8, A9)."""
    need = hrk.get(armour)
    if need is None:
        return None
    return clamp_hit(need) if settings["wound_test_clamp"] == "like_hit_test" else need


# §3.9 cover of a unit ------------------------------------------------------------------------------------
def unit_cover(counts: dict[str, int]) -> str:
    """The cover the whole unit counts as in, from how many of the counted figures stand in each cover.

    One type holding strictly more than ½ wins (L504); otherwise, if strictly more than ½ are in cover of any
    type, the type with the SMALLEST plus among those present (L498); ½ or less: open (L475)."""
    n = sum(counts.values())
    if n == 0:
        return "open"
    for cover in ("light", "medium", "heavy"):
        if 2 * counts.get(cover, 0) > n:
            return cover
    covered = n - counts.get("open", 0)
    if 2 * covered > n:
        return min((c for c in ("light", "medium", "heavy") if counts.get(c, 0) > 0), key=COVER_BONUS.get)
    return "open"


# §3.6 movement ------------------------------------------------------------------------------------------
def max_move(pdv: int, order: str | None, terrain_penalties: list[int], other: int = 0) -> int:
    """Steps a figure may move: ПДВ, −3 on «Атака», every difficult terrain crossed, never below 1 (L306)."""
    m = pdv + (ATTACK_MOBILITY if order == "attack" else 0) - sum(terrain_penalties) + other
    return max(1, m)


# §3.11 wound markers and casualties -----------------------------------------------------------------------
def apply_wounds(
    *, stk: int, markers: int, wounds: int, alive: int, killable: int, settings: dict
) -> tuple[int, int, int]:
    """(figures removed, markers left, markers discarded) after `wounds` land on a unit of `alive` figures whose
    pool holds `markers`, of which `killable` may die now (in sight and range; in melee not behind an obstruction).

    One figure per СТК markers (L544, L675); leftovers stay (L550). If more must die than can, every killable
    figure dies and the rest of the markers are removed (L563–569, L685). Once the killable figures are all dead
    the book removes the leftovers too (errata; setting leftover_markers keeps them instead)."""
    total = markers + wounds
    due = total // stk
    killable = max(0, min(killable, alive))
    if due == 0:
        return 0, total, 0
    if due < killable:
        return due, total - due * stk, 0
    removed = killable
    rest = total - removed * stk
    if alive - removed == 0:  # the unit is gone: no pool left
        return removed, 0, rest
    if due == killable and settings["leftover_markers"] == "keep_remainder":
        return removed, rest, 0
    return removed, 0, rest


# §3.15 victory points ----------------------------------------------------------------------------------------
def unit_victory_points(cost: int, start: int, alive: int, settings: dict) -> Fraction:
    """VP an enemy earns for one unit: full cost when destroyed, ½ cost when more than ½ of its starting figures
    died (L794–796), never both (A23)."""
    if start <= 0:
        return Fraction(0)
    if alive <= 0:
        return Fraction(cost)
    lost = start - alive
    heavy = 2 * lost > start if settings["vp_half_threshold"] == "more_than_half" else 2 * lost >= start
    if not heavy:
        return Fraction(0)
    half = Fraction(cost, 2)
    if settings["vp_rounding"] == "down":
        return Fraction(cost // 2)
    if settings["vp_rounding"] == "up":
        return Fraction(-(-cost // 2))
    return half


def number(x: Fraction) -> int | float:
    """A VP value as JSON: whole numbers as int, halves as float (exact in binary)."""
    return int(x) if x.denominator == 1 else float(x)


# §3.4 activation order ---------------------------------------------------------------------------------------
def activation_sequence(units: list[dict], first_side: int, settings: dict) -> dict:
    """The order units act in (L256–272). `units`: [{"key", "side", "initiative", "can_act"}] in each owner's
    preferred order for ties (the owner picks among his tied units, L264).

    Highest initiative first across both players; at a tie between players the First Player's unit goes first,
    then they alternate (L266). Initiative 0 never acts (L274–278). A unit that cannot act when its turn comes is
    skipped (L272) and, by A25, gets no later chance (setting skipped_unit)."""
    acting = [u for u in units if u["initiative"] > 0]
    sequence: list[str] = []
    skipped: list[str] = []
    for level in sorted({u["initiative"] for u in acting}, reverse=True):
        pools = {s: [u for u in acting if u["initiative"] == level and u["side"] == s] for s in (0, 1)}
        turn = first_side if pools[first_side] else 1 - first_side
        while pools[0] or pools[1]:
            if not pools[turn]:
                turn = 1 - turn
                continue
            unit = pools[turn].pop(0)
            (sequence if unit["can_act"] else skipped).append(unit["key"])
            if pools[1 - turn]:
                turn = 1 - turn
    late = list(skipped) if settings["skipped_unit"] == "at_end" else []
    return {
        "sequence": sequence,
        "skipped": [] if late else skipped,
        "late_chance": late,
        "zero_initiative": [u["key"] for u in units if u["initiative"] == 0],
    }
