"""«Бронепехота» (Armored Infantry). Spec: ../shared/specs/bronepekhota.md."""

from rules.registry import register
from rules.systems.bronepekhota.system import SYSTEM

register(SYSTEM)
