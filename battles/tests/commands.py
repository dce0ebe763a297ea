"""The «Бронепехота» board's commands as the tests call them: each goes through the generic runner
(services.command_run), as the API's POST /api/v1/battles/<id>/commands/<name>/ does."""

from battles import services


def _run(
    name, inputs, *, battle_id, user, expected_version, idempotency_key=None, request_hash="", dice=None, seed=None
):
    return services.command_run(
        battle_id=battle_id,
        user=user,
        name=name,
        inputs=inputs,
        dice=dice,
        seed=seed,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        request_hash=request_hash,
    )


def round_start(**kw):
    return _run("round", {}, **kw)


def initiative_roll(*, dice=None, seed=None, **kw):
    return _run("initiative", {}, dice=dice, seed=seed, **kw)


def order_set(*, order, **kw):
    return _run("order", {"order": order}, **kw)


def unit_done(*, unit, **kw):
    return _run("done", {"unit": unit}, **kw)


def unit_adjust(*, unit, changes, note="", **kw):
    return _run("adjust", {"unit": unit, "changes": changes, "note": note}, **kw)


def mission_complete(*, side, note="", **kw):
    return _run("mission", {"side": side, "note": note}, **kw)


def action_resolve(*, action, inputs, dice=None, seed=None, **kw):
    return _run(action, inputs, dice=dice, seed=seed, **kw)


def move(*, unit, path, soldier=None, **kw):
    """A move measured at the table (§3.3): path segments, e.g. [{"kind": "flat", "steps": 3}]."""
    inputs = {"unit": unit, "path": path, **({"soldier": soldier} if soldier is not None else {})}
    return _run("move", inputs, **kw)


def jump(*, unit, soldier, length_steps, rise_steps=0, **kw):
    inputs = {"unit": unit, "soldier": soldier, "length_steps": length_steps, "rise_steps": rise_steps}
    return _run("jump", inputs, **kw)


def tow(*, unit, target=None, op="start", **kw):
    return _run("tow", {"unit": unit, "op": op, **({"target": target} if target else {})}, **kw)


def dispute_roll(*, sides=None, note="", dice=None, seed=None, **kw):
    inputs = {"note": note, **({"sides": sides} if sides is not None else {})}
    return _run("dispute", inputs, dice=dice, seed=seed, **kw)


def deployment_roll(*, dice=None, seed=None, **kw):
    return _run("deployment", {}, dice=dice, seed=seed, **kw)


def deploy(*, unit, **kw):
    return _run("deploy", {"unit": unit}, **kw)


def survival_test(*, unit, soldier=None, dice=None, seed=None, **kw):
    inputs = {"unit": unit, **({"soldier": soldier} if soldier is not None else {})}
    return _run("survival_test", inputs, dice=dice, seed=seed, **kw)


def armour_test(*, unit, die=12, dice=None, seed=None, **kw):
    return _run("armour_test", {"unit": unit, "die": die}, dice=dice, seed=seed, **kw)


def emergency_landing(*, unit, dice=None, seed=None, **kw):
    return _run("emergency_landing", {"unit": unit}, dice=dice, seed=seed, **kw)


def panic_flight(*, unit, reaches_edge, soldier=None, **kw):
    inputs = {"unit": unit, "reaches_edge": reaches_edge, **({"soldier": soldier} if soldier is not None else {})}
    return _run("panic", inputs, **kw)


def soldier_done(*, unit, soldier, **kw):
    """A dismounted pilot acting as a one-man unit is done (setting dismounted_pilot_rejoins_squad off, A19)."""
    return _run("done", {"unit": unit, "soldier": soldier}, **kw)
