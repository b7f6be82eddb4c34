"""An :class:`engine.result.SearchResult` as the JSON body of ``POST /v1/search``."""
from engine.api import Line, MoveValue, Progress, SearchResult, finite, scale, value_scale as game_value_scale


def scored(value_scale: str, value: float, outcome: str | None = None, plies_to_end: int | None = None) -> dict:
    """``score`` and ``win_probability`` of a value (:mod:`engine.scale`), in the game's ``value_scale``."""
    return {"score": scale.score(value_scale, value, outcome, plies_to_end),
            "win_probability": scale.win_probability(value_scale, value, outcome)}


def move_value(mv: MoveValue, notation: str | None = None, value_scale: str = scale.VALUE) -> dict:
    """One root move; ``values`` only in n-player searches, the move in the game's ``notation`` (chess:
    ``san``) only in games that have one; ``score`` and ``win_probability`` of its value as it is (a root
    move's proven distance is not known: a won chess move's value is 100 pawns, ``cp`` 10000)."""
    out = {"move": mv.move, "value": finite(mv.value), **scored(value_scale, finite(mv.value)),
           "bound": mv.bound, "visits": mv.visits}
    if mv.notation is not None:
        out[notation] = mv.notation
    if mv.values is not None:
        out["values"] = [finite(v) for v in mv.values]
    if mv.certainty_equivalent is not None:
        out["certainty_equivalent"] = finite(mv.certainty_equivalent)
    return out


def line_json(line: Line, notation: str | None = None, value_scale: str = scale.VALUE) -> dict:
    """One multi-PV line (``algorithm.multi_pv``): the root move, its exact value (MCTS: its mean, bound
    ``estimate``) with ``score`` and ``win_probability``, its proof where there is one, its principal
    variation, and in a game with a ``notation`` (chess: ``san``) the line in it too (``pv_san``, null when
    the deadline left no time to write it)."""
    value = finite(line.value)
    out = {"move": line.move, "value": value, **scored(value_scale, value, line.outcome, line.plies_to_end),
           "bound": line.bound, "outcome": line.outcome, "plies_to_end": line.plies_to_end, "pv": list(line.pv),
           "visits": line.visits}
    if notation is not None:
        out["pv_" + notation] = line.pv_notation
    return out


def search_response(result: SearchResult, algorithm: dict, trace: bool, game_id: str) -> dict:
    """The documented fields in the documented order; ``values`` only for n-player searches,
    ``certainty_equivalent`` only for expectimax, ``trace`` only when it was asked for (the engine
    caps it in entries and bytes: :class:`engine.search.trace.Tracer`), the move and the principal variation in the game's own notation (chess:
    ``san`` and ``pv_san``) only in games that have one, ``clock`` only under a clock (what it allotted and
    used), and ``algorithm``, the settings the search ran with
    (for ``auto``, also what it chose and the level's handicap). ``players`` are the ids of the instance's
    players in player order (``values`` are in that order; null only when the time ran out before the state
    was read), ``options`` the game options the search ran under (sent in ``options`` or, as before, in
    ``algorithm``). ``score`` and ``win_probability`` put the
    value on the common scale of :mod:`engine.scale`, by the game's ``value_scale``. ``lines``, only when
    ``algorithm.multi_pv`` > 1: the best root moves, best first (:func:`line_json`)."""
    value_scale = result.value_scale or game_value_scale(game_id)
    value = None if result.value is None else finite(result.value)
    body = {
        "move": result.move,
        "value": value,
        **(scored(value_scale, value, result.outcome, result.plies_to_end) if value is not None
           else {"score": None, "win_probability": None}),
        "wdl": result.wdl,
        "bound": result.bound,
        "perspective": result.perspective,
        "players": result.players,
        "position_key": result.position_key,
        "outcome": result.outcome,
        "plies_to_end": result.plies_to_end,
        "pv": list(result.pv),
        "moves": [move_value(mv, result.notation, value_scale) for mv in result.moves],
        "stats": result.stats.to_dict(),
    }
    if result.lines is not None:
        body["lines"] = [line_json(line, result.notation, value_scale) for line in result.lines]
    if result.notation is not None:
        body[result.notation], body["pv_" + result.notation] = result.move_notation, result.pv_notation
    if result.move_extras:
        body.update(result.move_extras)
    if result.values is not None:
        body["values"] = [finite(v) for v in result.values]
    if result.certainty_equivalent is not None:
        body["certainty_equivalent"] = finite(result.certainty_equivalent)
    if result.clock is not None:
        body["clock"] = result.clock
    if trace:
        body["trace"] = result.trace or []
    body["options"] = result.options or {}
    body["algorithm"] = algorithm if result.auto is None else {**algorithm, **result.auto}
    return body


def progress_info(progress: Progress, game_id: str) -> dict:
    """A progress report as the data of a streamed ``info`` event: the fields of a UCI ``info`` line, with
    the value's ``score`` and ``win_probability`` (no proof yet: from the value alone), in a game with a
    notation (chess: ``san``) the line in it (``pv_san``), and with ``algorithm.multi_pv`` the
    iteration's best ``lines`` (:func:`line_json`, their lines in the notation too)."""
    seconds = progress.time_ms / 1000.0
    info = {
        "depth": progress.depth,
        "seldepth": progress.seldepth,
        "value": finite(progress.value),
        **scored(progress.value_scale or game_value_scale(game_id), finite(progress.value)),
        "move": progress.move,
        "pv": list(progress.pv),
        "nodes": progress.nodes,
        "nodes_per_second": int(progress.nodes / seconds) if seconds > 0 else 0,
        "time_ms": progress.time_ms,
        "iterations": progress.iterations,
    }
    if progress.notation is not None:
        info["pv_" + progress.notation] = progress.pv_notation
    if progress.lines is not None:
        value_scale = progress.value_scale or game_value_scale(game_id)
        info["lines"] = [line_json(line, progress.notation, value_scale) for line in progress.lines]
    return info
