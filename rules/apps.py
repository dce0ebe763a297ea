from django.apps import AppConfig


class RulesConfig(AppConfig):
    name = "rules"
    verbose_name = "Rules engine"

    def ready(self):
        from django.conf import settings

        from rules import registry

        registry.configure(getattr(settings, "RULES_SYSTEMS", []))
