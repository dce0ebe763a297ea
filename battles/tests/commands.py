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
