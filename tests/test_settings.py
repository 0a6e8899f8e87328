"""The settings file is the user's record: every damaged file starts the game with what
could be read, one warning, the damaged file kept aside, and saving is atomic."""

from __future__ import annotations

import codecs
import json
import logging
import os
import stat
import subprocess
import sys
import tempfile
import textwrap
from dataclasses import asdict, replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai.levels import EASY_NOISE, NODE_BUDGETS, PRESETS, Level
from ai.search_types import MoveOrder
from game.app.settings import (
    _LEVEL_READERS,
    LEVEL_FIELDS,
    Opponent,
    Settings,
    load_settings,
    read_settings,
    save_settings,
)

TALLY = {"wins": 5, "draws": 2, "losses": 7}
KEYS = [
    *Settings.__dataclass_fields__,
    *LEVEL_FIELDS,  # inside a level's object, or flat at the top (the old layout)
    *(f"second_{name}" for name in LEVEL_FIELDS),
    "tally",
    "wins",
    "losses",
    "draws",
    "player1",
]


def good_text(**changes: object) -> str:
    data: dict[str, object] = {"rows": 6, "cols": 8, "theme": "night", "opponent": "demo", "tally": dict(TALLY)}
    data.update(changes)
    return json.dumps(data, indent=2)


def write(tmp_path: Path, content: bytes | str) -> Path:
    path = tmp_path / "settings.json"
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def kept_aside(tmp_path: Path) -> list[Path]:
    return sorted(tmp_path.glob("settings.json.corrupt-*"))


def test_a_good_file_reads_whole_and_says_nothing(tmp_path):
    report = read_settings(write(tmp_path, good_text(window_size=[800, 600])))
    assert report.problems == () and report.warning is None and report.moved_to is None
    settings = report.settings
    assert (settings.cols, settings.theme, settings.tally) == (8, "night", TALLY)
    assert settings.opponent is Opponent.DEMO and settings.window_size == (800, 600)
    assert kept_aside(tmp_path) == []


# The files the user lost games to: (id, bytes, whether the tally can still be read)
DAMAGED: list[tuple[str, bytes, bool]] = [
    ("binary junk", bytes(range(256)) * 3, False),
    ("invalid utf-8 in a string", good_text(theme="PLACEHOLDER").encode().replace(b"PLACEHOLDER", b"n\xffght"), True),
    ("utf-16 with bom", codecs.BOM_UTF16_LE + good_text().encode("utf-16-le"), True),
    ("utf-8 bom", codecs.BOM_UTF8 + good_text().encode(), True),
    ("nesting 100,000 deep", b"[" * 100_000 + b"]" * 100_000, False),
    ("nesting 100,000 deep inside a value", good_text(theme="X").encode().replace(b'"X"', b"[" * 100_000), False),
    ("mode is a list", good_text(mode=[]).encode(), True),
    ("wrong types everywhere", good_text(rows="6", gravity=1, depth=4.5, sound="yes", first=None).encode(), True),
    ("node budget 1 and 400 zeros", good_text().replace('"rows": 6', '"node_budget": 1' + "0" * 400).encode(), True),
    ("node budget 1e400", good_text().replace('"rows": 6', '"node_budget": 1e400').encode(), True),
    ("an integer of 5,000 digits", good_text().replace('"rows": 6', '"depth": 1' + "0" * 5000).encode(), True),
    ("one byte missing at the end", good_text().encode()[:-1], True),
    ("cut in the middle of the tally", good_text().encode()[: good_text().index('"losses"') + 4], True),
    ("trailing garbage", good_text().encode() + b"\x00garbage}}", True),
    ("a list, not an object", b"[1, 2, 3]", False),
    ("empty", b"", False),
    ("over a megabyte", b" " * (2 << 20), False),
]


@pytest.mark.parametrize(("content", "tally_readable"), [case[1:] for case in DAMAGED], ids=[c[0] for c in DAMAGED])
def test_a_damaged_file_starts_with_what_could_be_read_and_one_warning(tmp_path, caplog, content, tally_readable):
    path = write(tmp_path, content)
    with caplog.at_level(logging.WARNING):
        settings = load_settings(path)
    warnings = [record for record in caplog.records if record.levelno >= logging.WARNING]
    if content.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE)):  # another encoding, read whole
        assert warnings == [] and settings.cols == 8 and settings.tally == TALLY
    else:
        assert len(warnings) == 1, "exactly one warning"
        assert "Settings file" in warnings[0].getMessage()
    assert isinstance(settings, Settings)
    settings.rules()  # usable rules whatever the file said
    if tally_readable:
        wins_draws = {key: settings.tally[key] for key in ("wins", "draws")}
        assert wins_draws == {"wins": 5, "draws": 2}
    else:
        assert settings.tally == {"wins": 0, "draws": 0, "losses": 0}
    assert isinstance(settings.level.node_budget, int) and settings.level.node_budget in NODE_BUDGETS


@pytest.mark.parametrize(("content", "tally_readable"), [case[1:] for case in DAMAGED], ids=[c[0] for c in DAMAGED])
def test_a_damaged_file_survives_the_next_save(tmp_path, content, tally_readable):
    """Either the file was read whole (values aside), or its bytes are kept next to it."""
    path = write(tmp_path, content)
    report = read_settings(path)
    assert save_settings(report.settings, path)
    aside = kept_aside(tmp_path)
    file_level_damage = not tally_readable or any(
        "damaged" in p or "UTF-8" in p or "after" in p for p in report.problems
    )
    if file_level_damage:
        assert report.moved_to is not None and aside == [report.moved_to]
        assert aside[0].read_bytes() == content
        assert report.moved_to.name in (report.warning or "")
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["tally"]["wins"] == (5 if tally_readable else 0)


def test_a_bad_count_costs_only_that_count(tmp_path):
    report = read_settings(write(tmp_path, good_text(tally={"wins": 5, "draws": 2, "losses": -1})))
    assert report.settings.tally == {"wins": 5, "draws": 2, "losses": 0}
    assert report.problems == ("tally.losses=-1 is not a count: using 0",)
    assert report.moved_to is None  # the file itself was fine: nothing to keep aside


def test_every_cut_of_a_good_file_reads_without_error(tmp_path):
    text = good_text(two_player_tally={"player1": 3, "player2": 1, "draws": 0}).encode()
    for cut in range(len(text)):
        report = read_settings(write(tmp_path, text[:cut]))
        assert isinstance(report.settings, Settings)
        if cut > text.index(b'"losses": 7') + len('"losses": 7'):
            assert report.settings.tally == TALLY, cut
    assert len(kept_aside(tmp_path)) >= 1


def test_a_folder_or_a_pipe_in_place_of_the_file_is_named_and_left_not_opened(tmp_path):
    """Issue 47: only a regular file is moved aside; a folder or a FIFO of the file's name
    is named, never opened (a pipe would wait for ever), moved or replaced."""
    folder = tmp_path / "settings.json"
    folder.mkdir()
    report = read_settings(folder)
    assert report.settings == Settings() and "it is a folder" in (report.warning or "")
    assert report.moved_to is None and folder.is_dir()
    assert not save_settings(Settings(), folder) and folder.is_dir()
    folder.rmdir()
    os.mkfifo(folder)
    report = read_settings(folder)
    assert report.settings == Settings() and report.moved_to is None and "FIFO" in (report.warning or "")
    assert not save_settings(Settings(), folder) and stat.S_ISFIFO(folder.lstat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]


def test_the_opponent_is_an_enum_and_saves_as_its_name(tmp_path):
    settings = Settings(opponent=Opponent.HUMAN, window_size=(1280, 800))
    path = tmp_path / "settings.json"
    assert save_settings(settings, path)
    data = json.loads(path.read_text())
    assert data["opponent"] == "human" and data["window_size"] == [1280, 800]
    assert read_settings(path).settings == settings


@pytest.mark.parametrize("size", [[100, 100], [1280], "big", [1280.5, 800], [True, 800], [10**9, 800]])
def test_a_window_size_out_of_range_is_the_default(tmp_path, size):
    report = read_settings(write(tmp_path, good_text(window_size=size)))
    assert report.settings.window_size == Settings().window_size and len(report.problems) == 1


def test_save_leaves_no_temporary_file_and_replaces_whole(tmp_path):
    path = tmp_path / "home" / "settings.json"
    for wins in range(5):
        assert save_settings(Settings(tally={"wins": wins, "draws": 0, "losses": 0}), path)
        assert json.loads(path.read_text())["tally"]["wins"] == wins
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]


@pytest.mark.parametrize("relative", [False, True], ids=["absolute link", "relative link"])
def test_a_symlinked_file_is_saved_through_the_link(tmp_path, relative):
    """A user who keeps the settings elsewhere (a dotfiles folder) and links them here:
    each save writes the linked file (whole, in its own folder, its permissions kept) and
    the link stays a link."""
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    kept = dotfiles / "connect4.json"
    kept.write_text(good_text(), encoding="utf-8")
    kept.chmod(0o640)
    home = tmp_path / "home"
    home.mkdir()
    link = home / "settings.json"
    link.symlink_to(Path("..") / "dotfiles" / "connect4.json" if relative else kept)
    for wins in (11, 12):
        assert save_settings(Settings(tally={"wins": wins, "draws": 0, "losses": 0}), link)
        assert link.is_symlink() and os.readlink(link) == str(
            Path("..") / "dotfiles" / "connect4.json" if relative else kept
        )
        assert json.loads(kept.read_text(encoding="utf-8"))["tally"]["wins"] == wins
        assert read_settings(link).settings.tally["wins"] == wins
    assert (kept.stat().st_mode & 0o777) == 0o640
    assert sorted(p.name for p in dotfiles.iterdir()) == ["connect4.json"]
    assert sorted(p.name for p in home.iterdir()) == ["settings.json"]


def test_a_damaged_symlinked_file_is_kept_aside_and_the_link_kept(tmp_path):
    kept = tmp_path / "dotfiles" / "connect4.json"
    kept.parent.mkdir()
    kept.write_bytes(b"\x00\x01 not settings at all")
    link = tmp_path / "home" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(kept)
    report = read_settings(link)
    assert report.moved_to is not None and report.moved_to.read_bytes() == b"\x00\x01 not settings at all"
    assert save_settings(report.settings, link)
    assert link.is_symlink() and json.loads(kept.read_text(encoding="utf-8"))["tally"] == report.settings.tally


def test_a_full_disk_mid_save_leaves_the_old_file_whole(tmp_path):
    """A real failed write: the file size limit (RLIMIT_FSIZE) stops the save half-way."""
    path = write(tmp_path, good_text())
    before = path.read_bytes()
    script = textwrap.dedent(
        f"""
        import resource, signal, sys
        from pathlib import Path
        from game.app.settings import Settings, save_settings
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (64, 64))
        big = Settings(tally={{"wins": 10**8, "draws": 10**8, "losses": 10**8}})
        sys.exit(0 if save_settings(big, Path({str(path)!r})) is False else 1)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=Path(__file__).resolve().parent.parent, timeout=60)
    assert done.returncode == 0, "the save reports failure"
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]


def test_the_screen_gets_one_short_sentence_naming_what_was_reset(tmp_path):
    values = read_settings(write(tmp_path, good_text(theme="neon", tally={"wins": 5, "draws": 2, "losses": -1})))
    assert values.notice == "Settings that could not be read are back to their defaults: theme, tally.losses"
    damaged = read_settings(write(tmp_path, good_text().encode()[:-1]))
    assert damaged.notice is not None and "damaged" in damaged.notice and len(damaged.notice) < 100
    assert read_settings(write(tmp_path, good_text())).notice is None


@settings(max_examples=150, derandomize=True, database=None, deadline=None)
@given(
    data=st.one_of(
        st.binary(max_size=400),
        st.builds(
            lambda text, cut, junk: text.encode()[:cut] + junk,
            st.just(good_text(two_player_tally={"player1": 1, "player2": 2, "draws": 3})),
            st.integers(0, 400),
            st.binary(max_size=8),
        ),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
            lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=6),
            max_leaves=20,
        ).map(lambda value: json.dumps(value).encode()),
    )
)
def test_any_bytes_at_all_give_usable_settings(data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "settings.json"
        path.write_bytes(data)
        report = read_settings(path)
        report.settings.rules()
        assert all(
            isinstance(level.order, MoveOrder) for level in (report.settings.level, report.settings.second_level)
        )
        assert save_settings(report.settings, path)
        assert read_settings(path).problems == ()  # what was saved reads back clean


def test_every_preset_survives_a_save_for_each_side(tmp_path):
    """Hard's endgame and Expert's book are kept too: a preset comes back as itself."""
    from ai.levels import PRESETS

    path = tmp_path / "settings.json"
    for first, second in zip(PRESETS.values(), reversed(list(PRESETS.values()))):
        settings = Settings()
        settings.level, settings.second_level = first, second
        assert save_settings(settings, path)
        report = read_settings(path)
        assert report.problems == ()
        assert report.settings.level == first and report.settings.second_level == second


def test_expert_saved_before_its_board_share_existed_is_still_expert(tmp_path):
    """Settings written before ``endgame_percent`` hold Expert's other fields only: the
    game reads them as the Expert preset (its share included), both sides; a level
    changed by hand stays as it was, and a bad share is reported like any bad value."""
    from dataclasses import asdict

    from ai.levels import PRESETS, Level

    old = {name: value for name, value in asdict(PRESETS["Expert"]).items() if name != "endgame_percent"}
    old["order"] = PRESETS["Expert"].order.value
    data = {**old, **{f"second_{name}": value for name, value in old.items()}}
    settings = load_settings(write(tmp_path, json.dumps(data)))
    assert settings.level == settings.second_level == PRESETS["Expert"]
    custom = {**old, "node_budget": 50_000}
    assert load_settings(write(tmp_path, json.dumps(custom))).level == Level(
        **{**custom, "order": PRESETS["Expert"].order}
    )
    report = read_settings(write(tmp_path, json.dumps({**old, "endgame_percent": 150})))
    assert any(problem.startswith("endgame_percent=150") for problem in report.problems)


# -- a level is one value: one object in the file, the old flat layout still read ------------
OLD_FLAT_FILE = Path(__file__).parent / "data" / "settings_flat_levels.json"


def test_a_file_with_the_old_flat_levels_loads_into_the_same_levels(tmp_path):
    """Written as the game saved it before a level was one object (``second_`` fields and all)."""
    report = read_settings(write(tmp_path, OLD_FLAT_FILE.read_bytes()))
    assert report.problems == ()
    settings = report.settings
    assert settings.level == PRESETS["Expert"]
    assert settings.second_level == Level(5, pruning=False, node_budget=50_000, order=MoveOrder.CENTRE_FIRST, noise=40)
    assert settings.opponent is Opponent.DEMO and settings.tally == TALLY
    path = tmp_path / "settings.json"
    assert save_settings(settings, path)  # the next save writes the new layout, the same levels
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert not set(saved) & {*LEVEL_FIELDS, *(f"second_{name}" for name in LEVEL_FIELDS)}
    again = read_settings(path)
    assert again.problems == () and (again.settings.level, again.settings.second_level) == (
        settings.level,
        settings.second_level,
    )


def test_each_level_is_saved_as_one_object_of_plain_values(tmp_path):
    path = tmp_path / "settings.json"
    settings = Settings()
    settings.level, settings.second_level = PRESETS["Hard"], replace(PRESETS["Easy"], order=MoveOrder.LEFT_TO_RIGHT)
    assert save_settings(settings, path)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["level"] == {**asdict(PRESETS["Hard"]), "order": "best first"}
    assert saved["second_level"]["order"] == "left to right" and saved["second_level"]["noise"] == EASY_NOISE


def test_a_bad_value_in_a_level_costs_only_that_value(tmp_path):
    hard = {**asdict(PRESETS["Hard"]), "order": "best first"}
    text = good_text(level={**hard, "node_budget": 7, "order": "random"}, second_level=[1, 2])
    report = read_settings(write(tmp_path, text))
    assert report.settings.level == replace(PRESETS["Hard"], node_budget=0, order=MoveOrder.BEST_FIRST)
    assert report.settings.second_level == Settings().second_level
    assert report.problems == (
        "level.node_budget=7 is not valid: using 0",
        "level.order='random' is not valid: using 'best first'",
        "second_level is not a table of values: using the default",
    )
    assert report.notice is not None and "level.node_budget, level.order, second_level" in report.notice
    assert report.moved_to is None


def test_expert_saved_as_one_object_before_its_board_share_existed_is_still_expert(tmp_path):
    """A ``Level`` field added later (``LATER_LEVEL_FIELDS``) keeps a preset in the new layout too."""
    old = {name: value for name, value in asdict(PRESETS["Expert"]).items() if name != "endgame_percent"}
    old["order"] = PRESETS["Expert"].order.value
    settings = load_settings(write(tmp_path, good_text(level=old, second_level=old)))
    assert settings.level == settings.second_level == PRESETS["Expert"]


def test_every_level_field_has_a_reader():
    assert list(_LEVEL_READERS) == list(LEVEL_FIELDS)


def test_a_damaged_linked_file_too_large_to_copy_aside_is_never_saved_over(tmp_path, monkeypatch):
    """Issue 47: behind a link the damaged bytes are copied aside before a save writes
    through it; where they cannot be (a file over the copy limit), no save writes over it."""
    monkeypatch.setattr("game.regular_file.COPY_LIMIT", 1024)
    kept = tmp_path / "dotfiles" / "connect4.json"
    kept.parent.mkdir()
    kept.write_bytes(b"\x00" * 4096)  # not settings, and over the (lowered) copy limit
    link = tmp_path / "home" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(kept)
    report = read_settings(link)
    assert report.settings == Settings() and report.moved_to is None
    assert not save_settings(Settings(rows=7), link)
    assert kept.read_bytes() == b"\x00" * 4096 and link.is_symlink()
