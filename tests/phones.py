"""A phone already signed in, for the browser tests whose fixtures build the battle or the roster in the database
(a journey signs up through the pages instead: tests/journey.py)."""

from __future__ import annotations

from django.test import Client
from playwright.sync_api import Page


def signed_in(phone_context, base: str, user, path: str, *, password: str, **context) -> Page:
    """A page on a new phone (`context`: the browser context's options, e.g. journey.PHONE) that carries the session
    of `user` (signed in with `password`), opened at `path`."""
    client = Client()
    assert client.login(username=user.username, password=password)
    ctx = phone_context(**context)
    ctx.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}])
    page = ctx.new_page()
    page.goto(f"{base}{path}")
    return page
