"""What every search shares: fitting checks, the root decision, and assembling the result."""
from collections.abc import Callable, Iterable, Sized
from itertools import count
import math
from typing import Any

from engine.game import EVALUATION, Game, Move, State
from engine.deadline import Deadline, Timeout
from engine.errors import AlgorithmMismatch, InvalidState
from engine.registry import EXPLICIT_CHANCE
from engine.search.scores import MAX_ID_DEPTH, TABLE_FREE_SECONDS_PER_ENTRY
from engine.registry import GameType
from engine.result import ESTIMATE, TIME_LIMIT, MoveValue, SearchResult, Stats

# The root moves a search may play (engine.root: a request's search_moves and exclude_moves), in the
# game's natural order; None: all of them.
RootMoves = tuple[Move, ...] | None

# A principal variation kept as nested pairs (move, rest), None at its end (see unlinked).
Linked = tuple[Move, "Linked"] | None


def require_deterministic_two_player(game: Game, name: str) -> None:
    """Minimax and alpha-beta need a zero-sum game of two sides without chance nodes."""
    if game.has_chance:
        raise AlgorithmMismatch(f"{name} cannot search a game with chance nodes; use expectimax or mcts")
    if game.n_players < 2 or not game.zero_sum:
        raise AlgorithmMismatch(f"{name} needs a zero-sum game of two sides; use maxn for "
                                f"{game.n_players} players")


def sides_of(game: Game) -> tuple[int, ...]:
    """The side (0 or 1) of every player of a zero-sum game, in player order (:attr:`Game.sides`): a
    search maximises at the nodes of the perspective player's side and minimises at the others'."""
    return game.sides if game.sides is not None else tuple(range(game.n_players))


def root_passes(game: Game, state: State, depth: int | None,
                root_pass: Callable[[int | None, list[MoveValue], list[list[Move]]], object],
                ) -> tuple[list[MoveValue], list[list[Move]], int | None, bool]:
    """The driver of minimax and textbook alpha-beta: one pass to ``depth`` plies (None: to the end of the
    game), except without a depth in a game that may never end (no ``plies_bound``, as in Pacman) and can
    evaluate where a depth cuts: there, passes of 1, 2, ... plies until the deadline passes (iterative
    deepening), answering with the last complete pass.

    ``root_pass(d, moves, lines)`` searches every root move ``d`` plies deep (None: unlimited), appending
    each one's :class:`MoveValue` to ``moves`` and its principal variation to ``lines`` as it is finished.
    Returns ``(moves, lines, d, timed_out)``: those of the last complete pass and its depth, or, if the
    first pass timed out, the root moves it finished (possibly none) and ``d`` 0.
    """
    endless = depth is None and game.plies_bound(state) is None and EVALUATION in game.capabilities
    done: tuple[list[MoveValue], list[list[Move]], int | None] | None = None
    depths: Iterable[int | None] = range(1, MAX_ID_DEPTH + 1) if endless else (depth,)
    for d in depths:
        moves: list[MoveValue] = []
        lines: list[list[Move]] = []
        try:
            root_pass(d, moves, lines)
        except Timeout:
            return (moves, lines, 0, True) if done is None else (*done, True)
        done = (moves, lines, d)
    assert done is not None  # there is at least one pass
    return (*done, False)


def declares(game: Game, assumption: str) -> bool:
    """Whether the game's type declares ``assumption`` (``"alternating"``, ``"key_fixes_ply"``); a game
    without a registered type declares nothing."""
    return game.game_type is not None and bool(getattr(game.game_type, assumption))


def deterministic_two_sided(game_type: GameType, name: str) -> str | None:
    """``requires`` of minimax and alpha-beta: None when some instance of the game type has no chance
    nodes and two zero-sum sides, else why the algorithm does not fit."""
    if game_type.chance == EXPLICIT_CHANCE:
        return f"{name} cannot search a game with chance nodes; use expectimax or mcts"
    if not game_type.zero_sum or (game_type.min_players or 0) > 2:
        return f"{name} needs two zero-sum sides; use maxn"
    return None


def best_move(moves: list[MoveValue], maximize: bool = True) -> MoveValue:
    """The root move with the highest value (the lowest, when the root player minimises the perspective
    player's value, as MIN does at the root of a typed tree); a tie goes to the first in list order."""
    best = moves[0]
    for mv in moves[1:]:
        if (mv.value > best.value) if maximize else (mv.value < best.value):
            best = mv
    return best


def chosen_line(passes: list[tuple[list[MoveValue], list[list[Move]]]], moves: list[MoveValue],
                best: MoveValue) -> list[Move] | None:
    """The principal variation of ``best`` among ``moves``, the root moves of one of ``passes`` (``(moves,
    lines)`` pairs: a pass's root moves and the line of each, as :func:`deepen`'s searches keep them); None
    when ``moves`` is of no pass or ``best`` is not among them (no root move was searched, and ``best`` is
    :func:`first_move_fallback`'s). ``best`` is found by identity: a value may be
    NaN (a max^n utility vector's), which equals nothing."""
    place = next((i for i, mv in enumerate(moves) if mv is best), None)
    if place is None:  # the fallback's move: no pass valued it
        return None
    return next((lines[place] for searched, lines in passes if searched is moves), None)


def unlinked(line: Linked) -> list[Move]:
    """A principal variation kept as nested pairs ``(move, rest)``, None at the end (cheap to extend at
    every node of a search), as a list of moves."""
    moves = []
    while line is not None:
        move, line = line
        moves.append(move)
    return moves


def outcome_of(value: float) -> str:
    """An exact value of an outcome game, read as the result for the perspective player."""
    return "win" if value > 0 else "loss" if value < 0 else "draw"


def exact_outcome(game: Game, value: float) -> str | None:
    """The proven result for the perspective player, when the game has win/draw/loss outcomes."""
    return outcome_of(value) if game.outcome_game else None


def reaches_end(game: Game, state: State, depth: int | None) -> bool:
    """Whether a complete search to ``depth`` plies (None: unlimited) sees every terminal state."""
    if depth is None:
        return True
    bound = game.plies_bound(state)
    return bound is not None and depth >= bound


def finish(game: Game, state: State, stats: Stats, deadline: Deadline, *, move: Move, value: float,
           moves: list[MoveValue], pv: Iterable[Move] | None = None, outcome: str | None = None,
           plies_to_end: int | None = None, values: list[float] | None = None, trace: list[Any] | None = None,
           timed_out: bool = False) -> SearchResult:
    """Stamp the statistics and build the :class:`SearchResult` from the root perspective. A search that
    valued no root move (its time ran out first: :func:`first_move_fallback`) has no value: None."""
    stats.timed_out = timed_out
    if timed_out:
        stats.stop_reason = TIME_LIMIT
    stats.finish(deadline.elapsed())
    return SearchResult(move=move, value=value if moves else None, perspective=game.players[game.perspective(state)],
                        outcome=outcome, plies_to_end=plies_to_end, pv=list(pv or [move]),
                        moves=moves, stats=stats, values=values, trace=trace)


def first_move_fallback(game: Game, state: State, root_moves: RootMoves = None) -> MoveValue:
    """The anytime answer when not even one root move was searched: the first ordered move (of
    ``root_moves``, where the root is restricted), without a value (NaN, which no answer reports:
    :func:`finish` answers None)."""
    return MoveValue(root_ordered(game, state, root_moves)[0], math.nan, bound=ESTIMATE)


def root_actions(game: Game, state: State, root_moves: RootMoves) -> list[Move]:
    """The root's moves in natural order: ``root_moves`` where the root is restricted, else all."""
    return game.actions(state) if root_moves is None else list(root_moves)


def root_ordered(game: Game, state: State, root_moves: RootMoves) -> list[Move]:
    """The root's moves best first (``game.ordered_actions``), only those of ``root_moves`` where given."""
    ordered = game.ordered_actions(state)
    return ordered if root_moves is None else [m for m in ordered if m in root_moves]


def require_decision_root(game: Game, state: State) -> None:
    """A search chooses a move for the player to move; at a chance node nobody chooses."""
    if game.to_move(state) < 0:
        raise InvalidState("this state is a chance node: no player moves here (apply a chance outcome "
                           "first)", field="state")


def player_bounds(game: Game) -> tuple[float, float] | None:
    """``(lo, hi)`` bounding every player's utility and evaluation, or None when unknown. In a two-player
    zero-sum game the second player's values are the first's negated, so the range covers both."""
    if game.utility_bounds is None:
        return None
    lo, hi = game.utility_bounds
    if game.zero_sum and game.n_players >= 2:
        return min(lo, -hi), max(hi, -lo)
    return lo, hi


def unit_interval(lo: float, hi: float) -> tuple[Callable[[float], float], Callable[[float], float]]:
    """``(to_unit, from_unit)``: the affine map of ``[lo, hi]`` onto ``[0, 1]`` and its inverse, for any
    finite bounds (a range of zero width maps to 0). Where ``hi - lo`` would overflow (the bounds near
    the largest float, of opposite signs) both work on halves; ``from_unit`` clamps to ``[lo, hi]``, so
    that rounding can never step outside the range, nor overflow."""
    span = hi - lo
    if math.isfinite(span):
        span = span or 1.0
        return (lambda u: (u - lo) / span), (lambda x: min(hi, max(lo, lo + span * x)))
    half_lo, half_span = lo / 2, hi / 2 - lo / 2
    return ((lambda u: (u / 2 - half_lo) / half_span),
            (lambda x: min(hi, max(lo, lo + half_span * x + half_span * x))))


def deepen(game: Game, depth: int | None, root_pass: Callable[[int | None, list[MoveValue]], bool],
           step: int = 1) -> tuple[list[MoveValue], int | None, bool]:
    """The anytime driver of the depth-first searches that value every root move (expectimax, maxn).

    ``root_pass(d, moves)`` searches every root move ``d`` plies deep (None: to the end of the game),
    appending a :class:`MoveValue` to ``moves`` as each is finished, and returns whether no depth cut-off
    happened (the pass saw every terminal state). With a depth, or when the game cannot evaluate states
    where a depth limit would cut (a tree without evals), there is one pass; otherwise iterative deepening
    runs passes of 1, 1 + step, 1 + 2 step, ... plies until one sees the whole game or the deadline passes.

    Returns ``(moves, depth_completed, timed_out)``: the moves of the last complete pass (or, if the first
    pass timed out, the root moves it finished, possibly none) and that pass's depth (None for a complete
    unlimited pass, 0 when none completed).
    """
    depths: Iterable[int | None] = ([depth] if depth is not None or EVALUATION not in game.capabilities
                                    else count(1, step))
    completed: list[MoveValue] | None = None
    completed_depth: int | None = 0
    for d in depths:
        moves: list[MoveValue] = []
        try:
            exhausted = root_pass(d, moves)
        except Timeout:
            return (moves if completed is None else completed), completed_depth, True
        completed, completed_depth = moves, d
        if exhausted:
            break
    assert completed is not None  # there is at least one pass
    return completed, completed_depth, False


def count_node(stats: Stats, ply: int, deadline: Deadline, table: Sized) -> None:
    """One more node, ``ply`` plies below the root, in ``stats``; every ``Deadline.CHECK_MASK + 1`` nodes,
    the deadline is checked with room left to free ``table`` (a transposition table) before it passes."""
    stats.nodes += 1
    if not stats.nodes & Deadline.CHECK_MASK:
        deadline.check_room(len(table) * TABLE_FREE_SECONDS_PER_ENTRY, stats.nodes)
    if ply > stats.max_depth:
        stats.max_depth = ply
