"""Used by `make run`: official data packs, a demo club with demo rosters, and a demo login."""

import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


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
        self.stdout.write(self.style.SUCCESS(f"Demo login: username 'demo', password '{password}'"))
