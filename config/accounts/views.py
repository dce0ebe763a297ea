from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods


@require_http_methods(["GET", "POST"])
def sign_up(request):
    from config.accounts.selectors import signup_wait
    from config.accounts.services import sign_up_record
    from config.throttle import client_address, too_many

    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and (wait := signup_wait(request)):
        return too_many(request, wait, template="registration/signup.html", context={"form": UserCreationForm()})
    if request.method == "POST" and form.is_valid():
        user = form.save()
        sign_up_record(address=client_address(request))
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, {name}! Your account is ready.").format(name=user.username))
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


@require_http_methods(["POST"])
def set_language(request):
    """The switch in the header: remembered in a cookie (Django's set_language) and, when signed in, on the
    account, so every device of the player follows it."""
    from django.views.i18n import set_language as django_set_language

    from config.accounts.services import preferences_set_language

    response = django_set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in {code for code, _name in settings.LANGUAGES}:
        preferences_set_language(user=request.user, language=language)
    return response
