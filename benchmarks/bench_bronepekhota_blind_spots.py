"""What capture (p.42 §9.1–9.2) and blast specials (§7.4 IV) do to the «Бронепехота» simulator's verdicts, now that
both are simulated.

Ten real rosters of about 300 points, built from the official pack, fight in five pairs, each pair as a balance job
would run it (10,000 battles, the job form's default, same seed), once as the model stands (capture simulated,
MODEL_VERSION 3: a pilotless vehicle is taken by the first soldier of rank >= its own to reach it, and changes sides
when the enemy takes it) and once with capture switched off (the model before version 3). Per match-up the run
prints side A's score (win 1, draw ½) with and without, the change, the job's own 95 % interval half-width, and
the verdict (analysis.verdict) with and without.

Blast specials (MODEL_VERSION 4) are an optional rule, off by default (`special_properties`); only the heavy rocket
has one (WEREWOLF, MADBULL, DEMOLISHER), which none of the ten rosters fields, so their verdicts cannot move. A
second table runs two match-ups of ~310 points that field them, with the rule on against off.

Still not simulated, so not measured here: capturing or re-crewing guns (p.42: a crew stays with its gun and a gun
without one stays silent), grenade bystanders, towing, line of sight, jump heights, real shooting.

Run: make bench ARGS=benchmarks/bench_bronepekhota_blind_spots.py
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import django  # noqa: E402

django.setup()

import numpy as np  # noqa: E402

from rules.jobs.analysis import roster_result  # noqa: E402
from rules.systems.bronepekhota.simulate import Battle, BattleParams, summarise  # noqa: E402

PACK = Path(__file__).resolve().parents[1] / "rules" / "systems" / "bronepekhota" / "data" / "tehnolog-classic.json"
BATTLES = 10_000  # a roster job's default (rules/jobs/forms.py)
# Ten rosters (slugs of the official pack), five match-ups; each side 290–310 points with vehicles that need pilots.
PAIRS = [
    (
        ["protectorate_kiberspetsnaz", "trex", "salamander", "protectorate_regulyary_planety_velian"],
        ["polaris_lineynaya_klon_pehota", "polaris_lyogkiy_shturmovoy_desant", "hunter", "thunder"],
    ),
    (
        ["protectorate_spetsnaz_planety_felitsiya", "octopus", "griffin", "protectorate_kiberpehota"],
        ["polaris_tyazhyolaya_klon_pehota", "helix", "raptor", "polaris_lyogkaya_shturmovaya_klon_pehota"],
    ),
    (
        ["protectorate_tyazhyolyy_shturmovoy_desant", "varan", "bronekhod", "protectorate_opolchenie_planety_gelion"],
        ["polaris_tyazhyolyy_shturmovoy_desant", "locust", "hunter", "polaris_rezhimnaya_klon_pehota"],
    ),
    (
        ["protectorate_shturmovoy_otryad_stervyatniki", "condor", "protectorate_kosari", "minomet"],
        ["mercenaries_reydery_pylnoy_zony", "kibertank", "mercenaries_naytstalkery", "buldog"],
    ),
    (
        ["protectorate_kiberspetsnaz", "spider", "puma", "viper", "protectorate_opolchenie_planety_gelion"],
        ["polaris_spetsnaz_planety_shidu", "hornet", "polaris_lineynaya_klon_pehota"],
    ),
]


BLAST_PAIRS = [
    (
        ["protectorate_kiberspetsnaz", "werewolf", "protectorate_regulyary_planety_velian"],
        ["polaris_lineynaya_klon_pehota", "polaris_lyogkiy_shturmovoy_desant", "madbull"],
    ),
    (
        ["protectorate_kiberspetsnaz", "werewolf", "protectorate_regulyary_planety_velian"],
        ["polaris_lineynaya_klon_pehota", "demolisher", "thunder"],
    ),
]


def side(profiles: dict, slugs: list[str]) -> list[dict]:
    return [{"key": f"e{i}", "profile": profiles[s], "count": 1, "options": {}} for i, s in enumerate(slugs)]


def without_capture(battle: Battle) -> None:
    """The same battle with nobody ever taking a pilotless vehicle (the model before version 3)."""
    battle.capture_cols = []
    battle.capture_col_array = np.zeros(0, np.intp)


def job(side_a, side_b, *, approximate=None, seed: int = 20240, settings=None):
    battle = Battle(side_a, side_b, BattleParams(), settings or {})
    if approximate:
        approximate(battle)
    summary = summarise(battle.run(BATTLES, np.random.default_rng(seed)), rounds=8, cost=battle.cost)
    return roster_result(summary, cost_a=float(battle.cost[0]), cost_b=float(battle.cost[1]))


def main() -> None:
    profiles = {p["slug"]: p for p in json.loads(PACK.read_text(encoding="utf-8"))["profiles"]}
    started = time.time()
    print(f"Capture simulated against left out: {BATTLES} battles per job, default parameters and settings.")
    print("match-up  cost A/B   score without  score with  change   job CI (±)  verdict without -> with")
    worst = 0.0
    beyond = 0
    for k, (a, b) in enumerate(PAIRS, start=1):
        side_a, side_b = side(profiles, a), side(profiles, b)
        base = job(side_a, side_b, approximate=without_capture)
        with_rule = job(side_a, side_b)
        s0, s1 = base["score_a"]["p"], with_rule["score_a"]["p"]
        ci = (base["score_a"]["high"] - base["score_a"]["low"]) / 2
        change = s1 - s0
        worst = max(worst, abs(change) / ci if ci else 0.0)
        beyond += abs(change) > ci
        v0, v1 = base["verdict"], with_rule["verdict"]
        print(
            f"{k:>8}  {base['cost_a']:.0f}/{base['cost_b']:.0f}  {s0:13.4f}  {s1:10.4f}  {change:+.4f}  {ci:10.4f}"
            f"   {v0['level']} (k {v0['k']:.2f}) -> {v1['level']} (k {v1['k']:.2f})"
        )
    print(
        f"{beyond} of {len(PAIRS)} match-ups move by more than the job's CI; the largest move is {worst:.1f}x the CI "
        f"({time.time() - started:.0f} s)."
    )
    print("Capture is simulated (the 'with' column is the model).")
    blasts(profiles)
    print("Not simulated: guns taken or re-crewed, grenade bystanders, towing, line of sight, jump heights.")


def blasts(profiles: dict) -> None:
    """special_properties on against off: the ten rosters carry no blast weapon; two match-ups that do."""
    rockets = [s for s, p in profiles.items() if any((w.get("special") or {}).get("blast_steps") for w in _arms(p))]
    carried = sorted({s for a, b in PAIRS for s in a + b} & set(rockets))
    print(f"Blast specials: weapons with a blast on {', '.join(sorted(rockets))}; among the ten rosters: {carried}.")
    print("match-up  cost A/B   score off      score on    change   job CI (±)  verdict off -> on")
    for k, (a, b) in enumerate(BLAST_PAIRS, start=1):
        side_a, side_b = side(profiles, a), side(profiles, b)
        off = job(side_a, side_b)
        on = job(side_a, side_b, settings={"special_properties": True})
        s0, s1 = off["score_a"]["p"], on["score_a"]["p"]
        ci = (off["score_a"]["high"] - off["score_a"]["low"]) / 2
        v0, v1 = off["verdict"], on["verdict"]
        print(
            f"{k:>8}  {off['cost_a']:.0f}/{off['cost_b']:.0f}  {s0:13.4f}  {s1:10.4f}  {s1 - s0:+.4f}  {ci:10.4f}"
            f"   {v0['level']} (k {v0['k']:.2f}) -> {v1['level']} (k {v1['k']:.2f})"
        )


def _arms(profile: dict) -> list[dict]:
    data = profile.get("data") or {}
    return list(data.get("arsenal") or []) + list(data.get("weapons") or [])


if __name__ == "__main__":
    main()
