from django.urls import include, path

urlpatterns = [
    path("", include("rules.odds_urls")),  # systems API, odds and resolve, odds page
    path("", include("rules.jobs.urls")),  # balance jobs
]
