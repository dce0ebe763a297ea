"""Forms of the builder pages. They only parse input; checks of the data itself live in armies.services, and the
structured custom-unit form is armies.editor."""

from __future__ import annotations

import json

from django import forms

from armies.models import Membership, Roster


class RosterCreateForm(forms.Form):
    name = forms.CharField(max_length=120)
    pack = forms.TypedChoiceField(coerce=int, label="Data pack")
    faction = forms.ChoiceField(label="Army faction")
    points_limit = forms.IntegerField(required=False, min_value=0, label="Points limit (optional)")

    def __init__(self, *args, packs=(), factions=(), systems=None, **kwargs):
        super().__init__(*args, **kwargs)
        # With packs of several games, each pack says its game ({slug: name} in `systems`).
        games = systems or {}
        self.fields["pack"].choices = [
            (p.pk, f"{p.name} v{p.version}" + (f" · {games[p.system]}" if p.system in games else "")) for p in packs
        ]
        self.fields["faction"].choices = list(factions)


class RosterSettingsForm(forms.Form):
    name = forms.CharField(max_length=120)
    faction = forms.ChoiceField(label="Army faction")
    points_limit = forms.IntegerField(required=False, min_value=0, label="Points limit (optional)")
    visibility = forms.ChoiceField(choices=Roster.Visibility.choices)
    club = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, factions=(), clubs=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["faction"].choices = list(factions)
        self.fields["club"].choices = [("", "No club")] + [(c.pk, c.name) for c in clubs]


class ImportForm(forms.Form):
    file = forms.FileField(label="Roster file (.json exported from Armlist)")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > 1_000_000:
            raise forms.ValidationError("The file is larger than 1 MB; it is not a roster export.")
        try:
            return json.loads(upload.read().decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise forms.ValidationError("The file is not valid JSON, so it cannot be a roster export.") from exc


class PackCreateForm(forms.Form):
    name = forms.CharField(max_length=120)
    system = forms.ChoiceField(label="Game", required=False)  # empty: the first game
    club = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label="Owner")

    def __init__(self, *args, clubs=(), systems=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["system"].choices = list(systems)
        if len(self.fields["system"].choices) <= 1:  # one game only: nothing to choose
            self.fields["system"].widget = forms.HiddenInput()
            self.fields["system"].initial = next(iter(systems), ("", ""))[0]
        self.fields["club"].choices = [("", "Me")] + [(c.pk, f"Club: {c.name}") for c in clubs]


class ProfileForm(forms.Form):
    name = forms.CharField(max_length=120)
    slug = forms.SlugField(max_length=80, required=False, help_text="Short id; made from the name when empty.")
    faction = forms.ChoiceField()
    kind = forms.ChoiceField()
    cost = forms.IntegerField(min_value=0, max_value=10000)
    data = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 18, "spellcheck": "false", "class": "code"}),
        help_text="The unit's values as JSON (see the field reference below).",
    )
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, factions=(), kinds=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["faction"].choices = list(factions)
        self.fields["kind"].choices = list(kinds)

    def clean_data(self):
        try:
            value = json.loads(self.cleaned_data["data"])
        except ValueError as exc:
            raise forms.ValidationError(f"Not valid JSON: {exc}") from exc
        if not isinstance(value, dict):
            raise forms.ValidationError("The values must be a JSON object { … }.")
        return value


class ClubCreateForm(forms.Form):
    name = forms.CharField(max_length=100)
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))


class MemberAddForm(forms.Form):
    username = forms.CharField(max_length=150)
    role = forms.ChoiceField(choices=Membership.Role.choices, initial=Membership.Role.MEMBER)


class MemberRoleForm(forms.Form):
    role = forms.ChoiceField(choices=Membership.Role.choices)
