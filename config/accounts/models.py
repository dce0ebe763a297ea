"""What an account remembers besides Django's user: the language of its interface."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Preferences(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="preferences")
    language = models.CharField(_("language"), max_length=8, blank=True, choices=settings.LANGUAGES)

    class Meta:
        verbose_name = _("preferences")
        verbose_name_plural = _("preferences")

    def __str__(self) -> str:
        return f"{self.user}: {self.language or '-'}"


class SignUpRecord(models.Model):
    """One account made, and from which address: sign-ups are limited per address and hour (selectors.signup_wait).
    Rows older than the window are dropped as new ones come."""

    address = models.CharField(max_length=64, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")

    def __str__(self) -> str:
        return f"{self.address} {self.created_at:%Y-%m-%d %H:%M}"
