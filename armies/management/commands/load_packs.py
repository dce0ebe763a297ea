"""Loads the official data packs from rules/systems/<system>/data/*.json. Idempotent: an unchanged file changes
nothing; a changed file becomes a new published version (published versions are never edited)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from armies import services


class Command(BaseCommand):
    help = "Loads official data packs from their files (idempotent; a changed file makes a new version)."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="*", help="Pack files to load (default: every official pack file).")

    def handle(self, *args, files=(), **options):
        paths = [Path(f) for f in files] or None
        try:
            results = services.load_packs(paths=paths)
        except services.ServiceError as exc:
            details = "".join(f"\n  {k}: {v}" for k, v in list(exc.errors.items())[:20])
            raise CommandError(f"{exc.message}{details}") from exc
        for pack, created in results:
            state = "loaded as new version" if created else "unchanged"
            self.stdout.write(f"{pack.system}/{pack.slug} v{pack.version}: {state} ({pack.profiles.count()} profiles)")
        if not results:
            self.stdout.write("No pack files found.")
