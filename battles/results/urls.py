"""Pages of results: a battle's result from its board, a player's history, a club's results and ladders."""

from django.urls import path

from battles.results import views

app_name = "results"

urlpatterns = [
    path("battles/<int:battle_id>/result/propose/", views.result_propose, name="propose"),
    path("battles/<int:battle_id>/result/vote/", views.result_vote, name="vote"),
    path("results/", views.my_history, name="mine"),
    path("results/<int:result_id>/settle/", views.result_settle, name="settle"),
    path("clubs/<int:club_id>/results/", views.club_results, name="club"),
    path("clubs/<int:club_id>/results.<str:fmt>", views.club_export, name="club-export"),
]
