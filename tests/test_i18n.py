"""Translations: the catalogs are complete, compiled and in step with the code.

A string wrapped in ``_``/``ngettext``/``N_`` in the code but missing from a catalog, an
untranslated or fuzzy entry, a translation whose ``{fields}`` differ from its msgid, or a
committed ``.mo`` that is not the compiled ``.po`` all fail here, so a new untranslated
string fails CI (docs/translating.md says how to add the words).
"""

from __future__ import annotations

import gettext
import io
import json
import os
import shutil
import string
import subprocess
import sys
from collections.abc import Iterable
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


def boxes(letters: Iterable[str]) -> dict[bool, list[str]]:
    """The ``letters`` the theme's font (the default font, regular and bold) draws as the
    missing-glyph box, by weight.  The font's metrics cannot tell: they give the box's."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from game.app.theme import TextFont

    pygame.font.init()
    found = {}
    for bold in (False, True):
        font = TextFont(20, bold).fine

        def drawn(text: str) -> bytes:
            return pygame.image.tobytes(font.render(text, True, (0, 0, 0)), "RGBA")

        box = drawn("\uffff")  # no font has a letter there
        found[bold] = sorted(char for char in set(letters) if drawn(char) == box)
    return found


def test_the_fonts_cover_every_shipped_language():
    """Every letter of every catalog exists in the font the theme draws with (the default
    font, in both weights): no missing-glyph boxes for ä, ß, ñ, ¿, «»..."""
    letters = set()
    for code in SHIPPED:
        for message in catalog(code):
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            letters.update(char for text in strings for char in text if not char.isspace())
    assert {"ä", "ß", "ñ", "¿", "«"} <= letters
    assert boxes(letters) == {False: [], True: []}


def test_the_fonts_have_every_letter_the_code_writes_itself():
    """A sign written in the code rather than a catalog (the themes screen marked the
    strongest theme with an arrow the font lacks: a box) exists in the font too; the
    docstrings are not drawn, the surrogates are the file readers' stand-ins, and U+FFFD
    stands in for what cannot be drawn (``game.app.theme.drawable``): a box is its point."""
    import ast

    letters: dict[str, str] = {}
    for path in sorted((Path(__file__).parent.parent / "game").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                for char in node.value:
                    stand_in = 0xD800 <= ord(char) <= 0xDFFF or char == "\ufffd"
                    if ord(char) > 127 and not char.isspace() and not stand_in:
                        letters.setdefault(char, path.name)
    assert "·" in letters and boxes("a▲") == {False: ["▲"], True: ["▲"]}
    missing = {char: letters[char] for weight in boxes(letters).values() for char in weight}
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


# --- a damaged catalog (issue 38 item 5) ---------------------------------------------------

MAIN = ROOT / "main.py"


def locale_copy(tmp_path: Path) -> Path:
    """A copy of the shipped locale folder in ``tmp_path``, for a test to damage."""
    folder = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, folder)
    return folder


def german_mo(folder: Path) -> Path:
    return folder / "de" / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo"


def run_german(folder: Path, home: Path, *words: str) -> subprocess.CompletedProcess[str]:
    """The real command line in German, its catalogs read from ``folder``."""
    env = {**os.environ, "LANGUAGE": "de", i18n.LOCALE_DIR_ENV: str(folder), "CONNECT4_HOME": str(home)}
    return subprocess.run(
        [sys.executable, str(MAIN), *words], env=env, capture_output=True, text=True, timeout=120, check=False
    )


def cut_short(mo: Path) -> None:
    mo.write_bytes(mo.read_bytes()[: mo.stat().st_size // 2])


def emptied(mo: Path) -> None:
    mo.write_bytes(b"")


def one_msgstr_not_utf8(mo: Path) -> None:
    data = mo.read_bytes()
    assert data.count("Zurück".encode()) >= 1
    mo.write_bytes(data.replace("Zurück".encode(), b"Zur\xfc\xfcck", 1))  # same length, not UTF-8


@pytest.mark.parametrize("damage", [cut_short, emptied, one_msgstr_not_utf8])
def test_a_damaged_catalog_means_english_with_one_warning(damage, tmp_path):
    folder = locale_copy(tmp_path)
    damage(german_mo(folder))
    for words in (["--help"], ["explore", "44"]):
        done = run_german(folder, tmp_path / "home", *words)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        warnings = [line for line in done.stderr.splitlines() if "translation cannot be read" in line]
        assert len(warnings) == 1 and str(german_mo(folder)) in warnings[0] and "English" in warnings[0]
    assert "loss in 18 moves" in done.stdout  # the game speaks English instead


def test_a_damaged_catalog_in_process_is_said_once_and_kept_for_the_window(tmp_path, monkeypatch, capsys):
    folder = locale_copy(tmp_path)
    emptied(german_mo(folder))
    monkeypatch.setenv(i18n.LOCALE_DIR_ENV, str(folder))
    assert set_language("de") == "en" and _("Back") == "Back"
    assert set_language("de") == "en"  # asked again: not said again
    assert capsys.readouterr().err.count("translation cannot be read") == 1
    assert "German" not in (i18n.catalog_problem() or "") and "Deutsch" in (i18n.catalog_problem() or "")
    assert set_language("es") == "es" and i18n.catalog_problem() is None  # the Spanish copy is whole


def write_catalog_with(folder: Path, code: str, msgid: str, index: int, broken: str) -> None:
    """Compile into ``folder`` the shipped catalog of ``code`` with one translation replaced."""
    messages = catalog(code)
    message = messages[msgid]
    if isinstance(message.string, tuple):
        forms = list(message.string)
        forms[index] = broken
        message.string = tuple(forms)
    else:
        message.string = broken
    with (folder / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo").open("wb") as fh:
        write_mo(fh, messages)


@pytest.mark.parametrize(
    "broken", ["Niederlage in {mvoes} Zügen", "Niederlage in {} Zügen", "Niederlage in {moves Zügen"]
)
def test_a_translation_whose_fields_differ_is_said_in_english(broken, tmp_path):
    folder = locale_copy(tmp_path)
    write_catalog_with(folder, "de", "loss in {moves} move", 1, broken)
    done = run_german(folder, tmp_path / "home", "explore", "44")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "loss in 18 moves" in done.stdout  # that one sentence in English...
    assert "Spieler 1" in done.stdout  # ...the others still in German


def test_a_translated_sentence_with_other_fields_falls_back_in_process(tmp_path, monkeypatch):
    folder = locale_copy(tmp_path)
    write_catalog_with(folder, "de", "Player {value}", 0, "Spieler {valeu}")
    monkeypatch.setenv(i18n.LOCALE_DIR_ENV, str(folder))
    assert set_language("de") == "de"
    assert _("Player {value}").format(value=2) == "Player 2"
    assert _("Back") == "Zurück"
    assert ngettext("loss in {moves} move", "loss in {moves} moves", 3).format(moves=3) == "Niederlage in 3 Zügen"


def test_a_window_started_in_a_damaged_language_says_so_on_screen(tmp_path, monkeypatch, make_app):
    """The window has no stderr a player sees: the damaged catalog's sentence is its toast."""
    folder = locale_copy(tmp_path)
    cut_short(german_mo(folder))
    monkeypatch.setenv(i18n.LOCALE_DIR_ENV, str(folder))
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(json.dumps({"language": "de"}))
    app = make_app((900, 700), home=home)
    assert app.toast is not None and "translation cannot be read" in app.toast[0]
    assert _("Back") == "Back"  # and the window speaks English
    set_language("en")


def test_the_template_gives_every_sentence_its_empty_translation():
    """A translator starts from connect4.pot: each entry needs its msgstr (or msgstr[0] and
    msgstr[1] for a plural), else msgfmt and the translation tools refuse the file.  Merged
    by hand, nine entries had lost theirs."""
    template = (ROOT / "game" / "locale" / "connect4.pot").read_text(encoding="utf-8")
    broken = [
        block.splitlines()[0]
        for block in template.split("\n\n")
        if "msgid " in block and ("msgid_plural" in block and "msgstr[1]" not in block or "msgstr" not in block)
    ]
    assert broken == []
