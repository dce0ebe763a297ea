"""Django's makemessages, also collecting the rules core's N_() marks (rules/i18n.py) and skipping what is not
ours: `manage.py makemessages -l ru` (and `-d djangojs -l ru`)."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]

    def handle(self, *args, **options):
        options["ignore_patterns"] = [*options.get("ignore_patterns", []), ".venv/*", "var/*", "node_modules/*"]
        return super().handle(*args, **options)
