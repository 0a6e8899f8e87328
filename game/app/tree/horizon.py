"""The horizon in the detail panel: what perfect play says about the selected node.

Once a selection settles (it stayed selected for a frame), the node's position goes to
the AI worker as a hint of Perfect's (the one decider: the book first, then the solver
within the hint's node budget); the answers are kept per (tree, node).  Nothing is
solved in the window.  The wording is ``text.exact_verdict``'s.
"""

from __future__ import annotations

from ai.levels import PRESETS, exact_nodes, solvable
from ai.tree import LeafReason, Node, SearchTree
from game.app.job_slot import JobSlot
from game.app.scene import Scene
from game.app.tree.text import exact_verdict
from game.app.worker_protocol import JobFailed, JobPurpose, JobResult, SearchJob, WorkerEvent
from game.i18n import _
from game.rules import STANDARD

Key = tuple[int, int]  # (id of the tree, node index)


class Horizon:
    """The exact verdicts found so far, and the one job that is finding the next."""

    def __init__(self, scene: Scene):
        self.known: dict[Key, str | None] = {}  # the verdict; None: none applies
        self.job = JobSlot(scene)
        self._asked: tuple[Key, Node] | None = None  # the node the job is about
        self._settled: Key | None = None  # the (tree, node) selected last frame

    def get(self, tree: SearchTree, index: int) -> str | None:
        return self.known.get((id(tree), index))

    def is_due(self, tree: SearchTree, index: int) -> bool:
        """Tell whether ``index`` still waits for its verdict (the scene needs frames)."""
        return (id(tree), index) not in self.known

    def settle(self, tree: SearchTree, index: int, *, worker_free: bool = True) -> None:
        """Called each still frame with the selected node: ask once it stayed selected
        (and the scene's other jobs leave the worker free)."""
        key = (id(tree), index)
        if self.job.lost():  # another job took the worker: ask again when settled
            self.job.done()
            self._asked = None
        if key not in self.known and key == self._settled and worker_free:
            asked = self._asked[0] if self._asked is not None else None
            if asked != key:
                self.ask(key, tree.node(index))
        self._settled = key

    def ask(self, key: Key, node: Node) -> None:
        """Ask the worker about ``node``, or say at once that no verdict applies."""
        rules = node.tree.rules
        if not solvable(rules) or node.leaf_reason in (LeafReason.WIN, LeafReason.FULL):
            self.known[key] = None
            return
        board = node.board()
        job = SearchJob(
            board.grid.copy(),
            rules,
            board.to_move,
            level=PRESETS["Perfect"],
            purpose=JobPurpose.SCORES,
            record_tree=False,
        )
        self._asked = (key, node)
        self.job.submit(job)

    def take(self, event: WorkerEvent) -> bool:
        """Take in the worker's answer if it is this horizon's; True if it was."""
        if not self.job.owns(event) or self._asked is None:
            return False
        key, node = self._asked
        if isinstance(event, JobResult):
            exact = event.answer.exact
            if exact is not None:
                self.known[key] = exact_verdict(node, exact)
            else:
                rules = node.tree.rules
                why = _("not proven within {exact_nodes:,} positions").format(exact_nodes=exact_nodes(rules))
                if rules == STANDARD and event.answer.note:  # a damaged book, as the decider says it
                    why = event.answer.note
                self.known[key] = _("Perfect play: not known ({why})").format(why=why)
        elif isinstance(event, JobFailed):
            self.known[key] = _("Perfect play: not known ({message})").format(message=event.message)
        else:
            return True
        self.job.done()
        self._asked = None
        return True

    def cancel(self) -> None:
        self.job.cancel()
        self._asked = None
