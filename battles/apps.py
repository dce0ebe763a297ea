from django.apps import AppConfig


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = "Battles"

    def ready(self):
        from config.validation import guard_app_models

        guard_app_models(self)  # every row checked against its columns before it is saved (issue #18)

        from battles.watch import stop_waiting
        from config.lifecycle import on_stop

        on_stop(stop_waiting)  # a stopping server ends every waiting event stream at once
