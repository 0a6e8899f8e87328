"""The compiled wing: the AI's numba kernels, their one loader, the bit helpers written once.

- ``bits``: ``popcount``, ``gaps``, ``threats``, ``line_starts`` as plain Python
  functions over int64 bitboards, compiled into every kernel.
- ``solver_kernel``: the exact solver's negamax (an explicit stack), its C entry and
  ``LOADER``.
- ``search_kernel``: one pass of the play search (an explicit stack), its C entry,
  ``LOADER`` and the Python side that runs its passes for ``ai.search``.
- ``mcts_kernel``: Monte Carlo tree search's playouts (selection, expansion, the playout,
  back-up, MCTS-Solver's proofs), its C entry, ``LOADER``, the generator and the logarithm
  both sides share, and the Python side that grows a search's arrays a batch at a time.
- ``kernel_file``: how a kernel is compiled (``build``), kept as machine code in the
  user's cache folder and loaded without numba, and ``KernelLoader``, the loading rules
  (``CONNECT4_PURE_PYTHON``, one warning, background preparation, damaged files rebuilt).

Each kernel has a Python twin, the reference, which stays readable and runs where the
kernel cannot (no numba, ``CONNECT4_PURE_PYTHON=1``, a tree to record).  The fidelity
contract of each, stated here once:

- ``solver_kernel.negamax`` is ``ai.solver.PythonNegamax._negamax`` node for node: the
  same move order, the same score, the same node count, the same transposition-table
  words (both write the one numpy table), the same opening-book answers where a search
  stops at a book, and a node limit stops both at the same node.
  Held by tests/test_solver_kernel.py (seeded positions of several boards, the
  benchmark positions) and tests/test_one_home.py (a recorded set: column scores, moves
  and node counts per preset).
- ``search_kernel.search_pass`` is a pass of ``ai.search._Pass`` node for node: the same
  move order (stored best move, killer, static order or static value), the same
  best-move table emptied at the same node past ``ai.search.TABLE_LIMIT``, the same
  budget checks every ``ai.search_types.CHECK_EVERY`` nodes, the same leaf values
  (noise included), and with the transposition table on the same probes, hits (an entry
  of the child's depth, exact or a bound outside its window), stores and emptying past
  the limit, hence the same move, value, principal variation, root values and counts.
  Held by tests/test_search_kernel.py (6x7, 7x8, connect 5, every preset, depths 1-10
  with and without pruning, with and without the table).
- ``mcts_kernel.grow`` is ``ai.mcts._Grower`` playout for playout: the same seed grows the
  same tree (every node's parent, move, visits, score, result and proof; every playout's
  node, result and random moves), with and without MCTS-Solver, with either playout
  policy, because both draw from ``mcts_kernel.rng_next`` (xorshift128 on 32-bit words:
  the same numbers from Python ints and numba's int64) and compute UCB with
  ``mcts_kernel.uct_log`` (basic arithmetic, no ``libm``), so the tree is also the same on
  every machine.  Held by tests/test_mcts_kernel.py (six rule sets, both switches).
- ``bits.threats`` and ``bits.line_starts`` are ``ai.bitboard.Geometry``'s generated
  ``threats`` and ``line_starts`` (the reference searches' straight-line source) for
  every K, board and gravity the kernels take.  Held by tests/test_bits.py.

Nothing here imports numba or llvmlite on import: ``kernel_file`` loads them when a
kernel is built or loaded, so the window's process never holds them.
"""
