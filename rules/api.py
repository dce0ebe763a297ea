"""Public rules API: the game systems, their actions and settings; exact odds; resolution with server-rolled
or typed-in dice. Read/compute only (no user data), so anyone may call it."""

from __future__ import annotations

from django.conf import settings as django_settings
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import error_response
from rules import dice as dicelib
from rules.errors import NotFound, RuleInputError
from rules.registry import all_systems, get_system


def _error(exc: RuleInputError, status_code: int = status.HTTP_400_BAD_REQUEST) -> Response:
    """The refusal as config/api.py answers every error (one format), its detail joining every field's message; a
    lookup of an unknown system or action is a 404."""
    exc.message = "; ".join(exc.errors.values()) or exc.message
    if status_code == status.HTTP_404_NOT_FOUND:
        found = NotFound(exc.message, errors=exc.errors, data=exc.data)
        found.code = exc.code
        exc = found
    return error_response(exc)


def _lookup(system_slug: str, action_key: str | None = None):
    """(system, action) or a 404 Response naming what is unknown."""
    try:
        system = get_system(system_slug)
        action = system.action(action_key) if action_key is not None else None
    except RuleInputError as exc:
        return None, None, _error(exc, status.HTTP_404_NOT_FOUND)
    return system, action, None


class SettingOutput(serializers.Serializer):
    class Meta:
        ref_name = "RulesSetting"

    key = serializers.CharField()
    label = serializers.CharField()
    default = serializers.JSONField()
    kind = serializers.CharField()
    choices = serializers.ListField(child=serializers.JSONField())
    source = serializers.CharField()
    category = serializers.CharField()
    help = serializers.CharField()


class ActionOutput(serializers.Serializer):
    class Meta:
        ref_name = "RulesAction"

    key = serializers.CharField()
    label = serializers.CharField()
    spec_ref = serializers.CharField()
    description = serializers.CharField()
    input_schema = serializers.JSONField(help_text="JSON Schema of the action's inputs")


class SystemOutput(serializers.Serializer):
    class Meta:
        ref_name = "RulesSystem"

    slug = serializers.CharField()
    name = serializers.CharField()
    dice = serializers.CharField()
    settings = SettingOutput(many=True)
    actions = ActionOutput(many=True)
    profile_schema = serializers.JSONField()
    parts = serializers.ListField(child=serializers.CharField(), help_text="army, battle, simulator, campaign")
    glossary = serializers.DictField(child=serializers.CharField(), help_text="The book's own words")
    army = serializers.JSONField(allow_null=True, help_text="Pricing, currency, profile kinds and schema")
    battle = serializers.JSONField(allow_null=True, help_text="rules_version and the commands with input schemas")
    simulator = serializers.JSONField(allow_null=True, help_text="Parameters, what is simulated and left out")


class ErrorOutput(serializers.Serializer):
    class Meta:
        ref_name = "RulesError"

    detail = serializers.CharField()
    code = serializers.CharField(required=False, help_text="Language-neutral error code")
    errors = serializers.DictField(child=serializers.CharField(), help_text="Field path -> message")
    dice_needed = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text='Resolve with the wrong dice: the dice the action needs, in order: [{"die": "d12", "faces": 12, '
        '"count": 2, "purpose": "power die"}] (past the dice typed in, as a seeded run would go on)',
    )
    limits = serializers.DictField(
        required=False, help_text="A refusal whose limit is part of the rule: the limit as data (e.g. suppress: 2)"
    )


class SystemListApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="List the game systems",
        description="Each system with its actions (and their input schemas), settings and unit profile schema.",
        responses={200: SystemOutput(many=True)},
        tags=["rules"],
    )
    def get(self, request):
        return Response([system.describe() for system in all_systems()])


class SystemDetailApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(summary="One game system", responses={200: SystemOutput, 404: ErrorOutput}, tags=["rules"])
    def get(self, request, system: str):
        found, _action, error = _lookup(system)
        return error or Response(found.describe())


class ActionOddsApi(APIView):
    permission_classes = [permissions.AllowAny]

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "RulesOddsInput"

        inputs = serializers.DictField(help_text="The action's inputs, as its input_schema describes")
        settings = serializers.DictField(required=False, default=dict, help_text="Setting overrides")

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "RulesOddsOutput"

        system = serializers.CharField()
        action = serializers.CharField()
        settings = serializers.DictField(help_text="The settings used: defaults with the overrides")
        odds = serializers.JSONField(help_text="Exact probabilities: each as {exact: 'n/d', p: float}")

    @extend_schema(
        summary="Exact odds of an action",
        description="The exact outcome distribution (fractions, not sampling) of the action for these inputs.",
        request=InputSerializer,
        responses={200: OutputSerializer, 400: ErrorOutput, 404: ErrorOutput},
        examples=[
            OpenApiExample(
                "Aviation rocket at SALAMANDER",
                value={
                    "inputs": {
                        "shooter": {"kind": "vehicle", "rof": 1, "ammo": 12},
                        "weapon": {"key": "rocket", "range": "Д12", "power": "4Д12"},
                        "distance_cm": 21,
                        "target": {"kind": "vehicle", "strength": 7, "pilot": {"armour": 3}},
                        "cover": "none",
                    },
                    "settings": {"panic": True},
                },
                request_only=True,
            )
        ],
        tags=["rules"],
    )
    def post(self, request, system: str, action: str):
        found, act, error = _lookup(system, action)
        if error:
            return error
        body = self.InputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            settings = found.resolve_settings(body.validated_data.get("settings"))
            with dicelib.enumeration_limit(django_settings.ODDS_ENUMERATION_LIMIT):
                odds = act.odds(body.validated_data["inputs"], settings)
        except RuleInputError as exc:
            return _error(exc)
        return Response({"system": found.slug, "action": act.key, "settings": settings, "odds": odds})


class DieOutput(serializers.Serializer):
    class Meta:
        ref_name = "RulesDie"

    kind = serializers.CharField(help_text='e.g. "d12"')
    faces = serializers.IntegerField()
    value = serializers.IntegerField()
    purpose = serializers.CharField(help_text='e.g. "power die 2 of 4"')


class ActionResolveApi(APIView):
    permission_classes = [permissions.AllowAny]

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "RulesResolveInput"

        inputs = serializers.DictField(help_text="The action's inputs, as its input_schema describes")
        settings = serializers.DictField(required=False, default=dict, help_text="Setting overrides")
        seed = serializers.IntegerField(
            required=False, min_value=0, max_value=2**63 - 1, help_text="The server rolls with this seed"
        )
        dice = serializers.ListField(
            child=serializers.IntegerField(), required=False, max_length=500, help_text="Dice rolled at the table"
        )

        def validate(self, attrs):
            if "seed" in attrs and "dice" in attrs:
                raise serializers.ValidationError({"dice": "Give either a seed or the dice rolled, not both."})
            return attrs

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "RulesResolveOutput"

        action = serializers.CharField()
        summary = serializers.CharField()
        result = serializers.JSONField()
        dice = DieOutput(many=True)
        effects = serializers.ListField(child=serializers.DictField(), help_text="What the tracker applies")
        steps = serializers.ListField(child=serializers.CharField())
        seed = serializers.IntegerField(allow_null=True, help_text="The seed used (null for typed-in dice)")
        settings = serializers.DictField()

    @extend_schema(
        summary="Resolve an action",
        description=(
            "Resolves the action with dice rolled by the server (`seed`, random when absent) or typed in from the "
            "table (`dice`, used in order and checked against each die's range). Answers every die and its use."
        ),
        request=InputSerializer,
        responses={200: OutputSerializer, 400: ErrorOutput, 404: ErrorOutput},
        tags=["rules"],
    )
    def post(self, request, system: str, action: str):
        found, act, error = _lookup(system, action)
        if error:
            return error
        body = self.InputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        try:
            settings = found.resolve_settings(data.get("settings"))
            source = dicelib.dice_source(seed=data.get("seed"), dice=data.get("dice"))
            outcome = act.resolve(data["inputs"], settings, source)
        except dicelib.DiceInputError as exc:
            exc.data["dice_needed"] = dicelib.dice_needed(
                lambda dice: act.resolve(data["inputs"], settings, dice), data.get("dice") or []
            )
            return _error(exc)
        except RuleInputError as exc:
            return _error(exc)
        seed = getattr(source, "seed", None) if "dice" not in data else None
        return Response({**outcome.as_dict(), "seed": seed, "settings": settings})
