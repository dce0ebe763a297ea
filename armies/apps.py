from django.apps import AppConfig


class ArmiesConfig(AppConfig):
    name = "armies"
    verbose_name = "Armies"

    def ready(self):
        from config.validation import guard_app_models

        guard_app_models(self)  # every row checked against its columns before it is saved (issue #18)
