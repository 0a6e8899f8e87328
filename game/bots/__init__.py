"""The computer against other players, headless: bots and matches.

- ``engine``: the computer as a bot on stdin/stdout (two line protocols);
- ``players``: the two sides of a match, what a player is, how it fails, a level as one;
- ``openings``: balanced openings (the standard board's checked list, others searched);
- ``statistics``: a game's record, a match's totals, Elo with its error bar, SPRT;
- ``runners``: one game, and the runners that play a match's games in this process, in
  worker processes or on a Dask cluster;
- ``tournament``: matches between levels and external engines, with a report and PGN;
- ``round_robin``: tournaments of many players (a round robin or a gauntlet) on the runner;
- ``rating_list``: the maximum-likelihood rating list of many players' games, with
  intervals and LOS; ``rating_report``: a tournament's table, JSON object and game file;
- ``cluster``: a match's games on a Dask cluster;
- ``connectx``: the agent for Kaggle's ConnectX and its self-contained submission file.
"""
