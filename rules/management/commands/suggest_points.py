"""Prices a pack file whose book gives no points by unit-against-unit balance jobs (rules/jobs/pricing.py) and
writes the suggested points, their 95 % intervals and the job that produced them back into the file (or --out).
Then `manage.py load_packs` makes it a new pack version that rosters pin."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from rules.errors import RuleInputError
from rules.jobs import pricing


def _json_object(text: str, name: str) -> dict:
    try:
        value = json.loads(text or "{}")
    except ValueError as exc:
        raise CommandError(f"--{name} is not JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise CommandError(f"--{name} must be a JSON object")
    return value


class Command(BaseCommand):
    help = "Suggests points for every unit of a pack file by duels of balance jobs; writes them into the file."

    def add_arguments(self, parser):
        parser.add_argument("file", help="The pack file (armlist-pack JSON) to price.")
        parser.add_argument("--out", help="Where to write the priced pack (default: the file itself).")
        parser.add_argument("--battles", type=int, default=2000, help="Duels per pair of units.")
        parser.add_argument("--seed", type=int, default=1, help="The job's seed: the same seed, the same numbers.")
        parser.add_argument("--params", default="{}", help="The simulator's parameters as a JSON object.")
        parser.add_argument(
            "--rules-settings",
            dest="rules_settings",
            default="{}",
            help="System settings other than the defaults, as JSON.",
        )
        parser.add_argument(
            "--mean", type=float, default=pricing.DEFAULT_MEAN, help="The points of a unit of average strength."
        )
        parser.add_argument("--bootstrap", type=int, default=pricing.DEFAULT_BOOTSTRAP, help="Bootstrap rounds.")

    def handle(self, *args, file, out=None, battles, seed, params, rules_settings, mean, bootstrap, **options):
        path = Path(file)
        try:
            pack = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise CommandError(f"Cannot read {path}: {exc}") from exc
        if not isinstance(pack, dict) or pack.get("format") != "armlist-pack" or "system" not in pack:
            raise CommandError(f"{path} is not an armlist-pack file")
        if mean <= 0 or bootstrap < 10:
            raise CommandError("--mean must be above 0 and --bootstrap at least 10")
        try:
            priced = pricing.suggest_points(
                pack,
                battles=battles,
                seed=seed,
                params=_json_object(params, "params"),
                settings=_json_object(rules_settings, "rules-settings"),
                mean=mean,
                rounds=bootstrap,
            )
        except RuleInputError as exc:
            raise CommandError("; ".join(f"{k}: {v}" for k, v in exc.errors.items())) from exc
        target = Path(out) if out else path
        target.write_text(json.dumps(priced, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        for p in priced["profiles"]:
            s = p["data"]["suggested"]
            self.stdout.write(f"{p['slug']}: {s['points']} ({s['low']}–{s['high']})")
        self.stdout.write(f"{target}: {len(priced['profiles'])} units priced; load it with manage.py load_packs")
