"""Monte Carlo tree search's kernel: ``ai.mcts``'s playouts, node for node, compiled by numba.

``ai.mcts.mcts`` grows its tree here when the board fits a 64-bit word
(``ai.bitboard.fits_compiled``) and the kernel loads; the Python grower in ``ai.mcts``
stays the reference, the fallback, and the one a learner reads.  What "the same search"
means, and the test that holds it, is written once in ``ai.compiled``: the same seed grows
the same tree here and there, node for node and playout for playout.

**Randomness written once.**  Both sides draw from ``rng_next``, Marsaglia's xorshift128
on four 32-bit words (period 2**128 - 1), and pick ``rng_below(n)`` as
``(next * n) >> 32``: only shifts, xors and masks on values below 2**45, the same in Python
ints and in numba's int64 on every machine.  ``seed_words`` turns any seed into the four
words (splitmix64, in Python only).  UCB's logarithm is ``uct_log``: basic float operations
only (no ``libm``), so a node's UCB is the same bits on every machine, and so is the tree.

**The search, as both sides run it** (``grow`` runs ``count`` playouts; everything it
keeps between calls is in its arrays, so the caller can look at the clock and a stop
request between two calls):

1. selection: from the root, while a node's game goes on, it is not proven and every move
   has a child, go to the child with the highest UCB = mean + C * sqrt(uct_log(parent's
   visits) / visits) (ties: the child expanded first); with the solver, children proven
   lost for the side to move are passed over;
2. expansion: the ``rng_below(untried)``-th untried move, in move order, becomes a child;
3. playout: from it, each side plays the ``rng_below(legal)``-th legal move (the tactical
   policy first takes a move that wins at once, else one that blocks the opponent's win
   at once, drawn the same way among those) until the game ends;
4. back-up: every node on the path counts the visit and the result (half points: 2 a
   win, 1 a draw) for the side that moved into it;
5. with the solver (Winands, Bjornsson and Saito 2008): a node is proven when its game
   is over; a node whose side to move has a proven winning child is proven won, and a
   node whose moves all have proven children takes the best of their results; proofs
   propagate up from each new one, and a proven root ends the search.

A node whose game is over, or (solver) that is proven, ends selection: its result is
backed up without a new node.  Values are int64 bitboards in ``ai.bitboard``'s layout.

``LOADER`` is this kernel's ``ai.compiled.kernel_file.KernelLoader`` (the loading rules
are written there).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ai.bitboard import fits_compiled, geometry
from ai.compiled.bits import line_starts, popcount, threats
from ai.compiled.kernel_file import KernelLoader, KernelSpec, LoadedKernel, addresses
from game.rules import MAX, Mode, Rules

Int64Array = npt.NDArray[np.int64]

MAX_WON, DRAW, MIN_WON = 2, 1, 0
"""A result in half points from MAX's side (``ai.mcts`` uses the same)."""
GOING_ON = -1
"""A node whose game goes on (``over``), or is not proven (``proof``)."""
POLICY_RANDOM, POLICY_TACTICAL = 0, 1
"""Playout policies: uniformly random legal moves (the textbook's), or win-then-block first."""
M32 = 0xFFFFFFFF
LN2 = 0.6931471805599453

# params (int64): the rules, the root, the switches.
(
    P_BOARD,
    P_BOTTOM,
    P_HEIGHT,
    P_CONNECT,
    P_GRAVITY,
    P_CLASSIC,
    P_MOVES,
    P_FIRST,
    P_SECOND,
    P_ROOT_MAX,
    P_SOLVER,
    P_POLICY,
    P_EXPLORATION,
    P_NODE_CAPACITY,
    P_KEEP_MOVES,
) = range(15)
PARAMS = 15
# Rows of ``nodes``: one column a node.
N_PARENT, N_MOVE, N_VISITS, N_SCORE, N_OVER, N_PLY, N_FIRST_CHILD, N_NEXT, N_UNTRIED, N_PROOF = range(10)
NODE_ROWS = 10
# Rows of ``playouts``: one column a playout.
L_NODE, L_EXPANDED, L_RESULT, L_MOVES_END = range(4)
PLAYOUT_ROWS = 4
# state (int64): counters, the generator's words.
S_NODES, S_PLAYOUTS, S_MOVES, S_RNG = 0, 1, 2, 3
STATE = 7


# -- randomness and the logarithm, written once for both sides -------------------------------


def seed_words(seed: int) -> list[int]:
    """The generator's four 32-bit words for ``seed`` (any int): splitmix64's first two
    outputs, split; never all zero."""
    state = seed % (1 << 64)
    words = []
    for _ in range(2):
        state = (state + 0x9E3779B97F4A7C15) % (1 << 64)
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % (1 << 64)
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % (1 << 64)
        z ^= z >> 31
        words += [z & M32, z >> 32]
    if not any(words):
        words[0] = 1
    return words


def rng_next(words: Any, at: int) -> int:
    """The next 32-bit number of xorshift128 (Marsaglia 2003) kept in ``words[at:at + 4]``."""
    t = words[at]
    t = (t ^ (t << 11)) & M32
    words[at] = words[at + 1]
    words[at + 1] = words[at + 2]
    w = words[at + 3]
    words[at + 2] = w
    w = w ^ (w >> 19) ^ t ^ (t >> 8)
    words[at + 3] = w
    return int(w)


def rng_below(words: Any, at: int, n: int) -> int:
    """A number in ``0 .. n - 1`` (n < 2**12) from the next 32 bits (multiply and shift)."""
    return int((rng_next(words, at) * n) >> 32)


def uct_log(n: int) -> float:
    """The natural logarithm of ``n >= 1`` from +, -, *, / alone (to about 1e-15):
    ``n = m * 2**e`` with m within sqrt(2) of 1, then the atanh series of ``log(m)``."""
    e = 0
    while (n >> e) > 1:
        e += 1
    m = float(n) / float(1 << e)
    if m > 1.4142135623730951:
        m = m / 2.0
        e += 1
    s = (m - 1.0) / (m + 1.0)
    s2 = s * s
    series = 1.0 / 23.0
    for k in range(21, 0, -2):
        series = series * s2 + 1.0 / float(k)
    return float(e) * LN2 + 2.0 * s * series


def kth_move(mask: int, k: int) -> int:
    """The index of the ``k``-th set bit of ``mask`` (0-based, lowest first)."""
    for _ in range(k):
        mask &= mask - 1
    low = mask & -mask
    index = 0
    while low > 1:
        low >>= 1
        index += 1
    return index


# -- the search (plain Python until ``ai.compiled.kernel_file`` compiles it) -----------------


def legal_moves(first: int, second: int, params: Int64Array, steps: Int64Array) -> int:
    """The legal moves of a position as a mask of move indices."""
    mask = first | second
    legal = 0
    for move in range(params[P_MOVES]):
        if (mask + steps[0, move]) & steps[1, move]:
            legal |= 1 << move
    return legal


def result_of(first: int, second: int, params: Int64Array) -> int:
    """A finished position's result (half points from MAX's side), else ``GOING_ON``."""
    height, k = params[P_HEIGHT], params[P_CONNECT]
    if params[P_CLASSIC]:
        if line_starts(first, height, k):
            return MAX_WON
        if line_starts(second, height, k):
            return MIN_WON
    if (first | second) != params[P_BOARD]:
        return GOING_ON
    if params[P_CLASSIC]:
        return DRAW
    points = popcount(line_starts(first, height, k)) - popcount(line_starts(second, height, k))
    return MAX_WON if points > 0 else MIN_WON if points < 0 else DRAW


def moves_hitting(cells: int, legal: int, mask: int, steps: Int64Array) -> int:
    """The legal moves (a mask of move indices) whose disc lands on one of ``cells``."""
    hits = 0
    rest = legal
    while rest:
        low = rest & -rest
        move = kth_move(low, 0)
        if (mask + steps[0, move]) & steps[1, move] & cells:
            hits |= low
        rest ^= low
    return hits


def played(first: int, second: int, max_to_move: int, move: int, steps: Int64Array) -> tuple[int, int]:
    """The position after the side to move plays ``move``: (MAX's discs, MIN's)."""
    bit = ((first | second) + steps[0, move]) & steps[1, move]
    if max_to_move:
        return first | bit, second
    return first, second | bit


def random_game(
    first: int,
    second: int,
    max_to_move: int,
    params: Int64Array,
    steps: Int64Array,
    moves: Int64Array,
    state: Int64Array,
) -> int:
    """3. Play on from (first, second) by the playout policy to the end; return the result.
    Its moves are appended to ``moves`` (packed a byte each) when ``params[P_KEEP_MOVES]``."""
    height, k, gravity = params[P_HEIGHT], params[P_CONNECT], params[P_GRAVITY]
    tactical = params[P_POLICY] == POLICY_TACTICAL and params[P_CLASSIC] != 0
    while True:  # Inv: the game goes on at the top of the loop
        mask = first | second
        legal = legal_moves(first, second, params, steps)
        pool = legal
        if tactical:
            empty = params[P_BOARD] ^ mask
            own, other = (first, second) if max_to_move else (second, first)
            wins = moves_hitting(threats(own, empty, height, k, gravity), legal, mask, steps)
            if wins:
                pool = wins
            else:
                blocks = moves_hitting(threats(other, empty, height, k, gravity), legal, mask, steps)
                if blocks:
                    pool = blocks
        move = kth_move(pool, rng_below(state, S_RNG, popcount(pool)))
        if params[P_KEEP_MOVES]:
            used = state[S_MOVES]
            moves[used >> 3] |= move << ((used & 7) * 8)
            state[S_MOVES] = used + 1
        first, second = played(first, second, max_to_move, move, steps)
        result = result_of(first, second, params)
        if result != GOING_ON:
            return result
        max_to_move = 1 - max_to_move


def add_node(nodes: Int64Array, state: Int64Array, parent: int, move: int, over: int, untried: int) -> int:
    """A new node (the newest child of ``parent``, at the head of its list)."""
    index = state[S_NODES]
    state[S_NODES] = index + 1
    nodes[N_PARENT, index] = parent
    nodes[N_MOVE, index] = move
    nodes[N_VISITS, index] = 0
    nodes[N_SCORE, index] = 0
    nodes[N_OVER, index] = over
    nodes[N_PLY, index] = nodes[N_PLY, parent] + 1 if parent >= 0 else 0
    nodes[N_FIRST_CHILD, index] = -1
    nodes[N_NEXT, index] = -1
    nodes[N_UNTRIED, index] = untried
    nodes[N_PROOF, index] = over
    if parent >= 0:
        nodes[N_NEXT, index] = nodes[N_FIRST_CHILD, parent]
        nodes[N_FIRST_CHILD, parent] = index
    return int(index)


def side_is_max(nodes: Int64Array, node: int, params: Int64Array) -> int:
    """1 where MAX is to move at ``node``."""
    return int(params[P_ROOT_MAX] if nodes[N_PLY, node] % 2 == 0 else 1 - params[P_ROOT_MAX])


def prove_up(nodes: Int64Array, node: int, params: Int64Array) -> None:
    """5. ``node`` was just proven: prove its ancestors that this decides."""
    parent = nodes[N_PARENT, node]
    while parent >= 0:
        side_max = side_is_max(nodes, parent, params)
        best_for_side = MAX_WON if side_max else MIN_WON
        if nodes[N_PROOF, node] == best_for_side:
            nodes[N_PROOF, parent] = best_for_side
        elif nodes[N_UNTRIED, parent]:
            return
        else:
            best = GOING_ON
            child = nodes[N_FIRST_CHILD, parent]
            while child >= 0:
                proof = nodes[N_PROOF, child]
                if proof == GOING_ON:
                    return
                if best == GOING_ON or (proof > best if side_max else proof < best):
                    best = proof
                child = nodes[N_NEXT, child]
            nodes[N_PROOF, parent] = best
        node = parent
        parent = nodes[N_PARENT, node]


def best_child(nodes: Int64Array, node: int, max_to_move: int, solver: bool, exploration: float) -> int:
    """1. The child of ``node`` with the highest UCB (with the solver: not one proven lost)."""
    log_n = uct_log(nodes[N_VISITS, node])
    lost = MIN_WON if max_to_move else MAX_WON  # a child proven lost for the side to move
    best, best_ucb = -1, -1.0
    child = nodes[N_FIRST_CHILD, node]  # newest first: ">=" keeps the first expanded on ties
    while child >= 0:
        if not (solver and nodes[N_PROOF, child] == lost):
            n = nodes[N_VISITS, child]
            ucb = float(nodes[N_SCORE, child]) / float(2 * n) + exploration * np.sqrt(log_n / float(n))
            if ucb >= best_ucb:
                best, best_ucb = child, ucb
        child = nodes[N_NEXT, child]
    return int(best)


def back_up(nodes: Int64Array, node: int, result: int, params: Int64Array) -> None:
    """4. A visit and the result on every node up to the root, for the side that moved into it."""
    odd_mover_max = params[P_ROOT_MAX]  # the root's side to move made the moves into odd plies
    while node >= 0:
        nodes[N_VISITS, node] += 1
        mover_max = odd_mover_max if nodes[N_PLY, node] % 2 == 1 else 1 - odd_mover_max
        nodes[N_SCORE, node] += result if mover_max else 2 - result
        node = nodes[N_PARENT, node]


def grow(
    params: Int64Array,
    steps: Int64Array,
    nodes: Int64Array,
    playouts: Int64Array,
    moves: Int64Array,
    state: Int64Array,
    count: int,
) -> int:
    """Run up to ``count`` playouts on the tree in ``nodes`` (the root made by the caller);
    return how many ran (fewer where the solver proved the root)."""
    solver = params[P_SOLVER] != 0
    exploration = params[P_EXPLORATION : P_EXPLORATION + 1].view(np.float64)[0]
    ran = 0
    while ran < count and not (solver and nodes[N_PROOF, 0] != GOING_ON):
        # 1. selection
        node = 0
        first, second = params[P_FIRST], params[P_SECOND]
        max_to_move = params[P_ROOT_MAX]
        while nodes[N_OVER, node] == GOING_ON and nodes[N_UNTRIED, node] == 0:
            if solver and nodes[N_PROOF, node] != GOING_ON:
                break
            node = best_child(nodes, node, max_to_move, solver, exploration)
            first, second = played(first, second, max_to_move, nodes[N_MOVE, node], steps)
            max_to_move = 1 - max_to_move
        result = nodes[N_OVER, node]
        if solver and result == GOING_ON:
            result = nodes[N_PROOF, node]
        expanded = 0
        moves_start = state[S_MOVES]
        if result == GOING_ON:
            # 2. expansion
            untried = nodes[N_UNTRIED, node]
            move = kth_move(untried, rng_below(state, S_RNG, popcount(untried)))
            nodes[N_UNTRIED, node] = untried & ~(1 << move)
            first, second = played(first, second, max_to_move, move, steps)
            max_to_move = 1 - max_to_move
            over = result_of(first, second, params)
            untried = legal_moves(first, second, params, steps) if over == GOING_ON else 0
            node = add_node(nodes, state, node, move, over, untried)
            expanded = 1
            result = over
            if result == GOING_ON:  # 3. playout
                result = random_game(first, second, max_to_move, params, steps, moves, state)
            elif solver:
                prove_up(nodes, node, params)
        back_up(nodes, node, result, params)
        done = state[S_PLAYOUTS]
        playouts[L_NODE, done] = node
        playouts[L_EXPANDED, done] = expanded
        playouts[L_RESULT, done] = result
        playouts[L_MOVES_END, done] = state[S_MOVES] if params[P_KEEP_MOVES] else moves_start
        state[S_PLAYOUTS] = done + 1
        ran += 1
    return ran


def c_entry(compiled: Any, carray: Any) -> Any:
    """The C-callable entry ``ai.compiled.kernel_file`` compiles: plain pointers and sizes in."""

    def entry(  # type: ignore[no-untyped-def]
        params_p, steps_p, n_moves, nodes_p, capacity, playouts_p, n_playouts, moves_p, n_words, state_p, count
    ):
        return compiled(
            carray(params_p, (PARAMS,)),
            carray(steps_p, (2, n_moves)),
            carray(nodes_p, (NODE_ROWS, capacity)),
            carray(playouts_p, (PLAYOUT_ROWS, n_playouts)),
            carray(moves_p, (n_words,)),
            carray(state_p, (STATE,)),
            count,
        )

    return entry


SPEC = KernelSpec(
    name="mcts",
    core=sys.modules[__name__],
    entry="grow",
    helpers=(
        "rng_next",
        "rng_below",
        "played",
        "uct_log",
        "kth_move",
        "legal_moves",
        "result_of",
        "moves_hitting",
        "random_game",
        "add_node",
        "side_is_max",
        "prove_up",
        "best_child",
        "back_up",
    ),
    wrapper=c_entry,
    args="ppipipipipi",
    loaded=LoadedKernel,
)
"""What ``ai.compiled.kernel_file`` compiles from this module, and the entry's arguments
(p: a pointer to int64s, i: an int64)."""

LOADER = KernelLoader(SPEC, "playouts")
"""The kernel of this process: ``LOADER.kernel()`` loads it on first use (the first start
compiles it), ``LOADER.prepare_in_background()`` ahead of time."""


# -- the Python side: the arrays of one search, grown a batch of playouts at a time ----------


def usable(rules: Rules) -> bool:
    """Whether the kernel takes these rules (a position in one 64-bit word)."""
    return fits_compiled(rules)


@dataclass(frozen=True)
class GrowthOptions:
    """What one search grows, for either grower: from ``root`` (MAX's discs, MIN's, the
    side to move), ``playouts`` at most, seeded, with UCT's C, the solver, the playout
    policy (``POLICY_RANDOM``, ``POLICY_TACTICAL``) and whether the playouts' moves are kept."""

    root: tuple[int, int, int]
    playouts: int
    seed: int
    exploration: float
    solver: bool
    policy: int
    keep_moves: bool


class CompiledGrowth:
    """One search's arrays and the kernel that grows them (``grow_some`` a batch at a time)."""

    def __init__(self, kernel: LoadedKernel, rules: Rules, options: GrowthOptions):
        geo = geometry(rules)
        first, second, to_move = options.root
        playouts = options.playouts
        self.kernel = kernel
        self.params = np.zeros(PARAMS, dtype=np.int64)
        p = self.params
        p[P_BOARD], p[P_BOTTOM], p[P_HEIGHT] = geo.board_mask, geo.bottom_mask, geo.height
        p[P_CONNECT], p[P_GRAVITY], p[P_CLASSIC] = rules.connect, int(rules.gravity), int(rules.mode is Mode.CLASSIC)
        p[P_MOVES], p[P_FIRST], p[P_SECOND] = len(geo.move_steps), first, second
        p[P_ROOT_MAX], p[P_SOLVER], p[P_POLICY] = int(to_move == MAX), int(options.solver), options.policy
        p[P_EXPLORATION] = np.array([options.exploration], dtype=np.float64).view(np.int64)[0]
        p[P_NODE_CAPACITY], p[P_KEEP_MOVES] = playouts + 1, int(options.keep_moves)
        self.steps = np.array([[a for _, a, _ in geo.move_steps], [k for _, _, k in geo.move_steps]], dtype=np.int64)
        self.nodes = np.zeros((NODE_ROWS, playouts + 1), dtype=np.int64)
        self.playouts = np.zeros((PLAYOUT_ROWS, max(playouts, 1)), dtype=np.int64)
        empty = rules.cells - (first | second).bit_count()
        self.moves = np.zeros(playouts * empty // 8 + 1 if options.keep_moves else 1, dtype=np.int64)
        self.state = np.zeros(STATE, dtype=np.int64)
        self.state[S_RNG : S_RNG + 4] = seed_words(options.seed)

    def add_root(self, over: int, untried: int) -> None:
        """Node 0: the position searched."""
        add_node(self.nodes, self.state, -1, -1, over, untried)

    def grow_some(self, count: int) -> int:
        """Run up to ``count`` playouts; return how many ran."""
        params, steps, nodes, playouts, moves, state = addresses(
            self.params, self.steps, self.nodes, self.playouts, self.moves, self.state
        )
        moves_count, capacity = self.steps.shape[1], self.nodes.shape[1]
        return self.kernel(
            params, steps, moves_count, nodes, capacity, playouts, self.playouts.shape[1], moves,
            len(self.moves), state, count,
        )  # fmt: skip

    def unpacked_moves(self) -> np.ndarray:
        """The playouts' random moves, one byte each, in order."""
        used = int(self.state[S_MOVES])
        shifts = np.arange(0, 64, 8, dtype=np.int64)
        return ((self.moves[:, None] >> shifts) & 255).astype(np.int8).reshape(-1)[:used]


def compiled_growth(rules: Rules, options: GrowthOptions, *, wait: bool = True) -> CompiledGrowth | None:
    """The compiled growth of a search, or None where the Python grower must run (the board
    does not fit, ``CONNECT4_PURE_PYTHON``, no numba).

    ``wait`` False (a clock is running): a kernel not loaded yet is prepared in the
    background (the first start compiles it for seconds) and this search runs in Python."""
    if not usable(rules):
        return None
    if not wait and not LOADER.is_ready():
        LOADER.prepare_in_background()
        return None
    kernel = LOADER.kernel()
    if kernel is None:
        return None
    return CompiledGrowth(kernel, rules, options)
