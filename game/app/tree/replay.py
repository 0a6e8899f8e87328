"""Replaying a recorded search step by step, in the order it visited the nodes.

Each step either enters the next node (in pre-order, the order of the search) or leaves
the current one with its value, which then raises the parent's alpha (MAX) or lowers its
beta (MIN).  When that closes the parent's window (alpha >= beta) the step reports the
cutoff.  Steps can be undone, so the replay runs backward as well.  No pygame here.
"""

from __future__ import annotations

from dataclasses import dataclass

from ai.tree import END, SearchTree
from ai.values import fmt_value


@dataclass
class Frame:
    """A node the replay is inside, with its window as it stands now."""

    index: int
    alpha: int
    beta: int
    best: int | None = None


class Replay:
    """A cursor over the search of ``tree``, from ``start`` (the root by default)."""

    def __init__(self, tree: SearchTree, start: int = 0):
        self.tree = tree
        self.start = start
        self.end = tree.field(start, END)
        self.next_index = start
        self.stack: list[Frame] = []
        self.history: list[tuple] = []
        self.message = "Ready: each step enters a node or returns its value."
        self.cutoff: int | None = None  # the node whose window just closed

    @property
    def steps(self) -> int:
        return len(self.history)

    @property
    def total_steps(self) -> int:
        return 2 * (self.end - self.start)

    @property
    def done(self) -> bool:
        return self.next_index >= self.end and not self.stack

    @property
    def current(self) -> int | None:
        return self.stack[-1].index if self.stack else None

    def is_visited(self, index: int) -> bool:
        return self.start <= index < self.next_index

    def is_open(self, index: int) -> bool:
        return any(frame.index == index for frame in self.stack)

    def window(self, index: int) -> tuple[int, int] | None:
        for frame in self.stack:
            if frame.index == index:
                return frame.alpha, frame.beta
        return None

    def forward(self) -> bool:
        """Do one step; return False at the end."""
        if self.done:
            return False
        node = self.tree.node(self.next_index) if self.next_index < self.end else None
        if node is not None and (not self.stack or self.next_index < self.tree.field(self.stack[-1].index, END)):
            self.stack.append(Frame(node.index, node.alpha_in, node.beta_in))
            self.history.append(("enter", node.index))
            self.next_index += 1
            self.cutoff = None
            move = "root" if node.move is None else f"move {node.move + 1}"
            self.message = (
                f"Enter {move} ({node.side_name}) with alpha {fmt_value(node.alpha_in)}, beta {fmt_value(node.beta_in)}"
            )
            return True
        frame = self.stack.pop()
        node = self.tree.node(frame.index)
        parent_before = None
        self.cutoff = None
        if self.stack:
            parent = self.stack[-1]
            parent_before = Frame(parent.index, parent.alpha, parent.beta, parent.best)
            parent_node = self.tree.node(parent.index)
            value = node.value
            if parent_node.is_max:
                parent.best = value if parent.best is None else max(parent.best, value)
                parent.alpha = max(parent.alpha, value)
            else:
                parent.best = value if parent.best is None else min(parent.best, value)
                parent.beta = min(parent.beta, value)
            self.message = (
                f"Return {fmt_value(value)}: {parent_node.side_name} window now "
                f"[{fmt_value(parent.alpha)}, {fmt_value(parent.beta)}]"
            )
            if self.tree.pruning and parent.alpha >= parent.beta and parent_node.pruned_count:
                self.cutoff = parent.index
                self.message = f"Cutoff! {parent_node.cutoff_reason()}"
        else:
            self.message = f"Done: the root's value is {fmt_value(node.value)}"
        self.history.append(("exit", frame, parent_before))
        return True

    def back(self) -> bool:
        """Undo one step; return False at the start."""
        if not self.history:
            return False
        event = self.history.pop()
        if event[0] == "enter":
            self.stack.pop()
            self.next_index -= 1
        else:
            _, frame, parent_before = event
            if parent_before is not None:
                self.stack[-1] = parent_before
            self.stack.append(frame)
        self.cutoff = None
        self.message = f"Step {self.steps} of {self.total_steps}"
        return True

    def run_to_end(self) -> None:
        while self.forward():
            pass
