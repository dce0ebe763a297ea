"""QR codes on pages, so an opponent joins by pointing a phone's camera at the laptop (template library `qr`).

    {% load qr %}
    {% qr_url url as link %}   the absolute address a phone can open (see below)
    {% qr_svg link "label" %}  an inline SVG of it (black on white, scales with CSS: it has a viewBox, no size)

Most pages use the include instead: {% include "includes/qr.html" with url=... label=... %}.

A page opened on the laptop itself as http://127.0.0.1:8000/ would give phones an address they cannot reach; when
the URL's host is a loopback name and `make run` told the server its LAN address (ARMLIST_URL), that one is used.
"""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

import segno
from django import template
from django.conf import settings
from django.utils.safestring import mark_safe

register = template.Library()
LOOPBACK = {"localhost", "127.0.0.1", "::1"}


def phone_url(url: str, request=None) -> str:
    """`url` (absolute, or relative to the request) as a phone on the LAN can open it."""
    url = str(url or "")
    if request is not None:
        url = request.build_absolute_uri(url)
    public = getattr(settings, "ARMLIST_URL", "")
    parts = urlsplit(url)
    if public and (parts.hostname or "") in LOOPBACK:
        base = urlsplit(public)
        url = parts._replace(scheme=base.scheme, netloc=base.netloc).geturl()
    return url


@lru_cache(maxsize=256)
def svg(data: str, title: str = "") -> str:
    """An inline SVG QR code of `data` (error correction M: still reads from a slightly glossy screen)."""
    code = segno.make(data, error="m")
    return code.svg_inline(
        scale=4, border=3, dark="#000", light="#fff", omitsize=True, svgclass="qr-code", title=title or None
    )


@register.simple_tag(takes_context=True)
def qr_url(context, url) -> str:
    return phone_url(url, context.get("request"))


@register.simple_tag
def qr_svg(data, title="") -> str:
    return mark_safe(svg(str(data), str(title or "")))  # noqa: S308 - segno escapes the title; the rest is its path
