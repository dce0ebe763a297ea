"""The simulator part: Monte-Carlo battles for balance jobs. Called by `rules/jobs` only through this protocol.

A job hands the simulator plain data (roster snapshots or a pack's profiles, as the army part sees them), its
parameters and the system settings, and asks for `n` battles drawn from a seeded numpy Generator. The simulator
answers arrays per battle, which the jobs aggregate (win/draw/loss with Wilson intervals, surviving cost, rounds).
The same seed must give the same arrays: jobs rely on it to make results independent of the number of workers.

Optional, with defaults (added for the generic job pages; a part that leaves them alone still works):
- `Prepared.rounds`: the most rounds (turns) one battle can last, the length of the rounds histogram; 0 = as
  long as the longest battle a chunk saw.
- `description`: a longer text of the model, shown folded on the job page.
- `ignored_settings`: {setting key: why the model does not use it}; the job form does not offer them and the job
  page flags a job that changed one.
- `fixed_settings`: {setting key: the one value the simulator runs with} (e.g. a mode it cannot simulate
  otherwise); the job form does not offer them.
- `describe_forces(forces)`: the forces a job stored (`Prepared.forces`) as lines per side for the job page.
- `report(job)`: tables of a finished job in the system's own terms (e.g. what a build is worth in its currency
  against its printed price), shown on the job page under the results.
Parameters: `params_schema` properties may carry "title" (the field's label), "description" (its help) and, for
an "enum", "x-labels": {value: label}; the job form is drawn from them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Prepared:
    """A match ready to simulate: opaque to the jobs except for these fields."""

    cost: tuple[float, float]  # what each side is worth, in the system's currency (or simulated points)
    warnings: list[str] = field(default_factory=list)
    forces: list[dict] = field(default_factory=list)  # what each side fields, as the job page lists it
    model: object = None  # the simulator's own compiled form
    rounds: int = 0  # the most rounds a battle can last (rounds histogram length); 0: the longest battle seen


class SimulatorPart(ABC):
    """Vectorised battles between two sides."""

    #: Bumped whenever the model changes the numbers it gives; stored with each job.
    model_version: int = 1
    #: JSON Schema of the parameters a job may set (distance, rounds, cover…), each with a default.
    params_schema: dict = {"type": "object", "properties": {}, "additionalProperties": False}
    #: What the model simulates and what it leaves out, as lines the job page shows.
    simulated: tuple[str, ...] = ()
    left_out: tuple[str, ...] = ()
    #: Which kinds of job it supports: "rosters" (roster against roster) and/or "units" (unit against unit).
    job_kinds: tuple[str, ...] = ("rosters",)
    #: A longer description of the model (plain text), shown folded on the job page; "" for none.
    description: str = ""
    #: Settings the model does not use, with why: {key: reason}. Job forms leave them out; job pages flag them.
    ignored_settings: dict[str, str] = {}
    #: Settings the simulator only runs with one value: {key: value}. Job forms leave them out.
    fixed_settings: dict = {}

    def check_params(self, params: dict | None) -> dict:
        """The parameters with defaults filled in; RuleInputError naming `params.<key>` for a bad one."""
        from rules.contract.schema import validate_with_defaults

        return validate_with_defaults(self.params_schema, params or {}, prefix="params")

    def check_settings(self, settings: dict | None) -> dict:
        """The system settings the simulator runs under (defaults filled in)."""
        return dict(settings or {})

    @abstractmethod
    def prepare(self, side_a: dict, side_b: dict, params: dict, settings: dict) -> Prepared:
        """Compiles two sides (roster snapshots: {"faction", "entries": [...]}) into a match."""

    def side_from_profile(self, profile: dict) -> dict:
        """A one-entry side made of one profile (unit-against-unit jobs)."""
        return {"faction": profile.get("faction", ""), "entries": [{"key": "u", "profile": profile, "count": 1}]}

    @abstractmethod
    def run(self, prepared: Prepared, n: int, rng: np.random.Generator) -> dict:
        """`n` battles. Answers numpy arrays of length n: "winner" (0 = side A, 1 = side B, -1 = draw),
        "rounds", "left_a" and "left_b" (cost still standing on each side)."""

    def describe_forces(self, forces) -> list[dict]:
        """The forces a job stored (`Prepared.forces`, as JSON) as the job page lists them: one
        {"side": "A" | "B", "cost": number or None, "lines": [str, ...]} per side. The default reads a list with one
        dict per side: its "text" (a string) as it is, else each other key as "key: value" (lists joined, list of
        dicts by their "name")."""
        sides = []
        for k, side in enumerate(forces if isinstance(forces, list) else []):
            if not isinstance(side, dict):
                sides.append({"side": "AB"[k] if k < 2 else str(k + 1), "cost": None, "lines": [str(side)]})
                continue
            lines = []
            for key, value in side.items():
                if key in ("side", "cost"):
                    continue
                if key == "text" and isinstance(value, str):
                    lines.append(value)
                elif isinstance(value, list):
                    items = [v.get("name", str(v)) if isinstance(v, dict) else str(v) for v in value]
                    lines.append(f"{key}: {', '.join(items)}")
                else:
                    lines.append(f"{key}: {value}")
            label = side.get("side")
            if not isinstance(label, str) or not label:
                label = "AB"[k] if k < 2 else str(k + 1)
            sides.append({"side": label, "cost": side.get("cost"), "lines": lines})
        return sides

    def report(self, job: dict) -> list[dict]:
        """Tables of a finished job in the system's own terms, drawn on the job page under the results. `job` is
        plain data: {"kind": "rosters" | "units", "inputs", "result", "params", "settings"} as the job stored them.
        Answers [{"title": str, "columns": [str], "rows": [[str | number | None]], "note": str}]; default none."""
        return []

    def describe(self) -> dict:
        return {
            "model_version": self.model_version,
            "params_schema": self.params_schema,
            "simulated": list(self.simulated),
            "left_out": list(self.left_out),
            "job_kinds": list(self.job_kinds),
            "ignored_settings": dict(self.ignored_settings),
            "fixed_settings": dict(self.fixed_settings),
        }
