"""Shooting (§3.10, L142–170) with every modifier of the table, stray shots (A11), and thrown weapons with scatter
(§3.11, L172–174)."""

from __future__ import annotations

from rules.i18n import N_, _
from rules.systems.enforcers import agents, tables, words
from rules.systems.enforcers.actions.common import (
    GM_DICE,
    SHEET_AFTER,
    USE_REROLL,
    WEAPON,
    EnfAction,
    Run,
    bool_prob,
    check_alive,
    check_can_act,
    dist,
    err,
    joint,
    name_of,
    note_reroll,
    reaction_shot_due,
    reroll_wanted,
    sheet_parts,
    spec_for,
    who,
)
from rules.systems.enforcers.actions.hits import deal_hit, keep_aim
from rules.systems.enforcers.texts import NT, T, Text, join
from rules.systems.enforcers.wounds import emit

SITUATION = {
    "cover": {"enum": list(tables.COVER_CURSES), "description": "The target's cover"},
    "range_band": {"enum": list(tables.RANGE_BAND), "description": "Short, medium or long for this weapon"},
    "target_moved_twice": {"type": "boolean", "description": "The target moved twice in its last activation"},
    "height_cm": {"type": "number", "minimum": -500, "maximum": 500, "description": "Shooter above the target, cm"},
    "out_of_arc": {"type": "boolean", "description": "Attacking from outside the target's 180° front arc"},
    "as_fear_action": {"type": "boolean", "description": "This is the Fight action forced by Fear (L287)"},
    "use_reroll": USE_REROLL,
    **GM_DICE,
}


def modifier_line(why, blessings: int, curses: int):
    """«Цель в частичном укрытии: +1 проклятие» — one line of a modifier table, in the reader's language."""
    dice = []
    if blessings:
        dice.append(NT("+{n} blessing", "+{n} blessings", blessings))
    if curses:
        dice.append(NT("+{n} curse", "+{n} curses", curses))
    return T("{why}: {dice}", why=why, dice=join(", ", dice))


def shooting_modifiers(shooter: dict, target: dict, clean: dict, *, mode: str = "single") -> tuple[int, int, list]:
    """(blessings, curses, lines) from the table of L150–162 and the rules elsewhere (L111, L311, L315)."""
    lines = []
    blessings = curses = 0

    def add(b: int, c: int, why):
        nonlocal blessings, curses
        if b or c:
            blessings += b
            curses += c
            lines.append(modifier_line(why, b, c))

    add(
        0,
        tables.COVER_CURSES[clean.get("cover", "none")],
        T("target in {cover}", cover=words.word(words.COVER, clean.get("cover", "none"))),
    )
    b, c = tables.RANGE_BAND[clean.get("range_band", "medium")]
    add(b, c, words.word(words.RANGE, clean.get("range_band", "medium")))
    add(shooter.get("aim", 0), 0, T("aiming"))
    add(0, int(clean.get("target_moved_twice", False)), T("the target moved twice"))
    add(int(clean.get("height_cm", 0) >= tables.SHOOTER_HIGHER_CM), 0, T("the shooter is 5 cm or more higher"))
    add(tables.FIRE_MODE_BLESSINGS[mode], 0, words.word(words.FIRE_MODE, mode))
    add(int(clean.get("out_of_arc", False)), 0, T("outside the target's arc"))
    add(0, int(bool(target.get("took_cover"))), T("the target took cover (L111)"))
    add(0, int(agents.has(shooter, "pinned")), T("the shooter is pinned (L315)"))
    add(0, int(agents.has(shooter, "disoriented")), T("the shooter is disoriented (L311)"))
    add(clean.get("extra_blessings", 0), clean.get("extra_curses", 0), T("the GM's dice"))
    return blessings, curses, lines


def crit_rules(target: dict, settings: dict) -> tuple[bool, bool]:
    """(crit succeeds, crit has its effect) against this target: Take cover makes it immune to crits (L111, A3)."""
    if not target.get("took_cover"):
        return bool(settings.get("crit_auto_success", True)), True
    return settings.get("cover_crit_immunity") != "crit_success" and bool(
        settings.get("crit_auto_success", True)
    ), False


def check_attacker(sheet: dict, field: str, clean: dict) -> None:
    check_can_act(sheet, field)
    if agents.has(sheet, "fear") and not clean.get("as_fear_action"):
        raise err(
            f"{field}.statuses", _("Under Fear a model may only do the Fear actions: Fight, Flee, Freeze (L285).")
        )


def check_weapon(weapon: dict, field: str) -> None:
    if weapon.get("drawn") is False:
        raise err(f"{field}.drawn", _("Only a drawn weapon can be used; drawing one is free once a turn (L73)."))


def ammo_needed(mode: str, settings: dict) -> int:
    return {"single": 1, "burst": settings["burst_ammo"], "auto": settings["auto_ammo"]}[mode]


class Shoot(EnfAction):
    key = "shoot"
    label = "Shooting"
    spec_ref = "§3.10 (L142–170), A3, A11, A25"
    description = (
        "A BS test with the shooting modifiers (cover, range, aim, a target that moved twice, height, burst or "
        "automatic fire, outside the arc; Take cover, Pinned and Disoriented add curses). A hit deals the weapon's "
        "damage to AP then HP, and each status trait asks a TN test. A failed shot with a natural 18–20 hits the "
        "model nearest the shooter on the line of fire. A target that was aiming tests WL to keep its aim."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["shooter", "weapon", "target"],
        "properties": {
            "shooter": agents.AGENT,
            "weapon": WEAPON,
            "target": agents.AGENT,
            "mode": {"enum": list(tables.FIRE_MODE_BLESSINGS)},
            "stray_victim": {"anyOf": [agents.AGENT, {"type": "null"}], "description": "Nearest model on the line"},
            "stray_victim_off_line_cm": {
                "type": "number",
                "minimum": 0,
                "maximum": 100,
                "description": "How far the stray victim stands from the shooter–target line (L170: within 2 cm)",
            },
            **SITUATION,
        },
    }

    def check_inputs(self, inputs, settings):
        shooter = agents.sheet(inputs["shooter"], "shooter", needs=("BS",))
        check_attacker(shooter, "shooter", inputs)
        check_weapon(inputs["weapon"], "weapon")
        check_alive(agents.sheet(inputs["target"], "target", needs=("HL",)), "target")
        mode = inputs.get("mode", "single")
        ammo = inputs["weapon"].get("ammo")
        if ammo is not None and ammo < ammo_needed(mode, settings):
            raise err(
                "weapon.ammo",
                _("{ammo} ammo left; a shot of this mode ({mode}) needs {needed}. Reload.").format(
                    ammo=ammo, mode=words.word(words.FIRE_MODE, mode), needed=ammo_needed(mode, settings)
                ),
                {"ammo_needed": ammo_needed(mode, settings)},
            )
        _needs_for_hit(inputs["target"], inputs["weapon"], "target")
        if inputs.get("stray_victim"):
            check_alive(agents.sheet(inputs["stray_victim"], "stray_victim", needs=("HL",)), "stray_victim")
            _needs_for_hit(inputs["stray_victim"], inputs["weapon"], "stray_victim")
        reroll_wanted(shooter, inputs, "shooter")
        return inputs

    def run(self, clean, settings, roller):
        shooter = agents.sheet(clean["shooter"], "shooter")
        target = agents.sheet(clean["target"], "target")
        weapon, mode = clean["weapon"], clean.get("mode", "single")
        effects, steps = [], []
        blessings, curses, lines = shooting_modifiers(shooter, target, clean, mode=mode)
        steps.extend(lines)
        crit_success, crit_effect = crit_rules(target, settings)
        spec = spec_for(shooter, "BS", T("Shooting"), blessings=blessings, curses=curses,
                        modifier=clean.get("modifier", 0), reroll=reroll_wanted(shooter, clean, "shooter"),
                        crit_success=crit_success, crit_effect=crit_effect)  # fmt: skip
        tag = {"natural": "stray_natural", "result": "stray_result"}.get(settings["stray_shot_trigger"])
        record = roller.test(spec, tag)
        steps.append(record["line"])
        note_reroll(record, shooter, effects, "shooter")
        if weapon.get("ammo") is not None:
            spent = ammo_needed(mode, settings)
            effects.append({"kind": "ammo_spent", **who(shooter, "shooter"), "amount": spent,
                            "ammo": weapon["ammo"] - spent})  # fmt: skip
        if shooter.get("aim") and settings["aim_consumed"] == "first_shot":
            emit(shooter, effects, {"kind": "aim", **who(shooter, "shooter"), "stacks": 0, "reason": "used"})
        if agents.has(shooter, "pinned"):  # L317: the suppressor answers at once
            effects.append(reaction_shot_due(shooter, "shooter", settings))
        result = {"hit": record["success"], "crit": record["crit"], "test": record, "blessings": blessings,
                  "curses": curses, "target": None, "stray": None}  # fmt: skip
        kept = keep_aim(target, roller, settings, effects, steps, role="target")
        if record["success"]:
            result["target"] = deal_hit(target, weapon, record["crit"], settings, roller, effects, steps,
                                        role="target", by=shooter.get("name"), cause="shot")  # fmt: skip
        elif record["tag"] and self.stray_in_line(clean, settings):
            victim = agents.sheet(clean["stray_victim"], "stray_victim")
            steps.append(T("Stray shot (L170): it hits {victim}.", victim=name_of(victim, "stray_victim")))
            result["stray"] = deal_hit(victim, weapon, False, settings, roller, effects, steps, role="stray_victim",
                                       by=shooter.get("name"), cause="stray shot")  # fmt: skip
            result["stray"]["hp"] = victim["hp"]
            result["stray"]["ap"] = victim["ap"]
            result["stray"]["after"] = sorted(victim["statuses"])
        elif record["tag"]:
            steps.append(T("A stray shot: it hits the model nearest the shooter within the line of fire, if any."))
        result.update(
            aim_kept=kept, target_hp=target["hp"], target_ap=target["ap"], target_statuses=sorted(target["statuses"])
        )
        summary = _shot_summary(name_of(shooter, T("The shooter")), target.get("name"), record)
        if result["target"]:
            summary += T(" for {damage} damage: HP {hp}, AP {ap}", damage=result["target"]["damage"]["amount"],
                         hp=target["hp"], ap=target["ap"])  # fmt: skip
        if result["stray"]:
            summary += T(
                "; the stray shot hits {victim}", victim=name_of(clean["stray_victim"], T("a model on the line"))
            )
        return Run(summary + ".", result, effects, steps)

    @staticmethod
    def stray_in_line(clean: dict, settings: dict) -> bool:
        off_line = clean.get("stray_victim_off_line_cm", 0)
        return bool(clean.get("stray_victim")) and off_line <= settings.get("line_of_fire_cm", 2)

    def summarise(self, clean, settings, runs):
        out = {
            "p_hit": bool_prob(runs, lambda r: r.result["hit"]),
            "p_crit": bool_prob(runs, lambda r: r.result["crit"]),
            "blessings": runs[0][1].result["blessings"],
            "curses": runs[0][1].result["curses"],
            "target_hp": dist(runs, lambda r: r.result["target_hp"]),
            "target_ap": dist(runs, lambda r: r.result["target_ap"]),
            "target_state": dist(runs, lambda r: _state(r.result["target_statuses"])),
        }
        for status in clean["weapon"].get("traits") or ():
            if status in STATUS_NAMES:
                out[f"p_{status}"] = bool_prob(runs, lambda r, s=status: s in r.result["target_statuses"])
        if clean.get("stray_victim"):
            out["p_stray_hit"] = bool_prob(runs, lambda r: r.result["stray"] is not None)
        if clean["target"].get("aim"):
            out["p_aim_lost"] = bool_prob(runs, lambda r: r.result["aim_kept"] is False)
        out["p_target_down"] = bool_prob(runs, lambda r: _state(r.result["target_statuses"]) != "none")
        out[SHEET_AFTER] = joint(runs, lambda r: self.sheet_after(clean, settings, r))
        return out

    @staticmethod
    def sheet_after(clean: dict, settings: dict, run) -> dict:
        """What the players write after the shot: the target's HP, AP, state, the statuses the weapon's traits may
        give (and Fear, when the table tests it at once), whether it keeps its aim; the model on the line of fire's
        sheet when one is named."""
        r = run.result
        tracked = tracked_statuses(clean["weapon"], settings)
        parts = sheet_parts("target_", r["target_hp"], r["target_ap"], r["target_statuses"], tracked)
        if clean["target"].get("aim"):
            parts["aim_lost"] = r["aim_kept"] is False
        if clean.get("stray_victim"):
            victim = agents.sheet(clean["stray_victim"], "stray_victim")
            stray = r["stray"]
            parts["stray_hit"] = stray is not None
            parts.update(sheet_parts("stray_", stray["hp"] if stray else victim["hp"],
                                     stray["ap"] if stray else victim["ap"],
                                     stray["after"] if stray else victim["statuses"], tracked))  # fmt: skip
        return parts


STATUS_NAMES = ("bleeding", "poisoned", "burning", "stunned", "disoriented")


def tracked_statuses(weapon: dict, settings: dict) -> tuple[str, ...]:
    """The statuses a hit may give: the weapon's status traits (L230), and Fear when the table tests it at once on
    HP loss (L278, setting)."""
    traits = set(weapon.get("traits") or ())
    found = tuple(s for s in STATUS_NAMES if s in traits)
    return found + (("fear",) if settings.get("fear_test_on_hp_loss") == "always" else ())


def _shot_summary(shooter_name, target_name: str | None, record: dict) -> Text:
    """Whole phrases, so the Russian needs no declension: a role word reads «промахивается по цели»; a name (which
    the rules cannot decline) stands in quotes after «цели»."""
    if not target_name:
        if not record["success"]:
            return T("{shooter} misses the target", shooter=shooter_name)
        if record["crit"]:
            return T("{shooter} hits the target (critical)", shooter=shooter_name)
        return T("{shooter} hits the target", shooter=shooter_name)
    if not record["success"]:
        return T("{shooter} misses {target}", shooter=shooter_name, target=target_name)
    if record["crit"]:
        return T("{shooter} hits (critical) {target}", shooter=shooter_name, target=target_name)
    return T("{shooter} hits {target}", shooter=shooter_name, target=target_name)


def _state(statuses: list[str]) -> str:
    for state in ("dead", "dying", "seriously_wounded"):
        if state in statuses:
            return state
    return "none"


def _needs_for_hit(agent: dict, weapon: dict, field: str) -> None:
    """Status traits ask a TN test (L230); an aiming target a WL test (L93)."""
    if set(weapon.get("traits") or ()) & set(STATUS_NAMES):
        agents.stat(agent, "TN", field)
    if agent.get("aim"):
        agents.stat(agent, "WL", field)


class Throw(EnfAction):
    key = "throw"
    label = "Thrown weapon"
    spec_ref = "§3.11 (L172–174)"
    description = (
        "Grenades and knives reach 1.5 x TN cm. A BS test as for shooting; on a failure roll 2d6 for scatter: a "
        "double still hits, otherwise it lands twice the higher die in cm away, in the direction from the lower "
        "die to the higher (here a d12 clock face, or the direction the table reports)."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["thrower", "weapon", "target", "distance_cm"],
        "properties": {
            "thrower": agents.AGENT,
            "weapon": WEAPON,
            "target": agents.AGENT,
            "distance_cm": {"type": "number", "minimum": 0, "maximum": 500},
            "direction_deg": {"type": "number", "minimum": 0, "maximum": 360, "description": "Scatter, reported"},
            **SITUATION,
        },
    }

    def check_inputs(self, inputs, settings):
        thrower = agents.sheet(inputs["thrower"], "thrower", needs=("BS", "TN"))
        check_attacker(thrower, "thrower", inputs)
        check_weapon(inputs["weapon"], "weapon")
        check_alive(agents.sheet(inputs["target"], "target", needs=("HL",)), "target")
        _needs_for_hit(inputs["target"], inputs["weapon"], "target")
        reach = agents.derived(thrower)["throw_range"]
        if inputs["distance_cm"] > reach:
            raise err(
                "distance_cm",
                _("A throw reaches 1.5 x TN = {reach} cm; the target is {distance} cm away.").format(
                    reach=reach, distance=f"{inputs['distance_cm']:g}"
                ),
                {"throw_range_cm": reach},
            )
        if settings["scatter_direction"] == "reported" and "direction_deg" not in inputs:
            raise err("direction_deg", _("Report the scatter direction (the line from the lower die to the higher)."))
        reroll_wanted(thrower, inputs, "thrower")
        return inputs

    def run(self, clean, settings, roller):
        thrower = agents.sheet(clean["thrower"], "thrower")
        target = agents.sheet(clean["target"], "target")
        effects, steps = [], []
        blessings, curses, lines = shooting_modifiers(thrower, target, clean)
        steps.extend(lines)
        crit_success, crit_effect = crit_rules(target, settings)
        spec = spec_for(thrower, "BS", T("Throw"), blessings=blessings, curses=curses, modifier=clean.get("modifier", 0),
                        reroll=reroll_wanted(thrower, clean, "thrower"), crit_success=crit_success,
                        crit_effect=crit_effect)  # fmt: skip
        record = roller.test(spec)
        steps.append(record["line"])
        note_reroll(record, thrower, effects, "thrower")
        scatter = None
        hit = record["success"]
        if not hit:
            a = roller.roll(6, N_("scatter die 1 of 2"))
            b = roller.roll(6, N_("scatter die 2 of 2"))
            if a == b:
                hit = True
                steps.append(T("Scatter 2d6 [{a}, {b}]: a double, it hits as if the test had passed (L174).", a=a, b=b))
                scatter = {"dice": [a, b], "double": True, "distance_cm": 0, "direction": None}
            else:
                distance = tables.SCATTER_MULTIPLIER * max(a, b)
                direction = self.direction(clean, settings, roller)
                scatter = {"dice": [a, b], "double": False, "distance_cm": distance, "direction": direction}
                steps.append(T("Scatter 2d6 [{a}, {b}]: {distance} cm toward {direction}.", a=a, b=b, distance=distance,
                               direction=direction["text"]))  # fmt: skip
                blast = settings.get("grenade_blast_cm", 0)
                if distance <= blast:
                    hit = True
                    steps.append(T("It lands within the {blast} cm blast: the target is caught.", blast=blast))
        result = {"hit": hit, "crit": record["crit"], "test": record, "scatter": scatter, "target": None}
        if hit:
            crit = record["crit"] and record["success"]
            result["target"] = deal_hit(target, clean["weapon"], crit, settings, roller, effects, steps,
                                        role="target", by=thrower.get("name"), cause="thrown")  # fmt: skip
        result.update(target_hp=target["hp"], target_ap=target["ap"], target_statuses=sorted(target["statuses"]))
        thrower_name = name_of(thrower, T("The thrower"))
        summary = T("{name} hits", name=thrower_name) if hit else T("{name} misses", name=thrower_name)
        if scatter and not scatter["double"]:
            summary += T("; it scatters {n} cm", n=scatter["distance_cm"])
        return Run(summary + ".", result, effects, steps)

    def direction(self, clean, settings, roller) -> dict:
        if settings["scatter_direction"] == "reported":
            deg = clean["direction_deg"]
            return {"degrees": deg, "clock": None, "text": T("{deg}° (reported)", deg=f"{deg:g}")}
        hour = roller.roll(12, N_("scatter direction (d12 clock, 12 = straight on)"))
        return {"degrees": (hour % 12) * 30, "clock": hour, "text": T("{hour} o'clock", hour=hour)}

    def summarise(self, clean, settings, runs):
        return {
            "p_hit": bool_prob(runs, lambda r: r.result["hit"]),
            "p_hit_on_test": bool_prob(runs, lambda r: r.result["test"]["success"]),
            "p_double": bool_prob(runs, lambda r: bool(r.result["scatter"] and r.result["scatter"]["double"])),
            "scatter_cm": dist(runs, lambda r: r.result["scatter"]["distance_cm"] if r.result["scatter"] else 0),
            "target_hp": dist(runs, lambda r: r.result["target_hp"]),
            "target_ap": dist(runs, lambda r: r.result["target_ap"]),
            "target_state": dist(runs, lambda r: _state(r.result["target_statuses"])),
            "p_target_down": bool_prob(runs, lambda r: _state(r.result["target_statuses"]) != "none"),
            SHEET_AFTER: joint(
                runs,
                lambda r: sheet_parts(
                    "target_",
                    r.result["target_hp"],
                    r.result["target_ap"],
                    r.result["target_statuses"],
                    tracked_statuses(clean["weapon"], settings),
                ),
            ),
        }
