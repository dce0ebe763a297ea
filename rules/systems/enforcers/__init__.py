"""«Энфорсеры»: the d20 roll-under skirmish of enforcer agents with blessings and curses (spec: enforcers.md)."""
