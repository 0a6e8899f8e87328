"""Translations: the catalogs are complete, compiled and in step with the code.

A string wrapped in ``_``/``ngettext``/``N_`` in the code but missing from a catalog, an
untranslated or fuzzy entry, a translation whose ``{fields}`` differ from its msgid, or a
committed ``.mo`` that is not the compiled ``.po`` all fail here, so a new untranslated
string fails CI (docs/translating.md says how to add the words).
"""

from __future__ import annotations

import gettext
import io
import os
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from game import i18n
from game.i18n import LOCALE_DIR, _, counted, ngettext, set_language, system_language

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = [code for code in i18n.LANGUAGES if code != "en"]
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}


def po_path(code: str) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"


def catalog(code: str):
    with po_path(code).open("rb") as fh:
        return read_po(fh, locale=code)


@pytest.fixture(autouse=True)
def english_again():
    yield
    set_language("en")


def singular(message) -> str:
    return message[0] if isinstance(message, tuple) else message


def code_messages() -> dict[str, str]:
    """Every msgid the code marks (game/ and ai/), with where it is."""
    found: dict[str | tuple[str, str], str] = {}
    for package in ("game", "ai"):
        for filename, lineno, message, _comments, _context in extract_from_dir(
            ROOT / package, method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            if message:  # a msgid is its singular: ngettext's pair and _ share one entry
                found.setdefault(singular(message), f"{package}/{filename}:{lineno}")
    return found


def test_every_string_in_the_code_is_in_every_catalog():
    wanted = code_messages()
    assert len(wanted) > 500
    with (LOCALE_DIR / f"{i18n.DOMAIN}.pot").open("rb") as fh:
        template = {singular(m.id) for m in read_po(fh) if m.id}
    catalogs = [(code, {singular(m.id) for m in catalog(code) if m.id}) for code in SHIPPED]
    for name, ids in [("connect4.pot", template), *catalogs]:
        missing = {where: message for message, where in wanted.items() if message not in ids}
        assert not missing, f"{name} lacks {len(missing)} strings (docs/translating.md): {missing}"


@pytest.mark.parametrize("code", SHIPPED)
def test_a_catalog_is_complete_and_keeps_every_field(code):
    formatter = string.Formatter()

    def fields(text: str) -> set[str]:
        return {f"{name}!{conv}:{spec}" for _lit, name, spec, conv in formatter.parse(text) if name is not None}

    problems = []
    for message in catalog(code):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(strings):
            problems.append(f"untranslated or fuzzy: {ids[0]!r}")
            continue
        for text in strings:
            if fields(text) != fields(ids[-1]) and fields(text) != fields(ids[0]):
                problems.append(f"fields differ: {ids[0]!r} -> {text!r}")
    assert not problems, problems


def _messages(mo: bytes) -> dict:
    """A compiled catalog's messages, without its header (which names the Babel version
    that compiled it)."""
    messages = dict(gettext.GNUTranslations(io.BytesIO(mo))._catalog)  # type: ignore[attr-defined]
    messages.pop("", None)
    return messages


@pytest.mark.parametrize("code", SHIPPED)
def test_the_committed_mo_is_the_compiled_po(code):
    compiled = io.BytesIO()
    write_mo(compiled, catalog(code))
    committed = po_path(code).with_suffix(".mo").read_bytes()
    assert _messages(committed) == _messages(compiled.getvalue()), (
        f"compile {code}: pybabel compile -d game/locale -D connect4"
    )


def test_plural_forms_follow_the_count():
    assert (counted(1, "move"), counted(2, "move"), counted(1000, "node")) == ("1 move", "2 moves", "1,000 nodes")
    set_language("de")
    assert (counted(1, "move"), counted(2, "move"), counted(6, "ply")) == ("1 Zug", "2 Züge", "6 Halbzüge")
    assert ngettext("{count} branch kept", "{count} branches kept", 1).format(count=1) == "1 Zweig erhalten"
    set_language("es")
    assert (counted(1, "move"), counted(2, "move"), counted(0, "disc")) == ("1 jugada", "2 jugadas", "0 fichas")


def test_the_language_comes_from_the_choice_or_the_environment():
    assert system_language({"LANGUAGE": "de_AT:en", "LANG": "es_ES.UTF-8"}) == "de"
    assert system_language({"LANGUAGE": "fr:es"}) == "es"
    assert system_language({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}) == "en"
    assert system_language({"LC_MESSAGES": "es_MX.UTF-8"}) == "es"
    assert system_language({"LANG": "fr_FR.UTF-8"}) == "en"
    assert set_language("es") == "es" and _("Back") == "Volver"
    assert set_language("de") == "de" and _("Back") == "Zurück"
    assert set_language("en") == "en" and _("Back") == "Back"
    assert set_language("xx") == system_language()  # an unknown choice: the system's


def test_the_tests_run_in_english():
    assert os.environ["LANGUAGE"] == "en" and set_language() == "en"


def test_the_exact_words_speak_the_language():
    from ai.exact import ExactScore, column_label, standing, verdict
    from game.rules import MAX, MIN

    win = ExactScore(1, 5)  # player 1 wins with its 3rd move
    names = {MAX: "you", MIN: "the computer"}
    english = (verdict(win, names), standing(win, {MAX: "You", MIN: "The computer"}), column_label(win, MAX))
    assert english == ("you win in 3 moves with perfect play", "You can force a win in 3 moves", "win 3")
    set_language("de")
    names = {MAX: _("you"), MIN: _("the computer")}
    assert verdict(win, names) == "du gewinnst in 3 Zügen bei perfektem Spiel"
    assert verdict(ExactScore(-1, 4), names) == "der Computer gewinnt in 2 Zügen bei perfektem Spiel"
    assert column_label(win, MIN) == "verl. 3"
    set_language("es")
    assert verdict(win, {MAX: _("you"), MIN: _("the computer")}) == "ganas en 3 jugadas con juego perfecto"


def test_the_fonts_cover_every_shipped_language():
    """Every letter of every catalog exists in the font the theme draws with (the default
    font, in both weights): no missing-glyph boxes for ä, ß, ñ, ¿, «»..."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from game.app.theme import TextFont

    pygame.font.init()
    letters = set()
    for code in SHIPPED:
        for message in catalog(code):
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            letters.update(char for text in strings for char in text if not char.isspace())
    assert {"ä", "ß", "ñ", "¿", "«"} <= letters
    for bold in (False, True):
        font = TextFont(20, bold).fine
        missing = sorted(
            char for char, metric in zip(sorted(letters), font.metrics("".join(sorted(letters)))) if metric is None
        )
        assert not missing, f"the theme's font lacks {missing}"


def test_the_voice_speaks_the_language_of_the_sentences():
    from game.app.speech import Voice

    voice = Voice("espeak-ng", ("espeak-ng", "--stdin"))
    assert voice.command(1) == ["espeak-ng", "--stdin"]
    set_language("de")
    assert voice.command(1) == ["espeak-ng", "--stdin", "-v", "de"]
    assert Voice("say", ("say",)).command(1) == ["say"]  # the system's own voice follows the system


def test_the_cli_speaks_the_system_language_but_json_stays_english(monkeypatch, tmp_path):
    import json

    from game.cli.main import main

    monkeypatch.setenv("CONNECT4_HOME", str(tmp_path))
    monkeypatch.setenv("LANGUAGE", "de")
    said = io.StringIO()
    assert main(["explore", "44"], stdout=said) == 0
    assert "Niederlage in 18 Zügen" in said.getvalue() and "Spieler 1 am Zug" in said.getvalue()
    printed = io.StringIO()
    assert main(["explore", "44", "--json"], stdout=printed) == 0
    assert json.loads(printed.getvalue())["columns"][0]["words"] == "loss in 18 moves"
