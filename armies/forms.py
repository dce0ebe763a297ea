"""Forms of the builder pages. They only parse input; checks of the data itself live in armies.services."""

from __future__ import annotations

import json

from django import forms

from armies.models import Membership, Roster

PROFILE_TEMPLATES = {
    "squad": {
        "soldiers": [
            {"num": n, "rank": 1, "speed": 4, "range": "Д6+1", "power": "1Д6", "melee": 2, "armour": 2, "abilities": []}
            for n in range(1, 7)
        ]
    },
    "vehicle": {
        "rank": 1,
        "weight": "light",
        "locomotion": "tracked",
        "rof": 1,
        "ammo_max": 12,
        "strength_max": 9,
        "speed_sectors": [
            {"min": 7, "max": 9, "speed": 5},
            {"min": 4, "max": 6, "speed": 4},
            {"min": 1, "max": 3, "speed": 3},
        ],
        "arsenal": [
            {
                "key": "rockets",
                "name": "Ракетная установка",
                "range": "Д6+3",
                "power": "2Д20",
                "charges": ["shell", "rocket"],
            },
            {"key": "saw", "name": "Вибропила", "melee": 2},
        ],
        "mounts": None,
    },
    "gun": {
        "rank": 1,
        "mobile": True,
        "rof": 1,
        "ammo_max": 12,
        "strength_max": 4,
        "weapons": [{"key": "cannon", "name": "Пушка", "range": "Д12", "power": "2Д20", "charges": ["shell"]}],
    },
}


class RosterCreateForm(forms.Form):
    name = forms.CharField(max_length=120)
    pack = forms.TypedChoiceField(coerce=int, label="Data pack")
    faction = forms.ChoiceField(label="Army faction")
    points_limit = forms.IntegerField(required=False, min_value=0, label="Points limit (optional)")

    def __init__(self, *args, packs=(), factions=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pack"].choices = [(p.pk, f"{p.name} v{p.version}") for p in packs]
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
    club = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label="Owner")

    def __init__(self, *args, clubs=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].choices = [("", "Me")] + [(c.pk, f"Club: {c.name}") for c in clubs]


class ProfileForm(forms.Form):
    name = forms.CharField(max_length=120)
    slug = forms.SlugField(max_length=80, required=False, help_text="Short id; made from the name when empty.")
    faction = forms.ChoiceField()
    kind = forms.ChoiceField(choices=[("squad", "Squad"), ("vehicle", "Vehicle"), ("gun", "Gun")])
    cost = forms.IntegerField(min_value=0, max_value=10000)
    data = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 18, "spellcheck": "false", "class": "code"}),
        help_text="The Armlist values as JSON. Dice as on the cards: range Д6+2, power 3Д20; melee weapons {melee: 2}.",
    )
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, factions=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["faction"].choices = list(factions)

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
