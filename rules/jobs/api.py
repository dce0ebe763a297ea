"""REST API of balance jobs under /api/v1/jobs/. One APIView per operation; jobs belong to their creator (others
get 404). Submission answers 202 at once with the job and where to poll; the work runs on Celery workers."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from rules.errors import RuleInputError
from rules.jobs import selectors, services
from rules.models import BalanceJob

JOB_ID = OpenApiParameter("job_id", OpenApiTypes.INT, OpenApiParameter.PATH)


def naming_fields(exc: RuleInputError) -> RuleInputError:
    """The refusal with a `detail` that names every bad field ("params.speed: …; seed: …"): a job's inputs are
    nested, and the summary says which. Answered by config/api.exception_handler as every error is."""
    exc.message = "; ".join(f"{field}: {message}" for field, message in exc.errors.items()) or exc.message
    return exc


# Output ------------------------------------------------------------------------------------------------------
class ProgressSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=BalanceJob.Status.choices)
    progress = serializers.FloatField(help_text="Share of the battles done, 0–1.")
    battles_done = serializers.IntegerField()
    total_battles = serializers.IntegerField()
    chunks_done = serializers.IntegerField()
    chunk_count = serializers.IntegerField()
    elapsed_seconds = serializers.FloatField()
    eta_seconds = serializers.FloatField(allow_null=True, help_text="Estimated seconds left; null until known.")
    finished = serializers.BooleanField()
    error = serializers.CharField(allow_blank=True)

    class Meta:
        ref_name = "JobsProgress"


class JobSerializer(ProgressSerializer):
    id = serializers.IntegerField()
    system = serializers.CharField(help_text="Slug of the game system whose simulator runs the job.")
    kind = serializers.ChoiceField(choices=BalanceJob.Kind.choices)
    title = serializers.CharField()
    seed = serializers.IntegerField()
    battles = serializers.IntegerField(help_text="Battles asked (duels: per pair of units).")
    params = serializers.JSONField()
    settings = serializers.JSONField()
    warnings = serializers.ListField(child=serializers.CharField())
    created_at = serializers.DateTimeField()
    url = serializers.CharField(help_text="The job's page.")
    status_url = serializers.CharField()

    class Meta:
        ref_name = "JobsJob"


class JobDetailSerializer(JobSerializer):
    result = serializers.JSONField(allow_null=True)
    inputs = serializers.JSONField()

    class Meta:
        ref_name = "JobsJobDetail"


def job_data(job: BalanceJob, *, detail: bool = False) -> dict:
    data = {
        "id": job.pk,
        "system": job.system,
        "kind": job.kind,
        "title": job.title,
        "seed": job.seed,
        "battles": job.battles,
        "params": job.params,
        "settings": job.settings,
        "warnings": job.warnings,
        "created_at": job.created_at,
        **selectors.job_progress(job),
        "url": reverse("jobs:job", args=[job.pk]),
        "status_url": reverse("jobs:api-job-status", args=[job.pk]),
    }
    if detail:
        data["result"] = job.result
        data["inputs"] = job.inputs
    return (JobDetailSerializer if detail else JobSerializer)(data).data


SUBMIT_RESPONSES = {
    202: JobSerializer,
    400: OpenApiResponse(description="A field is wrong; `errors` names each field."),
    404: OpenApiResponse(description="A roster or pack you cannot see."),
    503: OpenApiResponse(description="The job queue is down: nothing was created."),
}


# Views -------------------------------------------------------------------------------------------------------
class JobListApi(APIView):
    @extend_schema(summary="Your balance jobs, newest first", responses=JobSerializer(many=True))
    def get(self, request):
        jobs = selectors.job_list_for_user(request.user)[:200]
        return Response([job_data(j) for j in jobs])


class RosterJobCreateApi(APIView):
    class InputSerializer(serializers.Serializer):
        roster_a = serializers.IntegerField(help_text="Id of a roster you may read.")
        roster_b = serializers.IntegerField()
        battles = serializers.IntegerField(help_text="How many battles to simulate (at most BALANCE_MAX_BATTLES).")
        params = serializers.JSONField(
            required=False,
            help_text="The simulator's parameters: the rosters' system's simulator.params_schema "
            "(GET /api/v1/systems/<slug>/); defaults fill the rest.",
        )
        settings = serializers.JSONField(required=False, help_text="System settings that differ from the defaults.")
        seed = serializers.IntegerField(required=False, help_text="Same seed and inputs, same numbers.")
        title = serializers.CharField(required=False, allow_blank=True, max_length=200)

        class Meta:
            ref_name = "JobsRosterJobInput"

    @extend_schema(summary="Simulate one roster against another", request=InputSerializer, responses=SUBMIT_RESPONSES)
    def post(self, request):
        data = _valid(self.InputSerializer, request)
        try:
            job = services.balance_job_submit_rosters(
                user=request.user,
                roster_a_id=data["roster_a"],
                roster_b_id=data["roster_b"],
                battles=data["battles"],
                params=_dict(data.get("params"), "params"),
                settings=_dict(data.get("settings"), "settings"),
                seed=data.get("seed"),
                title=data.get("title", ""),
            )
        except RuleInputError as exc:
            raise naming_fields(exc) from None
        return _accepted(job)


class DuelJobCreateApi(APIView):
    class InputSerializer(serializers.Serializer):
        pack = serializers.IntegerField(help_text="Id of a data pack you may read.")
        profiles = serializers.ListField(
            child=serializers.CharField(), required=False, help_text="Unit slugs; all of the pack's units if absent."
        )
        battles = serializers.IntegerField(help_text="Duels per pair of units.")
        params = serializers.JSONField(required=False)
        settings = serializers.JSONField(required=False)
        seed = serializers.IntegerField(required=False)
        title = serializers.CharField(required=False, allow_blank=True, max_length=200)

        class Meta:
            ref_name = "JobsDuelJobInput"

    @extend_schema(summary="Duel every pair of a pack's units", request=InputSerializer, responses=SUBMIT_RESPONSES)
    def post(self, request):
        data = _valid(self.InputSerializer, request)
        try:
            job = services.balance_job_submit_duels(
                user=request.user,
                pack_id=data["pack"],
                profiles=data.get("profiles"),
                battles=data["battles"],
                params=_dict(data.get("params"), "params"),
                settings=_dict(data.get("settings"), "settings"),
                seed=data.get("seed"),
                title=data.get("title", ""),
            )
        except RuleInputError as exc:
            raise naming_fields(exc) from None
        return _accepted(job)


class JobDetailApi(APIView):
    @extend_schema(
        summary="A job with its progress and, when done, its result", parameters=[JOB_ID], responses=JobDetailSerializer
    )
    def get(self, request, job_id: int):
        return Response(job_data(selectors.job_get_for_user(request.user, job_id), detail=True))


class JobStatusApi(APIView):
    @extend_schema(summary="Progress of a job (poll this)", parameters=[JOB_ID], responses=ProgressSerializer)
    def get(self, request, job_id: int):
        job = selectors.job_get_for_user(request.user, job_id)
        return Response(ProgressSerializer(selectors.job_progress(job)).data)


class JobCancelApi(APIView):
    @extend_schema(
        summary="Cancel a job",
        parameters=[JOB_ID],
        request=None,
        responses={200: ProgressSerializer, 409: OpenApiResponse(description="The job already finished.")},
    )
    def post(self, request, job_id: int):
        job = selectors.job_get_for_user(request.user, job_id)
        job = services.balance_job_cancel(job=job)  # a finished job: JobFinished, 409
        return Response(ProgressSerializer(selectors.job_progress(job)).data)


def _valid(serializer_class, request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _dict(value, field: str) -> dict | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        message = _("must be an object")
        raise naming_fields(RuleInputError({field: message}))
    return value


def _accepted(job: BalanceJob) -> Response:
    data = job_data(job)
    return Response(data, status=status.HTTP_202_ACCEPTED, headers={"Location": data["status_url"]})
