"""Balance jobs: pages under /jobs/ and the API under /api/v1/jobs/."""

from django.urls import path

from rules.jobs import api, replay, views

app_name = "jobs"

urlpatterns = [
    path("api/v1/jobs/", api.JobListApi.as_view(), name="api-jobs"),
    path("api/v1/jobs/rosters/", api.RosterJobCreateApi.as_view(), name="api-jobs-rosters"),
    path("api/v1/jobs/duels/", api.DuelJobCreateApi.as_view(), name="api-jobs-duels"),
    path("api/v1/jobs/<int:job_id>/", api.JobDetailApi.as_view(), name="api-job"),
    path("api/v1/jobs/<int:job_id>/status/", api.JobStatusApi.as_view(), name="api-job-status"),
    path("api/v1/jobs/<int:job_id>/cancel/", api.JobCancelApi.as_view(), name="api-job-cancel"),
    path("jobs/", views.jobs_page, name="jobs"),
    path("jobs/new/rosters/", views.roster_job_submit, name="submit-rosters"),
    path("jobs/new/duels/", views.duel_job_submit, name="submit-duels"),
    path("jobs/replay/duels/", replay.duel_replay, name="replay-duels"),
    path("jobs/<int:job_id>/", views.job_page, name="job"),
    path("jobs/<int:job_id>/result.json", views.job_result_json, name="result-json"),
    path("jobs/<int:job_id>/result.csv", views.job_result_csv, name="result-csv"),
]
