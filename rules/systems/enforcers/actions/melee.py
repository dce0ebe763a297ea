"""Melee (§3.12, L176–214): a WS test with high ground, a stunned defender, attacks outside the arc, the charge,
reach differences (A5), parry and block (A4), and counter-attacks (errata §3.12, A7)."""

from __future__ import annotations

from rules.i18n import _
from rules.systems.enforcers import agents, tables
from rules.systems.enforcers.actions.common import (
    GM_DICE,
    SHEET_AFTER,
    USE_REROLL,
    WEAPON,
    EnfAction,
    Run,
    bool_prob,
    check_alive,
    dist,
    err,
    joint,
    name_of,
    note_reroll,
    reroll_wanted,
    sheet_parts,
    spec_for,
    who,
)
from rules.systems.enforcers.actions.hits import deal_hit
from rules.systems.enforcers.actions.shooting import (
    _needs_for_hit,
    _state,
    check_attacker,
    check_weapon,
    modifier_line,
    tracked_statuses,
)
from rules.systems.enforcers.statuses import incapacitated
from rules.systems.enforcers.texts import NT, T
from rules.systems.enforcers.wounds import DEAD, emit

MELEE_WEAPON = {**WEAPON, "required": ["damage", "reach_cm"]}


def is_stunned(sheet: dict) -> bool:
    """Stunned, or Seriously wounded / Dying, which count as Stunned (L321, L325)."""
    return agents.has(sheet, "stunned") or incapacitated(sheet)


def melee_modifiers(att: dict, dfn: dict, att_weapon: dict, dfn_weapon: dict, situation: dict, settings: dict,
                    *, counter: bool) -> tuple[int, int, int, list[str]]:  # fmt: skip
    """(blessings, curses, roll modifier, lines) of one melee attack from the table of L182–192."""
    lines: list[str] = []
    blessings = curses = modifier = 0

    def add(b: int, c: int, why):
        nonlocal blessings, curses
        if b or c:
            blessings += b
            curses += c
            lines.append(modifier_line(why, b, c))

    out_of_arc = situation.get("out_of_arc", False)
    add(int(situation.get("height_cm", 0) >= tables.MELEE_HIGHER_CM), 0, T("on high ground (L200)"))
    add(int(is_stunned(dfn)), 0, T("the defender is stunned"))
    add(int(out_of_arc), 0, T("outside the defender's arc"))
    if charges(situation, att_weapon, dfn_weapon, settings):
        add(1, 0, T("charge (L204)"))
    diff = att_weapon["reach_cm"] - dfn_weapon["reach_cm"]
    if diff > 0:
        add(diff, 0, T("reach {n} cm longer", n=diff))
    elif diff < 0 and settings.get("reach_disadvantage", "curse_per_cm") == "curse_per_cm":
        add(0, -diff, T("reach {n} cm shorter (A5)", n=-diff))
    if not is_stunned(dfn) and not out_of_arc and (not counter or settings.get("parry_on_counter", True)):
        parry = agents.effective_stats(dfn)["WS"] // tables.PARRY_STEP
        if settings.get("parry_penalty", "curses") == "curses":
            add(0, parry, T("parry and block (WS {ws})", ws=agents.effective_stats(dfn)["WS"]))
        elif parry:
            modifier += parry
            lines.append(T("parry and block: +{n} to the roll (A4)", n=parry))
    add(0, int(counter), T("counter-attack"))
    add(0, int(agents.has(att, "disoriented")), T("the attacker is disoriented (L311)"))
    add(situation.get("extra_blessings", 0), situation.get("extra_curses", 0), T("the GM's dice"))
    return blessings, curses, modifier + situation.get("modifier", 0), lines


def charges(situation: dict, att_weapon: dict, dfn_weapon: dict, settings: dict) -> bool:
    """L204–206 (A10): a model that came within reach during this activation's movement gets a blessing, unless it
    was already within the opponent's reach and its own weapon is the shorter. Whose reach: a setting."""
    start = situation.get("start_distance_cm")
    if start is None:
        return False
    now = situation.get("distance_cm", 0)
    reach = dfn_weapon["reach_cm"] if settings.get("charge_reach", "opponent") == "opponent" else att_weapon["reach_cm"]
    already_close = start <= dfn_weapon["reach_cm"] and att_weapon["reach_cm"] < dfn_weapon["reach_cm"]
    return start > now and start > reach >= now and not already_close


def may_counter(distance: float, own_weapon: dict, opponent_weapon: dict, settings: dict) -> bool:
    """L214 (errata): a fighter counters only within the opponent's reach (the book), or its own (setting)."""
    own = settings.get("counter_reach", "opponent") == "own"
    return distance <= (own_weapon if own else opponent_weapon)["reach_cm"]


class Melee(EnfAction):
    key = "melee"
    label = "Melee"
    spec_ref = "§3.12 (L176–214), A4, A5, A7, A10, errata §3.12"
    description = (
        "A WS test: high ground, a stunned defender, outside its arc and a charge give blessings; each cm of reach "
        "over the opponent's a blessing, under it a curse; the defender parries with a curse per 5 WS unless "
        "stunned or attacked from outside its arc. On a failure the defender may counter-attack at once (a curse, "
        "no action, one per turn), and a failed counter may be countered in turn."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["attacker", "attacker_weapon", "defender", "defender_weapon"],
        "properties": {
            "attacker": agents.AGENT,
            "attacker_weapon": MELEE_WEAPON,
            "defender": agents.AGENT,
            "defender_weapon": MELEE_WEAPON,
            "height_cm": {"type": "number", "minimum": -500, "maximum": 500, "description": "Attacker above, cm"},
            "out_of_arc": {"type": "boolean"},
            "distance_cm": {"type": "number", "minimum": 0, "maximum": 50, "description": "Between them now"},
            "start_distance_cm": {
                "type": "number",
                "minimum": 0,
                "maximum": 500,
                "description": "Between them when the attacker's activation began (for the charge, L204–206)",
            },
            "as_fear_action": {"type": "boolean"},
            "use_reroll": USE_REROLL,
            "counter": {
                "type": "boolean",
                "description": "This blow is a counter-attack (L212–214): a curse, no "
                "charge; the striker's one counter of the turn",
            },
            "ask_counter": {
                "type": "boolean",
                "description": "Stop after this blow and say whether the one struck "
                "at may counter-attack (the table asks its player)",
            },
            **GM_DICE,
        },
    }

    def check_inputs(self, inputs, settings):
        att = agents.sheet(inputs["attacker"], "attacker", needs=("WS", "HL"))
        check_attacker(att, "attacker", inputs)
        check_weapon(inputs["attacker_weapon"], "attacker_weapon")
        check_alive(agents.sheet(inputs["defender"], "defender", needs=("WS", "HL")), "defender")
        _needs_for_hit(inputs["defender"], inputs["attacker_weapon"], "defender")
        _needs_for_hit(inputs["attacker"], inputs["defender_weapon"], "attacker")
        reach = inputs["attacker_weapon"]["reach_cm"]
        if inputs.get("distance_cm", 0) > reach and not inputs.get("counter"):  # a counter's reach: may_counter
            raise err(
                "distance_cm",
                _("The defender is {distance} cm away; the weapon reaches {reach} cm.").format(
                    distance=f"{inputs['distance_cm']:g}", reach=reach
                ),
                {"reach_cm": reach},
            )
        reroll_wanted(att, inputs, "attacker")
        return inputs

    def run(self, clean, settings, roller):
        att = agents.sheet(clean["attacker"], "attacker")
        dfn = agents.sheet(clean["defender"], "defender")
        sides = {"attacker": (att, clean["attacker_weapon"]), "defender": (dfn, clean["defender_weapon"])}
        distance = clean.get("distance_cm", 0)
        can_counter = {
            "defender": may_counter(distance, clean["defender_weapon"], clean["attacker_weapon"], settings),
            "attacker": may_counter(distance, clean["attacker_weapon"], clean["defender_weapon"], settings),
        }
        effects, steps, exchanges = [], [], []
        striker, target, counter = "attacker", "defender", bool(clean.get("counter"))
        if counter:  # a counter asked of its player: the striker answers a failed blow at once (L212–214)
            emit(att, effects, {"kind": "counter_used", **who(att, "attacker")})
            steps.append(T("{name} counter-attacks (no action, L214).", name=name_of(att, "attacker")))
        may_answer = False
        while True:
            s_sheet, s_weapon = sides[striker]
            t_sheet, t_weapon = sides[target]
            situation = clean if not counter else {"height_cm": -clean.get("height_cm", 0) if striker == "defender"
                                                   else clean.get("height_cm", 0)}  # fmt: skip
            blessings, curses, modifier, lines = melee_modifiers(s_sheet, t_sheet, s_weapon, t_weapon, situation,
                                                                 settings, counter=counter)  # fmt: skip
            steps.extend(T("{name}: {line}", name=name_of(s_sheet, striker), line=line) for line in lines)
            reroll = not counter and reroll_wanted(att, clean, "attacker")
            label = T("Counter-attack") if counter else T("Melee")
            spec = spec_for(s_sheet, "WS", label, blessings=blessings, curses=curses, modifier=modifier, reroll=reroll,
                            crit_success=bool(settings.get("crit_auto_success", True)))  # fmt: skip
            record = roller.test(spec)
            steps.append(T("{name}: {line}", name=name_of(s_sheet, striker), line=record["line"]))
            note_reroll(record, s_sheet, effects, striker)
            exchange = {"by": striker, "counter": counter, "hit": record["success"], "crit": record["crit"],
                        "blessings": blessings, "curses": curses, "test": record, "hit_result": None}  # fmt: skip
            exchanges.append(exchange)
            if record["success"]:
                exchange["hit_result"] = deal_hit(t_sheet, s_weapon, record["crit"], settings, roller, effects, steps,
                                                  role=target, by=s_sheet.get("name"), cause="melee")  # fmt: skip
                break
            # L212–214: the one struck at may answer at once, once a turn, if within reach and able to fight.
            answering = t_sheet
            if counter and not settings.get("counter_on_counter", True):
                break
            if (answering.get("counter_used") or not can_counter[target] or incapacitated(answering)
                    or DEAD in answering["statuses"]):  # fmt: skip
                break
            if clean.get("ask_counter"):  # «может немедленно атаковать в ответ» (L212): its player decides
                may_answer = True
                break
            emit(answering, effects, {"kind": "counter_used", **who(answering, target)})
            steps.append(T("{name} counter-attacks (no action, L214).", name=name_of(answering, target)))
            striker, target, counter = target, striker, True
        hits = [e for e in exchanges if e["hit"]]
        result = {
            "hit": exchanges[0]["hit"],
            "crit": exchanges[0]["crit"],
            "exchanges": exchanges,
            "winner": hits[0]["by"] if hits else None,
            "counters": len(exchanges) - 1,
            "attacker_hp": att["hp"],
            "defender_hp": dfn["hp"],
            "attacker_ap": att["ap"],
            "defender_ap": dfn["ap"],
            "attacker_statuses": sorted(att["statuses"]),
            "defender_statuses": sorted(dfn["statuses"]),
            "counter_possible": may_answer,
        }
        attacker = name_of(att, T("The attacker"))
        summary = T("{name} hits", name=attacker) if result["hit"] else T("{name} misses", name=attacker)
        if result["counters"]:
            summary += NT("; {n} counter-attack", "; {n} counter-attacks", result["counters"])
            if result["winner"] == "attacker":
                summary += T(", the attacker lands a blow")
            elif result["winner"]:
                summary += T(", the defender lands a blow")
        summary += T(". HP: attacker {attacker}, defender {defender}.", attacker=att["hp"], defender=dfn["hp"])
        if may_answer:
            summary = summary + " " + T("{name} may counter-attack (L212).", name=name_of(dfn, "defender"))
        return Run(summary, result, effects, steps)

    def summarise(self, clean, settings, runs):
        return {
            "p_attacker_hits": bool_prob(runs, lambda r: r.result["hit"]),
            "p_crit": bool_prob(runs, lambda r: r.result["crit"]),
            "p_counter": bool_prob(runs, lambda r: r.result["counters"] >= 1),
            "p_defender_hit_by_counter": bool_prob(runs, lambda r: r.result["winner"] == "defender"),
            "p_attacker_hit_back": bool_prob(
                runs, lambda r: r.result["winner"] == "attacker" and r.result["counters"] >= 2
            ),
            "blessings": runs[0][1].result["exchanges"][0]["blessings"],
            "curses": runs[0][1].result["exchanges"][0]["curses"],
            "attacker_hp": dist(runs, lambda r: r.result["attacker_hp"]),
            "defender_hp": dist(runs, lambda r: r.result["defender_hp"]),
            "defender_state": dist(runs, lambda r: _state(r.result["defender_statuses"])),
            "attacker_state": dist(runs, lambda r: _state(r.result["attacker_statuses"])),
            "attacker_ap": dist(runs, lambda r: r.result["attacker_ap"]),
            "defender_ap": dist(runs, lambda r: r.result["defender_ap"]),
            "p_defender_down": bool_prob(runs, lambda r: _state(r.result["defender_statuses"]) != "none"),
            SHEET_AFTER: joint(runs, lambda r: self.sheet_after(clean, settings, r)),
        }

    @staticmethod
    def sheet_after(clean: dict, settings: dict, run) -> dict:
        """What the players write after the blows: each fighter's HP, AP, state and the statuses the other's weapon
        may give it (a counter-attack strikes back with the defender's weapon), with Fear when tested at once."""
        r = run.result
        return {**sheet_parts("attacker_", r["attacker_hp"], r["attacker_ap"], r["attacker_statuses"],
                              tracked_statuses(clean["defender_weapon"], settings)),
                **sheet_parts("defender_", r["defender_hp"], r["defender_ap"], r["defender_statuses"],
                              tracked_statuses(clean["attacker_weapon"], settings))}  # fmt: skip
