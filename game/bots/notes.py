"""An answer's notes, each said once on a log (the engine's and ConnectX's stderr).

A note is clauses joined by ``"; "`` (``ai.player`` adds a clock's clause to a refused
book's, say): what was said is remembered clause by clause, so a book's note said with the
first move's clock clause is not said again with the next move's answer.
"""

from __future__ import annotations


class NotesSaid:
    """The clauses said so far in this session or process."""

    def __init__(self) -> None:
        self._said: set[str] = set()

    def fresh(self, note: str | None) -> str | None:
        """The clauses of ``note`` not said before, joined again (None: nothing new); they
        count as said from now on."""
        if not note:
            return None
        new = [clause for clause in dict.fromkeys(note.split("; ")) if clause not in self._said]
        self._said.update(new)
        return "; ".join(new) or None
