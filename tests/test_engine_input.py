"""Engine input a careless or hostile host may send: odd digits, huge numbers, a bad line
right after a move request.  Each gets one ``error`` line, never "internal error"."""

from __future__ import annotations

import io

import pytest

from game.bots.engine import Engine

ARENA = ["settings field_rows 6", "settings field_columns 7", "settings your_botid 1"]
EMPTY_FIELD = "update game field " + ";".join([",".join("0" * 7)] * 6)


def session(*lines: str, level: str = "depth:2") -> list[str]:
    out, log = io.StringIO(), io.StringIO()
    Engine(out, level=level, log=log).run(list(lines))
    assert "Traceback" not in log.getvalue()
    return out.getvalue().splitlines()


HUGE = ["9" * 309, "9" * 4301, "1" * 10]


@pytest.mark.parametrize("number", ["²", "③", "٣", *HUGE])
def test_native_numbers_that_int_cannot_take_are_protocol_errors(number):
    for line in (f"go movetime {number}", f"position 3 {number}", f"rules rows {number} cols 7 connect 4"):
        replies = session("isready", line)
        assert replies[0] == "readyok"
        assert len(replies) == 2 and replies[1].startswith("error "), replies
        assert "internal error" not in replies[1]


@pytest.mark.parametrize("number", ["²", "③", *HUGE])
def test_arena_numbers_that_int_cannot_take_are_protocol_errors(number):
    replies = session(*ARENA, f"settings timebank {number}", EMPTY_FIELD, f"action move {number}")
    assert len(replies) == 2 and all(reply.startswith("error ") for reply in replies), replies
    assert not any("internal error" in reply for reply in replies)
    if len(number) > 9:
        assert "digits is too long (at most 9)" in replies[0]


def test_a_depth_level_with_odd_digits_is_refused():
    replies = session("level depth:²", "level depth:" + "9" * 5000)
    assert [reply.split(":")[0] for reply in replies] == ["error bad depth in 'depth", "error bad depth in 'depth"]


def test_an_arena_move_is_written_before_the_next_lines_error():
    for _ in range(20):  # the race lost the order now and then; it must never
        replies = session(*ARENA, EMPTY_FIELD, "action move 200", "bogus line")
        assert replies[0].startswith("place_disc "), replies
        assert replies[1].startswith("error unknown command 'bogus'"), replies


def test_an_error_line_never_echoes_thousands_of_characters():
    """'level depth:' + 4,301 digits came back as an error line of 4,358 characters."""
    replies = session("level depth:" + "1" * 4301, "level " + "x" * 5000, "bogus" + "y" * 5000)
    assert len(replies) == 3
    assert all(reply.startswith("error ") and len(reply) <= 300 for reply in replies), [len(r) for r in replies]
