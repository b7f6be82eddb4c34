"""Iteratively deepened principal-variation search: the enhanced alpha-beta (negamax form).

Null-window scouts and re-searches, a bounded transposition table, move ordering (table move, killers,
history, the game's own ordering) and, in win/draw/loss games, wins scored by their distance
(:mod:`engine.search.scores`), so that the winner hurries, the loser delays and ``plies_to_end`` is exact.

In a game whose players alternate, the knowledge a game lists among its capabilities switches on the
enhancements of strong chess programs (:class:`Enhancements`): quiescence search through its noisy moves
with stand-pat and delta pruning, one more ply at forcing states (check), null-move pruning where the game
allows a pass, late-move reductions of quiet moves, repetitions scored as draws, and aspiration windows.
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
from dataclasses import dataclass, replace
import math

from engine.deadline import Deadline, Timeout
from engine.game import (ASPIRATION, CANDIDATES, EVALUATION, EXTENSIONS, IMMEDIATE_WIN, NULL_MOVE, QUIESCENCE,
                         REPETITION, SAFE_CHILDREN, THREATS)
from engine.result import COMPLETED, ESTIMATE, EXACT, LOWER, SOLVED, UPPER, MoveValue, Stats
from engine.search.common import (declares, exact_outcome, finish, first_move_fallback, outcome_of, reaches_end,
                                  sides_of)
from engine.search.scores import (MAX_ID_DEPTH, PROVEN, TABLE_FREE_SECONDS_PER_ENTRY, TABLE_SECONDS_PER_ENTRY,
                                  TT_EXACT, TT_LOWER, TT_UPPER, WIN, from_table, to_table)
from engine.search.scores import as_value as score_value
from engine.search.endgame import endgame_solve, has_endgame_solver, scored_outcome
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
# Null-move pruning: the depth from which a pass is tried, and how much shallower it is searched.
NULL_MIN_DEPTH, NULL_REDUCTION = 3, 2
# Late-move reductions: quiet moves after the first few, at this depth or more, one ply shallower (two
# after the first dozen), and searched again in full if they beat alpha after all.
LMR_FIRST, LMR_MIN_DEPTH, LMR_DEEPER_AFTER = 3, 3, 12
# Mate search: without a depth limit, when the deepening prunes forward (null moves, reductions), this share
# of the time first looks full-width for a forced win in at most MATE_MAX_MOVES of the mover's moves (the
# hardest shared mate in 3 takes about 2.4 s of CPU: half of 5 s; bench/RESULTS.md, chess).
MATE_SHARE, MATE_MAX_MOVES = 1 / 2, 3
# Threats (five in a row): the shares of the time left that the game's threat-space search may take at the
# root, to look for a forced win of the mover's, then for the opponent's (and the moves that stop it).
WIN_SHARE, DEFENCE_SHARE = 0.1, 0.15
# Forward pruning: a node whose candidate moves all lose, when moves left out might not, is scored as this
# guess (a loss's utility: below every evaluation, above every proven loss) rather than a proven loss.
LIKELY_LOSS = -1.0


@dataclass(frozen=True)
class Enhancements:
    """Which of the game-knowledge enhancements a search uses: those the game lists among its
    capabilities, in a game whose players alternate (each relies on a ply passing the turn)."""

    quiescence: bool = False
    extensions: bool = False
    null_move: bool = False
    repetition: bool = False
    aspiration: bool = False
    reductions: bool = False

    @classmethod
    def of(cls, game, ordering: bool, tracing: bool) -> "Enhancements":
        if not declares(game, "alternating"):
            return cls()
        listed = game.capabilities
        return cls(quiescence=QUIESCENCE in listed, extensions=EXTENSIONS in listed,
                   null_move=NULL_MOVE in listed and ordering and not tracing,
                   repetition=REPETITION in listed, aspiration=ASPIRATION in listed,
                   reductions=QUIESCENCE in listed and ordering and not tracing)


def enhanced(game, state, deadline, depth, ordering: bool, tt_capacity: int, tracer, solve: bool = False):
    """Iteratively deepened principal-variation search (negamax form), after an exact solve where one fits
    (:func:`solver_for`); ``solve``: the solve has the whole time, whatever the plies left.

    ``negamax(s, d, alpha, beta, ply, player)`` returns the score of ``s`` for ``player``, who is to move
    in ``s`` (or, at a terminal ``s``, the player whose turn it would be) or plays on that player's side
    (the game's ``sides``: Pacman's ghosts share one), searched ``d`` plies deep.
    Fail-soft: a result ``<= alpha`` is an upper bound, ``>= beta`` a lower bound, anything between is
    exact. In outcome games a win reached at ply ``p`` scores ``WIN - p``, a loss ``-(WIN - p)``.
    The transposition table stores scores relative to the node (a win in so many plies from it).
    """
    perspective = game.perspective(state)
    sides = sides_of(game)
    # For each player, the first player of the other side (a side's players share one utility).
    opponent = [next((q for q, side in enumerate(sides) if side != sides[p]), p) for p in range(len(sides))]
    to_move, result, is_terminal = game.to_move, game.result, game.is_terminal
    utility, evaluate, key_of = game.utility, game.evaluate, game.key
    moves_of = game.ordered_actions if ordering else game.actions
    pruning = ordering and CANDIDATES in game.capabilities

    def searched_moves(s):
        """The moves a node searches and whether they are complete (see ``Game.candidate_actions``)."""
        return game.candidate_actions(s) if pruning else (moves_of(s), True)

    outcome_game = game.outcome_game
    has_win_test = outcome_game and IMMEDIATE_WIN in game.capabilities
    # A player who cannot win at once wins at the soonest two plies later, if the players alternate.
    next_win = 3 if has_win_test and declares(game, "alternating") else 1
    immediate_win = game.immediate_win
    extra = Enhancements.of(game, ordering, tracer is not None)
    # Safe children (Connect Four): below the root, a node whose player cannot win at once searches only
    # the moves after which the opponent cannot win at once either, with the children the game built while
    # ordering them; the others lose in two plies, and a node without a safe move is that loss. As in the
    # exact solver, this needs the immediate-win test and players that alternate.
    safe_children = (game.safe_children if ordering and not pruning and next_win == 3 and not extra.quiescence
                     and SAFE_CHILDREN in game.capabilities else None)
    noisy_actions, forcing, null_move, repeated = game.noisy_actions, game.forcing, game.null_move, game.repeated
    horizon = 0                                        # the depth of the current iteration (extensions' cap)
    guesses = 0     # nodes of the current pass valued by anything but the rules (horizon, table, repetition)
    mask = Deadline.CHECK_MASK
    clock = deadline                                   # what the nodes poll: a phase's share, or the whole
    tt: dict[object, tuple] = {}  # key -> (depth, flag, score, move)
    killers: dict[int, list] = {}
    history: dict[object, int] = {}
    stats = Stats()
    nodes = leaves = cutoffs = tt_hits = max_ply = 0
    pv: dict[int, list] = {}

    def negamax(s, d, alpha, beta, ply, player):
        nonlocal nodes, leaves, cutoffs, tt_hits, max_ply
        nodes += 1
        if not nodes & mask:
            clock.check_room(len(tt) * TABLE_FREE_SECONDS_PER_ENTRY)
        if ply > max_ply:
            max_ply = ply
        pv[ply] = []
        entry = trace_visit(ply, alpha, beta, player) if tracer else None
        v = node_score(s, d, alpha, beta, ply, player)
        if entry:
            entry["value"] = as_value(v if sides[player] == sides[perspective] else -v)
        return v

    def node_score(s, d, alpha, beta, ply, player):
        nonlocal leaves, cutoffs, tt_hits, guesses
        if is_terminal(s):
            leaves += 1
            u = utility(s, player)
            return u * (WIN - ply) if outcome_game else u
        if outcome_game:
            if has_win_test and immediate_win(s) is not None:
                leaves += 1
                return WIN - ply - 1
            # Mate-distance pruning: nothing here can beat a win at the next chance, nor lose sooner.
            floor, ceiling = -(WIN - ply - 1), WIN - ply - next_win
            if alpha < floor:
                alpha = floor
            if beta > ceiling:
                beta = ceiling
            if alpha >= beta:
                return alpha
        if extra.repetition and ply and repeated(s):
            leaves += 1
            guesses += 1
            return 0.0                                 # a repetition: either side could repeat again
        if extra.extensions and d >= 0 and ply < 2 * horizon and forcing(s):
            d += 1
        if d <= 0:                                     # the horizon (d 0), or inside quiescence (d -1)
            leaves += 1
            guesses += 1
            return quiesce(s, alpha, beta, ply, player, d == 0) if extra.quiescence else evaluate(s, player)

        table_move = None
        if tt_capacity:
            key = key_of(s)
            hit = tt.get(key)
            if hit is not None:
                tt_hits += 1
                hit_depth, flag, score, table_move = hit
                if hit_depth >= d:
                    score = from_table(score, ply)
                    if (flag == TT_EXACT or (flag == TT_LOWER and score >= beta)
                            or (flag == TT_UPPER and score <= alpha)):
                        guesses += 1
                        return score
                    if flag == TT_LOWER:
                        if score > alpha:
                            alpha = score
                    elif score < beta:
                        beta = score

        other = opponent[player]
        # Null-move pruning at scout nodes (a null window: off the principal variation).
        if extra.null_move and d >= NULL_MIN_DEPTH and beta == math.nextafter(alpha, math.inf) \
                and abs(beta) < PROVEN:
            v = null_move_score(s, d, beta, ply, player, other)
            if v is not None:
                guesses += 1
                return v
        loud = [a for _, a in noisy_actions(s)] if extra.quiescence and ordering else ()
        built = None
        if safe_children is not None:
            built = {a: child for _, a, child in safe_children(s)}
            if not built:                              # every move lets the opponent win at once
                leaves += 1
                return -(WIN - ply - 2)
            listed, complete = list(built), True
        else:
            listed, complete = searched_moves(s)
        moves = order(listed, table_move, ply, loud)
        quiet = reducible(s, d, moves, ply, loud) if extra.reductions else ()
        alpha0, best, best_mv = alpha, -math.inf, None
        for i, a in enumerate(moves):
            if tracer:
                tracer.move(ply, a)
            child = built[a] if built is not None else result(s, a)
            # The child's mover plays on player's side? (A tree's leaf, with no mover (< 0), is valued
            # for the other side, as a two-player game's terminal state is.)
            mover = to_move(child)
            same = mover == player or sides[mover] == sides[player] and mover >= 0
            if i == 0:
                v = child_score(child, same, d, alpha, beta, ply, player, other)
            else:
                # No reduction once a proven score is in the window: a shallower search could hide the
                # defence against a mate, or the shorter mate.
                reduction = late_move_reduction(i, a, child, quiet) if quiet and abs(alpha) < PROVEN else 0
                v = child_score(child, same, d - reduction, alpha, math.nextafter(alpha, math.inf), ply, player,
                                other)
                if reduction and v > alpha:
                    v = child_score(child, same, d, alpha, math.nextafter(alpha, math.inf), ply, player, other)
                if alpha < v < beta:
                    v = child_score(child, same, d, alpha, beta, ply, player, other)
            if v > best:
                best, best_mv = v, a
                if v > alpha:
                    alpha = v
                    pv[ply] = [a] + pv[ply + 1]
                    if v >= beta:
                        cutoffs += 1
                        if ordering:
                            remember_cutoff(a, ply, d)
                        break
        if not complete and best < PROVEN:             # a move left out might do better than these
            guesses += 1
            best = max(best, LIKELY_LOSS)

        if tt_capacity:
            if len(tt) >= tt_capacity:
                clock.check_room(len(tt) * TABLE_SECONDS_PER_ENTRY)
                tt.clear()
            flag = TT_UPPER if best <= alpha0 else TT_LOWER if best >= beta else TT_EXACT
            tt[key] = (d, flag, to_table(best, ply), best_mv)
        return best

    def child_score(child, same, d, alpha, beta, ply, player, other):
        """The child's score for ``player``: searched as is when a player of ``player``'s side moves
        there, negated (with the window mirrored) for ``other``, a player of the other side, when not."""
        if same:
            return negamax(child, d - 1, alpha, beta, ply + 1, player)
        return -negamax(child, d - 1, -beta, -alpha, ply + 1, other)

    # --- the enhancements that need the game's knowledge (see Enhancements) ---

    def quiesce(s, alpha, beta, ply, player, first):
        """The score of non-terminal ``s`` for ``player`` (to move) at the horizon, fail-soft in
        ``(alpha, beta)`` like ``negamax``: the player may stand pat on the evaluation or play on
        through the noisy moves, skipping those whose ``gain`` cannot lift the evaluation above alpha
        (delta pruning); their children are searched as ``negamax`` nodes of depth -1, quiescence again.
        In a forcing state (check) at the horizon itself (``first``) there is no standing pat, every move
        is searched; deeper, only the noisy moves are (a checkmate is terminal, and found as such), which
        keeps capture-check sequences from exploding."""
        other = opponent[player]
        if first and extra.extensions and forcing(s):
            best, candidates = -math.inf, [(None, a) for a in searched_moves(s)[0]]
        else:
            best = stand = evaluate(s, player)
            if stand >= beta:
                return stand
            if stand > alpha:
                alpha = stand
            candidates = [(gain, a) for gain, a in noisy_actions(s) if stand + gain > alpha]
        for _, a in candidates:
            if tracer:
                tracer.move(ply, a)
            v = -negamax(result(s, a), -1, -beta, -alpha, ply + 1, other)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    pv[ply] = [a] + pv[ply + 1]
                    if v >= beta:
                        break
        return best

    def null_move_score(s, d, beta, ply, player, other):
        """Null-move pruning at a scout node: if the player to move, passing, still reaches ``beta`` in a
        shallower search, a real move would too (no zugzwang: the game refuses passes where one is
        likely). The score to cut with (never a proven one: a pass proves nothing), or None."""
        if evaluate(s, player) < beta:
            return None
        passed = null_move(s)
        if passed is None:
            return None
        v = -negamax(passed, d - 1 - NULL_REDUCTION, -beta, math.nextafter(-beta, math.inf), ply + 1, other)
        if v < beta:
            return None
        return beta if v >= PROVEN else v

    def reducible(s, d, moves, ply, loud):
        """The moves that late-move reductions may reduce at this node: quiet ones (not among the
        ``loud`` noisy moves, not a killer), none at shallow depths or in a forcing state."""
        if d < LMR_MIN_DEPTH or len(moves) <= LMR_FIRST or (extra.extensions and forcing(s)):
            return ()
        spared = set(loud).union(killers.get(ply, ()))
        return {a for a in moves[LMR_FIRST:] if a not in spared}

    def late_move_reduction(i, a, child, quiet):
        if i < LMR_FIRST or a not in quiet or (extra.extensions and forcing(child)):
            return 0
        return 2 if i >= LMR_DEEPER_AFTER else 1

    def order(moves, table_move, ply, loud=()):
        """The table move, then (with quiescence) the ``loud`` noisy moves in the game's order (MVV-LVA),
        the killers, and the other moves by their history, ties in the game's order (safe children: in the
        game's order, by their threat scores)."""
        if not ordering:
            if table_move is not None and moves[0] != table_move:
                moves = [table_move] + [m for m in moves if m != table_move]
            return moves
        if loud:
            noisy = set(loud)
            moves = [m for m in moves if m not in noisy]
        # (Threat scores order safe children better than history: at depth 8 in Connect Four, 6% fewer
        # nodes and a fifth less time on 13 positions.)
        if history and safe_children is None:
            moves = sorted(moves, key=lambda m: -history.get(m, 0))  # stable: ties keep the game's order
        first = [m for m in (table_move, *loud, *killers.get(ply, ()))
                 if m is not None and (m in moves or m in loud)]
        if first:
            moves = list(dict.fromkeys(first + list(moves)))
        return moves

    def remember_cutoff(move, ply, d):
        slot = killers.setdefault(ply, [])
        if move not in slot:
            slot.insert(0, move)
            del slot[2:]
        history[move] = history.get(move, 0) + d * d

    def trace_visit(ply, alpha, beta, player):
        if sides[player] == sides[perspective]:
            return tracer.visit(ply, as_value(alpha), as_value(beta))
        return tracer.visit(ply, as_value(-beta), as_value(-alpha))

    def as_value(score):
        return score_value(score, outcome_game)

    # --- the root: one PVS pass per depth, each root move's score and bound kept for the answer ---
    root_player = to_move(state)
    sign = 1 if sides[root_player] == sides[perspective] else -1  # root scores -> perspective values

    def root_pass(d, ranking, lo=-math.inf, hi=math.inf):
        """Search every root move ``d`` plies deep: ``[(move, score, bound)]`` in searched order (the
        first exact, a later one exact if it beat the best so far, else an upper bound) and the PV.
        With an aspiration window ``(lo, hi)``: None as soon as a move reaches ``hi``, and the caller
        searches again with the full window, as it does when no move beats ``lo``."""
        nonlocal guesses
        alpha, line = lo, []
        scores: list[tuple] = []
        guesses = 0
        other = opponent[root_player]
        for i, a in enumerate(ranking):
            if tracer:
                tracer.move(0, a)
            child = result(state, a)
            mover = to_move(child)
            same = mover == root_player or sides[mover] == sides[root_player] and mover >= 0
            if i == 0:
                v = child_score(child, same, d, alpha, hi, 0, root_player, other)
            else:
                v = child_score(child, same, d, alpha, math.nextafter(alpha, math.inf), 0, root_player, other)
                if v > alpha:
                    v = child_score(child, same, d, alpha, hi, 0, root_player, other)
            if v >= hi:
                return None
            improved = v > alpha if scores else v > lo
            scores.append((a, v, EXACT if improved else UPPER))
            if improved:
                alpha, line = v, [a] + pv[1]
        if not line:
            return None
        if tt_capacity:
            tt[key_of(state)] = (d, TT_EXACT, to_table(alpha, 0), line[0])
        return scores, line

    def table_line(line, d, score):
        """The principal variation, completed from the table where a table cut-off or the horizon left
        it short: to the end of a proven result, else to the iteration's depth."""
        length = int(WIN - abs(score)) if outcome_game and abs(score) >= PROVEN else d
        line, s = list(line), state
        for a in line:
            s = result(s, a)
        while len(line) < length and not is_terminal(s):
            hit = tt.get(key_of(s))
            if hit is None or hit[3] is None:
                break
            line.append(hit[3])
            s = result(s, hit[3])
        return line

    def threat_phase(ranking):
        """The game's threat-space search at the root, within its shares of the time: ``(completed,
        ranking)``, with ``completed`` the mover's forced win (its plies, the winning move's score, the
        line) or None, and the root's moves restricted to those that stop the opponent's forced win, when
        it has one and some do."""
        try:
            line = game.threat_win(state, deadline.share(WIN_SHARE), stats)
        except Timeout:
            line = None
        if line is not None:
            return (len(line), [(line[0], WIN - len(line), EXACT)], line), ranking
        try:
            defences = game.threat_defences(state, deadline.share(DEFENCE_SHARE), stats)
        except Timeout:
            defences = None
        if defences:
            kept = set(defences)
            ranking = [a for a in ranking if a in kept] + [a for a in defences if a not in ranking]
        return None, ranking

    def prove_win(ranking):
        """The mate search: ``(plies, scores, line)`` of the shortest forced win for the mover in at most
        ``MATE_MAX_MOVES`` of its moves, or None (none that short, or ``MATE_SHARE`` of the time passed).

        For n = 1, 2, ... a null-window pass asks whether some root move wins within ``2n - 1`` plies.
        It is full-width: no null moves and no reductions, so no defence goes unsearched, and it never
        reaches the horizon (mate-distance pruning stops every line at the ply of the last winning move),
        so no evaluation enters it: a win it finds is proven, and, every shorter n having failed over all
        the root's moves, the shortest one."""
        nonlocal extra, clock, horizon
        # (Without quiescence, whose noisy moves it would only use to order: the game's order has them first.)
        full, extra = extra, replace(extra, null_move=False, reductions=False, quiescence=False)
        clock = deadline.share(MATE_SHARE)
        try:
            children = [(a, result(state, a)) for a in ranking]
            for n in range(1, MATE_MAX_MOVES + 1):
                horizon = 2 * n - 1
                found = win_pass(horizon, children)
                if found is not None:
                    return found
        except Timeout:
            pass
        finally:
            extra, clock = full, deadline
        return None

    def win_pass(d, children):
        """Whether a root move wins within ``d`` plies (a win there scores ``WIN - d``, a later one less),
        given the root's ``(move, child)`` pairs: ``(d, scores, line)`` with that move's exact score last
        and, before it, the moves that do not (upper bounds: at best a win two plies later), or None."""
        lo = WIN - d - 0.5
        hi = math.nextafter(lo, math.inf)
        other, scores = opponent[root_player], []
        for a, child in children:
            mover = to_move(child)
            same = mover == root_player or sides[mover] == sides[root_player] and mover >= 0
            v = child_score(child, same, d, lo, hi, 0, root_player, other)
            if v > lo:
                scores.append((a, WIN - d, EXACT))
                return d, scores, table_line([a] + pv[1], d, WIN - d)
            scores.append((a, min(v, WIN - d - 2), UPPER))
        return None

    bound = game.plies_bound(state)
    last = MAX_ID_DEPTH if depth is None else depth
    if bound is not None:
        last = min(last, bound)
    # Iterative deepening cuts at every depth, which needs an evaluation; without one (a tree without
    # evals) there is a single pass, straight to the requested depth or to the end of the game.
    first_depth = 1 if EVALUATION in game.capabilities else last
    (ranking, root_complete), timed_out = searched_moves(state), False
    solver = solver_for(game, bound, deadline, solve) if depth is None else None
    if solver is not None:
        # A share of the time goes to an exact solve first: it finishes from the middle game on, and its
        # answer is perfect. When it cannot finish, the rest of the time deepens with the heuristic.
        solved = solver(game, state, deadline if solve else deadline.share(SOLVE_SHARE), ordering, tt_capacity,
                        tracer, ranking, stats)
        if solved is not None:
            return solved
        nodes, leaves, cutoffs, tt_hits, max_ply = (stats.nodes, stats.leaves, stats.cutoffs, stats.tt_hits,
                                                     stats.max_depth)
        stats.stop_reason = COMPLETED
    completed, completed_score, exhausted = None, 0.0, False
    threats = outcome_game and THREATS in game.capabilities and declares(game, "alternating")
    if threats:
        searched_first = ranking
        stats.nodes = nodes                            # the threat search adds the positions it visits
        completed, ranking = threat_phase(ranking)
        nodes = stats.nodes
        if completed is not None:
            stats.stop_reason = SOLVED
        elif ranking is not searched_first:
            root_complete = False                      # the moves left out may stop the threat too
    if completed is None and depth is None and outcome_game and (extra.null_move or extra.reductions):
        completed = prove_win(ranking)                 # a proven win ends the search: no deepening
        if completed is not None:
            stats.stop_reason = SOLVED
    try:
        for d in range(first_depth, last + 1) if completed is None else ():
            nodes += 1
            root_entry = trace_visit(0, -math.inf, math.inf, root_player) if tracer else None
            horizon = d
            searched = None
            if extra.aspiration and completed is not None and abs(completed_score) < PROVEN:
                width = game.aspiration_width(state)
                searched = root_pass(d, ranking, completed_score - width, completed_score + width)
            scores, line = searched or root_pass(d, ranking)
            best_score = completed_score = max(v for _, v, _ in scores)
            if not root_complete and best_score < PROVEN:
                guesses += 1
            if tt_capacity:
                line = table_line(line, d, best_score)
            completed = (d, scores, line)
            if root_entry:
                root_entry["value"] = as_value(sign * best_score)
            deadline.report(depth=d, value=as_value(sign * best_score), move=line[0], pv=line, nodes=nodes,
                            seldepth=max_ply)
            ranking = [m for m, _, _ in sorted(scores, key=lambda ms: -ms[1])]  # stable: best first
            if outcome_game and (best_score >= PROVEN or best_score <= -PROVEN and root_complete):
                stats.stop_reason = SOLVED
                break
            if not guesses:                            # every line ended by the rules: deeper is the same
                exhausted = True
                break
    except Timeout:
        timed_out = True
    tt.clear()                                         # on this search's time (TABLE_FREE_SECONDS_PER_ENTRY)

    stats.nodes, stats.leaves, stats.cutoffs, stats.tt_hits, stats.max_depth = (
        nodes, leaves, cutoffs, tt_hits, max_ply)
    if completed is None:
        fallback = first_move_fallback(game, state)
        return finish(game, state, stats, deadline, move=fallback.move, value=fallback.value, moves=[],
                      timed_out=True)
    d, scores, line = completed
    stats.depth_completed = d
    maximizing = sign == 1
    best_index = max(range(len(scores)), key=lambda i: (scores[i][1], -i))
    root_score = scores[best_index][1]
    # A win proven before the requested depth ends the deepening: the other moves' scores that are not
    # proven themselves are evaluations from a shallower search than asked for, estimates.
    cut_short = outcome_game and abs(root_score) >= PROVEN and not reaches_end(game, state, d)
    moves = [MoveValue(a, as_value(sign * v), ESTIMATE if cut_short and abs(v) < PROVEN
                       else b if maximizing else {UPPER: LOWER}.get(b, b))
             for a, v, b in scores]
    best = moves[best_index]
    outcome = plies = None
    if outcome_game and (root_score >= PROVEN or root_score <= -PROVEN and root_complete):
        outcome, plies = outcome_of(root_score), int(WIN - abs(root_score))
    elif exhausted or reaches_end(game, state, d) and not pruning:
        outcome = exact_outcome(game, best.value)
        if outcome is not None:
            plies = draw_length(game, state, line)
    answer = finish(game, state, stats, deadline, move=best.move, value=best.value, moves=moves, pv=line,
                    outcome=outcome, plies_to_end=plies, trace=tracer.entries if tracer else None,
                    timed_out=timed_out)
    return scored_outcome(game, state, answer, deadline, ordering, tt_capacity)


def solver_for(game, plies_left: int | None, deadline: Deadline, solve: bool):
    """The exact solver tried before the heuristic deepening, or None: the game's own endgame solver if it
    has one, else :func:`exact_solve` where it is correct (:func:`~engine.search.solver.can_solve`) and,
    unless ``solve`` asks for it whatever the length, the plies left (``plies_left``, None: unbounded) fit
    the time (see ``SOLVE_MAX_PLIES``)."""
    if has_endgame_solver(game):
        return endgame_solve
    if not can_solve(game):
        return None
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
