"""Network play: host a game on the local network, join it, watch it, come back after a drop.

A front end above the AI (floor 3): it imports the headless game (``game.rules``,
``game.board``) and never pygame nor the window.  The rooms:

- ``words``: the join code, a few short words to read aloud;
- ``protocol``: JSON lines, bounded in size and rate, each one authenticated with a key
  derived from the code and a per-connection challenge, numbered against replay;
- ``events``: what the host or the client hands the front end (a queue of typed events);
- ``host``: the host's game (its board is the game: every move checked by ``game.board``),
  its listening socket and one thread per connection;
- ``client``: the joiner's and the watcher's side, which tries again after a drop;
- ``keeping``: a finished or unfinished game into the player's own archive;
- ``discovery``: hosts announced and found with python-zeroconf (optional: without it,
  or without multicast, typing an address still works).

docs/network-play.md says what is sent and what the code protects.
"""
