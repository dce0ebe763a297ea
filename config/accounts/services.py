"""Account writes: sign-up, password change, API tokens."""

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.db import transaction
from rest_framework.authtoken.models import Token

User = get_user_model()


@transaction.atomic
def user_sign_up(*, username: str, password: str, email: str = ""):
    """Creates a user after Django's password validators; raises ValidationError with messages."""
    from django.core.exceptions import ValidationError

    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError({"username": ["That username is taken."]})
    user = User(username=username, email=email)
    validate_password(password, user)
    user.set_password(password)
    user.full_clean(exclude=["password"])
    user.save()
    return user


def user_change_password(*, user, old_password: str, new_password: str) -> None:
    from django.core.exceptions import ValidationError

    if not user.check_password(old_password):
        raise ValidationError({"old_password": ["The current password is wrong."]})
    validate_password(new_password, user)
    user.set_password(new_password)
    user.save(update_fields=["password"])
    # Old API tokens stop working when the password changes.
    Token.objects.filter(user=user).delete()


def token_for(*, user) -> str:
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


def token_revoke(*, user) -> None:
    Token.objects.filter(user=user).delete()


def preferences_set_language(*, user, language: str) -> None:
    from config.accounts.models import Preferences

    Preferences.objects.update_or_create(user=user, defaults={"language": language})


def sign_up_record(*, address: str | None) -> None:
    """Counts one new account against its address (config/throttle.signup_wait); forgets those past the window."""
    from django.utils import timezone

    from config.accounts.models import SignUpRecord
    from config.accounts.selectors import SIGNUP_WINDOW

    SignUpRecord.objects.filter(created_at__lt=timezone.now() - SIGNUP_WINDOW).delete()
    SignUpRecord.objects.create(address=(address or "")[:64])
