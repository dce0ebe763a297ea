from django.apps import AppConfig


class ResultsConfig(AppConfig):
    """Results of finished battles, confirmed by both players; history and club ladders (issue #29)."""

    name = "battles.results"
    label = "results"
    verbose_name = "Results"

    def ready(self):
        from config.validation import guard_app_models

        guard_app_models(self)  # every row checked against its columns before it is saved (issue #18)
