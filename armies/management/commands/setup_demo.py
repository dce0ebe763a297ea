"""Used by `make run`: official data packs, a demo club with demo rosters, and a demo login (idempotent).

The demo rosters are «Бронепехота» armies (units of its official pack, a pilot named in each vehicle's options);
they are skipped when that pack is not loaded."""

import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from armies import services
from armies.models import Club, DataPack, Membership, Roster

DEMO_CLUB = "Demo club"
# Two armies of similar cost (275 vs 260: 5 % apart), each valid: every vehicle has a pilot of sufficient rank.
DEMO_ROSTERS = [
    {
        "name": "Demo: Protectorate strike group",
        "faction": "protectorate",
        "entries": [
            ("squad", "protectorate_kiberspetsnaz", None),
            ("gryphon", "griffin", ("squad", 1)),
            ("guard", "protectorate_ruteniyskaya_gvardiya", None),
            ("cannon", "sparennaya_pushka", None),
        ],
    },
    {
        "name": "Demo: Polaris assault wing",
        "faction": "polaris",
        "entries": [
            ("desant", "polaris_lyogkiy_shturmovoy_desant", None),
            ("thunder", "thunder", ("desant", 1)),
            ("line", "polaris_lineynaya_klon_pehota", None),
            ("mortar", "minomet", None),
        ],
    },
]


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
        pack = (
            DataPack.objects.filter(
                system="bronepekhota", slug="tehnolog-classic", published=True, owner=None, club=None
            )
            .order_by("-version")
            .first()
        )
        if pack is None:
            self.stdout.write(self.style.WARNING("No official «Бронепехота» pack: demo rosters skipped."))
            return
        for spec in DEMO_ROSTERS:
            if Roster.objects.filter(owner=user, name=spec["name"]).exists():
                continue
            roster = services.roster_create(
                owner=user,
                pack=pack,
                name=spec["name"],
                faction=spec["faction"],
                points_limit=300,
                club=club,
                visibility=Roster.Visibility.CLUB,
            )
            keys = {}
            for label, slug, pilot in spec["entries"]:
                options = {"pilot": [{"entry": keys[pilot[0]], "soldier": pilot[1], "copy": 1}]} if pilot else None
                keys[label] = services.entry_add(roster=roster, profile=slug, options=options).key
            self.stdout.write(f"Demo roster «{roster.name}» created.")
        Membership.objects.get_or_create(club=club, user=user, defaults={"role": Membership.Role.OWNER})
