"""Choosing the language: the browser's Accept-Language, the switch in the header (a cookie, and the account when
signed in), and the API's errors in the chosen language with the same language-neutral code."""

import pytest
from django.test import Client

from config.accounts.models import Preferences

pytestmark = pytest.mark.russian_default  # the product's own default, not the tests' English


@pytest.mark.django_db
def test_the_page_follows_accept_language_then_the_switch_then_the_account(django_user_model):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert 'lang="en"' in client.get("/").content.decode()
    assert 'lang="ru"' in Client(HTTP_ACCEPT_LANGUAGE="ru").get("/").content.decode()
    assert 'lang="ru"' in Client().get("/").content.decode()  # no preference at all: Russian first

    switched = client.post("/accounts/language/", {"language": "ru", "next": "/"})
    assert switched.status_code == 302
    assert 'lang="ru"' in client.get("/").content.decode()  # the cookie beats the browser's English

    user = django_user_model.objects.create_user("olga", password="pw-olga-12345")
    phone = Client(HTTP_ACCEPT_LANGUAGE="ru")
    phone.force_login(user)
    phone.post("/accounts/language/", {"language": "en", "next": "/"})
    assert Preferences.objects.get(user=user).language == "en"
    laptop = Client(HTTP_ACCEPT_LANGUAGE="ru")  # another device, no cookie: the account decides
    laptop.force_login(user)
    assert 'lang="en"' in laptop.get("/").content.decode()


@pytest.mark.django_db
def test_an_unknown_language_changes_nothing():
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.post("/accounts/language/", {"language": "xx", "next": "/"})
    assert 'lang="en"' in client.get("/").content.decode()
