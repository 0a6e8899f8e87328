"""The searches of one match, kept for the tree overlay across Undo, Redo and Restart."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ai.search import SearchResult
from ai.tree import SearchTree
from game.app.worker_protocol import JobPurpose
from game.i18n import _


@dataclass(frozen=True)
class SearchRecord:
    """A search of this match, kept for the tree overlay."""

    ply: int  # discs played when it was searched
    side: int
    purpose: JobPurpose  # MOVE or HINT
    result: SearchResult  # its tree may still be on its way (see ``SearchRecords.attach_tree``)
    job_id: int = 0
    has_tree: bool = True  # False: no tree was recorded for it
    note: str | None = None  # e.g. the level's solver played another move than this search chose
    played: int | None = None  # the move the answer played, where it is not the search's choice
    tree_skipped: bool = False  # its tree was to come but will not (``TreeSkipped``)
    tree_dropped: bool = False  # its tree came, and was let go for newer ones' (``KEPT_TREES``)


def whose_search(record: SearchRecord, name: str) -> str:
    """ "hint for you", "move of the computer", "hint for Player 1": whose search ``record``
    was, given its side's ``name`` (``side_name``).  Whole phrases, because the words around
    a name change its form: German "Tipp für dich" and "Zug des Computers", Spanish "pista
    para ti" and "jugada del ordenador", where a name put after "hint for" would read "Tipp
    für Du"."""
    hint = record.purpose is JobPurpose.HINT
    if name == _("You"):
        return _("hint for you") if hint else _("your move")
    if name == _("The computer"):
        return _("hint for the computer") if hint else _("move of the computer")
    return (_("hint for {name}") if hint else _("move of {name}")).format(name=name)


KEPT_TREES = 2
"""The searches of a match whose trees the window keeps: the latest that have one (an
Expert search's tree is up to 13 MB, and a match of 20 of them held 250 MB; with four
kept the window peaked at 113 MB in a 7x8 game against Expert, a new tree arriving).
An older search keeps its numbers; the tree overlay says its tree is no longer kept."""


class SearchRecords:
    """The match's searches in play order, those Undo took back (for Redo), and the ply of
    the latest answer that came without a search (book, solver: nothing to show)."""

    def __init__(self) -> None:
        self.done: list[SearchRecord] = []
        self.undone: list[SearchRecord] = []
        self.untreed_ply: int | None = None

    def clear(self) -> None:
        self.done.clear()
        self.undone.clear()
        self.untreed_ply = None

    def take_back(self, plies: int) -> None:
        """Undo left ``plies`` discs: later searches wait for Redo."""
        self.undone = [s for s in self.done if s.ply >= plies] + self.undone
        self.done = [s for s in self.done if s.ply < plies]

    def bring_back(self, plies: int) -> None:
        """Redo reached ``plies`` discs: their searches come back."""
        self.done += [s for s in self.undone if s.ply < plies]
        self.undone = [s for s in self.undone if s.ply >= plies]

    def attach_tree(self, job_id: int, tree: SearchTree) -> None:
        """A search's tree arrived after its move: attach it to its record, and let go of
        the trees of all but the latest ``KEPT_TREES`` searches that have one."""
        for records in (self.done, self.undone):
            for index, record in enumerate(records):
                if record.job_id == job_id:
                    records[index] = replace(record, result=replace(record.result, tree=tree))
        holding = [(record.job_id, records, index) for records in (self.done, self.undone)
                   for index, record in enumerate(records) if record.result.tree is not None]  # fmt: skip
        holding.sort(key=lambda held: held[0])  # job ids grow with time: the oldest first
        for _job, records, index in holding[:-KEPT_TREES]:
            record = records[index]
            records[index] = replace(record, result=replace(record.result, tree=None), tree_dropped=True)

    def skip_tree(self, job_id: int) -> None:
        """A search's tree will not come: its record says so instead of "still arriving"."""
        for records in (self.done, self.undone):
            for index, record in enumerate(records):
                if record.job_id == job_id:
                    records[index] = replace(record, tree_skipped=True)

    def last_tree_index(self) -> int | None:
        """The latest search of the match that has a tree."""
        return next((i for i in range(len(self.done) - 1, -1, -1) if self.done[i].has_tree), None)

    def answered_without_tree_after(self, index: int | None, plies: int) -> bool:
        """A book or solver answer came after the search at ``index`` (still on the board)."""
        untreed = self.untreed_ply
        if untreed is None or untreed > plies:
            return False
        return index is None or untreed > self.done[index].ply
