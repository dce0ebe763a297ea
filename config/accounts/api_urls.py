from django.urls import path

from . import api

urlpatterns = [
    path("signup/", api.SignUpApi.as_view(), name="api-signup"),
    path("token/", api.TokenApi.as_view(), name="api-token"),
    path("password/", api.PasswordChangeApi.as_view(), name="api-password"),
    path("me/", api.MeApi.as_view(), name="api-me"),
]
