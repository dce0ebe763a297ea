from django.urls import path

from config.ratelimit import OddsLimit
from rules import api, views

urlpatterns = [
    path("api/v1/systems/", api.SystemListApi.as_view(), name="rules-systems"),
    path("api/v1/systems/<str:system>/", api.SystemDetailApi.as_view(), name="rules-system"),
    path(
        "api/v1/systems/<str:system>/actions/<str:action>/odds/",
        api.ActionOddsApi.as_view(throttle_classes=[OddsLimit]),
        name="rules-action-odds",
    ),
    path(
        "api/v1/systems/<str:system>/actions/<str:action>/resolve/",
        api.ActionResolveApi.as_view(throttle_classes=[OddsLimit]),
        name="rules-action-resolve",
    ),
    path("odds/", views.odds_page, name="odds"),
]
