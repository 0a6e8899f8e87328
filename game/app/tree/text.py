"""The tree overlay's sentences, as pure functions of the tree, its nodes and the rules.

No pygame here: the scenes call these and paint what they return, and the tests read
them directly.  Values are written by ``ai.tree.fmt_tree_value`` only (``+F``/``-F`` for
the heuristic's forced leaves), so one value is spelled one way in every sentence.
"""

from __future__ import annotations

from ai.tree import LeafReason

LEAF_WHY = {
    LeafReason.DEPTH: "depth limit: valued by the heuristic",
    LeafReason.WIN: "the move completed a line: game won",
    LeafReason.FULL: "the board is full: game over",
}
"""Why a node is a leaf, for the detail panel, the code walk and practice."""
