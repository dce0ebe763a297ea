"""Used by `make run`: official data packs, a demo club with demo rosters, and a demo login (idempotent).

Every registered system with an army builder and an official pack gives its demo armies (`ArmyPart.demo_rosters`):
nothing here names a game."""

import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from armies import selectors, services, systems
from armies.models import Club, DataPack, Membership, Roster
from rules.registry import get_system

DEMO_CLUB = "Demo club"


class Command(BaseCommand):
    help = "Loads the official data packs and creates the demo club, rosters and login (idempotent)."

    def handle(self, *args, **options):
        password_file = Path(settings.VAR_DIR) / "demo_password"
        if not password_file.exists():
            password_file.parent.mkdir(parents=True, exist_ok=True)
            password_file.write_text(secrets.token_urlsafe(9))
        password = password_file.read_text().strip()
        User = get_user_model()
        user, _ = User.objects.get_or_create(username="demo")
        user.set_password(password)
        user.save()

        for pack, created in services.load_packs():
            state = "loaded" if created else "up to date"
            self.stdout.write(f"Pack {pack.name} v{pack.version}: {state}")
        self._demo_club_and_rosters(user)
        self.stdout.write(self.style.SUCCESS(f"Demo login: username 'demo', password '{password}'"))

    @transaction.atomic
    def _demo_club_and_rosters(self, user) -> None:
        club = Club.objects.filter(name=DEMO_CLUB, memberships__user=user).first()
        if club is None:
            club = services.club_create(user=user, name=DEMO_CLUB, description="Rosters made by `make run`.")
        Membership.objects.get_or_create(club=club, user=user, defaults={"role": Membership.Role.OWNER})
        with translation.override(settings.LANGUAGE_CODE):  # the demo's names in the club's language
            for slug, _name in systems.army_systems():
                self._demo_rosters(user, club, slug)

    def _demo_rosters(self, user, club, slug: str) -> None:
        pack = (
            DataPack.objects.filter(system=slug, published=True, owner=None, club=None).order_by("slug", "-version")
        ).first()
        if pack is None:
            self.stdout.write(self.style.WARNING(f"No official pack of {slug}: its demo rosters skipped."))
            return
        system = get_system(slug)
        profiles = [p.as_rules_dict() for p in selectors.pack_profiles(pack)]
        for n, spec in enumerate(system.army.demo_rosters(profiles), start=1):
            if not spec.get("name"):
                spec = {**spec, "name": _("Demo: {system}, army {n}").format(system=system.name, n=n)}
            if Roster.objects.filter(owner=user, system=slug, name=spec["name"]).exists():
                continue
            try:
                with transaction.atomic():
                    roster = self._demo_roster(user, club, pack, spec)
            except services.ServiceError as exc:  # a demo the pack no longer fits: skipped, said, never fatal
                self.stdout.write(self.style.WARNING(f"Demo roster «{spec['name']}» skipped: {exc.message}"))
                continue
            self.stdout.write(f"Demo roster «{roster.name}» created.")

    def _demo_roster(self, user, club, pack, spec) -> Roster:
        roster = services.roster_create(
            owner=user,
            pack=pack,
            name=spec["name"],
            faction=spec.get("faction", ""),
            points_limit=spec.get("points_limit"),
            club=club,
            visibility=Roster.Visibility.CLUB,
        )
        for entry in spec["entries"]:
            services.entry_add(
                roster=roster,
                profile=entry["profile"]["slug"],
                count=entry.get("count", 1),
                options=entry.get("options"),
                key=entry.get("key"),
            )
        return roster
