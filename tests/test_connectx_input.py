"""ConnectX input the agent cannot read: the error names the field that is wrong."""

from __future__ import annotations

import pytest

from game.bots.connectx import ConnectXInputError, agent

CONFIG = {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 1}
EMPTY = {"board": [0] * 42, "mark": 1}


@pytest.mark.parametrize(
    ("observation", "configuration", "field"),
    [
        ({"mark": 1}, CONFIG, "observation.board is missing"),
        ({"board": 7, "mark": 1}, CONFIG, "observation.board: expected a list of cells"),
        ({"board": [0] * 41, "mark": 1}, CONFIG, "observation.board has 41 cells"),
        ({"board": [0] * 41 + [5], "mark": 1}, CONFIG, "observation.board cell 41 is 5"),
        ({"board": [0] * 41 + ["x"], "mark": 1}, CONFIG, "observation.board cell 41 is 'x'"),
        ({"board": [0] * 42, "mark": 3}, CONFIG, "observation.mark: expected 1 or 2, got 3"),
        (EMPTY, {**CONFIG, "rows": "six"}, "configuration.rows: expected a whole number, got 'six'"),
        (EMPTY, {**CONFIG, "columns": 7.5}, "configuration.columns: expected a whole number"),
        (EMPTY, {**CONFIG, "rows": 10**400}, "configuration.rows"),
        (EMPTY, {**CONFIG, "inarow": "four"}, "configuration.inarow: expected a whole number"),
        (EMPTY, {**CONFIG, "actTimeout": "soon"}, "configuration.actTimeout: expected a number"),
    ],
)
def test_malformed_input_names_the_field(observation, configuration, field):
    with pytest.raises(ConnectXInputError) as raised:
        agent(observation, configuration)
    assert field in str(raised.value)


def test_well_formed_input_still_gets_a_legal_move():
    assert agent(EMPTY, {**CONFIG, "actTimeout": 0.5}) in range(7)
