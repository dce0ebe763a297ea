"""Texts kept as msgid + parameters, so what a phone stores reads in each reader's language (a battle written on an
English phone reads in Russian on a Russian one).

`say(msgid, **params)` answers a `Said`: the text in the current language (a str, used as before: the result box,
the steps), which also keeps how to say it again, `parts`: [{"msgid", "params"}] (a parameter is a number, a
name, or another said text as {"said": parts}) and {"text"} for what needs no words (punctuation). Joining said
texts with + keeps every part. The battle stores the parts beside the text (commands.resolved_events) and the log
words them when shown (`words`). The abbreviations of the Armlist (А, Ск, Бр, ББ, Рм, ПрN…) are msgids too:
English letters in English, the book's in Russian.
"""

from __future__ import annotations

from rules.i18n import N_, _


class Said(str):
    """A text in the current language that remembers its msgids and parameters (`parts`)."""

    parts: list

    def __new__(cls, text: str = "", parts: list | None = None):
        said = super().__new__(cls, text)
        said.parts = list(parts or [])
        return said

    def __reduce__(self):  # copy.deepcopy and dataclasses.asdict keep the parts
        return (Said, (str(self), self.parts))

    def __add__(self, other):
        if isinstance(other, Said):
            return Said(str(self) + str(other), self.parts + other.parts)
        if isinstance(other, str):
            return Said(str(self) + other, self.parts + ([{"text": other}] if other else []))
        return NotImplemented

    def __radd__(self, other):
        if isinstance(other, str):
            return Said(other + str(self), ([{"text": other}] if other else []) + self.parts)
        return NotImplemented


def say(msgid: str, **params) -> Said:
    """`msgid` (marked where it is written) said now with these parameters, and kept to be said again."""
    shown = {k: str(v) if isinstance(v, Said) else v for k, v in params.items()}
    kept = {k: {"said": v.parts} if isinstance(v, Said) else v for k, v in params.items()}
    return Said(_(msgid).format(**shown), [{"msgid": msgid, "params": kept}])


def joined(separator: str, texts: list) -> Said:
    """Said texts joined by a separator that needs no words (« + », «, »)."""
    out = Said()
    for i, text in enumerate(texts):
        out = out + (separator if i else "") + text
    return out


def words(parts) -> str:
    """Stored parts said in the reader's language (a plain text, e.g. an older event's, comes back as it is)."""
    if isinstance(parts, str):
        return parts
    out = []
    for part in parts or []:
        if not isinstance(part, dict):
            continue
        if "text" in part:
            out.append(str(part["text"]))
            continue
        params = {
            k: words(v["said"]) if isinstance(v, dict) and "said" in v else v
            for k, v in (part.get("params") or {}).items()
        }
        try:
            out.append(_(part.get("msgid", "")).format(**params))
        except (KeyError, IndexError, ValueError):  # a catalogue that lost a parameter: the English still reads
            out.append(str(part.get("msgid", "")).format(**params))
    return "".join(out)


# The Armlist's abbreviations (p.6, p.43–44): English letters on an English page, the book's on a Russian one.
RANK = N_("Rk")  # «А», Армейский ранг
SPEED = N_("Spd")  # «Ск», Скорость
RANGE = N_("Rng.")  # «Дальн.», Дальность стрельбы
POWER = N_("Pow.")  # «Мощн.», Мощность выстрела
MELEE = N_("CC")  # «ББ», Ближний бой
ARMOUR = N_("Arm")  # «Бр», Броня
ABILITIES = N_("Abl.")  # «Св», Свойства
REPAIR = N_("Rpr")  # «Рм», Ремонт
JUMP = N_("Jp{n}")  # «ПрN», a jump pack of N steps
VEHICLE_ARMOUR = N_("Armour")  # «Броня»: a vehicle's or gun's current strength cell


def ability(code: str) -> str:
    """A soldier's ability as his card writes it, in the reader's letters: "repair" → Рм, "jump:5" → Пр5."""
    if isinstance(code, str) and code.startswith("jump:"):
        return _(JUMP).format(n=code.split(":", 1)[1])
    if code in ("repair", "mechanic"):
        return _(REPAIR)
    return str(code)


def stat_line(soldier: dict) -> str:
    """«А2 Ск5 Бр2 ББ4» in the reader's letters."""
    return " ".join(
        f"{_(label)}{soldier.get(key)}"
        for label, key in ((RANK, "rank"), (SPEED, "speed"), (ARMOUR, "armour"), (MELEE, "melee"))  # fmt: skip
    )
