from django.apps import AppConfig


class RulesConfig(AppConfig):
    name = "rules"
    verbose_name = "Rules engine"

    def ready(self):
        from django.conf import settings
        from django.utils import translation

        from rules import i18n, registry

        i18n.install(translation.gettext, translation.ngettext)
        registry.configure(getattr(settings, "RULES_SYSTEMS", []))

        from config.validation import guard_app_models

        guard_app_models(self)  # the balance jobs' rows, checked against their columns (issue #18)
