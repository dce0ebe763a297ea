"""«Бронепехота» (Armored Infantry). Spec: ../shared/specs/bronepekhota.md. The instance is system.SYSTEM."""
