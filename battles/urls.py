from django.urls import path

from battles import api, views
from config.ratelimit import limited

app_name = "battles"

urlpatterns = [
    # Pages
    path("battles/", views.battle_list, name="list"),
    path("battles/new/", views.battle_new, name="new"),
    path("battles/<int:battle_id>/", views.battle_detail, name="detail"),
    path("battles/<int:battle_id>/board", views.battle_board, name="board"),
    path("battles/<int:battle_id>/stream", views.battle_stream, name="stream"),
    path("battles/<int:battle_id>/log/", views.battle_log_page, name="log"),
    path("battles/join/<str:token>/", limited("tokens")(views.battle_join), name="join"),
    path("battles/watch/<str:token>/", limited("tokens")(views.battle_watch), name="watch"),
    # API
    path("api/v1/battles/", api.BattleListApi.as_view(), name="api-list"),
    path("api/v1/battles/<int:battle_id>/", api.BattleStateApi.as_view(), name="api-state"),
    path("api/v1/battles/<int:battle_id>/events", api.BattleEventsApi.as_view(), name="api-events"),
    path("api/v1/battles/<int:battle_id>/commands/<slug:name>/", api.CommandApi.as_view(), name="api-command"),
    path(
        "api/v1/battles/<int:battle_id>/commands/<slug:name>/dice",
        api.CommandDiceApi.as_view(),
        name="api-command-dice",
    ),
    path(
        "api/v1/battles/<int:battle_id>/commands/<slug:name>/odds",
        api.CommandOddsApi.as_view(),
        name="api-command-odds",
    ),
    path("battles/<int:battle_id>/rules/<slug:key>/", views.rule_page, name="rule"),
    path("api/v1/battles/<int:battle_id>/undo", api.UndoApi.as_view(), name="api-undo"),
    path("api/v1/battles/<int:battle_id>/undo/propose", api.UndoProposeApi.as_view(), name="api-undo-propose"),
    path("api/v1/battles/<int:battle_id>/undo/confirm", api.UndoConfirmApi.as_view(), name="api-undo-confirm"),
    path("api/v1/battles/<int:battle_id>/undo/decline", api.UndoDeclineApi.as_view(), name="api-undo-decline"),
]
