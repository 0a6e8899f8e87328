"""The computer against other players, headless: bots and matches.

- ``engine``: the computer as a bot on stdin/stdout (two line protocols);
- ``arena``: one game between two players, balanced openings, Elo and SPRT, the runners
  that play a match's games in parallel;
- ``tournament``: matches between levels and external engines, with a report and PGN;
- ``cluster``: a match's games on a Dask cluster;
- ``connectx``: the agent for Kaggle's ConnectX and its self-contained submission file.
"""
