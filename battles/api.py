"""Battle API: one view per operation. Reads answer ETag / 304; writes need the version they were based on
(If-Match or a `version` field) and honour an Idempotency-Key header.

Status codes of writes: 201 recorded (or replayed: header `Idempotent-Replayed: true`), 400 bad input, 403 not a
player of this battle / not your unit, 404 unknown battle or not yours to see, 409 not possible now (out of turn,
battle over; an undo that would change nothing, code `undo_changes_nothing`; an undo past a reveal or an answered
question the other player saw, code `undo_needs_agreement`: propose it instead), 412 stale version (body carries the
current state), 422 idempotency key reused by its sender for another request, 428 no version. An Idempotency-Key
belongs to the player who sent it.
"""

from __future__ import annotations

import re

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseNotModified
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from armies.selectors import roster_get_for_user
from battles import game, odds, selectors, services, undo
from battles.models import Battle
from config.ratelimit import OddsLimit

IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description='ETag of the state the write is based on, e.g. "v12"',
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="A retry with the same key is answered once",
)
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, description="ETag the client has: 304 when unchanged"
)
WATCH = OpenApiParameter("watch", OpenApiTypes.STR, OpenApiParameter.QUERY, description="Spectator token (read only)")
_ETAG_RE = re.compile(r'^\s*(?:W/)?"?v(\d+)"?\s*$')


def parse_version(value) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    match = _ETAG_RE.match(str(value)) or re.match(r"^\s*(\d+)\s*$", str(value))
    if not match:
        raise services.RuleInputError({"version": f'{value!r} is not a version (expected an ETag like "v12").'})
    return int(match.group(1))


class EventOutput(serializers.Serializer):
    class Meta:
        ref_name = "BattleEventOutput"

    seq = serializers.IntegerField()
    type = serializers.CharField()
    actor = serializers.CharField(allow_null=True)
    side = serializers.IntegerField(allow_null=True)
    payload = serializers.JSONField()
    dice = serializers.JSONField()
    cause = serializers.IntegerField(allow_null=True)
    undoes = serializers.IntegerField(allow_null=True)
    undone = serializers.BooleanField()
    text = serializers.CharField()
    created_at = serializers.CharField()


class WriteOutput(serializers.Serializer):
    class Meta:
        ref_name = "BattleWriteOutput"

    version = serializers.IntegerField()
    events = EventOutput(many=True)
    outcome = serializers.JSONField(allow_null=True)
    notices = serializers.ListField(child=serializers.CharField())
    replayed = serializers.BooleanField()


class StateOutput(serializers.Serializer):
    class Meta:
        ref_name = "BattleStateOutput"

    id = serializers.IntegerField()
    name = serializers.CharField()
    system = serializers.CharField()
    version = serializers.IntegerField()
    status = serializers.CharField()
    mission = serializers.CharField()
    rules_version = serializers.IntegerField()
    settings = serializers.JSONField()
    game = serializers.JSONField(help_text="The game as the system keeps it, without other sides' secrets")
    awaiting = serializers.JSONField(help_text="Whom the game waits for: kind, sides, commands, prompt")
    your_move = serializers.BooleanField()
    sides = serializers.JSONField()
    viewer = serializers.JSONField()
    units = serializers.JSONField()


def _state_response(request, access: selectors.Access, *, status_code=200) -> Response:
    battle = Battle.objects.get(pk=access.battle_id)
    access.version = battle.version
    response = Response(selectors.battle_state(battle, access), status=status_code)
    response["ETag"] = battle.etag
    return response


def _conditional_headers(response: Response) -> Response:
    response["Cache-Control"] = "private, no-cache"
    response["Vary"] = "Cookie, Authorization"
    return response


class BattleReadApi(APIView):
    permission_classes = [permissions.AllowAny]

    def access(self, request, battle_id) -> selectors.Access:
        return selectors.battle_access(request, battle_id)

    def not_modified(self, request, access) -> Response | None:
        if request.headers.get("If-None-Match", "").strip() == access.etag:
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
            response["ETag"] = access.etag
            return _conditional_headers(response)
        return None


class BattleWriteApi(APIView):
    """Base of every write: access, version, idempotency and the mapping of service errors to answers."""

    permission_classes = [permissions.AllowAny]
    operation = ""

    def initial(self, request, *args, **kwargs):
        """Who may write is settled before the body is read: outsiders 404, spectators 403."""
        super().initial(request, *args, **kwargs)
        self.battle_access = selectors.battle_access(request, kwargs.get("battle_id"))
        if not self.battle_access.can_write:
            raise PermissionDenied(_("Spectators may watch but not change the battle."))

    def run(self, request, battle_id, command, **kwargs) -> Response:
        access = self.battle_access
        body = request.data if isinstance(request.data, dict) else {}
        key = request.headers.get("Idempotency-Key", "").strip() or None
        if key and len(key) > 100:
            raise services.RuleInputError({"Idempotency-Key": _("At most 100 characters.")})
        try:
            version = parse_version(request.headers.get("If-Match") or body.get("version"))
            result = command(
                battle_id=access.battle_id,
                user=request.user,
                expected_version=version,
                idempotency_key=key,
                request_hash=services.request_fingerprint(f"{self.operation}:{battle_id}", body),
                **kwargs,
            )
        except services.StaleVersion as exc:
            # The one refusal that carries the battle as it is now (the phone redraws from it): the state needs this
            # request's viewer, so it is answered here; every other error by config/api.exception_handler.
            response = _state_response(request, access, status_code=status.HTTP_412_PRECONDITION_FAILED)
            response.data = {
                "detail": _(
                    "{exc} Someone changed the battle first: nothing was recorded. Here is the current state."
                ).format(exc=exc),
                "code": exc.code,
                "version": exc.current,
                "state": response.data,
            }
            return response
        except services.PreconditionRequired as exc:
            exc.data["version"] = access.version  # answered by config/api.exception_handler, as every other error
            raise
        battle = result.battle
        names = selectors.name_maps(battle)
        part = game.battle_part(battle.system)
        events = [selectors.event_dict(e, names=names, part=part) for e in result.events]
        data = {
            "version": events[-1]["seq"] if events else battle.version,
            "events": events,
            "outcome": result.outcome,
            "notices": result.notices,
            "replayed": result.replayed,
        }
        response = Response(data, status=status.HTTP_201_CREATED)
        response["ETag"] = f'"v{data["version"]}"'
        if result.replayed:
            response["Idempotent-Replayed"] = "true"
        return response


def _validated(serializer_class, data):
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# Reads ------------------------------------------------------------------------------------------------------
class BattleListApi(APIView):
    """Your battles (GET) and starting a new one (POST)."""

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "BattleCreateInput"

        name = serializers.CharField(max_length=120, required=False, allow_blank=True)
        rosters = serializers.ListField(
            child=serializers.IntegerField(min_value=1), max_length=6, required=False, default=list
        )
        roster_links = serializers.ListField(
            child=serializers.CharField(max_length=300),
            max_length=6,
            required=False,
            default=list,
            help_text="Share links (/s/<token>/) of rosters you cannot otherwise read, e.g. your opponent's",
        )
        my_side = serializers.IntegerField(min_value=0, default=0)
        settings = serializers.DictField(required=False, default=dict)
        enforce_turns = serializers.BooleanField(default=False)
        mission = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "BattleListItemOutput"

        id = serializers.IntegerField()
        name = serializers.CharField()
        status = serializers.CharField()
        version = serializers.IntegerField()
        round = serializers.IntegerField()
        sides = serializers.JSONField()
        url = serializers.CharField()

    class CreatedSerializer(serializers.Serializer):
        class Meta:
            ref_name = "BattleCreatedOutput"

        id = serializers.IntegerField()
        version = serializers.IntegerField()
        url = serializers.CharField()
        spectator_url = serializers.CharField()
        invitations = serializers.JSONField()

    @extend_schema(responses={200: OutputSerializer(many=True)})
    def get(self, request):
        rows = []
        for battle in selectors.battles_for_user(request.user):
            rows.append(
                {
                    "id": battle.pk,
                    "name": battle.name,
                    "status": battle.status,
                    "version": battle.version,
                    "round": (battle.state or {}).get("round", 1),
                    "sides": [
                        {"index": s.index, "name": s.name, "player": s.player.get_username() if s.player else None}
                        for s in battle.sides.all()
                    ],
                    "url": f"/battles/{battle.pk}/",
                }
            )
        return Response(rows)

    @extend_schema(request=InputSerializer, responses={201: CreatedSerializer})
    def post(self, request):
        data = _validated(self.InputSerializer, request.data)
        rosters = []
        for i, roster_id in enumerate(data["rosters"]):
            try:
                rosters.append(roster_get_for_user(request.user, roster_id))
            except Http404 as exc:  # say which one without revealing anything
                raise NotFound(
                    f"Roster {roster_id} (position {i + 1}) does not exist or is not visible to you."
                ) from exc
        for i, link in enumerate(data["roster_links"]):
            try:
                rosters.append(selectors.roster_from_share_link(link))
            except Http404 as exc:
                raise NotFound(f"Share link {i + 1} does not exist or was revoked.") from exc
        battle = services.battle_create(
            user=request.user,
            name=data.get("name", ""),
            rosters=rosters,
            system_settings=data.get("settings") or {},
            enforce_turns=data["enforce_turns"],
            mission=data.get("mission", ""),
            my_side=data["my_side"],
        )
        sides = selectors.battle_sides(battle)
        body = {
            "id": battle.pk,
            "version": battle.version,
            "url": f"/battles/{battle.pk}/",
            "spectator_url": f"/battles/watch/{battle.spectator_token}/",
            "invitations": [
                {"side": s.index, "name": s.name, "url": f"/battles/join/{s.invite_token}/"}
                for s in sides
                if s.player_id is None
            ],
        }
        response = Response(body, status=status.HTTP_201_CREATED)
        response["ETag"] = battle.etag
        return response


class BattleStateApi(BattleReadApi):
    def dispatch(self, request, *args, **kwargs):
        # A poll that finds nothing new is answered before DRF's request handling: it is most of the traffic.
        etag = selectors.unchanged_etag(request, kwargs.get("battle_id"))
        if etag is not None:
            response = HttpResponseNotModified()
            response["ETag"] = etag
            return _conditional_headers(response)
        return super().dispatch(request, *args, **kwargs)

    @extend_schema(parameters=[IF_NONE_MATCH, WATCH], responses={200: StateOutput, 304: None})
    def get(self, request, battle_id):
        access = self.access(request, battle_id)
        cached = self.not_modified(request, access)
        if cached is not None:
            return cached
        return _conditional_headers(_state_response(request, access))


class BattleEventsApi(BattleReadApi):
    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "BattleEventsOutput"

        version = serializers.IntegerField()
        events = EventOutput(many=True)
        has_more = serializers.BooleanField()

    @extend_schema(
        parameters=[
            IF_NONE_MATCH,
            WATCH,
            OpenApiParameter("after", OpenApiTypes.INT, OpenApiParameter.QUERY, description="Last seq you have"),
        ],
        responses={200: OutputSerializer, 304: None},
    )
    def get(self, request, battle_id):
        access = self.access(request, battle_id)
        cached = self.not_modified(request, access)
        if cached is not None:
            return cached
        after_raw = request.GET.get("after", "0")
        if not after_raw.isdigit():
            return Response({"detail": _("`after` must be a whole number (the last seq you have).")}, status=400)
        battle = Battle.objects.get(pk=access.battle_id)
        events, has_more = selectors.battle_events(battle, sides=access.sides, after=int(after_raw))
        response = Response({"version": battle.version, "events": events, "has_more": has_more})
        response["ETag"] = battle.etag
        return _conditional_headers(response)


# Writes -----------------------------------------------------------------------------------------------------
class VersionField(serializers.Serializer):
    class Meta:
        ref_name = "BattleVersionInput"

    version = serializers.IntegerField(required=False, help_text="Instead of If-Match")


WRITE_PARAMS = [IF_MATCH, IDEMPOTENCY_KEY]


class CommandApi(BattleWriteApi):
    """Every command of the battle's game system (GET /api/v1/systems/ lists them with their input schemas).

    The body holds the command's inputs, plus `dice` (the dice rolled at the table, in the order the test uses them;
    omit to let the server roll) and `version` (instead of If-Match)."""

    operation = "command"

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "BattleCommandInput"

        version = serializers.IntegerField(required=False)
        dice = serializers.ListField(
            child=serializers.IntegerField(),
            required=False,
            allow_null=True,
            default=None,
            help_text="Dice rolled at the table, in the order the test uses them; omit to let the server roll.",
        )

    @extend_schema(request=InputSerializer, parameters=WRITE_PARAMS, responses={201: WriteOutput})
    def post(self, request, battle_id, name):
        self.operation = f"command:{name}"
        body = request.data if isinstance(request.data, dict) else None
        if body is None:
            return Response({"detail": _("Send the command's inputs as a JSON object.")}, status=400)
        data = _validated(self.InputSerializer, {k: body[k] for k in ("version", "dice") if k in body})
        inputs = {k: v for k, v in body.items() if k not in ("version", "dice")}
        return self.run(request, battle_id, services.command_run, name=name, inputs=inputs, dice=data.get("dice"))


class UndoApi(BattleWriteApi):
    operation = "undo"

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "BattleUndoInput"

        version = serializers.IntegerField(required=False)
        seq = serializers.IntegerField(min_value=1, help_text="The event to undo (a command's head event)")

    @extend_schema(request=InputSerializer, parameters=WRITE_PARAMS, responses={201: WriteOutput})
    def post(self, request, battle_id):
        data = _validated(self.InputSerializer, request.data)
        return self.run(request, battle_id, undo.event_undo, seq=data["seq"])


class UndoProposeApi(BattleWriteApi):
    """Proposes an undo that needs the other player (past a reveal or an answered question they saw): a public
    `undo.proposed` event; they confirm or decline it. It lapses as soon as anything else is recorded."""

    operation = "undo-propose"

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "BattleUndoProposeInput"

        version = serializers.IntegerField(required=False)
        seq = serializers.IntegerField(min_value=1, help_text="The event to undo (a command's head event)")

    @extend_schema(request=InputSerializer, parameters=WRITE_PARAMS, responses={201: WriteOutput})
    def post(self, request, battle_id):
        data = _validated(self.InputSerializer, request.data)
        return self.run(request, battle_id, undo.undo_propose, seq=data["seq"])


class UndoAnswerApi(BattleWriteApi):
    """Answers an open proposal to undo: confirm (the last agreement records the undo) or decline (the proposer
    withdraws it the same way)."""

    operation = "undo-answer"
    service = None

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "BattleUndoAnswerInput"

        version = serializers.IntegerField(required=False)
        proposal = serializers.IntegerField(min_value=1, help_text="The seq of the `undo.proposed` event")

    @extend_schema(request=InputSerializer, parameters=WRITE_PARAMS, responses={201: WriteOutput})
    def post(self, request, battle_id):
        data = _validated(self.InputSerializer, request.data)
        return self.run(request, battle_id, type(self).service, proposal=data["proposal"])


class UndoConfirmApi(UndoAnswerApi):
    operation = "undo-confirm"
    service = staticmethod(undo.undo_confirm)


class UndoDeclineApi(UndoAnswerApi):
    operation = "undo-decline"
    service = staticmethod(undo.undo_decline)


class CommandDiceApi(BattleWriteApi):
    """The dice a command would use with these inputs, in order, one labelled box each («Д12 дальность»,
    «Д20 мощь 1 из 3»): a dry run, nothing is stored. The body is the command's inputs plus the `dice` typed in so
    far; the answer lists every die the test may still ask for, and a rule error if the inputs are refused."""

    operation = "command-dice"

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "BattleCommandDiceInput"

        dice = serializers.ListField(child=serializers.IntegerField(), required=False, default=list, max_length=60)

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "BattleCommandDiceOutput"

        dice = serializers.ListField(child=serializers.DictField())
        error = serializers.CharField(allow_blank=True)

    @extend_schema(request=InputSerializer, responses={200: OutputSerializer})
    def post(self, request, battle_id, name):
        access = self.battle_access  # outsiders 404, spectators 403 (BattleWriteApi.initial)
        body = request.data if isinstance(request.data, dict) else None
        if body is None:
            return Response({"detail": _("Send the command's inputs as a JSON object.")}, status=400)
        data = _validated(self.InputSerializer, {k: body[k] for k in ("dice",) if k in body and body[k] is not None})
        inputs = {k: v for k, v in body.items() if k not in ("version", "dice")}
        battle = Battle.objects.get(pk=access.battle_id)
        return Response(selectors.command_dice(battle, access, name, inputs, list(data.get("dice") or [])))


class CommandOddsApi(BattleWriteApi):
    """The exact odds a command's form shows before the dice fall (issue #31): the system maps the board's state
    and these inputs to one of its actions (its `at_roll` part) and the action's own `odds` answers, as the odds API
    does. Nothing is stored. The body is the command's inputs, plus `compare` ({"field", "values"}) to rank the
    values of a field by the headline chance ("which target?"). Missing or refused inputs: 400 naming them."""

    operation = "command-odds"
    throttle_classes = [OddsLimit]

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "BattleCommandOddsOutput"

        action = serializers.CharField()
        odds = serializers.JSONField(help_text="As the action's odds API answers: {exact, p} per result")
        result_labels = serializers.DictField()
        value_labels = serializers.DictField()
        headline = serializers.JSONField(allow_null=True, help_text="{key, label, exact, p}: what ranks targets")
        place = serializers.ListField(allow_null=True, help_text="[odds key, outcome key]: where a result falls")
        ranking = serializers.ListField(child=serializers.DictField(), help_text="{value, p, exact} or {value, why}")

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: OutputSerializer})
    def post(self, request, battle_id, name):
        access = self.battle_access  # outsiders 404, spectators 403 (BattleWriteApi.initial)
        body = request.data if isinstance(request.data, dict) else None
        if body is None:
            return Response({"detail": _("Send the command's inputs as a JSON object.")}, status=400)
        compare = body.get("compare") if isinstance(body.get("compare"), dict) else None
        inputs = {k: v for k, v in body.items() if k not in ("version", "dice", "compare")}
        battle = Battle.objects.get(pk=access.battle_id)
        return Response(odds.command_odds(battle, frozenset(access.sides), name, inputs, compare))
