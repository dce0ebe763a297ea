"""Russian first: the ru catalogues are complete, every visible template text is marked for translation, and the
API answers the same error in the asker's language with the same language-neutral code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parent.parent
CATALOGUES = [ROOT / "locale" / "ru" / "LC_MESSAGES" / name for name in ("django.po", "djangojs.po")]
# Each game system keeps its rule texts in its own catalogue (settings add <package>/locale to LOCALE_PATHS).
SYSTEM_CATALOGUES = sorted(ROOT.glob("rules/systems/*/locale/ru/LC_MESSAGES/django.po"), key=str)
TEMPLATES = sorted(
    [*ROOT.glob("templates/**/*.html"), *ROOT.glob("rules/systems/*/templates/**/*.html")],
    key=str,
)
# Proper names and units a template may show as they are.
ALLOWED_WORDS = {"Armlist", "v", "vs", "d", "px"}


def po_entries(path: Path) -> list[dict]:
    """The entries of a .po file: msgid, msgid_plural, msgstr (list), flags; the header is left out."""
    entries, entry, key = [], None, None

    def unquote(text: str) -> str:
        return bytes(text.strip()[1:-1], "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")

    def finish():
        if entry is not None and "msgid" in entry and entry["msgid"] != "" and not entry.get("obsolete"):
            entries.append(entry)

    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if not line.strip():
            finish()
            entry, key = None, None
            continue
        if entry is None:
            entry = {"flags": set(), "msgstr": {}}
        if line.startswith("#~"):
            entry["obsolete"] = True
        elif line.startswith("#,"):
            entry["flags"].update(f.strip() for f in line[2:].split(","))
        elif line.startswith("#"):
            continue
        elif line.startswith("msgid_plural "):
            key = "msgid_plural"
            entry[key] = unquote(line[len(key) :])
        elif line.startswith("msgid "):
            key = "msgid"
            entry[key] = unquote(line[len(key) :])
        elif line.startswith("msgctxt "):
            key = "msgctxt"
            entry[key] = unquote(line[len(key) :])
        elif line.startswith("msgstr"):
            match = re.match(r"msgstr(?:\[(\d+)\])?\s+(.*)", line)
            key = ("msgstr", int(match.group(1) or 0))
            entry["msgstr"][key[1]] = unquote(match.group(2))
        elif line.startswith('"') and key is not None:
            if isinstance(key, tuple):
                entry["msgstr"][key[1]] += unquote(line)
            else:
                entry[key] += unquote(line)
    return entries


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.name)
def test_every_msgid_of_the_russian_catalogue_is_translated_and_none_is_fuzzy(path):
    assert path.exists(), f"{path} is missing: run manage.py makemessages -l ru"
    entries = po_entries(path)
    assert entries, f"{path} holds no msgid"
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    untranslated = [e["msgid"] for e in entries if not all(e["msgstr"].values()) or not e["msgstr"]]
    plural_short = [e["msgid"] for e in entries if "msgid_plural" in e and len(e["msgstr"]) < 3]
    assert not fuzzy, f"fuzzy in {path.name}: {fuzzy[:20]}"
    assert not untranslated, f"untranslated in {path.name} ({len(untranslated)}): {untranslated[:20]}"
    assert not plural_short, f"Russian needs three plural forms in {path.name}: {plural_short[:20]}"


@pytest.mark.parametrize("path", SYSTEM_CATALOGUES, ids=lambda p: p.parts[-5])
def test_every_system_catalogue_is_translated_and_none_is_fuzzy(path):
    test_every_msgid_of_the_russian_catalogue_is_translated_and_none_is_fuzzy(path)


def test_no_msgid_is_translated_two_ways_by_two_catalogues():
    """All catalogues share Django's one domain and the first LOCALE_PATHS entry that has a msgid wins, so one
    English text translated two ways would show another system's word. A system that needs its own word uses its
    own msgid."""
    seen: dict[tuple, tuple[str, str]] = {}
    clashes = []
    for path in [CATALOGUES[0], *SYSTEM_CATALOGUES]:
        for e in po_entries(path):
            key = (e.get("msgctxt"), e["msgid"], e.get("msgid_plural"))
            translation = "|".join(e["msgstr"][i] for i in sorted(e["msgstr"]))
            where = str(path.relative_to(ROOT))
            if key in seen and seen[key][0] != translation:
                clashes.append(f"{e['msgid']!r}: {seen[key][0]!r} in {seen[key][1]}, {translation!r} in {where}")
            seen.setdefault(key, (translation, where))
    assert not clashes, "\n".join(clashes)


def test_the_po_parser_reads_plurals_fuzzy_and_continuations(tmp_path):
    po = tmp_path / "x.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: ru\\n"\n\n'
        '#, fuzzy\nmsgid "Undo"\nmsgstr "Отменить"\n\n'
        'msgid "Long "\n"text"\nmsgstr ""\n\n'
        'msgid "{n} unit"\nmsgid_plural "{n} units"\nmsgstr[0] "{n} юнит"\nmsgstr[1] "{n} юнита"\n'
        'msgstr[2] "{n} юнитов"\n',
        encoding="utf-8",
    )
    undo, long, unit = po_entries(po)
    assert "fuzzy" in undo["flags"]
    assert undo["msgstr"][0] == "Отменить"
    assert long["msgid"] == "Long text"
    assert long["msgstr"] == {0: ""}
    assert unit["msgid_plural"] == "{n} units"
    assert unit["msgstr"][2] == "{n} юнитов"


_HIDDEN = re.compile(
    r"\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}|\{#[^\n]*?#\}|<!--.*?-->|<script\b.*?</script>|<style\b.*?</style>"
    r"|\{%\s*blocktrans(?:late)?\b.*?\{%\s*endblocktrans(?:late)?\s*%\}|\{%.*?%\}|\{\{.*?\}\}",
    re.S,
)
_VISIBLE_ATTRS = re.compile(r"""\b(?:title|aria-label|placeholder|alt)=(?:"([^"]*)"|'([^']*)')""")
_WORD = re.compile(r"[A-Za-zА-Яа-яЁё]+")


def unmarked_words(source: str) -> list[str]:
    """The words a template shows outside {% translate %}/{% blocktranslate %}: text nodes and the attributes a
    person reads (title, aria-label, placeholder, alt)."""
    text = _HIDDEN.sub(" ", source)
    words = []
    for tag in re.findall(r"<[^>]*>", text):
        for a, b in _VISIBLE_ATTRS.findall(tag):
            words += _WORD.findall(a or b)
    text = re.sub(r"<[^>]*>", " ", text)
    words += _WORD.findall(text)
    return [w for w in words if w not in ALLOWED_WORDS]


def test_the_template_checker_finds_unmarked_text():
    assert unmarked_words('<p title="Hello">{% translate "Done" %} {{ x }}</p>') == ["Hello"]
    assert unmarked_words("<b>Round</b> {% blocktranslate %}Turn {{ n }}{% endblocktranslate %}") == ["Round"]
    assert unmarked_words("{# note #}<script>let a = 1;</script>{% if a %}Armlist{% endif %} · 5") == []
    assert unmarked_words("<p>Бр {{ a }}</p>") == ["Бр"]
    assert unmarked_words("{# one line #}{# two\nlines #}") == ["two", "lines"]  # Django shows a multi-line {# #}


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_visible_template_text_is_marked_for_translation(path):
    words = unmarked_words(path.read_text(encoding="utf-8"))
    assert not words, f"{path.relative_to(ROOT)} shows text not marked for translation: {words[:20]}"


@pytest.mark.django_db
def test_the_same_400_in_russian_and_english_with_the_same_code():
    url = "/api/v1/systems/bronepekhota/actions/survival_test/odds/"
    body = {"inputs": {"subject": {"armour": 99}}}
    answers = {}
    for language in ("ru", "en"):
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        response = client.post(url, body, content_type="application/json")
        assert response.status_code == 400, response.content
        answers[language] = response.json()
    ru, en = answers["ru"], answers["en"]
    assert ru["code"] == en["code"] == "rule_input"
    assert set(ru["errors"]) == set(en["errors"])
    assert "or less" in en["detail"]
    assert re.search("[А-Яа-я]", ru["detail"]), ru
    assert ru["detail"] != en["detail"]


@pytest.mark.django_db
def test_english_stays_the_tests_default_and_russian_is_asked_for():
    assert 'lang="en"' in Client().get("/").content.decode()
    page = Client(HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9").get("/").content.decode()
    assert 'lang="ru"' in page
    assert "Бронепехота" in page


def test_the_rules_core_translates_through_the_installed_hook():
    from django.utils import translation

    from rules.i18n import _, ngettext

    with translation.override("ru"):
        assert _("This field is required.") != "This field is required."
        assert ngettext("%(n)s error", "%(n)s errors", 5) % {"n": 5} == "5 ошибок"
        assert ngettext("%(n)s error", "%(n)s errors", 2) % {"n": 2} == "2 ошибки"
        assert ngettext("%(n)s error", "%(n)s errors", 1) % {"n": 1} == "1 ошибка"
    with translation.override("en"):
        assert _("This field is required.") == "This field is required."


def test_every_simulator_says_what_it_plays_and_leaves_out_in_russian():
    """The balance-job page lists, for the chosen system, what its simulator plays and what it leaves out
    (rules/jobs/views.py translates each line when it shows it): each line has its Russian in a catalogue."""
    from django.utils import translation

    from rules import registry

    untranslated = []
    with translation.override("ru"):
        for system in registry.all_systems():
            part = system.simulator
            if part is None:
                continue
            for line in (*part.simulated, *part.left_out):
                if translation.gettext(line) == line:
                    untranslated.append(f"{system.slug}: {line}")
    assert not untranslated, "\n".join(untranslated)
