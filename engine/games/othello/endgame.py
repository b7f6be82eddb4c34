"""Othello's exact endgame solver: the final disc difference with perfect play, empty squares going to the
winner (the score of the standard endgame test sets, such as the FFO positions).

A negamax principal-variation search to the end of the game on the two bitboards, with the endgame
solvers' classic enhancements:

- fastest first: moves are searched in order of the opponent's mobility after them (fewest replies first,
  a corner counting twice), corners before the rest; they shrink the tree most where it is widest;
- parity: with few empty squares left (where ordering costs more than it saves), the moves in a region (a
  quadrant) with an odd number of empty squares come first, the player who fills a region's last square
  keeping the last word there; parity also breaks the mobility ties above;
- a transposition table of proven bounds (lower, upper and the best move) at the nodes with enough empty
  squares to repay a lookup, the table's move searched first, and enhanced transposition cut-offs (a
  child whose entry already refutes the reply cuts before any child is searched);
- in the last few empty squares, no move generation at all (after Edax): each empty square is tried for
  flips, and the last one is played out directly.

Scores are final disc differences, always even (the 64 squares go to one side or the other, or are shared
in a draw), so a null window is ``(alpha, alpha + 1)``.
"""
import math

from engine.deadline import Deadline
from engine.game import Solution
from engine.games.othello.board import CORNERS, FULL, PASS, final_score, flips, legal_moves, squares
from engine.result import EXACT, UPPER
from engine.search.scores import TABLE_FREE_SECONDS_PER_ENTRY, TABLE_SECONDS_PER_ENTRY, narrowed, tightened

REACH = 16                # the most empty squares it takes on (more seldom finish within a request's time)
SHALLOW_EMPTIES = 5       # at most this many empty squares: the shallow search (no move generation)
ORDER_MIN_EMPTIES = 6     # fastest-first ordering at nodes with at least this many empty squares
TABLE_MIN_EMPTIES = 6     # the table at nodes with at least this many
ETC_MIN_EMPTIES = 7       # enhanced transposition cut-offs with at least this many (>= both above)
QUADRANTS = (0x0F0F0F0F, 0xF0F0F0F0, 0x0F0F0F0F << 32, 0xF0F0F0F0 << 32)


def odd_regions(empty: int) -> int:
    """The empty squares of the quadrants that hold an odd number of them."""
    odd = 0
    for quadrant in QUADRANTS:
        if (empty & quadrant).bit_count() & 1:
            odd |= empty & quadrant
    return odd


def solve(me: int, them: int, deadline: Deadline, ordering: bool, tt_capacity: int, stats) -> Solution | None:
    """The :class:`~engine.game.Solution` of the position with discs ``me`` for the player to move against
    ``them``, scored by the final disc difference; None at once when more than :data:`REACH` squares are
    empty. ``ordering`` false searches the moves in natural order (a1 first), ``tt_capacity`` 0 without a
    table. Raises :class:`~engine.deadline.Timeout` when ``deadline`` passes; ``stats`` gets the visits
    either way.

    ``negamax(me, them, legal, alpha, beta, ply)`` is the final disc difference for ``me``, to move, whose
    legal squares are ``legal`` (None: not computed yet), fail-soft: a result ``<= alpha`` is an upper
    bound, ``>= beta`` a lower bound, anything between exact. A pass is a node of its own (one ply).
    """
    if (FULL ^ (me | them)).bit_count() > REACH:
        return None
    mask = Deadline.CHECK_MASK
    tt: dict[object, tuple] = {}  # key -> (low, high, best move)
    nodes, leaves, cutoffs, tt_hits, max_ply = (stats.nodes, stats.leaves, stats.cutoffs, stats.tt_hits,
                                                 stats.max_depth)

    def children_of(me, them, legal, empty, n, first):
        """``(square, child me, child them, child's legal squares or None)`` for the legal squares, in
        search order, ``first`` (the table's move) first. Fastest-first ordering computes each child's
        legal squares, which the child then need not compute again."""
        if ordering and n >= ORDER_MIN_EMPTIES:
            odd = odd_regions(empty)
            scored = []
            for s in squares(legal):
                bit = 1 << s
                f = flips(me, them, s)
                child_me, child_them = them ^ f, me | f | bit
                replies = legal_moves(child_me, child_them)
                rank = (4 * (replies.bit_count() + (replies & CORNERS).bit_count())   # a corner reply counts twice
                        - (8 if bit & CORNERS else 0) - (1 if bit & odd else 0))
                scored.append((rank, s, child_me, child_them, replies))
            scored.sort()
            if first is not None:
                scored.sort(key=lambda entry: entry[1] != first)
            return [entry[1:] for entry in scored]
        order = parity_order(legal, empty)
        if first is not None and first in order:
            order.remove(first)
            order.insert(0, first)
        return lazy_children(me, them, order)

    def parity_order(squares_, empty):
        """``squares_`` in natural order, or with ordering, those in odd regions first."""
        if not ordering:
            return squares(squares_)
        odd = odd_regions(empty)
        return squares(squares_ & odd) + squares(squares_ & ~odd)

    def lazy_children(me, them, order):
        """The children of the squares of ``order``, each made only when the search comes to it."""
        for s in order:
            f = flips(me, them, s)
            yield s, them ^ f, me | f | 1 << s, None

    def last_square(me, them, square):
        """The final score for ``me``, to move, when ``square`` is the only empty one: whoever can play it
        does (``me`` first), and the game ends."""
        nonlocal nodes, leaves
        nodes += 1
        leaves += 1
        f = flips(me, them, square)
        if f:
            return 2 * (me.bit_count() + f.bit_count()) - 62
        f = flips(them, me, square)
        if f:
            return 62 - 2 * (them.bit_count() + f.bit_count())
        return final_score(me, them)

    def shallow(me, them, empty, n, alpha, beta, ply, passed):
        """``negamax`` with at most :data:`SHALLOW_EMPTIES` empty squares ``empty`` (``n`` of them), after
        Edax: no legal-move generation, no table, no null windows; each empty square is tried for flips,
        in parity order. ``passed``: the opponent has just passed (if ``me`` cannot move either, the game
        is over)."""
        nonlocal nodes, leaves, cutoffs, max_ply
        if n == 1:
            if passed and not flips(me, them, empty.bit_length() - 1):
                nodes += 1
                leaves += 1
                return final_score(me, them)
            return last_square(me, them, empty.bit_length() - 1)
        nodes += 1
        if not nodes & mask:
            deadline.check_room(len(tt) * TABLE_FREE_SECONDS_PER_ENTRY)
        if ply > max_ply:
            max_ply = ply
        best = -math.inf
        order = parity_order(empty, empty) if n > 3 else squares(empty)
        for i, s in enumerate(order):
            f = flips(me, them, s)
            if not f:
                continue
            bit = 1 << s
            v = -shallow(them ^ f, me | f | bit, empty ^ bit, n - 1, -beta, -alpha, ply + 1, False)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if v >= beta:  # counted when a legal square is left unsearched
                        legal = legal_moves(me, them)
                        cutoffs += any(legal >> t & 1 for t in order[i + 1:])
                        return v
        if best == -math.inf:                                 # no move: a pass, or the end
            if passed:
                leaves += 1
                return final_score(me, them)
            return -shallow(them, me, empty, n, -beta, -alpha, ply + 1, True)
        return best

    def negamax(me, them, legal, alpha, beta, ply):
        nonlocal nodes, leaves, cutoffs, tt_hits, max_ply
        empty = FULL ^ (me | them)
        n = empty.bit_count()
        if n <= SHALLOW_EMPTIES:
            return shallow(me, them, empty, n, alpha, beta, ply, False) if n else final_score(me, them)
        nodes += 1
        if not nodes & mask:
            deadline.check_room(len(tt) * TABLE_FREE_SECONDS_PER_ENTRY)
        if ply > max_ply:
            max_ply = ply
        if legal is None:
            legal = legal_moves(me, them)
        if not legal:
            replies = legal_moves(them, me)
            if replies:                                       # a pass
                return -negamax(them, me, replies, -beta, -alpha, ply + 1)
            leaves += 1
            return final_score(me, them)
        key = hit = first = None
        if tt_capacity and n >= TABLE_MIN_EMPTIES:
            key = me << 64 | them
            hit = tt.get(key)
            if hit is not None:
                tt_hits += 1
                low, high, first = hit
                alpha, beta, settled = narrowed(low, high, alpha, beta)
                if settled is not None:
                    return settled
        alpha0, best, best_move = alpha, -math.inf, None
        children = children_of(me, them, legal, empty, n, first)
        if key is not None and ordering and n >= ETC_MIN_EMPTIES:
            # Enhanced transposition cut-off: a child whose table entry already refutes the opponent's reply
            # cuts at once (the children are built: ordering them made them).
            for s, child_me, child_them, _ in children:
                hit_c = tt.get(child_me << 64 | child_them)
                if hit_c is not None and -hit_c[1] >= beta:
                    tt_hits += 1
                    cutoffs += legal.bit_count() > 1  # a lone child's entry prunes nothing
                    return -hit_c[1]
        for i, (s, child_me, child_them, replies) in enumerate(children):
            if i == 0:
                v = -negamax(child_me, child_them, replies, -beta, -alpha, ply + 1)
            else:
                v = -negamax(child_me, child_them, replies, -alpha - 1, -alpha, ply + 1)
                if alpha < v < beta:                          # better than the first: its exact score
                    v = -negamax(child_me, child_them, replies, -beta, -v, ply + 1)
            if v > best:
                best, best_move = v, s
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        cutoffs += i < legal.bit_count() - 1  # a cut after the last child prunes nothing
                        break
        if key is not None:
            if len(tt) >= tt_capacity:
                deadline.check_room(len(tt) * TABLE_SECONDS_PER_ENTRY)
                tt.clear()
            low, high = (-math.inf, math.inf) if hit is None else (hit[0], hit[1])
            low, high = tightened(low, high, best, alpha0, beta)
            tt[key] = (low, high, best_move)
        return best

    def exact(me, them, legal, ply):
        return negamax(me, them, legal, -math.inf, math.inf, ply)

    def principal_variation(me, them, score):
        """A perfect line from the root, whose score for ``me`` is ``score``: at each position, the first
        move (in search order) whose child a window around the expected score proves to keep it."""
        line: list[int] = []
        ply = 0
        while True:
            legal = legal_moves(me, them)
            if not legal:
                if not legal_moves(them, me):
                    return line
                line.append(PASS)
                me, them, score = them, me, -score
            else:
                empty = FULL ^ (me | them)
                hit = tt.get(me << 64 | them)
                for s, child_me, child_them, replies in children_of(me, them, legal, empty, empty.bit_count(),
                                                                     hit[2] if hit else None):
                    if negamax(child_me, child_them, replies, -score - 1, -score + 1, ply + 1) == -score:
                        break
                line.append(s)
                me, them, score = child_me, child_them, -score
            ply += 1

    try:
        nodes += 1
        legal = legal_moves(me, them)
        if not legal:                                         # the root player must pass
            score = -exact(them, me, None, 1)
            moves = [(PASS, score, EXACT)]
        else:
            empty = FULL ^ (me | them)
            alpha, moves = -math.inf, []
            for i, (s, child_me, child_them, replies) in enumerate(children_of(me, them, legal, empty,
                                                                               empty.bit_count(), None)):
                if i == 0:
                    v = -exact(child_me, child_them, replies, 1)
                else:
                    v = -negamax(child_me, child_them, replies, -alpha - 1, -alpha, 1)
                    if v > alpha:
                        v = -exact(child_me, child_them, replies, 1)
                moves.append((s, v, EXACT if i == 0 or v > alpha else UPPER))
                alpha = max(alpha, v)
            score = alpha
            moves.sort(key=lambda m: m[2] != EXACT or m[1] != score)  # the best first, stable otherwise
        pv = principal_variation(me, them, score)
    finally:
        stats.nodes, stats.leaves, stats.cutoffs, stats.tt_hits, stats.max_depth = (
            nodes, leaves, cutoffs, tt_hits, max_ply)
        tt.clear()
    return Solution(score=score, pv=pv, moves=moves)
