"""The phases of the principal-variation search (engine/search/pvs.py) and the parts of its node search
(engine/search/negamax.py), each alone."""
from dataclasses import replace
import math

from engine.deadline import Deadline, Timeout
from engine.games import chess, pacman, tictactoe
from engine.result import EXACT, SOLVED, UPPER, Stats
from engine.search.negamax import HISTORY_MAX, LIKELY_LOSS, Enhancements, Negamax, StaticEval
from engine.search.pvs import (aspiration_pass, deepen, interrupted, prove_win, root_pass, same_side, solve_share,
                               table_line, threat_phase, win_pass)
from engine.search.scores import WIN

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
HANGING_QUEEN = "rnb1kbnr/pppp1ppp/8/4p1q1/3P4/2N5/PPP1PPPP/R1BQKBNR w KQkq - 0 1"   # white's c1 bishop takes g5


def negamax(game, state, ordering=True, tt_capacity=1000, tracer=None):
    return Negamax(game, game.perspective(state), Deadline(None), ordering, tt_capacity, tracer, Stats())


def tictactoe_search(board, **kw):
    game, state = tictactoe.load({"board": board})
    return negamax(game, state, **kw), state


def test_the_enhancements_are_those_the_game_lists_where_players_alternate():
    game, _ = chess.load({"fen": START})
    assert Enhancements.of(game, True, False) == Enhancements(True, True, True, True, True, True, True, True)
    traced = Enhancements.of(game, True, True)                 # a trace shows every move: no forward pruning
    assert not traced.null_move and not traced.reductions and not traced.futility and traced.quiescence
    assert traced.exchange
    assert not Enhancements.of(game, False, False).null_move
    ghosts, _ = pacman.load(pacman.GAME_TYPE.initial_state)    # the players do not alternate
    assert Enhancements.of(ghosts, True, False) == Enhancements()


def test_moves_are_ordered_table_move_then_killers_then_history():
    search, _ = tictactoe_search(["...", "...", "..."])
    search.history, search.killers = {5: 10, 7: 3}, {1: [2]}
    assert search.order([0, 1, 2, 5, 7], 0, 1) == [0, 2, 5, 7, 1]
    plain, _ = tictactoe_search(["...", "...", "..."], ordering=False)
    assert plain.order([0, 1, 2], 2, 0) == [2, 0, 1]


def test_a_cutoff_makes_a_killer_and_earns_history():
    search, _ = tictactoe_search(["...", "...", "..."])
    for move in (4, 0, 4, 8):
        search.remember_cutoff(move, 2, 3)
    assert search.killers[2] == [8, 0] and search.history == {4: 18, 0: 9, 8: 9}


def test_with_quiescence_a_quiet_cutoff_costs_the_quiet_moves_before_it_and_history_stays_bounded():
    game, state = chess.load({"fen": START})
    search = negamax(game, state)
    quiet, other, later = game.actions(state)[:3]
    capture = 99999                                            # (any move listed as noisy)
    search.remember_cutoff(later, 2, 3, [quiet, capture, other], {capture})
    assert search.history == {later: 9, quiet: -9, other: -9}
    search.remember_cutoff(capture, 2, 3, [quiet], {capture})   # a noisy cut-off costs the others nothing
    assert search.history == {later: 9, quiet: -9, other: -9, capture: 9}
    for _ in range(2000):
        search.remember_cutoff(later, 30, 30, [quiet], ())
    assert 0.9 * HISTORY_MAX < search.history[later] <= HISTORY_MAX
    assert -HISTORY_MAX <= search.history[quiet] < -0.9 * HISTORY_MAX


def test_with_quiescence_the_quiet_move_that_refuted_a_move_goes_after_the_killers_when_it_is_played_again():
    game, state = chess.load({"fen": START})
    search = negamax(game, state)
    moves = game.actions(state)
    previous, refutation, killer = moves[0], moves[7], moves[5]
    search.path[1] = previous
    search.remember_cutoff(refutation, 2, 3)
    assert search.counters == {previous: refutation}
    search.history.clear()                                     # (the order is the countermove's alone)
    search.killers[2] = [killer]
    assert search.order(moves, None, 2)[:2] == [killer, refutation]
    search.path[1] = moves[1]                                  # another move led here: no countermove
    assert search.order(moves, None, 2)[1] != refutation
    search.path[1] = None                                      # after a pass, none is kept either
    search.remember_cutoff(moves[9], 2, 3)
    assert search.counters == {previous: refutation} and search.counter(2) is None


def test_late_quiet_moves_are_reduced_never_noisy_ones_nor_killers():
    game, state = chess.load({"fen": START})
    search = negamax(game, state)
    moves = game.actions(state)
    search.killers[0] = [moves[4]]
    assert search.reducible(state, 2, moves, 0, ()) == ()     # too shallow
    quiet = search.reducible(state, 3, moves, 0, [moves[3]])
    assert quiet == set(moves[5:])
    child = game.result(state, moves[5])
    assert search.late_move_reduction(2, moves[2], 3, True, child, quiet) == 0


def test_late_move_reductions_grow_with_depth_and_place_and_follow_the_history():
    """int(0.75 + ln(depth) ln(place) / 2.25), a ply less on the principal variation, a ply less (more) a
    8192 of good (bad) history, at least one ply left: counted by hand."""
    game, state = chess.load({"fen": START})
    search = negamax(game, state)
    moves = game.actions(state)
    quiet = set(moves)
    a, child = moves[5], game.result(state, moves[5])
    assert search.late_move_reduction(5, a, 3, True, child, quiet) == 1    # 0.75 + 1.0986 * 1.6094 / 2.25
    assert search.late_move_reduction(5, a, 3, False, child, quiet) == 0   # on the principal variation
    assert search.late_move_reduction(19, a, 10, True, child, quiet) == 3  # 0.75 + 2.3026 * 2.8904 / 2.25
    assert search.late_move_reduction(19, a, 10, False, child, quiet) == 2
    assert search.late_move_reduction(19, a, 4, True, child, quiet) == 2   # 2.56 plies, but two at most of 4
    search.history[a] = 8192
    assert search.late_move_reduction(19, a, 10, True, child, quiet) == 2
    search.history[a] = -16384
    assert search.late_move_reduction(19, a, 10, True, child, quiet) == 5
    assert search.late_move_reduction(19, a, 4, True, child, quiet) == 2


def test_a_node_the_table_gives_no_move_for_is_searched_a_ply_shallower():
    """Internal iterative reduction: with an empty table, a 4-ply node is searched as a 3-ply one (the same
    nodes, the same score, kept in the table as 3 plies deep); once the table has its move, it is searched 4
    plies deep; without reductions, never reduced."""
    game, state = chess.load({"fen": HANGING_QUEEN})
    white = game.to_move(state)
    reduced, shallow = negamax(game, state), negamax(game, state)
    score = reduced.negamax(state, 4, -math.inf, math.inf, 0, white)
    assert score == shallow.negamax(state, 3, -math.inf, math.inf, 0, white)
    assert reduced.stats.nodes == shallow.stats.nodes
    assert reduced.tt[reduced.key_of(state)][0] == 3
    before = reduced.stats.nodes
    reduced.negamax(state, 4, -math.inf, math.inf, 0, white)
    assert reduced.tt[reduced.key_of(state)][0] == 4 and reduced.stats.nodes - before > 1
    full = negamax(game, state)
    full.extra = replace(full.extra, reductions=False)
    full.negamax(state, 4, -math.inf, math.inf, 0, white)
    assert full.tt[full.key_of(state)][0] == 4


def test_quiescence_plays_on_through_a_capture_and_stands_pat_above_beta():
    game, state = chess.load({"fen": HANGING_QUEEN})
    search = negamax(game, state)
    white = game.to_move(state)
    stand = game.evaluate(state, white)
    assert search.quiesce(state, -math.inf, math.inf, 0, white, False) > stand + 0.05   # a queen: 0.09
    assert search.quiesce(state, -math.inf, stand - 1, 0, white, False) == stand


def test_a_pass_that_keeps_the_score_above_beta_cuts():
    game, state = chess.load({"fen": HANGING_QUEEN})
    search = negamax(game, state)
    white = game.to_move(state)
    stand = game.evaluate(state, white)
    static = StaticEval(game.evaluate, state, white)
    assert search.null_move_score(state, 3, stand + 1, 0, white, static) is None    # below beta: no pass tried
    assert search.stats.nodes == 0
    cut = search.null_move_score(state, 3, stand - 0.2, 0, white, static)
    assert cut is not None and cut >= stand - 0.2 and search.stats.nodes > 0


def test_a_static_evaluation_is_computed_once_when_first_needed():
    game, state = chess.load({"fen": START})
    calls = []

    def evaluate(s, player):
        calls.append(s)
        return game.evaluate(s, player)

    stand = StaticEval(evaluate, state, game.to_move(state))
    assert calls == []
    assert stand() == stand() == game.evaluate(state, game.to_move(state)) and calls == [state]


def evaluations_of(search, state):
    """Count the node search's evaluations of ``state`` itself (not of its children): a list that grows."""
    seen, evaluate = [], search.evaluate
    search.evaluate = lambda s, player: (seen.append(1) if s is state else None, evaluate(s, player))[1]
    return seen


def test_a_node_evaluates_its_position_once_for_all_its_pruning_tests():
    """Reverse futility then the null move (depth 3), reverse futility then futility (depth 2): each
    test reads the node's evaluation, which is computed once."""
    game, state = chess.load({"fen": HANGING_QUEEN})
    white, margin = game.to_move(state), game.futility_margin(state)
    stand = game.evaluate(state, white)
    for d, alpha in [(3, stand - margin), (2, stand + 3 * margin)]:
        search = negamax(game, state)
        seen = evaluations_of(search, state)
        search.negamax(state, d, alpha, math.nextafter(alpha, math.inf), 1, white)
        assert len(seen) == 1 and search.stats.nodes > 1


def scout(alpha):
    """A null window just above ``alpha``: ``(alpha, beta)``."""
    return alpha, math.nextafter(alpha, math.inf)


def test_a_shallow_scout_node_far_above_beta_is_cut_on_its_evaluation():
    """Reverse futility: a queen up, a depth-2 scout node whose evaluation beats beta by more than two
    margins returns the evaluation without a move; without futility it searches."""
    game, state = chess.load({"fen": "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"})
    white = game.to_move(state)
    stand = game.evaluate(state, white)
    alpha, beta = scout(stand - 2 * game.futility_margin(state) - 0.001)
    search = negamax(game, state)
    assert search.negamax(state, 2, alpha, beta, 1, white) == stand and search.stats.nodes == 1
    assert search.negamax(state, 2, stand - 0.001, math.nextafter(stand - 0.001, math.inf), 1, white) != stand
    blind = negamax(game, state)
    blind.extra = replace(blind.extra, futility=False)
    blind.negamax(state, 2, alpha, beta, 1, white)
    assert blind.stats.nodes > 1


def test_a_shallow_scout_node_far_below_alpha_searches_only_its_first_and_noisy_moves():
    """Futility pruning: a queen down, a depth-1 scout node far below alpha skips its quiet moves after
    the first (none of them checks); it still fails low, as the full search does."""
    game, state = chess.load({"fen": "3qk3/8/8/8/8/8/PPP5/R3K3 w - - 0 1"})
    white = game.to_move(state)
    alpha, beta = scout(game.evaluate(state, white) + 3 * game.futility_margin(state))
    pruned, full = negamax(game, state), negamax(game, state)
    full.extra = replace(full.extra, futility=False)
    assert pruned.negamax(state, 1, alpha, beta, 1, white) <= alpha
    assert full.negamax(state, 1, alpha, beta, 1, white) <= alpha
    assert pruned.stats.nodes == 2 < full.stats.nodes          # the node and its first move


def test_quiescence_skips_a_capture_that_loses_its_exchange():
    """The rook takes a knight guarded by a pawn: within delta pruning's margin, but the exchange loses."""
    game, state = chess.load({"fen": "4k3/8/2p5/3n4/8/8/8/3RK3 w - - 0 1"})
    white = game.to_move(state)
    assert [a for _, a in game.noisy_actions(state)] and game.exchange(state, game.noisy_actions(state)[0][1]) < 0
    search, blind = negamax(game, state), negamax(game, state)
    blind.extra = replace(blind.extra, exchange=False)
    search.quiesce(state, -math.inf, math.inf, 0, white, False)
    blind.quiesce(state, -math.inf, math.inf, 0, white, False)
    assert search.stats.nodes == 0 < blind.stats.nodes


def test_captures_that_lose_their_exchange_go_after_the_killers():
    search, _ = tictactoe_search(["...", "...", "..."])
    search.killers = {1: [2, 3]}
    assert search.order([0, 1, 2, 3, 4, 5], None, 1, [4, 3], {3}) == [4, 2, 3, 0, 1, 5]
    assert search.order([0, 1, 2, 3, 4, 5], None, 1, [4, 3]) == [4, 3, 2, 0, 1, 5]


def test_a_node_whose_candidates_all_lose_is_a_likely_loss_when_moves_were_left_out():
    search, state = tictactoe_search(["X.X", ".O.", "..."])

    def searched_moves(s):                                 # O's block left out at the root
        moves = search.game.actions(s)
        return ([m for m in moves if m != 1][:1], False) if s == state else (moves, True)

    search.searched_moves = searched_moves
    assert search.negamax(state, 2, -math.inf, math.inf, 0, 1) == LIKELY_LOSS    # O to move: X wins anyway


class Threats:
    """A game's threat-space search, scripted."""

    def __init__(self, win=None, defences=None):
        self.win, self.defences = win, defences

    def threat_win(self, state, deadline, stats):
        stats.nodes += 5
        if self.win is Timeout:
            raise Timeout()
        return self.win

    def threat_defences(self, state, deadline, stats):
        stats.nodes += 7
        return self.defences


def test_the_threat_phase_plays_a_forced_win():
    stats, ranking = Stats(), [1, 2, 3]
    completed, kept = threat_phase(Threats(win=[3, 4, 5]), None, Deadline(None), stats, ranking)
    assert completed == (3, [(3, WIN - 3, EXACT)], [3, 4, 5], [[3, 4, 5]]) and kept is ranking and stats.nodes == 5


def test_the_threat_phase_keeps_the_moves_that_stop_the_opponents_win():
    stats, ranking = Stats(), [1, 2, 3]
    completed, kept = threat_phase(Threats(defences=[2, 9]), None, Deadline(None), stats, ranking)
    assert completed is None and kept == [2, 9] and stats.nodes == 12
    completed, kept = threat_phase(Threats(win=Timeout, defences=[]), None, Deadline(None), Stats(), ranking)
    assert completed is None and kept is ranking           # no defence at all: every move is searched


def test_the_mate_search_finds_the_shortest_win_full_width_and_restores_the_search():
    search, state = tictactoe_search(["X.X", ".O.", "O.."])
    extra, clock = search.extra, search.clock
    found = prove_win(search, state, [3, 5, 7, 1, 8], clock)
    assert found is not None and found[0] == 1 and found[2] == [1]
    assert found[1][-1] == (1, WIN - 1, EXACT) and all(b == UPPER for _, _, b in found[1][:-1])
    assert search.extra is extra and search.clock is clock
    blocked, state = tictactoe_search(["XOX", ".O.", "..."])
    assert prove_win(blocked, state, blocked.game.actions(state), Deadline(None)) is None


def test_a_win_pass_bounds_the_moves_that_do_not_win_in_time():
    search, state = tictactoe_search(["X.X", ".O.", "O.."])
    children = [(a, search.game.result(state, a)) for a in (3, 1)]
    d, scores, line, lines = win_pass(search, state, 1, children)
    assert d == 1 and line == [1] and lines == [None, [1]] and scores == [(3, scores[0][1], UPPER), (1, WIN - 1, EXACT)]
    assert scores[0][1] <= WIN - 3
    assert win_pass(search, state, 1, children[:1]) is None


def test_a_root_pass_gives_up_outside_its_aspiration_window():
    search, state = tictactoe_search(["X..", ".O.", "..."])
    moves = search.game.actions(state)
    scores, line, _ = root_pass(search, state, 2, moves)
    assert scores[0][2] == EXACT and line[0] == max(scores, key=lambda s: s[1])[0]
    best = max(v for _, v, _ in scores)
    assert root_pass(search, state, 2, moves, best + 0.01, best + 0.02) is None   # every move fails low
    assert root_pass(search, state, 2, moves, best - 0.02, best - 0.01) is None   # a move reaches hi
    narrow, narrow_line, _ = root_pass(search, state, 2, moves, best - 0.01, best + 0.01)
    assert narrow_line == line and [v for _, v, _ in narrow] == [v for _, v, _ in scores]


def test_the_principal_variation_is_completed_from_the_table():
    search, state = tictactoe_search(["X..", ".O.", "..."])
    scores, line, _ = root_pass(search, state, 4, search.game.actions(state))
    assert len(table_line(search, state, line[:1], 4, 0.0)) == 4
    assert table_line(search, state, line[:1], 1, 0.0) == line[:1]


def test_deepening_stops_when_every_line_ended_by_the_rules():
    search, state = tictactoe_search(["...", "...", "..."], tt_capacity=0)
    completed, exhausted, timed_out = deepen(search, state, search.game.actions(state), True, 1, 9,
                                             Deadline(None))
    assert completed[0] == 9 and exhausted and not timed_out
    assert max(v for _, v, _ in completed[1]) == 0


def test_deepening_stops_at_a_proven_win():
    search, state = tictactoe_search(["X.X", ".O.", "O.."])
    completed, exhausted, timed_out = deepen(search, state, search.game.actions(state), True, 1, 9,
                                             Deadline(None))
    assert completed[0] == 1 and search.stats.stop_reason == SOLVED and not exhausted and not timed_out


def test_a_pass_the_deadline_stops_gives_the_better_move_it_found():
    """The interrupted pass's last move with an exact score beat its first move (the last pass's best):
    the answer plays it, the moves searched carry the deeper scores, the depth stays; not where the pass
    found nothing better, with several lines, or in a game without quiescence."""
    game, state = chess.load({"fen": START})
    search = negamax(game, state, tt_capacity=0)
    a, b, c = game.ordered_actions(state)[:3]
    completed = (3, [(a, 0.1, EXACT), (b, 0.0, UPPER), (c, -0.1, UPPER)], [a, c], [[a, c], None, None])
    progress = ([(a, -0.2, EXACT), (b, 0.05, EXACT)], [[a, b], [b, a]])
    assert interrupted(search, state, completed, progress, 1) == (
        3, [(a, -0.2, EXACT), (b, 0.05, EXACT), (c, -0.1, UPPER)], [b, a], [[a, b], [b, a], None])
    nothing_better = ([(a, -0.2, EXACT), (b, -0.3, UPPER)], [[a, b], None])
    assert interrupted(search, state, completed, nothing_better, 1) is completed
    assert interrupted(search, state, completed, progress, 2) is completed
    assert interrupted(search, state, None, progress, 1) is None
    board, _ = tictactoe_search(["...", "...", "..."], tt_capacity=0)   # no quiescence
    assert interrupted(board, state, completed, progress, 1) is completed


def test_the_solve_share_goes_to_a_solver_that_fits_and_counts_its_nodes():
    game, state = chess.load({"fen": START})
    stats = Stats()
    assert solve_share(game, state, Deadline(None), None, False, True, 1000, None, [], stats) is None
    assert stats.nodes == 0                                  # chess has no solver: nothing ran
    game, state = tictactoe.load({"board": ["X..", ".O.", "..."]})
    solved = solve_share(game, state, Deadline(None), 7, False, True, 1000, None, game.actions(state), Stats())
    assert solved.outcome == "draw" and solved.stats.stop_reason == SOLVED and solved.stats.nodes > 0


def test_a_leaf_without_a_mover_is_valued_for_the_other_side():
    search, state = tictactoe_search(["X..", ".O.", "..."])
    child = search.game.result(state, 1)
    assert not same_side(search, child, 0) and same_side(search, child, 1)


class Widths:
    """A game's aspiration window, fixed."""

    def __init__(self, game, width):
        self.game, self.width = game, width

    def __getattr__(self, name):
        return getattr(self.game, name)

    def aspiration_width(self, state):
        return self.width


def test_an_aspiration_pass_searches_again_when_the_score_falls_outside_its_window():
    search, state = tictactoe_search(["X..", ".O.", "..."])
    moves = search.game.actions(state)
    scores, line, _ = root_pass(search, state, 2, moves)
    best = max(v for _, v, _ in scores)
    search.game = Widths(search.game, 0.05)
    for guess in (best, best + 1.0, best - 1.0):              # inside; far above (every move fails low); below
        narrow, narrow_line, _ = aspiration_pass(search, state, 2, moves, guess)
        assert narrow_line == line and max(v for _, v, _ in narrow) == best
