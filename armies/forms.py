"""Forms of the builder pages. They only parse input; checks of the data itself live in armies.services, and the
structured custom-unit form is armies.editor."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from armies.models import Membership, Roster


class FactionSelect(forms.Select):
    """A faction select whose options say which packs offer them (`data-packs`), so that the page offers only the
    chosen pack's factions (static/armies/new_roster.js) and hides the choice where the pack has one faction."""

    def __init__(self, *args, packs_of=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.packs_of = packs_of or {}

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex=subindex, attrs=attrs)
        if value in self.packs_of:
            option["attrs"]["data-packs"] = " ".join(str(pk) for pk in self.packs_of[value])
        return option


class RosterCreateForm(forms.Form):
    name = forms.CharField(max_length=120, label=gettext_lazy("Name"))
    pack = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Data pack"))
    # Not required: a pack with one faction gives it (armies.services.rosters._check_roster_fields).
    faction = forms.ChoiceField(label=gettext_lazy("Army faction"), required=False)
    points_limit = forms.IntegerField(required=False, min_value=0, label=gettext_lazy("Points limit (optional)"))

    def __init__(self, *args, packs=(), factions=(), systems=None, **kwargs):
        """`factions`: (slug, name, pack ids) as armies.views.common.pack_factions gives them."""
        super().__init__(*args, **kwargs)
        # With packs of several games, each pack says its game ({slug: name} in `systems`).
        games = systems or {}
        self.fields["pack"].choices = [
            (p.pk, f"{p.name} v{p.version}" + (f" · {games[p.system]}" if p.system in games else "")) for p in packs
        ]
        self.fields["faction"].choices = [("", "—")] + [(slug, name) for slug, name, _ids in factions]
        self.fields["faction"].widget = FactionSelect(packs_of={slug: ids for slug, _name, ids in factions})
        self.fields["faction"].widget.choices = self.fields["faction"].choices


class RosterSettingsForm(forms.Form):
    name = forms.CharField(max_length=120, label=gettext_lazy("Name"))
    faction = forms.ChoiceField(label=gettext_lazy("Army faction"))
    points_limit = forms.IntegerField(required=False, min_value=0, label=gettext_lazy("Points limit (optional)"))
    visibility = forms.ChoiceField(choices=Roster.Visibility.choices, label=gettext_lazy("Visibility"))
    club = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label=gettext_lazy("Club"))
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}), label=gettext_lazy("Notes"))
    extra_packs = forms.TypedMultipleChoiceField(
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Custom packs"),
        help_text=gettext_lazy(
            "Your and your club's published packs whose units this roster may take too, each at the version shown."
        ),
    )

    def __init__(self, *args, factions=(), clubs=(), packs=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["faction"].choices = list(factions)
        self.fields["club"].choices = [("", _("No club"))] + [(c.pk, c.name) for c in clubs]
        self.fields["extra_packs"].choices = [(p.pk, _pack_label(p)) for p in packs]
        if not packs:  # nothing to choose: no empty heading on the page
            self.fields["extra_packs"].widget = forms.MultipleHiddenInput()


def _pack_label(pack) -> str:
    whose = _("club {name}").format(name=pack.club.name) if pack.club_id else pack.owner.get_username()
    return f"{pack.name} v{pack.version} ({whose})"


class ImportForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Roster file (.json exported from Armlist)"))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > 1_000_000:
            raise forms.ValidationError(_("The file is larger than 1 MB; it is not a roster export."))
        try:
            return json.loads(upload.read().decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:  # RecursionError: absurdly deep JSON
            raise forms.ValidationError(_("The file is not valid JSON, so it cannot be a roster export.")) from exc


class PackCreateForm(forms.Form):
    name = forms.CharField(max_length=120, label=gettext_lazy("Name"))
    system = forms.ChoiceField(label=gettext_lazy("Game"), required=False)  # empty: the first game
    club = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label=gettext_lazy("Owner"))

    def __init__(self, *args, clubs=(), systems=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["system"].choices = list(systems)
        if len(self.fields["system"].choices) <= 1:  # one game only: nothing to choose
            self.fields["system"].widget = forms.HiddenInput()
            self.fields["system"].initial = next(iter(systems), ("", ""))[0]
        self.fields["club"].choices = [("", _("Me"))] + [(c.pk, _("Club: {name}").format(name=c.name)) for c in clubs]


class ProfileForm(forms.Form):
    name = forms.CharField(max_length=120, label=gettext_lazy("Name"))
    slug = forms.SlugField(
        max_length=80,
        required=False,
        label=gettext_lazy("Slug"),
        help_text=gettext_lazy("Short id; made from the name when empty."),
    )
    faction = forms.ChoiceField(label=gettext_lazy("Faction"))
    kind = forms.ChoiceField(label=gettext_lazy("Kind"))
    cost = forms.IntegerField(min_value=0, max_value=10000, label=gettext_lazy("Cost"))
    data = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 18, "spellcheck": "false", "class": "code"}),
        label=gettext_lazy("Data"),
        help_text=gettext_lazy("The unit's values as JSON (see the field reference below)."),
    )
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}), label=gettext_lazy("Notes"))

    def __init__(self, *args, factions=(), kinds=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["faction"].choices = list(factions)
        self.fields["kind"].choices = list(kinds)

    def clean_data(self):
        try:
            value = json.loads(self.cleaned_data["data"])
        except ValueError as exc:
            raise forms.ValidationError(_("Not valid JSON: {error}").format(error=exc)) from exc
        if not isinstance(value, dict):
            raise forms.ValidationError(_("The values must be a JSON object { … }."))
        return value


class ClubCreateForm(forms.Form):
    name = forms.CharField(max_length=100, label=gettext_lazy("Name"))
    description = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 2}), label=gettext_lazy("Description")
    )


class MemberAddForm(forms.Form):
    username = forms.CharField(max_length=150, label=gettext_lazy("Username"))
    role = forms.ChoiceField(
        choices=Membership.Role.choices, initial=Membership.Role.MEMBER, label=gettext_lazy("Role")
    )


class MemberRoleForm(forms.Form):
    role = forms.ChoiceField(choices=Membership.Role.choices, label=gettext_lazy("Role"))
