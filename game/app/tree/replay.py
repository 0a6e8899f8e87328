"""Replaying a recorded search step by step, in the order it visited the nodes.

Each step either enters the next node (in pre-order, the order of the search) or leaves
the current one with its value, which then raises the parent's alpha (MAX) or lowers its
beta (MIN).  When that closes the parent's window (alpha >= beta) the step reports the
cutoff.  No pygame here.

The state at any step is computed directly, not by replaying the steps before it.
Because the tree is stored in pre-order with each subtree a contiguous index range,
the step at which node ``n`` (at ``level`` below the replay's start ``s``) is entered
is ``2 (n - s) + 1 - level``, and the step after which it is left is
``2 (end(n) - s) - level``: every node before it was entered, and every one of those
left except its open ancestors.  So a seek walks down one path of the tree, comparing
those numbers, and costs O(depth x branching) whatever the step: jumping to the end of
a million-node tree costs what one step does, and nothing grows with the steps taken.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ai.tree import END, VALUE, SearchTree, fmt_tree_value
from game.i18n import _
from game.notation import format_move


class StepKind(enum.Enum):
    """What the last step did."""

    START = "start"  # nothing yet (step 0)
    ENTER = "enter"  # entered ``Step.index`` with its window
    EXIT = "exit"  # left ``Step.index`` with its value, handed to the parent


@dataclass(frozen=True)
class Step:
    kind: StepKind
    index: int | None = None


@dataclass(frozen=True)
class Frame:
    """A node the replay is inside, with what is known of it at this step.

    ``alpha``/``beta``: its window as it stands now; ``best``: the best value returned
    by a child so far (None before the first); ``searched``: children left so far.
    """

    index: int
    alpha: int
    beta: int
    best: int | None = None
    searched: int = 0


class Replay:
    """A cursor over the search of ``tree``, from ``start`` (the root by default)."""

    def __init__(self, tree: SearchTree, start: int = 0):
        self.tree = tree
        self.start = start
        self.end = tree.field(start, END)
        self._start_ply = tree.node(start).ply
        self.steps = 0
        self.stack: list[Frame] = []
        self.next_index = start  # the first node not yet entered
        self.last = Step(StepKind.START)
        self.cutoff: int | None = None  # the node whose window closed at this step
        self.table_hit: int | None = None  # the node the table answered at this step
        self.message = _("Ready: each step enters a node or returns its value.")

    # -- where each node's steps are ----------------------------------------------------
    def _level(self, index: int) -> int:
        return self.tree.node(index).ply - self._start_ply

    def enter_step(self, index: int) -> int:
        """The step after which ``index`` has been entered."""
        return 2 * (index - self.start) + 1 - self._level(index)

    def exit_step(self, index: int) -> int:
        """The step after which ``index`` has been left (its value is known)."""
        return 2 * (self.tree.field(index, END) - self.start) - self._level(index)

    # -- state --------------------------------------------------------------------------
    @property
    def total_steps(self) -> int:
        return 2 * (self.end - self.start)

    @property
    def done(self) -> bool:
        return self.steps >= self.total_steps

    @property
    def current(self) -> int | None:
        """The innermost node the search is in at this step."""
        return self.stack[-1].index if self.stack else None

    def is_visited(self, index: int) -> bool:
        """Tell whether the search has entered ``index`` by this step."""
        return self.start <= index < self.next_index

    def is_open(self, index: int) -> bool:
        return any(frame.index == index for frame in self.stack)

    def is_known(self, index: int) -> bool:
        """Tell whether ``index`` has been left, so its value (and any cutoff) is known."""
        return self.is_visited(index) and not self.is_open(index)

    def frame(self, index: int) -> Frame | None:
        for frame in self.stack:
            if frame.index == index:
                return frame
        return None

    def window(self, index: int) -> tuple[int, int] | None:
        frame = self.frame(index)
        return None if frame is None else (frame.alpha, frame.beta)

    # -- moving -------------------------------------------------------------------------
    def seek(self, step: int) -> None:
        """Put the cursor after ``step`` steps (clamped to the replay's range)."""
        step = max(0, min(self.total_steps, step))
        self.steps = step
        self.stack = []
        self.cutoff = self.table_hit = None
        if step == 0:
            self.next_index, self.last = self.start, Step(StepKind.START)
            self.message = _("Ready: each step enters a node or returns its value.")
            return
        if step == self.total_steps:
            self.next_index, self.last = self.end, Step(StepKind.EXIT, self.start)
            self.message = _("Done: the value here is {value_text}").format(
                value_text=self.tree.node(self.start).value_text
            )
            return
        tree = self.tree
        index = self.start
        while True:  # ``index`` is open at ``step``: walk its children in search order
            node = tree.node(index)
            frame = Frame(index, node.alpha_in, node.beta_in)
            last_exited: int | None = None
            deeper: int | None = None
            for child in tree.child_indices(index):
                if self.exit_step(child) <= step:
                    value = tree.field(child, VALUE)
                    if node.is_max:
                        best = value if frame.best is None else max(frame.best, value)
                        frame = Frame(index, max(frame.alpha, value), frame.beta, best, frame.searched + 1)
                    else:
                        best = value if frame.best is None else min(frame.best, value)
                        frame = Frame(index, frame.alpha, min(frame.beta, value), best, frame.searched + 1)
                    last_exited = child
                    continue
                if self.enter_step(child) <= step:
                    deeper = child
                break
            self.stack.append(frame)
            if deeper is None:
                self.next_index = index + 1 if last_exited is None else tree.field(last_exited, END)
                if self.enter_step(index) == step:
                    self.last = Step(StepKind.ENTER, index)
                else:
                    assert last_exited is not None and self.exit_step(last_exited) == step
                    self.last = Step(StepKind.EXIT, last_exited)
                break
            index = deeper
        self.message = self._describe()

    def _describe(self) -> str:
        tree = self.tree
        assert self.last.index is not None
        node = tree.node(self.last.index)
        if self.last.kind is StepKind.ENTER:
            move = (
                _("the root")
                if node.move is None
                else _("move {format_move}").format(format_move=format_move(node.move, tree.rules))
            )
            hit = node.table_hit
            if hit is not None:  # the table answers it as it is entered: nothing below is searched
                self.table_hit = node.index
                if hit.is_cutoff:
                    said = _(
                        "Table cutoff! {move} ({side_name}) was searched before: its stored bound {value_text} "
                        "lies outside the window [{alpha}, {beta}], so it is not searched again"
                    )
                else:
                    said = _(
                        "Table hit! {move} ({side_name}) was searched before: the table answers "
                        "{value_text} without searching it again"
                    )
                return said.format(
                    move=move,
                    side_name=node.side_name,
                    value_text=node.value_text,
                    alpha=fmt_tree_value(node.alpha_in),
                    beta=fmt_tree_value(node.beta_in),
                )
            if not tree.pruning:  # plain minimax has no window to speak of
                return _("Enter {move} ({side_name})").format(move=move, side_name=node.side_name)
            return _("Enter {move} ({side_name}) with alpha {fmt_tree_value}, beta {fmt_tree_value2}").format(
                move=move,
                side_name=node.side_name,
                fmt_tree_value=fmt_tree_value(node.alpha_in),
                fmt_tree_value2=fmt_tree_value(node.beta_in),
            )
        parent = self.stack[-1]
        parent_node = tree.node(parent.index)
        if not tree.pruning:
            assert parent.best is not None
            return _("Return {value_text}: {side_name}'s best so far {fmt_tree_value}").format(
                value_text=node.value_text, side_name=parent_node.side_name, fmt_tree_value=fmt_tree_value(parent.best)
            )
        if tree.pruning and parent.alpha >= parent.beta and parent_node.pruned_count:
            self.cutoff = parent.index
            return _("Cutoff! {cutoff_reason}").format(cutoff_reason=parent_node.cutoff_reason())
        return _("Return {value_text}: {side_name} window now [{fmt_tree_value}, {fmt_tree_value2}]").format(
            value_text=node.value_text,
            side_name=parent_node.side_name,
            fmt_tree_value=fmt_tree_value(parent.alpha),
            fmt_tree_value2=fmt_tree_value(parent.beta),
        )

    def forward(self) -> bool:
        """Do one step; return False at the end."""
        if self.done:
            return False
        self.seek(self.steps + 1)
        return True

    def back(self) -> bool:
        """Undo one step; return False at the start."""
        if self.steps == 0:
            return False
        self.seek(self.steps - 1)
        return True
