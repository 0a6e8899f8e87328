"""Numbers in the player's language: "137.256 Knoten", "0,591 s" in German and Spanish.

The game has one number formatter (``game.i18n.number``) and every translated sentence
formats its numeric fields through it; Babel (a developer's tool here) is the reference.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from babel.numbers import format_decimal

from ai.levels import PRESETS
from ai.player import choose_move
from game.app.scenes.play_text import Report, answer_detail
from game.board import Board
from game.i18n import _, counted, ngettext, number, set_language
from game.learn.rating import change_text

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def english_again():
    yield
    set_language("en")


@pytest.mark.parametrize("code", ["en", "de", "es"])
def test_a_rating_change_is_written_in_the_languages_marks(code):
    """The puzzle screen and the game-over banner said "Wertung 1,500 -> 1,675" in German."""
    set_language(code)
    assert change_text(1480.4, 1512.0) == f"{format_decimal(1480, locale=code)} -> {format_decimal(1512, locale=code)}"


@pytest.mark.parametrize("code", ["en", "de", "es"])
def test_the_number_formatter_writes_counts_and_decimals_as_babel_does(code):
    set_language(code)
    for value in (0, 7, 999, 1234, 12_345, 137_256, 1_234_567, -48_000):
        assert number(value) == format_decimal(value, locale=code), value
    for value in (0.591, 12.5, 1234.25):
        assert number(value, ",.3f") == format_decimal(value, format="#,##0.000", locale=code), value


def test_translated_sentences_group_thousands_the_languages_way():
    set_language("de")
    assert counted(137_256, "node") == "137.256 Knoten"
    seconds = _(
        "{what}: {plural} deep{reached} · {plural2} · {plural3} · {seconds:.2f} s · {nodes_per_second:,.0f}k nodes/s"
    )
    shown = seconds.format(
        what="x", plural="y", reached="", plural2="z", plural3="w", seconds=0.59, nodes_per_second=1234.0
    )
    assert "0,59 s" in shown and "1.234k" in shown
    set_language("es")
    assert counted(137_256, "node") == "137.256 nodos"
    assert ngettext("{count:,} game", "{count:,} games", 2_000).format(count=2_000) == "2.000 partidas"
    set_language("en")
    assert counted(137_256, "node") == "137,256 nodes"


def test_a_column_or_a_move_number_stays_a_plain_number():
    set_language("de")
    assert _("Column {move} is full").format(move=4) == "Spalte 4 ist voll"
    assert _("{count} empty").format(count=12345) == "12345 leer"


def test_the_command_line_prints_german_counts_and_times_with_german_marks():
    """``analyze`` in German: the node counts grouped with dots, the seconds with a comma."""
    env = {**os.environ, "LANGUAGE": "de"}
    done = subprocess.run(
        [sys.executable, "main.py", "analyze", "4453", "--depth", "6", "--no-pruning"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    stats = next(line for line in done.stdout.splitlines() if line.startswith("Tiefe 6"))
    nodes = stats.split(": ", 1)[1].split(" Knoten")[0]
    assert "." in nodes and "," not in nodes, stats
    assert re.search(r" \d+,\d{3} ?s,", stats), stats


def test_the_play_screens_answer_line_gives_its_seconds_in_the_languages_marks():
    """The hint's detail line ("... · 0,14 s") formats its time with the language's marks."""
    board = Board.from_moves("4453")
    answer = choose_move(PRESETS["Perfect"], board.grid, board.rules, board.to_move)
    answer = replace(answer, seconds=0.14)
    set_language("de")
    line = answer_detail(Report(True, board.to_move, answer))
    assert line.endswith("0,14 s"), line


def test_no_f_string_of_window_code_groups_thousands_past_the_formatter():
    """The rating graph's axis, the MCTS tree's visits and the tree's bar chart wrote
    "1,900" in German: window code groups thousands through ``number`` only."""
    english_grouping = re.compile(r"""f["'][^"']*\{[^}"']*:[^}"']*,[^}"']*\}""")
    found = [
        f"{path.relative_to(ROOT)}:{index}"
        for path in sorted((ROOT / "game" / "app").rglob("*.py"))
        for index, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if english_grouping.search(line)
    ]
    assert found == []
