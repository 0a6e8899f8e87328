"""The lab: tools that measure the AI, each a script that prints tables and asserts nothing.

- ``python -m lab.strength``: how strong each level is (ladders, agreement with
  perfect play, move times), played through the match runner ``game.bots.runners``;
- ``python -m lab.bench``: speed of the search, the tree recorder and the solver;
- ``python -m lab.fit_weights``: the evaluation's weights fitted to solved positions;
- ``python -m lab.review_bench``: how long the exact review of a whole game takes.

The lab sits above the AI, like the front ends: it imports ``ai`` and ``game``, and the
AI never imports it (``tests/test_import_graph.py`` checks).  Its data (the benchmark positions,
the solved connect-5 sample) stays in ``ai/data``.
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # the tools print tables: no banner line among them
