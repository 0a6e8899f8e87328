"""The tree overlay: walk, replay and compare the search the computer just made.

- ``scene``: the overlay's state and input, and what is known (so may be shown) at a
  replay step;
- ``draw``: painting from that state (changes nothing);
- ``layout``: where each visible node goes (no pygame);
- ``replay``: the state of the search at any step, computed directly (no pygame);
- ``legend``: the key to the drawing;
- ``compare``: the search rerun with each move order in a helper process;
- ``bench``: frame times on a 1,000,000-node tree (``python -m game.app.tree.bench``).
"""
