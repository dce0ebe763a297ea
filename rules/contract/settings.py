"""A setting: an option of the book, a house rule, or one reading of an ambiguity of the spec (§5)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from rules.errors import RuleInputError
from rules.i18n import _


@dataclass(frozen=True)
class Setting:
    key: str
    label: str
    default: Any
    kind: str = "bool"  # "bool" | "choice" | "int"
    choices: tuple = ()
    source: str = ""  # spec section it comes from, e.g. "§5 A7"
    category: str = "ambiguity"  # "option" (the book's optional rules) | "house" | "ambiguity" | "interpretation"
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
