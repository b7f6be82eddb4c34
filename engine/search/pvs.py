"""Iteratively deepened principal-variation search: the enhanced alpha-beta (negamax form).

Null-window scouts and re-searches, a bounded transposition table, move ordering (table move, killers,
history, the game's own ordering) and, in win/draw/loss games, wins scored by their distance
(:mod:`engine.search.scores`), so that the winner hurries, the loser delays and ``plies_to_end`` is exact.

In a game whose players alternate, the knowledge a game lists among its capabilities switches on the
enhancements of strong chess programs (:class:`~engine.search.negamax.Enhancements`): quiescence search through its noisy moves
with stand-pat, delta and exchange pruning, one more ply at forcing states (check), null-move pruning where
the game allows a pass, late-move reductions of quiet moves (and a ply less where the table has no move:
internal iterative reduction), futility pruning at shallow nodes, repetitions scored as draws, and aspiration
windows.
Since null moves and reductions can hide a defence or a mate, such a search without a depth limit first
gives a share of its time to a full-width mate search (``prove_win``): the wins it proves are the shortest.
A game with a threat-space search of its own (five in a row) gives it a share of the time at the root
first (``threat_phase``): a forced win it finds is played; when the opponent has one, the root searches only
the moves that stop it, if any does.

Without a depth limit, a game with an endgame solver of its own (:mod:`engine.search.endgame`), else a
win/draw/loss game whose declarations allow it (:mod:`engine.search.solver`), is first given to that solver
for a share of the time; a result the heuristic deepening proves in such a game is scored by the game's
solver after all (:func:`engine.search.endgame.scored_outcome`).
"""
from dataclasses import replace
import math
from typing import Any, Protocol, runtime_checkable

from engine.deadline import Deadline, Timeout
from engine.game import EVALUATION, THREATS
from engine.result import COMPLETED, ESTIMATE, EXACT, LOWER, SOLVED, UPPER, MoveValue, Stats
from engine.search.common import (RootMoves, declares, exact_outcome, finish, first_move_fallback, outcome_of,
                                  reaches_end)
from engine.search.scores import MAX_ID_DEPTH, PROVEN, TT_EXACT, WIN, to_table
from engine.search.endgame import endgame_solve, has_endgame_solver, scored_lines
from engine.search.multipv import best_lines, ranked, threshold
from engine.search.negamax import Negamax
from engine.search.solver import can_solve, exact_solve

# Without a depth limit, the share of the time an exact solve may take before the heuristic deepening, and
# the most plies left at which it is tried: SOLVE_MAX_PLIES with less than LONG_SOLVE_SECONDS left,
# LONG_SOLVE_MAX_PLIES with more or no limit (a longer solve seldom finishes within a short request: in
# Connect Four at 300 ms a move none of 8 positions with 26 to 30 plies left was solved, 2 of 4 with 22;
# of six of Pons' Test_L2_R2 positions, 25-27 plies left, 30 plies proved 2 at 2 s, 4 at 3 s and 5 s, where
# 24 plies proved 1 at 2 s and 5 s).
SOLVE_SHARE = 1 / 3
SOLVE_MAX_PLIES = 24
LONG_SOLVE_MAX_PLIES = 30
LONG_SOLVE_SECONDS = 2.0
# Mate search: without a depth limit, when the deepening prunes forward (null moves, reductions), this share
# of the time first looks full-width for a forced win in at most MATE_MAX_MOVES of the mover's moves (the
# hardest shared mate in 3 takes about 2.4 s of CPU: half of 5 s; bench/RESULTS.md, chess).
MATE_SHARE, MATE_MAX_MOVES = 1 / 2, 3
# Threats (five in a row): the shares of the time left that the game's threat-space search may take at the
# root, to look for a forced win of the mover's, then for the opponent's (and the moves that stop it).
WIN_SHARE, DEFENCE_SHARE = 0.1, 0.15


@runtime_checkable
class ThreatSpace(Protocol):
    """Outcome games whose players alternate, with a threat-space search (five in a row: continuous fours
    and threes); capability :data:`~engine.game.THREATS`. Both searches are bounded by the game's own
    budget and by ``deadline``, whose ``Timeout`` they let through, and add the positions they visit to
    ``stats.nodes`` (a :class:`~engine.result.Stats`), however they end."""

    def threat_win(self, state, deadline, stats) -> list | None:
        """A line that wins by force for the player to move, ``[a1, d1, ..., an]``, its moves and the
        opponent's replies along the longest defence, the win coming within ``len(line)`` plies whatever
        the opponent plays; or None when none is found (which proves nothing)."""

    def threat_defences(self, state, deadline, stats) -> list | None:
        """When the opponent, were it to move, would have such a win, the moves that may stop it (those
        after which the threat search finds it no longer, else those it could not decide), an empty list
        when none does; None when the opponent has no such win."""


@runtime_checkable
class Aspiration(Protocol):
    """A game whose evaluation moves little from one iteration to the next; capability
    :data:`~engine.game.ASPIRATION`."""

    def aspiration_width(self, state) -> float:
        """Half the width of the window around the last iteration's score that the next iteration of a
        deepening search tries first."""


def enhanced(game, state, deadline, depth, ordering: bool, tt_capacity: int, tracer, solve: bool = False,
             multi_pv: int = 1, root_moves: RootMoves = None):
    """Iteratively deepened principal-variation search (negamax form), after an exact solve where one fits
    (:func:`solver_for`); ``solve``: the solve has the whole time, whatever the plies left. The
    :class:`~engine.result.SearchResult` of ``state``, its values from the game's perspective player's
    point of view.

    With ``multi_pv`` > 1 (:mod:`engine.search.multipv`), every pass searches the first ``multi_pv`` root
    moves with the full window and each later one with the window of the ``multi_pv``-th best score, so
    that the ``multi_pv`` best are exact, and the result lists them in ``lines``; the phases that prove
    the best move alone (the solve share, the threat phase, the mate search) and aspiration windows are
    skipped, and the deepening stops early only when all of those lines are proven.

    The phases, in order: the solve share (:func:`solve_share`), the threat phase (:func:`threat_phase`),
    the mate search (:func:`prove_win`), then :func:`deepen` with the node search of
    :class:`~engine.search.negamax.Negamax`; :func:`answer` turns the last complete pass into the result.

    With ``root_moves`` (engine.root), the root searches those moves alone, all of them (no forward
    pruning there), and the phases that play every root move (the solve share, the threat phase and the
    endgame solver's scoring) are skipped.
    """
    stats = Stats()
    search = Negamax(game, game.perspective(state), deadline, ordering, tt_capacity, tracer, stats)
    bound = game.plies_bound(state)
    last = MAX_ID_DEPTH if depth is None else depth
    if bound is not None:
        last = min(last, bound)
    # Iterative deepening cuts at every depth, which needs an evaluation; without one (a tree without
    # evals) there is a single pass, straight to the requested depth or to the end of the game.
    first_depth = 1 if EVALUATION in game.capabilities else last
    ranking, root_complete = root_ranking(search, state, root_moves)
    single = multi_pv == 1
    whole = root_moves is None  # the root plays every move: the phases that need that may run
    if depth is None and single and whole:
        solved = solve_share(game, state, deadline, bound, solve, ordering, tt_capacity, tracer, ranking, stats)
        if solved is not None:
            return solved
    completed = None
    if single and whole and game.outcome_game and THREATS in game.capabilities and declares(game, "alternating"):
        completed, defences = threat_phase(game, state, deadline, stats, ranking)
        if completed is not None:
            stats.stop_reason = SOLVED
        elif defences is not ranking:
            ranking, root_complete = defences, False   # the moves left out may stop the threat too
    extra = search.extra
    if single and completed is None and depth is None and game.outcome_game and (extra.null_move or extra.reductions):
        completed = prove_win(search, state, ranking, deadline)  # a proven win ends the search: no deepening
        if completed is not None:
            stats.stop_reason = SOLVED
    exhausted = timed_out = False
    if completed is None:
        completed, exhausted, timed_out = deepen(search, state, ranking, root_complete, first_depth, last,
                                                 deadline, multi_pv)
    search.tt.clear()                                  # on this search's time (TABLE_FREE_SECONDS_PER_ENTRY)
    if completed is None:
        fallback = first_move_fallback(game, state, root_moves)
        return finish(game, state, stats, deadline, move=fallback.move, value=fallback.value, moves=[],
                      timed_out=True)
    answered = answer(search, state, completed, root_complete, exhausted, timed_out, deadline, multi_pv)
    return scored_lines(game, state, answered, deadline, ordering, tt_capacity, not whole)


def root_ranking(search: Negamax, state, root_moves: RootMoves) -> tuple[list, bool]:
    """The root's moves in search order and whether they are all of them (``Negamax.searched_moves``);
    with ``root_moves``, those alone, in the order the root would search them without forward pruning,
    and complete."""
    if root_moves is None:
        return search.searched_moves(state)
    return [a for a in search.moves_of(state) if a in root_moves], True


def solve_share(game, state, deadline, plies_left, solve, ordering, tt_capacity, tracer, ranking, stats):
    """The solve share: without a depth limit, the exact solver that fits (:func:`solver_for`) has a share
    of the time (``SOLVE_SHARE``; all of it with ``solve``) before the heuristic deepening. Its
    :class:`~engine.result.SearchResult`, or None when none fits or it did not finish: ``stats`` then
    holds what it visited, and the deepening counts on from there."""
    solver = solver_for(game, plies_left, deadline, solve)
    if solver is None:
        return None
    # The solve finishes from the middle game on, and its answer is perfect. When it cannot finish, the
    # rest of the time deepens with the heuristic.
    solved = solver(game, state, deadline if solve else deadline.share(SOLVE_SHARE), ordering, tt_capacity,
                    tracer, ranking, stats)
    if solved is None:
        stats.stop_reason = COMPLETED
    return solved


def threat_phase(game, state, deadline, stats, ranking):
    """The game's threat-space search at the root (:class:`ThreatSpace`), within its shares of the time:
    ``(completed, ranking)``, with ``completed`` the mover's forced win (its plies, the winning move's
    score, the line) or None, and ``ranking`` the root's moves, restricted to those that stop the
    opponent's forced win when it has one and some do (else ``ranking`` itself)."""
    try:
        line = game.threat_win(state, deadline.share(WIN_SHARE), stats)
    except Timeout:
        line = None
    if line is not None:
        return (len(line), [(line[0], WIN - len(line), EXACT)], line, [line]), ranking
    try:
        defences = game.threat_defences(state, deadline.share(DEFENCE_SHARE), stats)
    except Timeout:
        defences = None
    if defences:
        kept = set(defences)
        ranking = [a for a in ranking if a in kept] + [a for a in defences if a not in ranking]
    return None, ranking


def prove_win(search: Negamax, state, ranking, deadline):
    """The mate search: ``(plies, scores, line, lines)`` (as :func:`root_pass`'s, ``lines`` holding ``line``) of the shortest forced win for the mover in at most
    ``MATE_MAX_MOVES`` of its moves, or None (none that short, or ``MATE_SHARE`` of the time passed).

    For n = 1, 2, ... a null-window pass (:func:`win_pass`) asks whether some root move wins within
    ``2n - 1`` plies. It is full-width: no null moves, reductions or futility pruning, so no defence goes
    unsearched, and it never reaches the horizon (mate-distance pruning stops every line at the ply of the last
    winning move), so no evaluation enters it: a win it finds is proven, and, every shorter n having
    failed over all the root's moves, the shortest one."""
    # (Without quiescence, whose noisy moves it would only use to order: the game's order has them first.)
    full = search.extra
    search.extra = replace(full, null_move=False, reductions=False, quiescence=False, futility=False)
    search.clock = deadline.share(MATE_SHARE)
    try:
        children = [(a, search.game.result(state, a)) for a in ranking]
        for n in range(1, MATE_MAX_MOVES + 1):
            search.horizon = 2 * n - 1
            found = win_pass(search, state, search.horizon, children)
            if found is not None:
                return found
    except Timeout:
        pass
    finally:
        search.extra, search.clock = full, deadline
    return None


def win_pass(search: Negamax, state, d, children):
    """Whether a root move wins within ``d`` plies (a win there scores ``WIN - d``, a later one less),
    given the root's ``(move, child)`` pairs: ``(d, scores, line, lines)`` with that move's exact score last
    and, before it, the moves that do not (upper bounds: at best a win two plies later), or None."""
    lo = WIN - d - 0.5
    hi = math.nextafter(lo, math.inf)
    root_player = search.game.to_move(state)
    scores = []
    for a, child in children:
        v = search.child_score(child, same_side(search, child, root_player), d, lo, hi, 0, root_player,
                               search.opponent[root_player])
        if v > lo:
            scores.append((a, WIN - d, EXACT))
            line = table_line(search, state, [a] + search.pv[1], d, WIN - d)
            return d, scores, line, [None] * (len(scores) - 1) + [line]
        scores.append((a, min(v, WIN - d - 2), UPPER))
    return None


def same_side(search: Negamax, child, player: int) -> bool:
    """Whether the player to move in ``child`` plays on ``player``'s side (a tree's leaf, with no mover
    (< 0), is valued for the other side, as a two-player game's terminal state is)."""
    mover = search.game.to_move(child)
    return mover == player or search.sides[mover] == search.sides[player] and mover >= 0


def deepen(search: Negamax, state, ranking, root_complete: bool, first_depth: int, last: int, deadline,
           multi_pv: int = 1):
    """Iterative deepening: a :func:`root_pass` per depth from ``first_depth`` to ``last``, each with the
    root moves best first as the last one ranked them, and an aspiration window where the game has one
    (:func:`aspiration_pass`; not with ``multi_pv`` > 1). ``(completed, exhausted, timed_out)``: the last
    complete pass's ``(depth, scores, line, lines)`` (None if none finished; ``lines``: :func:`root_pass`'s;
    when the deadline stopped a pass that had found a better move, with that move: :func:`interrupted`),
    whether a pass saw every line end by the rules (deeper is the same), and whether the deadline stopped it. It stops at a proven result: a win, or a loss when
    ``root_complete`` says the root's moves are all of them; with ``multi_pv`` > 1, when the ``multi_pv``
    best are all proven and ``root_complete``. Each iteration's progress report carries its ``lines``
    then."""
    game, stats, tracer = search.game, search.stats, search.tracer
    root_player = game.to_move(state)
    sign = 1 if search.sides[root_player] == search.sides[search.perspective] else -1
    completed, completed_score = None, 0.0
    progress: tuple = ([], [])
    try:
        for d in range(first_depth, last + 1):
            stats.nodes += 1
            root_entry = search.trace_visit(0, -math.inf, math.inf, root_player) if tracer else None
            search.horizon = d
            progress = ([], [])                        # this pass's scores and lines, as root_pass goes
            if search.extra.aspiration and completed is not None and abs(completed_score) < PROVEN and multi_pv == 1:
                scores, line, lines = aspiration_pass(search, state, d, ranking, completed_score, progress)
            else:
                scores, line, lines = root_pass(search, state, d, ranking, multi_pv=multi_pv, progress=progress)
            best_score = completed_score = max(v for _, v, _ in scores)
            if not root_complete and best_score < PROVEN:
                search.guesses += 1
            if search.tt_capacity:
                line = table_line(search, state, line, d, best_score)
            if search.tt_capacity and multi_pv > 1:
                lines = [p and table_line(search, state, p, d, v) for p, (_, v, _) in zip(lines, scores)]
            completed = (d, scores, line, lines)
            value = search.as_value(sign * best_score)
            if root_entry:
                root_entry["value"] = value
            deadline.report(depth=d, value=value, move=line[0], pv=line, nodes=stats.nodes,
                            seldepth=stats.max_depth,
                            lines=pass_lines(search, state, completed, multi_pv) if multi_pv > 1 else None)
            ranking = [m for m, _, _ in sorted(scores, key=lambda ms: -ms[1])]  # stable: best first
            if multi_pv > 1:
                top = sorted((v for _, v, b in scores if b == EXACT), reverse=True)[:multi_pv]
                if game.outcome_game and root_complete and all(abs(v) >= PROVEN for v in top):
                    stats.stop_reason = SOLVED
                    break
            elif game.outcome_game and (best_score >= PROVEN or best_score <= -PROVEN and root_complete):
                stats.stop_reason = SOLVED
                break
            if not search.guesses:                     # every line ended by the rules: deeper is the same
                return completed, True, False
    except Timeout:
        return interrupted(search, state, completed, progress, multi_pv), False, True
    return completed, False, False


def interrupted(search: Negamax, state, completed, progress, multi_pv: int):
    """The pass the answer gives when the deadline stopped a pass: the last complete pass ``completed``
    (:func:`deepen`'s), unless the interrupted one already found a better move. Its first move is the last
    pass's best (the ranking puts it first), searched with the full window; a later move with an exact
    score beat it, so the last such move in ``progress`` (the interrupted pass's ``(scores, lines)`` so
    far, as :func:`root_pass` fills them) is the best move of the deeper search so far, and is played.
    Then ``completed`` keeps its depth (the depth completed), gives that move's line, and the moves the
    interrupted pass searched carry their scores, bounds and lines from it. Only for a single line, and
    where the game has quiescence (chess: the one game this was measured in; bench/STRENGTH.md)."""
    scores, lines = progress
    if completed is None or multi_pv > 1 or not search.extra.quiescence:
        return completed
    better = next((i for i in range(len(scores) - 1, 0, -1) if scores[i][2] == EXACT), None)
    if better is None:
        return completed
    d, old_scores, _, old_lines = completed
    deeper = {entry[0]: (entry, own) for entry, own in zip(scores, lines)}
    merged = [deeper.get(entry[0], (entry, own)) for entry, own in zip(old_scores, old_lines)]
    _, score, _ = scores[better]
    line = lines[better]
    if search.tt_capacity:
        line = table_line(search, state, line, d + 1, score)
    return d, [entry for entry, _ in merged], line, [own for _, own in merged]


def aspiration_pass(search: Negamax, state, d, ranking, guess: float, progress=None):
    """:func:`root_pass` in a window of the game's ``aspiration_width`` (:class:`Aspiration`) around
    ``guess``, the last iteration's score, and again with the full window when the score falls outside
    it (a narrow window cuts more, and the score seldom moves far); ``progress`` as root_pass's."""
    width = search.game.aspiration_width(state)
    return (root_pass(search, state, d, ranking, guess - width, guess + width, progress=progress)
            or root_pass(search, state, d, ranking, progress=progress))


def root_pass(search: Negamax, state, d, ranking, lo=-math.inf, hi=math.inf, multi_pv: int = 1, progress=None):
    """Search every root move ``d`` plies deep: ``(scores, line, lines)``, with ``scores``
    ``[(move, score, bound)]`` in searched order (scores for the player to move: the first ``multi_pv``
    exact, a later one exact if it beat the ``multi_pv``-th best so far, else an upper bound), ``line`` the
    PV, and ``lines`` each move's own PV (None for a bound). With an aspiration window ``(lo, hi)``:
    None as soon as a move reaches ``hi``, and the caller searches again with the full window, as it does
    when no move beats ``lo`` (None too). ``progress``, if given, is a pair of lists that the pass empties
    and then fills as ``scores`` and ``lines``, move by move (what a pass the deadline stops had found)."""
    game, tracer = search.game, search.tracer
    root_player = game.to_move(state)
    other = search.opponent[root_player]
    best = lo
    line: list = []
    scores: list[Any]
    lines: list[list | None]
    scores, lines = progress if progress is not None else ([], [])
    scores.clear()
    lines.clear()
    exact: list[float] = []
    search.guesses = 0
    for i, a in enumerate(ranking):
        if tracer:
            tracer.move(0, a)
        child = game.result(state, a)
        search.path[0] = a
        same = same_side(search, child, root_player)
        alpha = max(lo, threshold(exact, multi_pv))
        if i < multi_pv:
            v = search.child_score(child, same, d, alpha, hi, 0, root_player, other)
        else:
            v = search.child_score(child, same, d, alpha, math.nextafter(alpha, math.inf), 0, root_player, other)
            if v > alpha:
                v = search.child_score(child, same, d, alpha, hi, 0, root_player, other)
        if v >= hi:
            return None
        improved = v > alpha
        scores.append((a, v, EXACT if improved else UPPER))
        own = [a] + search.pv[1] if improved else None
        lines.append(own)
        if own is not None:
            exact.append(v)
            if v > best:
                best, line = v, own
    if not line:
        return None
    if search.tt_capacity:
        search.tt[search.key_of(state)] = (d, TT_EXACT, to_table(best, 0), line[0])
    return scores, line, lines


def table_line(search: Negamax, state, line, d, score):
    """The principal variation, completed from the table where a table cut-off or the horizon left it
    short: to the end of a proven result (``score``, the root's), else to the iteration's depth ``d``."""
    game = search.game
    length = int(WIN - abs(score)) if search.outcome_game and abs(score) >= PROVEN else d
    line, s = list(line), state
    for a in line:
        s = game.result(s, a)
    while len(line) < length and not game.is_terminal(s):
        hit = search.tt.get(search.key_of(s))
        if hit is None or hit[3] is None:
            break
        line.append(hit[3])
        s = game.result(s, hit[3])
    return line


def answer(search: Negamax, state, completed, root_complete: bool, exhausted: bool, timed_out: bool, deadline,
           multi_pv: int = 1):
    """The :class:`~engine.result.SearchResult` of the last complete pass ``completed`` (``(depth,
    scores, line, lines)``, scores for the player to move): each root move's value and bound from the
    perspective player's point of view, and the outcome where the pass proved it; with ``multi_pv`` > 1,
    the ``multi_pv`` best moves' ``lines`` (:func:`pass_lines`)."""
    game, stats, tracer = search.game, search.stats, search.tracer
    d, scores, line, _ = completed
    stats.depth_completed = d
    maximizing = search.sides[game.to_move(state)] == search.sides[search.perspective]
    sign = 1 if maximizing else -1
    # The move of the line: the pass's best (its first highest score), or the interrupted pass's better one.
    best_index = next(i for i, (a, _, _) in enumerate(scores) if a == line[0])
    root_score = scores[best_index][1]
    outcome_game = search.outcome_game
    # A win proven before the requested depth ends the deepening: the other moves' scores that are not
    # proven themselves are evaluations from a shallower search than asked for, estimates.
    cut_short = outcome_game and abs(root_score) >= PROVEN and not reaches_end(game, state, d)
    moves = [MoveValue(a, search.as_value(sign * v), ESTIMATE if cut_short and abs(v) < PROVEN
                       else b if maximizing else {UPPER: LOWER}.get(b, b))
             for a, v, b in scores]
    best = moves[best_index]
    outcome = plies = None
    if outcome_game and (root_score >= PROVEN or root_score <= -PROVEN and root_complete):
        outcome, plies = outcome_of(root_score), int(WIN - abs(root_score))
    elif exhausted or reaches_end(game, state, d) and not search.pruning:
        outcome = exact_outcome(game, best.value)
        if outcome is not None:
            plies = draw_length(game, state, line)
    result = finish(game, state, stats, deadline, move=best.move, value=best.value, moves=moves, pv=line,
                    outcome=outcome, plies_to_end=plies, trace=tracer.entries if tracer else None,
                    timed_out=timed_out)
    if multi_pv > 1:
        ended = exhausted or reaches_end(game, state, d) and not search.pruning
        result.lines = pass_lines(search, state, completed, multi_pv, ended)
    return result


def pass_lines(search: Negamax, state, completed, multi_pv: int, ended: bool = False):
    """The ``multi_pv`` best root moves of a complete pass ``completed`` as :class:`~engine.result.Line`,
    best first: each exact (the deepening stops short of the depth only when all of them are proven, so
    none is the estimate :func:`answer` makes of a move left unproven then), with its own PV, and its
    outcome and distance where its score is a proven result, or, when the pass saw the whole game
    (``ended``), its value's outcome."""
    game = search.game
    _, scores, _, lines = completed
    maximizing = search.sides[game.to_move(state)] == search.sides[search.perspective]
    sign = 1 if maximizing else -1
    moves = [MoveValue(a, search.as_value(sign * v), b if maximizing else {UPPER: LOWER}.get(b, b))
             for a, v, b in scores]

    def proof(i):
        score = scores[i][1]
        if search.outcome_game and abs(score) >= PROVEN:
            return outcome_of(score), int(WIN - abs(score))
        outcome = exact_outcome(game, moves[i].value) if ended else None
        return outcome, None if outcome is None else draw_length(game, state, lines[i])

    # Ranked by score, not by value: two proven wins are both worth 1, the sooner one scores higher.
    by_score = [MoveValue(a, sign * v, b) for a, v, b in scores]
    return best_lines(moves, ranked(by_score, multi_pv, maximizing), lines.__getitem__, proof)


def solver_for(game, plies_left: int | None, deadline: Deadline, solve: bool):
    """The exact solver tried before the heuristic deepening, or None: the game's own endgame solver if it
    has one, else :func:`exact_solve` where it is correct (:func:`~engine.search.solver.can_solve`) and,
    unless ``solve`` asks for it whatever the length, the plies left (``plies_left``, None: unbounded) fit
    the time (see ``SOLVE_MAX_PLIES``); under a node budget (``algorithm.nodes``), with ``solve`` only, so
    that both cores stop at the same node."""
    if has_endgame_solver(game):
        return endgame_solve
    if not can_solve(game):
        return None
    if deadline.nodes is not None:  # the plies below depend on the time and the core's speed: not a budget's
        return exact_solve if solve else None
    remaining = deadline.remaining()
    short = remaining is not None and remaining < LONG_SOLVE_SECONDS
    max_plies = SOLVE_MAX_PLIES if short else LONG_SOLVE_MAX_PLIES
    return exact_solve if solve or (plies_left or MAX_ID_DEPTH) <= max_plies else None


def draw_length(game, state, line) -> int | None:
    """Plies to the end of a proven draw: along the principal variation when it reaches the end, else the
    game's bound (in tic-tac-toe and Connect Four a draw always fills the board)."""
    s = state
    for move in line:
        s = game.result(s, move)
    return len(line) if game.is_terminal(s) else game.plies_bound(state)
