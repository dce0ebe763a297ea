"""A member's rating over their games as a small SVG line (drawn on the server: no script, nothing for the page's
CSP to allow)."""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

WIDTH, HEIGHT, PAD = 320, 120, 18


def rating_chart(history: list[tuple[int, object, float]]) -> str:
    """`history`: (game id, when, rating after) in order. An accessible SVG: a title and each point's value."""
    if not history:
        return ""
    values = [v for _id, _when, v in history]
    low, high = min(values + [0.0]), max(values + [0.0])
    span = (high - low) or 1.0
    n = len(values)

    def x(i):
        return PAD + (WIDTH - 2 * PAD) * (i / (n - 1) if n > 1 else 0.5)

    def y(v):
        return HEIGHT - PAD - (HEIGHT - 2 * PAD) * (v - low) / span

    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    dots = format_html_join(
        "",
        '<circle cx="{}" cy="{}" r="3"><title>{}</title></circle>',
        (
            (f"{x(i):.1f}", f"{y(v):.1f}", _("Game {n}: rating {r}").format(n=i + 1, r=round(v, 1)))
            for i, v in enumerate(values)
        ),
    )
    title = _("Rating after each game, from {first} to {last}").format(
        first=round(values[0], 1), last=round(values[-1], 1)
    )
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {w} {h}" role="img" aria-label="{t}"><title>{t}</title>'
        '<line x1="{p}" y1="{zero}" x2="{wp}" y2="{zero}" class="axis"/>'
        '<polyline points="{pts}" fill="none"/>{dots}</svg>',
        w=WIDTH, h=HEIGHT, t=title, p=PAD, wp=WIDTH - PAD, zero=f"{y(0):.1f}", pts=points, dots=dots,
    )  # fmt: skip
