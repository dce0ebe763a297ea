"""Questions to the other player (setting pilot_tests "owner"): a hit vehicle's pilot takes his test on his own
player's phone, and the game waits for the answer.

The book says the pilot «проходит Тест выживания Д6» after a shot (p.33) and a lost melee (p.40: «защищающийся
определяет исход боя по Таблице 7»), and that the vehicle's own player rolls its emergency landing (p.19). The
attacking command leaves such a test in game["questions"] (fold.py); `awaiting()` then waits for that side's
"answer" (commands.Answer), which plays the test and takes the question away. An undo of the attack takes the
question with it (the log is replayed).
"""

from __future__ import annotations

from rules.contract import board as w
from rules.i18n import _
from rules.systems.bronepekhota.battle.units import system_settings


def pending(game: dict) -> dict | None:
    """The question asked now (the first of those waiting), or None."""
    questions = game.get("questions") or []
    return questions[0] if questions else None


def _names(game: dict, q: dict) -> dict:
    units = game.get("unit_names", {})
    pilot = q.get("pilot") or {}
    return {
        "vehicle": units.get(q["unit"], q["unit"]),
        "squad": units.get(pilot.get("unit"), pilot.get("unit") or "?"),
        "soldier": pilot.get("soldier") or "?",
    }


def question_text(game: dict, q: dict, settings: dict | None = None) -> str:
    """The test asked, in the book's words: «пилот SALAMANDER (пехотинец 2 из …) проходит тест выживания Д6»."""
    die = system_settings(settings or {}).get("survival_die", 6)
    n = _names(game, q)
    if q.get("destroyed"):
        return _(
            "soldier {soldier} of {squad}, the pilot of the destroyed {vehicle}, takes a survival test (D{die})"
        ).format(die=die, **n)
    if q.get("test") == "armour":
        text = _(
            "{vehicle}: armour test (D{armour_die}); if the armour is pierced, its pilot (soldier {soldier} of "
            "{squad}) takes a survival test (D{die})"
        ).format(armour_die=q.get("die", 12), die=die, **n)
    else:
        text = _("the pilot of {vehicle} (soldier {soldier} of {squad}) takes a survival test (D{die})").format(
            die=die, **n
        )
    if q.get("flying"):
        text += _("; if he dies in flight, {vehicle} makes an emergency landing (D6 damage)").format(**n)
    return text


def question_test(ctx, q: dict) -> tuple[str | None, dict]:
    """The battle test that answers the question, and its inputs; (None, {}) when the pilot is gone meanwhile (a
    ruling by hand killed him or emptied the vehicle): the question lapses."""
    units = ctx.state.units
    pilot = q.get("pilot") or {}
    squad = units.get(pilot.get("unit"))
    soldier = next(
        (s for s in (squad.state.get("soldiers", []) if squad else []) if s["num"] == pilot.get("soldier")), None
    )
    if soldier is None or not soldier["alive"] or not soldier.get("on_field", True):
        return None, {}
    if q.get("destroyed"):
        return "survival_test", {"unit": squad.key, "soldier": soldier["num"]}
    vehicle = units.get(q["unit"])
    mounted = vehicle.state.get("pilot") if vehicle else None
    if not mounted or vehicle.state.get("destroyed") or mounted.get("ref") != pilot.get("unit"):
        return None, {}
    if q.get("test") == "armour":
        return "armour_test", {"unit": vehicle.key, "die": q.get("die", 12)}
    return "survival_test", {"unit": vehicle.key}


def question_dice(q: dict, settings: dict | None = None) -> list[dict]:
    """The dice boxes of the question: the test's die, then the dice a bad roll may still ask for."""
    die = system_settings(settings or {}).get("survival_die", 6)
    boxes = []
    if q.get("test") == "armour" and not q.get("destroyed"):
        boxes.append({"label": _("D{faces} armour test").format(faces=q.get("die", 12)), "faces": q.get("die", 12)})
        boxes.append({"label": _("D{faces} survival test, if pierced").format(faces=die), "faces": die})
    else:
        boxes.append({"label": _("D{faces} survival test").format(faces=die), "faces": die})
    if q.get("flying") and not q.get("destroyed"):
        boxes.append({"label": _("D6 emergency landing, if he dies"), "faces": 6})
    return boxes


def prompt(game: dict, q: dict, settings: dict) -> dict:
    """The question on the asked player's phone: what his pilot must do, the dice boxes, and a server roll."""
    names = game.get("side_names", {})
    asker = names.get(str(_asker(game, q)), "")
    what = question_text(game, q, settings)
    question = _("{side} asks: {test}.").format(side=asker, test=what) if asker else what[:1].upper() + what[1:] + "."
    widget = w.prompt(
        question,
        "answer",
        options=[w.button(_("Roll on the server"), "answer", {}, secondary=True)],
        dice=question_dice(q, settings),
        odds=True,  # the pilot's chances as his own player takes the test (at_roll.py)
        rule="answer",
    )
    widget["submit"] = _("Answer with these dice")
    return widget


def _asker(game: dict, q: dict):
    """The side whose attack asked the question (the owner of the attacking unit), if known."""
    owners = game.get("owners", {})
    return owners.get(q.get("by")) if q.get("by") else None


def waiting_text(game: dict, q: dict, settings: dict) -> str:
    """What the other phones show while the question waits."""
    names = game.get("side_names", {})
    side = names.get(str(q["side"]), q["side"])
    return _("Waiting for {side}: {test}.").format(side=side, test=question_text(game, q, settings))
