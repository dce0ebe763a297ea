"""The two job forms of the balance page. They only shape the input; every rule check is in services.py."""

from __future__ import annotations

from django import forms

from rules.systems.bronepekhota.settings import SETTINGS
from rules.systems.bronepekhota.simulate.model import APPROACHES, COVER_CHOICES, MAX_DISTANCE, MAX_ROUNDS
from rules.systems.bronepekhota.tables import COVER_LABELS

# The book's optional rules (§1.8) offered as checkboxes; every other setting keeps its default (API: any).
OPTION_KEYS = [s.key for s in SETTINGS if s.category == "option" and s.kind == "bool" and s.key != "special_properties"]
APPROACH_LABELS = {
    "advance": "Advance: every unit closes in and fights",
    "hold": "Hold: units that can already hit something stay and shoot",
}


class _BattleFields(forms.Form):
    battles = forms.IntegerField(min_value=1, initial=10_000, help_text="Battles to simulate.")
    distance = forms.IntegerField(
        min_value=1, max_value=MAX_DISTANCE, initial=14, help_text="Steps between the deployment lines (book: 12–14)."
    )
    cover_a = forms.ChoiceField(
        choices=[(c, COVER_LABELS[c]) for c in COVER_CHOICES], initial="none", label="Cover of side A"
    )
    cover_b = forms.ChoiceField(
        choices=[(c, COVER_LABELS[c]) for c in COVER_CHOICES], initial="none", label="Cover of side B"
    )
    rounds = forms.IntegerField(min_value=1, max_value=MAX_ROUNDS, initial=8, help_text="Then it is a draw.")
    initiative = forms.ChoiceField(
        choices=[("rolled", "Rolled (d12)"), ("a", "Side A"), ("b", "Side B")],
        initial="rolled",
        label="Initiative in round 1",
    )
    approach = forms.ChoiceField(choices=[(a, APPROACH_LABELS[a]) for a in APPROACHES], initial="advance")
    seed = forms.IntegerField(required=False, min_value=0, help_text="Optional: the same seed gives the same numbers.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for s in SETTINGS:
            if s.key in OPTION_KEYS:
                self.fields[f"opt_{s.key}"] = forms.BooleanField(
                    required=False, initial=s.default, label=s.label, help_text=f"{s.help} ({s.source})"
                )

    def params(self) -> dict:
        return {k: self.cleaned_data[k] for k in ("distance", "cover_a", "cover_b", "rounds", "initiative", "approach")}

    def settings(self) -> dict:
        return {k: self.cleaned_data[f"opt_{k}"] for k in OPTION_KEYS}

    def option_fields(self):
        return [self[f"opt_{k}"] for k in OPTION_KEYS]


class RosterJobForm(_BattleFields):
    roster_a = forms.TypedChoiceField(coerce=int, label="Side A roster")
    roster_b = forms.TypedChoiceField(coerce=int, label="Side B roster")
    field_order = ["roster_a", "roster_b", "battles"]

    def __init__(self, *args, rosters=(), **kwargs):
        super().__init__(*args, prefix="r", **kwargs)
        choices = [(r.pk, f"{r.name} ({r.owner.username})") for r in rosters]
        self.fields["roster_a"].choices = choices
        self.fields["roster_b"].choices = choices
        if len(choices) > 1:  # two different armies by default
            self.fields["roster_b"].initial = choices[1][0]


class DuelJobForm(_BattleFields):
    pack = forms.TypedChoiceField(coerce=int, label="Data pack")
    profiles = forms.CharField(
        required=False,
        label="Units (optional)",
        help_text="Slugs separated by commas or spaces; empty: every unit of the pack.",
    )
    field_order = ["pack", "profiles", "battles"]

    def __init__(self, *args, packs=(), **kwargs):
        super().__init__(*args, prefix="d", **kwargs)
        self.fields["pack"].choices = [(p.pk, f"{p.name} v{p.version}") for p in packs]
        self.fields["battles"].initial = 1000
        self.fields["battles"].help_text = "Duels per pair of units."

    def profile_slugs(self) -> list[str] | None:
        text = self.cleaned_data.get("profiles") or ""
        slugs = [s for s in text.replace(",", " ").split() if s]
        return slugs or None
