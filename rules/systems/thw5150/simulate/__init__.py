"""Vectorised Monte-Carlo simulator of «5150» stand-up firefights (numpy), for the balance jobs.

One rule, three forms: the simulator's tables are built from core.py and the shooting action's exact per-hit
damage (model.py); reference.py plays the same model with real dice one by one; tests hold the engine against the
reference and against the exact odds of the Shooting, Received Fire and Recovery actions.

THE ABSTRACT BATTLE MODEL (a stand-up firefight: no map, no movement)
=====================================================================
Forces: every roster entry × count becomes figures with the Rep of its profile and the options the army part
  prices: weapon (and a second pistol/SMG for two-gun firing), armour, group, Leader, Star (a Hero from the
  start when the «stars» setting is on). Each side fights from cover or in the open (parameters).
Turn (§1.4, §3.1): one activation die per side; doubles: nobody fires, everyone in normal state reloads. Else the
  higher die acts first, then the other side; a figure acts if its Rep, or its group Leader's (the acting Group
  Leader's when he is down), is at least its side's die (§5 A7 picks the group's Rep). Groups act from the highest
  activation Rep down, figures in roster order.
Activation: a Knocked Down or Duck Back figure first takes Recovery (pass 1 re-rolls once; a Hero chooses on Duck
  Back); a figure in normal state stands up, reloads if it ran out of ammo (a whole activation), else opens a
  firefight on its side's focus target: the first enemy in normal state, else one hunkered down, else one knocked
  down; the side keeps firing at it while it stays in normal state.
Firefight (L654–658): a volley of every die at the target (the Hit table as a first target, lucky shot, damage of
  every hit against the target's armour with Special and the Hand of Fate, two 1s empty the weapon); a target in
  normal state that took no damage takes Received Fire (2d6, Leader 3; outgunned by Outgun Rating; the figure did not move
  and is not flanked): fire back (at Rep −1 on pass 1) when loaded, duck back, go prone, hunker down or run away; a
  Hero takes pass 2. A hunkered-down figure fired on runs away. The return fire goes the same way, up to
  `max_exchanges` volleys.
Victory (§1.9): at the end of a turn a side with no figure in normal state, knocked down or ducked back has lost;
  after `max_turns` the side with more points standing wins (§5 A32), equal points draw.
Settings read: stars, damage_every_hit, outgunned_stationary_in_open, hero_from_shared_roll, hero_choice,
  activation_rep, lucky_shot_rep, own_outgun_weapon, knocked_down_is_prone, two_gun_rof, mg_vs_exo,
  out_of_ammo_volley, victory_points_count.
"""

from __future__ import annotations

import numpy as np

from rules.contract.simulator import Prepared, SimulatorPart
from rules.i18n import N_, ngettext
from rules.i18n import _ as tr
from rules.systems.thw5150.settings import full as full_settings
from rules.systems.thw5150.simulate import engine
from rules.systems.thw5150.simulate.model import MODEL_VERSION, PARAMS_SCHEMA, Battle, Params

MODEL_DESCRIPTION = __doc__.split("THE ABSTRACT BATTLE MODEL", 1)[1].split("\n", 2)[2].strip()


SIMULATED_SETTINGS = frozenset(
    {"stars", "damage_every_hit", "outgunned_stationary_in_open", "hero_from_shared_roll", "hero_choice",
     "activation_rep", "lucky_shot_rep", "own_outgun_weapon", "knocked_down_is_prone", "two_gun_rof", "mg_vs_exo",
     "out_of_ammo_volley", "victory_points_count"}
)  # fmt: skip
_NOT_MODELLED = {
    N_("In Sight, covering fire and hidden figures"): ("hidden_deployment", "covering_fire_ends"),
    N_("movement and flanks"): ("no_cover_within_reach", "received_fire_order", "runaway_speed", "group_test_readers"),
    N_("melee and charges"): ("melee_armour_columns", "melee_impact_basis", "melee_pass_cap", "melee_hand_of_fate",
                          "melee_continues", "charger_received_fire", "flanked_pass2_fires", "being_charged_order"),
    N_("grenades"): ("grenade_miss_dice", "grenade_template", "grenade_later_targets", "grenade_miss_received_fire",
                 "grenade_preparation"),
    N_("Stay or Run and Rally"): ("stay_or_run_rounding", "stay_or_run_per_threshold", "hunker_down_recovery",
                              "leader_die_on_leader", "hero_tests"),
    N_("army generation and encounters"): ("law_level", "weapon_table_dice", "laser_upgrade", "awareness_leader"),
    N_("a fixed number of turns (the max_turns parameter) with points at the end"): ("victory", "turn_limit"),
    N_("one test reader per firefight (a Leader reads his third die the same either way)"): ("leader_dice",),
}  # fmt: skip
IGNORED_SETTINGS = {key: what for what, keys in _NOT_MODELLED.items() for key in keys}  # what, as a msgid
# The job page shows the model in the reader's language: a short Russian account of the docstring's model.
MODEL_SUMMARY = N_(
    "A stand-up firefight without a map or movement: activation dice each turn, volleys on the Hit table with "
    "damage against armour, Received Fire and return fire, Recovery of Knocked Down and Duck Back figures, "
    "victory when a side has no figure left that can act, or by points after max_turns."
)


class Thw5150Simulator(SimulatorPart):
    model_version = MODEL_VERSION
    params_schema = PARAMS_SCHEMA
    job_kinds = ("rosters", "units")

    @property
    def description(self) -> str:
        """The docstring's full model for an English reader; the catalogue's account of it for the others."""
        text = tr(MODEL_SUMMARY)
        return MODEL_DESCRIPTION if text == MODEL_SUMMARY else text

    @property
    def ignored_settings(self) -> dict:
        return {key: tr("The stand-up firefight has no {what}.").format(what=tr(what))
                for key, what in IGNORED_SETTINGS.items()}  # fmt: skip

    simulated = (
        N_(
            "Activation dice each turn: doubles (reload only), the side with the higher die first, the Rep gate with "
            "the group Leader's or acting Group Leader's Rep (§3.1)."
        ),
        N_(
            "Shooting: every die of a volley on the Hit table (cover, lying targets, two guns), the lucky shot, "
            "damage of every hit against the armour with Special and the Hand of Fate, out of ammo on two 1s and "
            "reloading."
        ),
        N_(
            "Received Fire with a Leader's 3 dice, Outgun ratings, Heroes from double 1s (a Hero takes pass 2), and "
            "the return fire of a firefight (§3.5, §3.11)."
        ),
        N_(
            "Knocked Down and Duck Back with Recovery at the next activation; Hunker Down (fired on: runs away) and "
            "Runaway; victory when a side has no figure left that can act, or by points at the turn limit."
        ),
    )
    left_out = (
        N_("Movement, terrain, line of sight and flanks: each side is in cover or in the open for the whole battle."),
        N_("In Sight, charges and melee, grenades, covering fire, hidden figures."),
        N_("Stay or Run (motivation) and Rally; a hunkered-down figure stays hunkered down."),
        N_("Finishing off or capturing knocked-down figures; carrying the wounded."),
        N_("Splitting a volley between several targets: each volley goes at one target."),
    )

    def check_settings(self, settings: dict | None) -> dict:
        return full_settings(settings)

    def prepare(self, side_a: dict, side_b: dict, params: dict, settings: dict) -> Prepared:
        params = self.check_params(params)
        battle = Battle(side_a, side_b, Params(**params), self.check_settings(settings))
        warnings = []
        for side, name in ((0, "A"), (1, "B")):
            if not (battle.rof[battle.side == side] > 0).any():
                warnings.append(tr("Side {side} has no ranged weapon: it cannot win a firefight.").format(side=name))
        return Prepared(cost=tuple(float(c) for c in battle.side_cost), warnings=warnings, forces=battle.forces(),
                        model=battle, rounds=battle.params.max_turns)  # fmt: skip

    def describe_forces(self, forces) -> list[dict]:
        """Each side's figures as the job page lists them (model.Battle.forces: the pack's names, the cost), in the
        reader's language: never the stored keys («list», «figures»)."""
        out = []
        for k, side in enumerate(forces if isinstance(forces, list) else []):
            side = side if isinstance(side, dict) else {}
            names = [str(n) for n in side.get("list") or []]
            count = int(side.get("figures") or len(names))
            line = ngettext("{n} figure: {names}", "{n} figures: {names}", count).format(
                n=count, names=", ".join(names)
            )
            out.append({"side": "AB"[k] if k < 2 else str(k + 1), "cost": side.get("cost"), "lines": [line]})
        return out

    def run(self, prepared: Prepared, n: int, rng: np.random.Generator) -> dict:
        return engine.run(prepared.model, n, rng)


SIMULATOR = Thw5150Simulator()
