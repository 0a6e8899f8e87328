"""The tree overlay: walk, replay and compare the search the computer just made.

- ``scene``: the overlay's state and input, and what is known (so may be shown) at a
  replay step; the code walk, practice and depth chart open through requests
  (``game.app.navigation``), never by importing their scenes;
- ``draw``: painting from that state (changes nothing);
- ``layout``: where each visible node goes (no pygame);
- ``replay``: the state of the search at any step, computed directly (no pygame);
- ``legend``: the key to the drawing;
- ``compare``: the search rerun with each move order in a helper process;
- ``text``: the overlay's sentences, pure functions of the tree (no pygame);
- ``placing``: where panels, nodes, the path and the buttons go for the window's size;
- ``navigate``: which node a key or a click means, how a zoom moves the view;
- ``keys``: which key runs which action; ``horizon``: the exact verdict of the selected node;
- ``overlay``: the scene as ``placing``, ``draw`` and ``keys`` see it (a Protocol), so
  they never import the scene;
- ``export``: E writes the tree as JSON and DOT (``ai.tree_export``) to the preference folder;
- ``codewalk`` / ``code_scene``: K, the textbook code line by line beside its run;
- ``practice`` / ``practice_scene``: P, "you are alpha-beta";
- ``depth_scene``: D, depth against truth (``ai.depth_truth``, drawn by ``game.app.depth_chart``);
- ``bench``: frame times on a 1,000,000-node tree (``python -m lab.tree_bench``).
"""
