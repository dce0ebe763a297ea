"""A setting: an option of the book, a house rule, or one reading of an ambiguity of the spec (§5); and a system's
catalogue of them (SettingsCatalogue: defaults, the full settings, lookup by key, each choice in words)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from rules.errors import RuleInputError
from rules.i18n import _

# A setting's category: an option the book offers, a house rule, one reading of an ambiguity of the spec, or a reading
# the engine takes as given (one choice, recorded so that the ambiguity has a name and a source).
OPTION = "option"
HOUSE = "house"
AMBIGUITY = "ambiguity"
INTERPRETATION = "interpretation"


@dataclass(frozen=True)
class Setting:
    key: str
    label: str
    default: Any
    kind: str = "bool"  # "bool" | "choice" | "int"
    choices: tuple = ()
    source: str = ""  # spec section it comes from, e.g. "§5 A7"
    category: str = AMBIGUITY  # OPTION (the book's optional rules) | HOUSE | AMBIGUITY | INTERPRETATION
    help: str = ""
    #: Readable words for each choice, ((value, label), …), marked N_() where declared; a choice left out is shown
    #: as its value in words ("tied_only" → "tied only").
    choice_labels: tuple = ()

    def check(self, value: Any) -> Any:
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise RuleInputError({f"settings.{self.key}": _("must be true or false")})
        elif self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise RuleInputError({f"settings.{self.key}": _("must be a whole number of 0 or more")})
        elif self.kind == "choice" and (
            value not in self.choices
            or (isinstance(value, bool) and not any(isinstance(c, bool) for c in self.choices))
        ):
            options = ", ".join(map(str, self.choices))
            raise RuleInputError({f"settings.{self.key}": _("must be one of: {options}").format(options=options)})
        return value

    def describe(self) -> dict:
        """The setting as data, its label and help in the reader's language (marked N_() where declared)."""
        data = asdict(self)
        data["choices"] = list(self.choices)
        data["label"] = _(self.label)
        data["help"] = _(self.help)
        named = dict(self.choice_labels)
        data["choice_labels"] = [[c, _(named[c]) if c in named else _(str(c).replace("_", " "))] for c in self.choices]
        data["options"] = [{"value": c, "label": label} for c, label in data["choice_labels"]]
        return data


class SettingsCatalogue:
    """One system's settings, declared once: its settings.py builds one and the rest of the package asks it.

        CATALOGUE = SettingsCatalogue(SETTINGS, choice_labels=CHOICE_LABELS)

    `choice_labels` ({key: ((value, label), …)}) gives each choice its words where the declarations leave them out;
    a setting the mapping does not name keeps its own. The settings are checked once, when the system loads: keys
    are unique, and every labelled key is a setting (a typo would otherwise leave a choice unnamed in silence).
    """

    def __init__(self, settings: Iterable[Setting], choice_labels: Mapping[str, tuple] | None = None):
        labels = dict(choice_labels or {})
        self.all: tuple[Setting, ...] = tuple(
            replace(s, choice_labels=labels[s.key]) if s.key in labels else s for s in settings
        )
        self.by_key: dict[str, Setting] = {s.key: s for s in self.all}
        twice = sorted(key for key, n in Counter(s.key for s in self.all).items() if n > 1)
        if twice:
            raise ValueError(f"Settings declared twice: {', '.join(twice)}")
        unknown = sorted(set(labels) - set(self.by_key))
        if unknown:
            raise ValueError(f"Choice labels for settings that do not exist: {', '.join(unknown)}")

    def __getitem__(self, key: str) -> Setting:
        return self.by_key[key]

    def __contains__(self, key: object) -> bool:
        return key in self.by_key

    @property
    def keys(self) -> frozenset[str]:
        return frozenset(self.by_key)

    def defaults(self) -> dict:
        """Every setting at its default."""
        return {s.key: s.default for s in self.all}

    def full(self, settings: dict | None) -> dict:
        """Defaults under the given (already checked) settings, so the rules never miss a key."""
        return {**self.defaults(), **(settings or {})}

    def check(self, overrides: dict | None) -> dict:
        """The given settings checked one by one (unknown keys and bad values raise RuleInputError), no defaults."""
        if overrides is not None and not isinstance(overrides, dict):
            raise RuleInputError({"settings": _("must be an object of setting: value")})
        out = {}
        for key, value in (overrides or {}).items():
            if key not in self.by_key:
                raise RuleInputError({f"settings.{key}": _("unknown setting")})
            out[key] = self.by_key[key].check(value)
        return out

    def resolve(self, overrides: dict | None) -> dict:
        """Defaults with the given overrides, each checked."""
        return {**self.defaults(), **self.check(overrides)}

    def labels(self, key: str) -> dict:
        """{value: words} of one setting's choices, as declared (marked N_(); describe() translates them)."""
        return dict(self.by_key[key].choice_labels)
