"""What every search shares: fitting checks, the root decision, and assembling the result."""
from engine.errors import AlgorithmMismatch
from engine.result import COMPLETED, TIME_LIMIT, EXACT, MoveValue, SearchResult, Stats


def require_deterministic_two_player(game, name: str) -> None:
    """Minimax and alpha-beta need a two-player zero-sum game without chance nodes."""
    if game.has_chance:
        raise AlgorithmMismatch(f"{name} cannot search a game with chance nodes; use expectimax or mcts")
    if game.n_players != 2 or not game.zero_sum:
        raise AlgorithmMismatch(f"{name} needs a two-player zero-sum game; use maxn for "
                                f"{game.n_players} players")


def check_depth(depth) -> None:
    if depth is not None and depth < 1:
        raise AlgorithmMismatch("depth must be an integer >= 1", field="algorithm.depth")


def best_move(moves: list) -> MoveValue:
    """The root move with the highest value; a tie goes to the first in the list's order."""
    best = moves[0]
    for mv in moves[1:]:
        if mv.value > best.value:
            best = mv
    return best


def outcome_of(value: float) -> str:
    """An exact value of an outcome game, read as the result for the perspective player."""
    return "win" if value > 0 else "loss" if value < 0 else "draw"


def finish(game, state, stats: Stats, deadline, *, move, value, moves, pv=None, outcome=None,
           plies_to_end=None, values=None, trace=None, timed_out=False) -> SearchResult:
    """Stamp the statistics and build the :class:`SearchResult` from the root perspective."""
    stats.timed_out = timed_out
    if timed_out:
        stats.stop_reason = TIME_LIMIT
    stats.finish(deadline.elapsed())
    return SearchResult(move=move, value=value, perspective=game.players[game.perspective(state)],
                        outcome=outcome, plies_to_end=plies_to_end, pv=list(pv or [move]),
                        moves=moves, stats=stats, values=values, trace=trace)


def first_move_fallback(game, state) -> MoveValue:
    """The anytime answer when not even one root move was searched: the first ordered move."""
    return MoveValue(game.ordered_actions(state)[0], 0.0, bound="upper")


__all__ = ["require_deterministic_two_player", "check_depth", "best_move", "outcome_of", "finish",
           "first_move_fallback", "COMPLETED", "EXACT", "MoveValue", "Stats"]
