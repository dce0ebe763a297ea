"""«Бронепехота» units on the table: keys, initial states from a roster snapshot, the facts the turn logic needs,
and the `element` dicts the actions take ("ref" = the unit key, so every effect names its unit)."""

from __future__ import annotations

from rules.errors import RuleInputError
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.bronepekhota import tracker
from rules.systems.bronepekhota.actions.common import full_settings

PERSONAL = "personal"


def system_settings(settings: dict) -> dict:
    """The rules' settings out of a battle's settings ({"system": {...}, "enforce_turns": …})."""
    return full_settings((settings or {}).get("system", settings or {}))


def entry_loadout(e: dict) -> dict:
    """An entry's loadout: from `options` (new rosters) or the old `loadout` column (older snapshots)."""
    options = e.get("options")
    if isinstance(options, dict):
        return {k: v for k, v in options.items() if k != "pilot"}
    return e.get("loadout") or {}


def entry_pilot(e: dict):
    options = e.get("options")
    if isinstance(options, dict) and "pilot" in options:
        return options.get("pilot")
    return e.get("pilot")


def unit_key(side: int, entry: str, copy_no: int) -> str:
    return f"{side}.{entry}.{copy_no}"


def build_units(*, side_index: int, snapshot: dict) -> list[dict]:
    """Every unit of one side: one per copy of each roster entry, with the tracker's initial state."""
    entries = snapshot.get("entries", [])
    # Which soldier of which squad copy pilots which vehicle copy.
    pilots_of: dict[tuple[str, int], list[dict]] = {}
    for e in entries:
        if e["profile"]["kind"] != "vehicle":
            continue
        refs = entry_pilot(e) or []
        refs = [refs] if isinstance(refs, dict) else refs
        for copy_no in range(1, int(e.get("count", 1)) + 1):
            ref = refs[copy_no - 1] if copy_no - 1 < len(refs) else None
            if ref:
                squad = (ref["entry"], int(ref.get("copy", 1)))
                pilots_of.setdefault(squad, []).append(
                    {"soldier": ref["soldier"], "vehicle": unit_key(side_index, e["key"], copy_no)}
                )
    units = []
    for e in entries:
        profile = e["profile"]
        count = int(e.get("count", 1))
        for copy_no in range(1, count + 1):
            key = unit_key(side_index, e["key"], copy_no)
            entry = {"key": e["key"], "copy": copy_no, "loadout": entry_loadout(e), "owner": side_index}
            if profile["kind"] == "vehicle":
                chosen = entry_pilot(e)
                pilot = [dict(p) for p in chosen] if isinstance(chosen, list) else chosen
                if isinstance(pilot, dict):
                    pilot = [dict(pilot)]
                for p in pilot or []:
                    if p:
                        p["ref"] = unit_key(side_index, p["entry"], int(p.get("copy", 1)))
                        p.update(_soldier_stats(entries, p))
                entry["pilot"] = pilot or []
            elif profile["kind"] == "squad":
                entry["pilots"] = pilots_of.get((e["key"], copy_no), [])
            name = profile["name"] + (f" #{copy_no}" if count > 1 else "")
            units.append(
                {
                    "key": key,
                    "name": name,
                    "kind": profile["kind"],
                    "profile": profile,
                    "entry": entry,
                    "state": tracker.initial_unit_state(profile, entry),
                }
            )
    return units


def check_mounts(built: dict, *, enforce: bool) -> None:
    """The arsenal mount limit (§5 A30, setting enforce_mount_limit): a vehicle fights with at most its data's
    `mounts` weapons. On: a roster that fits more is refused at the start of the battle, and a vehicle whose
    weapons were never chosen takes the first `mounts` its variant allows (as the builder does). Off: any number."""
    if built["kind"] != "vehicle":
        return
    mounts = built["profile"]["data"].get("mounts")
    weapons = built["state"]["weapons"]
    if not enforce or not mounts or len(weapons) <= mounts:
        return
    if isinstance(built["entry"].get("loadout", {}).get("weapons"), list):
        raise RuleInputError(
            {
                "rosters": tr(
                    "{name} can mount {mounts} weapon(s) at once but {fitted} are fitted "
                    "(setting enforce_mount_limit, §5 A30): fix the roster, or turn the setting off."
                ).format(name=built["name"], mounts=mounts, fitted=len(weapons))
            }
        )
    built["state"]["weapons"] = weapons[:mounts]


def _soldier_stats(entries: list[dict], ref: dict) -> dict:
    for e in entries:
        if e["key"] == ref.get("entry") and e["profile"]["kind"] == "squad":
            for s in e["profile"]["data"]["soldiers"]:
                if s["num"] == ref.get("soldier"):
                    return {"armour": s["armour"], "rank": s["rank"]}
    return {}


def owner_of(state: dict, side: int) -> int:
    owner = state.get("owner")
    return owner if isinstance(owner, int) else side


def new_round_effect(round_: int) -> dict:
    return {"kind": "new_round", "round": round_}


def done_effect() -> dict:
    return {"kind": "activated", "value": True}


def soldiers_alive(state: dict) -> int:
    if state.get("kind") != "squad":
        return 0
    return sum(1 for s in state["soldiers"] if s["alive"] and s["on_field"] and not s["deserted"])


def unit_facts(state: dict, profile: dict, *, settings: dict, round_: int | None = None) -> dict:
    """What the game logic needs: soldiers alive (§3.15), done this round, and whether it still has to act (§3.2)."""
    kind = state["kind"]
    if kind == "squad":
        rules = system_settings(settings)
        view = tracker.unit_view(state, profile, rules)
        solo = solo_soldiers(state, rules)
        able = any(s["can_act"] for s in view["soldiers"] if s["num"] not in solo)
        reason = "" if able else N_("no soldier can act")
        by_num = {s["num"]: s for s in view["soldiers"]}
        return {
            "soldiers_alive": soldiers_alive(state),
            "activated": state["activated"],
            "activatable": able,
            "reason": reason,
            # Dismounted pilots who act as one-man units (A19 off): each has his own activation.
            "solos": [
                {"soldier": num, "activated": bool(s.get("activated")), "activatable": by_num[num]["can_act"]}
                for num, s in solo.items()
            ],
        }
    if kind == "gun":
        return {"soldiers_alive": 0, "activated": False, "activatable": False, "reason": N_("a gun is not a unit")}
    reason = ""
    if state["destroyed"]:
        reason = N_("destroyed")
    elif state["pilot"] is None:
        reason = N_("no pilot")
    elif state.get("acts_next_round"):
        reason = N_("captured this round: acts from next round")
    return {"soldiers_alive": 0, "activated": state["activated"], "activatable": not reason, "reason": reason}


def solo_soldiers(state: dict, rules: dict) -> dict[int, dict]:
    """Soldiers of a squad state who act as one-man units: dismounted pilots (got out, or their vehicle was
    destroyed) when the setting dismounted_pilot_rejoins_squad is off (§5 A19). On (the default), he rejoins his
    squad's Armlist and activates with it."""
    if state.get("kind") != "squad" or rules.get("dismounted_pilot_rejoins_squad", True):
        return {}
    return {s["num"]: s for s in state["soldiers"] if s["role"] == "dismounted" and s["alive"] and s["on_field"]}


def actor_key(unit_key: str, soldier=None, *, solo: bool = False) -> str:
    """The key of what acts: a unit, or a one-man unit "<squad key>/<soldier>" (A19 off)."""
    return f"{unit_key}/{soldier}" if solo else unit_key


def split_actor(key: str) -> tuple[str, int | None]:
    if isinstance(key, str) and "/" in key:
        unit, _, num = key.rpartition("/")
        if num.isdigit():
            return unit, int(num)
    return key, None


def actor_facts(state_units: dict, key: str, *, settings: dict, round_=None) -> dict | None:
    """unit_facts of a unit or of a one-man unit (None: no such thing)."""
    unit_key, num = split_actor(key)
    unit = state_units.get(unit_key)
    if unit is None:
        return None
    facts = unit_facts(unit.state, unit.profile, settings=settings, round_=round_)
    if num is None:
        return facts
    return next((s for s in facts.get("solos", []) if s["soldier"] == num), None)


def unit_label(unit) -> str:
    return f"{unit.profile.get('name', unit.key)} ({unit.key})"


def _soldier_state(state: dict, num) -> dict:
    for s in state.get("soldiers", []):
        if s["num"] == num:
            return s
    raise RuleInputError({"soldier": tr("This squad has no soldier {num}.").format(num=num)})


def _soldier_profile(profile: dict, num) -> dict:
    for s in profile["data"].get("soldiers", []):
        if s["num"] == num:
            return s
    raise RuleInputError({"soldier": tr("This squad has no soldier {num}.").format(num=num)})


def _pick_soldier(unit, num, field_name: str, *, alive: bool = True) -> tuple[dict, dict]:
    if unit.state["kind"] != "squad":
        raise RuleInputError({field_name: tr("{name} is not an infantry squad.").format(name=unit.profile["name"])})
    if isinstance(num, bool) or not isinstance(num, int):
        raise RuleInputError({field_name: tr("Say which soldier (his number).")})
    st, pr = _soldier_state(unit.state, num), _soldier_profile(unit.profile, num)
    if alive and not (st["alive"] and st["on_field"]):
        raise RuleInputError(
            {
                field_name: tr("Soldier {num} of {name} is dead or off the field.").format(
                    num=num, name=unit.profile["name"]
                )
            }
        )
    return st, pr


def infantry_element(unit, num, field_name: str) -> dict:
    st, pr = _pick_soldier(unit, num, field_name)
    return {
        "kind": "infantry",
        "ref": unit.key,
        "soldier": num,
        "name": f"{unit.profile['name']} #{num}",
        "armour": pr["armour"],
        "melee": pr["melee"],
        "rank": pr["rank"],
        "in_melee": st["in_melee"],
    }


def machine_element(unit) -> dict:
    st, data = unit.state, unit.profile["data"]
    el = {
        "kind": st["kind"],
        "ref": unit.key,
        "name": unit.profile["name"],
        "strength": st["strength"],
        "strength_max": st["strength_max"],
        "rank": data.get("rank", 0),
        "lying": st["lying"],
        "destroyed": st["destroyed"],
        "in_melee": st["in_melee"],
    }
    if st["kind"] == "vehicle":
        pilot = st.get("pilot")
        el["pilot"] = {k: pilot[k] for k in ("armour", "rank", "ref", "soldier") if k in pilot} if pilot else None
        if el["pilot"] is not None and "armour" not in el["pilot"]:
            el["pilot"]["armour"] = 0
        el["flying"] = bool(st.get("flying"))
        el["melee_weapons"] = [
            w["melee"] for w in data.get("arsenal", []) if w["key"] in st["weapons"] and w.get("melee")
        ]
    return el


def element(unit, num=None, field_name: str = "target") -> dict:
    """A target, defender or blast victim."""
    if unit.state["kind"] == "squad":
        name = f"{field_name}_soldier" if field_name != "soldier" else field_name
        st, _ = _pick_soldier(unit, num, name)
        if st["role"] == "pilot":
            raise RuleInputError(
                {name: tr("Soldier {num} sits in a vehicle as its pilot: attack the vehicle instead.").format(num=num)}
            )
        return infantry_element(unit, num, name)
    return machine_element(unit)
