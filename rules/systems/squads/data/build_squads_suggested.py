"""Writes the squad builds of «Отряды» that get suggested points (squads-suggested.json), still unpriced.

The book gives no points (L2: the players agree the balance of forces). Armlist proposes some by simulation: this
script lists typical squad builds as ready-made profiles (a build is the entry's default options, army.py), then
the generic command prices them with unit-against-unit balance jobs (rules/jobs, through this system's simulator):

    .venv/bin/python rules/systems/squads/data/build_squads_suggested.py          # the builds (cost 0)
    .venv/bin/python manage.py suggest_points rules/systems/squads/data/squads-suggested.json --battles 2000 --seed 1

The second step writes each build's points, their 95 % interval and the job that produced them (its battles, seed,
parameters and settings) back into the file; `manage.py load_packs` then makes it a new pack version that rosters
pin. The same seed gives the same numbers, so anyone can re-run the job from the builder's link and see them.
Pure standard library: no Django, no project imports.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_OUTPUT = HERE / "squads-suggested.json"

LEVELS = {"recruit": "Рекрут", "regular": "Рядовой", "veteran": "Ветеран", "elite": "Элита"}
# (slug, name, armour, figures): the kits the book's tables suggest for a squad of five (L45–66).
KITS = (
    ("rifles", "5 винтовок", "none", [{"weapon": "rifle", "count": 5}]),
    ("lmg", "4 винтовки и ручной пулемет", "none", [{"weapon": "rifle", "count": 4}, {"weapon": "lmg", "count": 1}]),
    ("assault", "5 автоматов, легкая броня", "light", [{"weapon": "assault_rifle", "count": 5}]),
)
PROVENANCE = {
    "source": "Suggested by simulation: «Отряды» gives no points (L2).",
    "converted_by": "rules/systems/squads/data/build_squads_suggested.py, priced by manage.py suggest_points",
    "faithful": ["training levels, weapons and armour of the book's tables"],
    "inferred": {
        "cost": "Not the book's: points proportional to the Bradley–Terry strength of each build in duels against "
        "every other build (see the job below and each profile's suggested points)."
    },
}


def profiles() -> list[dict]:
    out = []
    for level, level_name in LEVELS.items():
        for kit, kit_name, armour, figures in KITS:
            out.append({
                "slug": f"{level}-{kit}",
                "name": f"{level_name}: {kit_name}",
                "faction": "any",
                "kind": "squad",
                "cost": 0,
                "data": {"level": level, "armour": armour, "figures": figures, "leader": None},
                "notes": "Points not from the book: suggested by simulation.",  # msgid: Russian in locale/ru
            })  # fmt: skip
    return out


def build() -> dict:
    return {
        "format": "armlist-pack",
        "format_version": 1,
        "system": "squads",
        "slug": "squads-suggested",
        "name": "Отряды: предлагаемые очки (по моделированию)",
        "source": PROVENANCE["source"],
        "factions": [{"slug": "any", "name": "Любая сторона", "colour": "", "joins_any": True}],
        "provenance": PROVENANCE,
        "profiles": profiles(),
    }


def main(argv: list[str]) -> None:
    output = Path(argv[1]) if len(argv) > 1 else DEFAULT_OUTPUT
    pack = build()
    output.write_text(json.dumps(pack, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{output}: {len(pack['profiles'])} builds, unpriced: now run manage.py suggest_points {output}")


if __name__ == "__main__":
    main(sys.argv)
