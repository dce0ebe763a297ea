"""The two job forms of the balance page, drawn for one game system: its simulator's parameters (the part's
`params_schema`: "title" is the label, "description" the help, "x-labels" name the values of an "enum") and the
book's options among its settings (category "option", less those the simulator ignores or fixes). They only shape
the input; every rule check is in services.py."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.sources import book_source

OPTION = "option"


def _t(text):
    """A system's text (marked N_() where it declares it) in the reader's language; empty stays empty."""
    return _(text) if text else text


def param_field(name: str, prop: dict) -> forms.Field:
    """A form field for one property of a params schema (empty: the schema's default is used)."""
    label = _t(prop.get("title")) or name.replace("_", " ").capitalize()  # the system marks them N_()
    common = {
        "required": False,
        "label": label,
        "help_text": _t(prop.get("description", "")),
        "initial": prop.get("default"),
    }
    if "enum" in prop:
        names = prop.get("x-labels") or {}
        return forms.TypedChoiceField(
            choices=[(v, _(names[v]) if v in names else str(v)) for v in prop["enum"]],
            coerce=lambda value, values=tuple(prop["enum"]): next((v for v in values if str(v) == value), value),
            **common,
        )
    kind = prop.get("type")
    if kind == "integer":
        return forms.IntegerField(min_value=prop.get("minimum"), max_value=prop.get("maximum"), **common)
    if kind == "number":
        return forms.FloatField(min_value=prop.get("minimum"), max_value=prop.get("maximum"), **common)
    if kind == "boolean":
        return forms.BooleanField(**common)
    return forms.CharField(max_length=prop.get("maxLength"), **common)


def option_settings(system) -> list:
    """The book's options a job form offers for `system`: settings of category "option" that its simulator
    neither ignores nor fixes."""
    part = system.simulator
    skip = set(part.ignored_settings) | set(part.fixed_settings) if part else set()
    return [s for s in system.settings if s.category == OPTION and s.key not in skip]


def setting_field(setting) -> forms.Field:
    source = book_source(setting.source)  # «§1.8, с. 33», not "§1.8 p.33"
    help_text = f"{_t(setting.help)} ({source})" if source else _t(setting.help)
    common = {"required": False, "label": _t(setting.label), "help_text": help_text, "initial": setting.default}
    if setting.kind == "bool":
        return forms.BooleanField(**common)
    if setting.kind == "int":
        return forms.IntegerField(min_value=0, **common)
    choices = tuple(setting.choices)
    labels = dict(setting.describe()["choice_labels"])  # the book's words for each value, never the raw value
    return forms.TypedChoiceField(
        choices=[(c, labels.get(c, str(c))) for c in choices],
        coerce=lambda value: next((c for c in choices if str(c) == value), value),
        **common,
    )


class _BattleFields(forms.Form):
    battles = forms.IntegerField(
        min_value=1, initial=10_000, label=gettext_lazy("Battles"), help_text=gettext_lazy("Battles to simulate.")
    )
    seed = forms.IntegerField(
        required=False,
        min_value=0,
        label=gettext_lazy("Seed"),
        help_text=gettext_lazy("Optional: the same seed gives the same numbers."),
    )

    def __init__(self, *args, system, **kwargs):
        super().__init__(*args, **kwargs)
        self.system = system
        schema = system.simulator.params_schema if system.simulator else {}
        self.param_keys = [k for k in (schema.get("properties") or {}) if k not in self.fields]
        for key in self.param_keys:
            self.fields[key] = param_field(key, schema["properties"][key])
        self.option_settings = option_settings(system)
        for s in self.option_settings:
            self.fields[f"opt_{s.key}"] = setting_field(s)
        self.order_fields([*self.field_order, *self.param_keys, "seed"])

    def params(self) -> dict:
        """The parameters given (an empty field leaves the simulator's default)."""
        return {k: self.cleaned_data[k] for k in self.param_keys if self.cleaned_data.get(k) not in (None, "")}

    def settings(self) -> dict:
        """The options: a checkbox is always an answer (unticked = off); an empty number or choice keeps the
        default."""
        out = {}
        for s in self.option_settings:
            value = self.cleaned_data.get(f"opt_{s.key}")
            if s.kind == "bool":
                out[s.key] = bool(value)
            elif value not in (None, ""):
                out[s.key] = value
        return out

    def param_fields(self):
        return [self[k] for k in self.param_keys]

    def option_fields(self):
        return [self[f"opt_{s.key}"] for s in self.option_settings]


class RosterJobForm(_BattleFields):
    roster_a = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Side A roster"))
    roster_b = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label=gettext_lazy("Side B roster"))
    roster_b_link = forms.CharField(
        required=False,
        max_length=500,
        label=gettext_lazy("Or side B by its share link"),
        help_text=gettext_lazy("An opponent's roster that is not in your list: paste the link its owner shared."),
    )
    field_order = ["roster_a", "roster_b", "roster_b_link", "battles"]

    def __init__(self, *args, system, rosters=(), **kwargs):
        """`rosters`: every roster the user may read (their own, their clubs'), each labelled with its owner."""
        super().__init__(*args, system=system, prefix="r", **kwargs)
        choices = [(r.id, r.label) for r in rosters]
        self.fields["roster_a"].choices = choices
        self.fields["roster_b"].choices = [("", "—")] + choices
        if len(choices) > 1:  # two different armies by default
            self.fields["roster_b"].initial = choices[1][0]

    def clean(self):
        data = super().clean()
        if data.get("roster_b") is None and not (data.get("roster_b_link") or "").strip():
            self.add_error("roster_b", _("Choose side B's roster or paste its share link."))
        return data


class DuelJobForm(_BattleFields):
    pack = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Data pack"))
    profiles = forms.CharField(
        required=False,
        label=gettext_lazy("Units (optional)"),
        help_text=gettext_lazy("Slugs separated by commas or spaces; empty: every unit of the pack."),
    )
    field_order = ["pack", "profiles", "battles"]

    def __init__(self, *args, system, packs=(), **kwargs):
        super().__init__(*args, system=system, prefix="d", **kwargs)
        self.fields["pack"].choices = [(p.id, p.label) for p in packs]
        self.fields["battles"].initial = 1000
        self.fields["battles"].help_text = gettext_lazy("Duels per pair of units.")

    def profile_slugs(self) -> list[str] | None:
        text = self.cleaned_data.get("profiles") or ""
        slugs = [s for s in text.replace(",", " ").split() if s]
        return slugs or None
