"""The simulator part: Monte-Carlo battles for balance jobs. Called by `rules/jobs` only through this protocol.

A job hands the simulator plain data (roster snapshots or a pack's profiles, as the army part sees them), its
parameters and the system settings, and asks for `n` battles drawn from a seeded numpy Generator. The simulator
answers arrays per battle, which the jobs aggregate (win/draw/loss with Wilson intervals, surviving cost, rounds).
The same seed must give the same arrays: jobs rely on it to make results independent of the number of workers.
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

    def describe(self) -> dict:
        return {
            "model_version": self.model_version,
            "params_schema": self.params_schema,
            "simulated": list(self.simulated),
            "left_out": list(self.left_out),
            "job_kinds": list(self.job_kinds),
        }
