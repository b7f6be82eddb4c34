"""The engine's front door: look a game up, load a JSON state, run an algorithm under a deadline.

Everything here takes and returns JSON-shaped values (dicts, lists, numbers, strings), so that the service
only has to validate shapes and serialise. Engine errors (:mod:`engine.errors`) name the field at fault.
Games come from the registry (:mod:`engine.registry`), algorithms from theirs (:mod:`engine.search`).
"""
from collections.abc import Callable, Iterable, Set
import dataclasses
from dataclasses import dataclass
import heapq
import math
import sys
import time
from types import ModuleType
from typing import Any

from engine.clock import Allotment, Clock, TimeManager, allot, hard_cap_ms
from engine.collector import held_off
from engine.deadline import MAX_NODES, Deadline, ReadTimeout, reading
from engine.errors import (AlgorithmMismatch, EngineError, GameOver, InvalidState, UnknownSetting,
                           unknown_option_message, unknown_setting_message)
from engine import scale
from engine.limits import MAX_LISTED_MOVES, Limits
from engine.game import JSON, Game, State
from engine.root import allowed_moves
from engine.result import CANCELLED, CLOCK, ESTIMATE, FORCED, ITERATION_LIMIT, NODE_LIMIT, TIME_LIMIT, Line, MoveValue, Progress, SearchResult, Stats, finite
from engine.registry import GAME_MODULES, game_module, game_type, game_types
from engine.replay import replayed
from engine.review import Review, from_pgn
from engine.search import ALGORITHM_MODULES, algorithm_module, fitting_algorithms, mcts, native
from engine.search.multipv import MAX_MULTI_PV
from engine.search.settings import BOOLEAN, INTEGER, STRING, AlgorithmSettings, setting, settings_from

# Receives a search's progress reports (engine.result.Progress), their moves in JSON form.
ProgressCallback = Callable[[Progress], None]

# Otherwise such a position is searched this long at most (for its value, a proof, a principal variation).
FORCED_MOVE_BUDGET_S = 0.050

# Seconds past a search's deadline that writing its moves in the game's notation (chess: SAN) may take.
NOTATION_GRACE = 0.010

# Search depth is capped (trees by Limits.max_tree_depth, boards by their size); each ply costs a few
# Python frames, so leave ample head room above the default limit of 1000.
sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))

__all__ = ["GAME_MODULES", "ALGORITHM_MODULES", "Limits", "algorithm_module", "game_module", "load", "search", "Search",
           "legal_moves", "apply", "replayed", "review", "from_pgn", "describe_games", "describe_game", "preload", "settings_for",
           "request_settings", "option_schemas", "merged", "echoed_defaults", "value_scale", "cores_status",
           "chess_nnue_status", "chess_board", "Clock", "hard_cap_ms",
           "scale", "finite", "Line", "MoveValue", "Progress", "SearchResult", "MAX_MULTI_PV"]


# The games whose state may be a string (chess: a FEN).
STRING_STATES = frozenset({"chess"})


def preload() -> None:
    """Import every game and algorithm module now. They load on first use otherwise, and some build
    tables on import (2048's row moves take about a quarter of a second): a server calls this at start-up
    so that no request's deadline pays for it."""
    for game_id in GAME_MODULES:
        game_module(game_id)
    for name in ALGORITHM_MODULES:
        algorithm_module(name)


def load(game_id: str, state_json: JSON, limits: Limits = Limits(), **options: Any) -> tuple[Game, State]:
    """``(game, state)`` for a JSON state; :class:`InvalidState` names the field at fault. A state is an
    object, but for chess, whose state may also be a FEN string; ``{}`` is the game's start
    (:func:`started`)."""
    if not isinstance(state_json, dict) and not (isinstance(state_json, str) and game_id in STRING_STATES):
        raise InvalidState("must be an object" + (" (a string is a state of chess alone: a FEN)"
                                                  if isinstance(state_json, str) else ""))
    loaded: tuple[Game, State] = game_module(game_id).load(started(game_id, state_json), limits=limits, **options)
    return loaded


def started(game_id: str, state_json: JSON) -> JSON:
    """``state_json``, or for the empty state ``{}`` the game's start position (its declared
    ``initial_state``); a game without one (a tree) refuses ``{}`` on ``state``."""
    if state_json != {}:
        return state_json
    declared = game_type(game_id)
    if not declared.starts:
        raise InvalidState(f"{declared.id} has no start position: send the state itself "
                           f"(GET /v1/games/{declared.id} gives its state_format)")
    return declared.initial_state


@dataclass(frozen=True)
class EverySettings(AlgorithmSettings):
    """The settings every algorithm takes: ``core``, the core asked for (None: the default, :func:`native.choose`);
    ``forced_move_search``: search a position with a single legal move with the whole budget; ``nodes``: a
    budget of visited nodes (MCTS: of iterations), on top of the time limit (engine/deadline.py)."""

    core: str | None = setting(None, STRING, choices=native.CORES)
    forced_move_search: bool = setting(False, BOOLEAN)
    nodes: int | None = setting(None, INTEGER, minimum=1, maximum=MAX_NODES)


def settings_for(game_id: str, algorithm: dict[str, Any]) -> tuple[ModuleType, AlgorithmSettings, dict[str, Any],
                                                                str | None]:
    """``(module, settings, options, core)`` for an ``algorithm`` object (``{"name": ..., settings...}``):
    the search module, its settings dataclass, the game options that came with them, and the core asked
    for (``core``: ``"native"``, ``"python"``, or None for the default). A setting that is neither the
    algorithm's nor a declared option of the game is an error naming its field."""
    module, settings, options, every = settings_with_forced(game_id, algorithm)
    return module, settings, options, every.core


def settings_with_forced(game_id: str, algorithm: dict[str, Any]) -> tuple[ModuleType, AlgorithmSettings,
                                                                        dict[str, Any], EverySettings]:
    """:func:`settings_for`'s answer, but with the settings every algorithm takes (:class:`EverySettings`:
    the core, ``forced_move_search``, the node budget) in place of the core."""
    module = algorithm_module(algorithm.get("name"))
    values = {k: v for k, v in algorithm.items() if k != "name" and v is not None}
    every = EverySettings(**{k: values.pop(k) for k in EverySettings.names() if k in values})
    options = {k: values.pop(k) for k in game_type(game_id).option_names if k in values}
    settings = settings_from(module.Settings, module.NAME, values, accepted_settings(module.NAME, game_id))
    return module, settings, options, every


def accepted_settings(algorithm_name: str | None, game_id: str | None = None) -> list[str] | None:
    """Every setting an ``algorithm`` object naming ``algorithm_name`` takes besides its name: the
    algorithm's own, every algorithm's (:class:`EverySettings`) and, for a known ``game_id``, the game's
    options; None for an algorithm that does not exist."""
    if algorithm_name not in ALGORITHM_MODULES:
        return None
    options = game_type(game_id).option_names if game_id in GAME_MODULES else ()
    return [*algorithm_module(algorithm_name).Settings.names(), *EverySettings.names(), *options]


def request_settings() -> dict[str, dict[str, JSON]]:
    """``{algorithm: {setting: JSON Schema}}``: the settings a request's ``algorithm`` object may carry for
    each algorithm besides its name (its ``Settings`` and :class:`EverySettings`), each as its dataclass
    field declares it (:class:`~engine.search.settings.Setting`); the service's schemas are made of these."""
    return {name: {key: how.schema(default) for key, (how, default) in
                   {**algorithm_module(name).Settings.declared(), **EverySettings.declared()}.items()}
            for name in ALGORITHM_MODULES}


def echoed_defaults(name: str) -> dict[str, Any]:
    """The defaults of algorithm ``name``'s settings that a search's answer echoes when the request leaves
    them out (alphabeta's enhancements, expectimax's ``utility``: its values are in that utility's units)."""
    return {key: default for key, (how, default) in algorithm_module(name).Settings.declared().items()
            if how.echoed}


def option_schemas() -> dict[str, JSON]:
    """``{option: JSON Schema}``: every game option any game declares (:class:`~engine.registry.GameOption`).
    Two games that declare an option of the same name declare the same schema (a ValueError otherwise), but
    for the values and default of a string one: its schema takes every game's values, with no default
    (pacman's and chess's ``evaluation``; each game refuses the values of the other)."""
    return merged(((declared.id, {option.name: option.schema for option in declared.options})
                   for declared in game_types()), "option", merged_enum)


def merged(declarations: Iterable[tuple[str, dict[str, JSON]]], kind: str,
           reconcile: Callable[[str, str, JSON, JSON], JSON] | None = None) -> dict[str, JSON]:
    """The ``(owner, {key: JSON Schema})`` declarations (each game's options, each algorithm's settings) in
    one ``{key: JSON Schema}``; a key that two owners declare is declared alike by both (a ValueError
    naming the ``kind`` of key, the key and the owner otherwise), unless ``reconcile(owner, key, known,
    schema)`` gives the one schema for both."""
    out: dict[str, JSON] = {}
    for owner, declared in declarations:
        for key, schema in declared.items():
            known = out.setdefault(key, schema)
            if known == schema:
                continue
            if reconcile is None:
                raise ValueError(f"{owner} declares {kind} {key} unlike another: {schema} != {known}")
            out[key] = reconcile(owner, key, known, schema)
    return out


def merged_enum(game_id: str, name: str, known: JSON, schema: JSON) -> JSON:
    """One schema for a string option two games declare with values of their own (see option_schemas)."""
    for each in (known, schema):
        if each.get("type") != "string" or "enum" not in each or set(each) - {"type", "enum", "default"}:
            raise ValueError(f"{game_id} declares option {name} unlike another game")
    return {"type": "string", "enum": known["enum"] + [v for v in schema["enum"] if v not in known["enum"]]}


def value_scale(game_id: str) -> str:
    """The game's ``value_scale``: how :mod:`engine.scale` puts its values on the common scale."""
    return game_type(game_id).value_scale


def cores_status() -> dict[str, Any]:
    """The compiled core's state (:func:`engine.search.native.status`): for ``/readyz``, the start-up log
    and the metrics."""
    return native.status()


def chess_nnue_status() -> dict[str, Any]:
    """Whether chess's learned net is loaded (``options.evaluation: "nnue"``), and its size and sha256, or
    why not (:func:`engine.games.chess.nnue.status`): for ``/readyz`` and the start-up log."""
    from engine.games.chess import nnue
    return nnue.status()


def chess_board(fen: JSON, field: str = "fen") -> Any:
    """A python-chess board for the FEN of a legal position; :class:`InvalidState` on ``field``
    otherwise (the chess analysis route reads its position with it)."""
    from engine.games.chess.notation import parse_fen
    return parse_fen(fen, field)


def require_fit(module: ModuleType, game_id: str) -> None:
    """An algorithm that does not fit the game's declared type is an error on ``algorithm.name``."""
    reason = module.requires(game_type(game_id))
    if reason is not None:
        raise AlgorithmMismatch(reason)


# Depth-first searches visit each state of a game tree at most once a pass, and deepen at most one pass a
# ply: a search bounded to SMALL_SEARCH_VISITS visits ends within a few milliseconds (the Python core visits
# some 200,000 states a second).
DEPTH_FIRST = frozenset({"minimax", "alphabeta", "expectimax", "maxn"})
SMALL_SEARCH_VISITS = 1000


def search(game_id: str, state_json: JSON, algorithm: dict[str, Any], time_limit_ms: float | None = None,
           trace: bool = False, limits: Limits = Limits(), on_progress: ProgressCallback | None = None,
           options: dict[str, Any] | None = None, clock: Clock | None = None,
           search_moves: list[JSON] | None = None, exclude_moves: list[JSON] | None = None) -> SearchResult:
    """Run ``algorithm`` (``{"name": ..., settings...}``) on the state, under the game's ``options`` (which
    may come inside ``algorithm`` too: :func:`game_options`), in ``time_limit_ms`` or the time that
    ``clock`` allots, its root restricted by ``search_moves`` and ``exclude_moves`` (:class:`Search`); returns a :class:`~engine.result.SearchResult` whose moves are
    already in JSON form. ``on_progress``, if given, receives the search's
    :class:`~engine.result.Progress` reports, their moves in JSON form too."""
    with held_off():  # from the deadline's start to the answer in JSON form (engine.collector)
        return Search(game_id, state_json, algorithm, time_limit_ms, trace, limits, options, clock,
                      search_moves, exclude_moves).run(on_progress)


class Search:
    """A search ready to run: the request checked, the state loaded (the constructor raises the errors
    that name a field), the core chosen (``runs_native``: the compiled core, which releases the
    interpreter lock while it runs) and the deadline already running. :meth:`run` may be called on another thread, and
    :meth:`cancel` from any thread stops the search at its next deadline poll (it then answers as on a
    timeout).

    With a ``clock`` (:class:`~engine.clock.Clock`, the mover's), the search allots its own time from it
    (:func:`~engine.clock.allot`, at the state's ply where the game knows it): it runs under the
    allotment's hard limit (and ``time_limit_ms``, if also given), and after each iteration its
    :class:`~engine.clock.TimeManager` decides whether to start another; a search it stops answers with
    ``stop_reason`` ``clock``. The answer's ``clock`` says what was allotted and used.

    ``search_moves`` and ``exclude_moves`` (JSON moves) restrict the root (:func:`engine.root.allowed_moves`:
    an illegal move is an error naming it, and so is a restriction that leaves no move); the answer is
    then that of the best allowed move, and a single allowed move is answered as a forced one.

    The answer carries the root's ``position_key`` (:meth:`Game.position_key`, taken as the state is read,
    within the deadline) and its ``wdl`` (:func:`with_wdl`)."""

    def __init__(self, game_id: str, state_json: JSON, algorithm: dict[str, Any], time_limit_ms: float | None = None,
                 trace: bool = False, limits: Limits = Limits(), options: dict[str, Any] | None = None,
                 clock: Clock | None = None, search_moves: list[JSON] | None = None,
                 exclude_moves: list[JSON] | None = None) -> None:
        with held_off():  # no full collection once the deadline runs: it would count (engine.collector)
            self.module, self.settings, in_algorithm, every = settings_with_forced(game_id, algorithm)
            if clock is not None:
                time_limit_ms = min(hard_cap_ms(clock), math.inf if time_limit_ms is None else time_limit_ms)
            self.deadline = Deadline(None if time_limit_ms is None else time_limit_ms / 1000.0,  # loading counts
                                     nodes=every.nodes)
            self.core, forced_move_search = every.core, every.forced_move_search
            self.options = game_options(game_id, options, in_algorithm)
            self.trace, self.limits = trace, limits
            self.unread: ReadTimeout | None = None
            try:
                with reading(self.deadline):
                    self.game, self.state = load_with_options(game_id, state_json, limits, self.options,
                                                              set(in_algorithm) - set(options or ()))
            except ReadTimeout as stop:  # no time left to search: run() answers with the root's first move
                self.unread = stop
            require_fit(self.module, game_id)
            if self.unread is None and self.game.is_terminal(self.state):
                raise GameOver()
            self.root_moves = None if self.unread is not None else allowed_moves(self.game, self.state,
                                                                                 search_moves, exclude_moves)
            # The position's key is part of reading it: its time (a big tree's) comes out of the search's.
            self.position_key = None if self.unread is not None else self.game.position_key(self.state)
            # A single legal move is answered after a short search (FORCED_MOVE_BUDGET_S), unless the request
            # asks for an analysis (forced_move_search, or a trace) or the game is a tree (its textbook value).
            self.forced = (self.unread is None and not forced_move_search and not trace
                           and game_type(game_id).answers_forced_moves
                           and self.game.to_move(self.state) >= 0 and self.moves_at_root() == 1)
            self.chosen = None if self.unread is not None else self.native_core()
            self.runs_native = self.chosen == native.NATIVE
            self.allotment = None if clock is None or self.unread is not None else self.allotted(clock)
            self.stopped_by_clock = False

    def allotted(self, clock: Clock) -> Allotment:
        """The clock's allotment for this move, the deadline brought down to its hard limit. MCTS, which
        has no iterations to stop between, gets the soft limit as its hard one."""
        allotment = allot(clock, self.game.plies_played(self.state) or 0)
        if self.ran_module()[0].NAME == mcts.NAME:
            allotment = Allotment(soft_ms=allotment.soft_ms, hard_ms=allotment.soft_ms)
        if self.deadline.end is not None:
            self.deadline.end = min(self.deadline.end, self.deadline.start + allotment.hard_ms / 1000.0)
        return allotment

    def moves_at_root(self) -> int:
        """How many root moves the search may play (engine.root)."""
        return len(self.game.actions(self.state) if self.root_moves is None else self.root_moves)

    @property
    def small(self) -> bool:
        """Whether the search is bounded to a few milliseconds by its state alone (a textbook tree): a
        depth-first search whose states times passes is at most ``SMALL_SEARCH_VISITS``, which a server may
        run where it stands."""
        if self.unread is not None or self.module.NAME not in DEPTH_FIRST:
            return False
        states, plies = self.game.states_bound(self.state), self.game.plies_bound(self.state)
        return states is not None and plies is not None and states * max(1, plies) <= SMALL_SEARCH_VISITS

    def native_core(self) -> str:
        """The core that runs the search (``auto``'s: that of the algorithm it picks), with its settings
        then as ``auto`` sets them, but for the level's caps, which do not change the core. A compiled core
        asked for but unfit is an error now, before any search."""
        module, settings = self.ran_module()
        return native.choose(self.game, self.state, module.NAME, settings, self.trace, self.limits, self.core,
                             self.root_moves)

    def ran_module(self) -> tuple[ModuleType, Any]:
        """The search module that runs, and its settings: ``auto``'s pick where it is ``auto``."""
        module, settings = self.module, self.settings
        if module.NAME == "auto":
            module, algorithm = module.chosen(self.game, self.state)
            settings = module.Settings(**{k: v for k, v in algorithm.items() if k != "name"})
        return module, settings

    def run(self, on_progress: ProgressCallback | None = None) -> SearchResult:
        """The search's answer, its moves in JSON form, with no full collection meanwhile (engine.collector)."""
        with held_off():
            if self.unread is not None:  # the game was never loaded: its instance's players are not known
                result = unread(self.unread, self.deadline)
                result.options = self.options
                return result
            game = self.game
            self.deadline.on_progress = self.listener(on_progress)
            deadline = forced_budget(self.deadline) if self.forced else self.deadline
            result = native.run(self.module, game, self.state, self.settings, deadline=deadline,
                                trace=self.trace, limits=self.limits, core=self.core, chosen=self.chosen,
                                root_moves=self.root_moves)
            if self.forced:  # the move was never in doubt, and the request's time did not run out
                result.stats.stop_reason, result.stats.timed_out = FORCED, False
                result.stats.finish(self.deadline.elapsed())
            if self.stopped_by_clock and result.stats.timed_out:
                result.stats.stop_reason, result.stats.timed_out = CLOCK, False
            elif self.deadline.cancelled and result.stats.timed_out:
                result.stats.stop_reason = CANCELLED
            elif stopped_by_nodes(result.stats, self.deadline):
                result.stats.stop_reason, result.stats.timed_out = NODE_LIMIT, False
            if getattr(self.settings, "multi_pv", 1) > 1 and not result.lines:
                # No pass finished in time: the anytime answer is the one line there is, an estimate (none
                # without a value).
                result.lines = [] if result.value is None else [Line(result.move, result.value, list(result.pv),
                                                                     bound=ESTIMATE)]
            result.players, result.options = list(game.players), self.options
            if self.allotment is not None:
                result.clock = {"allotted_ms": round(self.allotment.soft_ms, 3),
                                "limit_ms": round(self.allotment.hard_ms, 3), "used_ms": result.stats.time_ms}
            result.position_key = self.position_key
            return with_wdl(game, to_json_moves(game, result, self.state, self.deadline), self.state)

    def listener(self, on_progress: ProgressCallback | None) -> ProgressCallback | None:
        """What the deadline hands each progress report to: ``on_progress`` (the report in JSON form), and
        under a clock the time manager, which cancels the search rather than start another iteration."""
        allotment = self.allotment
        manager = TimeManager(allotment) if allotment is not None and allotment.hard_ms > allotment.soft_ms else None
        if on_progress is None and manager is None:
            return None

        def listen(progress: Progress) -> None:
            if on_progress is not None:
                on_progress(to_json_progress(self.game, progress, self.state, self.deadline))
            if manager is not None and not self.stopped_by_clock and manager.stop_after(progress):
                self.stopped_by_clock = True
                self.deadline.cancel()
        return listen

    def cancel(self) -> None:
        self.deadline.cancel()


def with_wdl(game: Game, result: SearchResult, state: State) -> SearchResult:
    """``result`` (in JSON form) with its ``wdl`` (:func:`engine.scale.wdl`: win/draw/loss per mille for the
    perspective player) where its value has one, at the state's ply where the game knows it."""
    if result.value is not None and game.game_type is not None:
        result.wdl = scale.wdl(result.value_scale or game.game_type.value_scale, result.value, result.outcome,
                               game.plies_played(state) or 0)
    return result


def stopped_by_nodes(stats: Stats, deadline: Deadline) -> bool:
    """Whether the node budget stopped the search: a depth-first one at its budget, an MCTS at its
    iterations when the budget set them (engine.search.native.run)."""
    if deadline.nodes is None:
        return False
    if stats.stop_reason == ITERATION_LIMIT:
        return stats.iterations == deadline.nodes
    return stats.timed_out and stats.nodes >= deadline.max_nodes


def forced_budget(deadline: Deadline) -> Deadline:
    """The part of ``deadline`` a forced move's search takes: ``FORCED_MOVE_BUDGET_S`` at most (cancelled
    with it)."""
    part = deadline.share(1.0)
    limit = time.perf_counter() + FORCED_MOVE_BUDGET_S
    part.end = limit if part.end is None else min(part.end, limit)
    return part


def unread(stop: ReadTimeout, deadline: Deadline) -> SearchResult:
    """The answer when the time ran out while the state was read: its first move, no search."""
    stats = Stats(timed_out=True, stop_reason=TIME_LIMIT)
    stats.finish(deadline.elapsed())
    return SearchResult(move=stop.move, value=None, perspective=stop.perspective, pv=[stop.move], stats=stats)


def to_json_moves(game: Game, result: SearchResult, state: State = None,
                  deadline: Deadline | None = None) -> SearchResult:
    """Replace the engine's internal moves and values by their JSON form; given the searched ``state``,
    add the game's ``move_extras`` to those the search gave (MCTS's Go ownership), and in a game with a
    notation of its own (chess: SAN) the moves in that notation too. Writing them
    stops ``NOTATION_GRACE`` seconds after ``deadline`` (the search's): the chosen move and the first of
    the principal variation are always written, the variation is then cut to the moves written, and a
    root move written too late has no notation."""
    to_json, value = game.move_to_json, values_to_json(game, result.value_scale)
    until = None if deadline is None or deadline.end is None else deadline.end + NOTATION_GRACE
    if result.value is not None:  # (without a value no root move was listed)
        result.moves = listed_moves(result.moves, result.move, result.value)
    if state is not None:
        result.move_extras = {**(result.move_extras or {}), **game.move_extras(state, result.move)} or None
    if game.notation is not None and state is not None:
        result.notation = game.notation
        result.move_notation = game.move_notation(state, result.move)
        result.pv_notation = game.line_notation(state, result.pv, until)
        del result.pv[len(result.pv_notation):]
        for mv in result.moves:
            if until is not None and time.perf_counter() > until:
                break
            mv.notation = game.move_notation(state, mv.move)
    result.move = to_json(result.move)
    result.value = None if result.value is None else value(result.value)
    if result.certainty_equivalent is not None:
        result.certainty_equivalent = value(result.certainty_equivalent)
    if result.values is not None:  # n-player values in the same unit as value (chess maxn: pawns)
        result.values = [value(v) for v in result.values]
    result.pv = [to_json(m) for m in result.pv]
    if result.lines is not None:
        result.lines = json_lines(game, result.lines, state if game.notation is not None else None, until,
                                  result.value_scale)
    for mv in result.moves:
        mv.move, mv.value = to_json(mv.move), value(mv.value)
        if mv.values is not None:
            mv.values = [value(v) for v in mv.values]
        if mv.certainty_equivalent is not None:
            mv.certainty_equivalent = value(mv.certainty_equivalent)
    return result


def listed_moves(moves: list[MoveValue], chosen: Any, value: float) -> list[MoveValue]:
    """``moves``, or where there are more than ``MAX_LISTED_MOVES`` the best of them, in the search's order:
    the chosen move, then the most visited (MCTS), else those valued nearest the root's ``value`` (the
    best for the player to move, whichever way the perspective faces)."""
    if len(moves) <= MAX_LISTED_MOVES:
        return moves
    keys: list[float]
    if moves[0].visits is not None:  # MCTS lists every root move with its visits
        keys = [-float(mv.visits or 0) for mv in moves]
    else:
        keys = [abs(mv.value - value) for mv in moves]
    for k, mv in enumerate(moves):
        if mv.move == chosen:
            keys[k] = -math.inf
            break
    kept = heapq.nsmallest(MAX_LISTED_MOVES, range(len(moves)), key=keys.__getitem__)
    return [moves[k] for k in sorted(kept)]


def values_to_json(game: Game, value_scale: str | None) -> Callable[[float], float]:
    """How an answer writes its values: in the game's unit (``Game.value_to_json``), or as they are when
    the answer has a scale of its own (MCTS's utilities: ``value_scale``)."""
    return game.value_to_json if value_scale is None else float


def json_lines(game: Game, lines: list[Line], state: State = None, until: float | None = None,
               value_scale: str | None = None) -> list[Line]:
    """A multi-PV answer's lines (:class:`~engine.result.Line`) in JSON form (values as
    :func:`values_to_json` writes them); given the searched ``state`` in a game with a notation of its own
    (chess: SAN), each line in that notation too, until ``time.perf_counter()`` passes ``until`` (a line
    written too late has none)."""
    value = values_to_json(game, value_scale)
    out = []
    for line in lines:
        written = None
        if state is not None and (until is None or time.perf_counter() <= until):
            written = game.line_notation(state, line.pv, until)
        out.append(dataclasses.replace(line, move=game.move_to_json(line.move), value=value(line.value),
                                       pv=[game.move_to_json(m) for m in line.pv], pv_notation=written))
    return out


def to_json_progress(game: Game, progress: Progress, state: State = None,
                     deadline: Deadline | None = None) -> Progress:
    """A progress report in JSON form (values as :func:`values_to_json` writes them); given the searched
    ``state`` in a game with a notation of its own (chess: SAN), its line and its multi-PV lines in that
    notation too, written as a search's answer's are (until ``NOTATION_GRACE`` past ``deadline``), so that a
    client needs no request to read them."""
    if game.notation is None:
        state = None
    until = None if deadline is None or deadline.end is None else deadline.end + NOTATION_GRACE
    return dataclasses.replace(
        progress, move=game.move_to_json(progress.move),
        value=values_to_json(game, progress.value_scale)(progress.value),
        pv=[game.move_to_json(m) for m in progress.pv],
        lines=None if progress.lines is None else json_lines(game, progress.lines, state, until,
                                                             progress.value_scale),
        notation=None if state is None else game.notation,
        pv_notation=None if state is None else game.line_notation(state, progress.pv, until))


def legal_moves(game_id: str, state_json: JSON, limits: Limits = Limits(),
                options: dict[str, Any] | None = None) -> dict[str, Any]:
    """``POST /v1/games/{game}/legal-moves``; ``options`` are the game's options (2048's
    ``tile_probabilities``), in the request's ``options`` as a search takes them."""
    game, state = load_with_options(game_id, state_json, limits, game_options(game_id, options))
    return describe_state(game, state)


def apply(game_id: str, state_json: JSON, move_json: JSON = None, limits: Limits = Limits(),
          options: dict[str, Any] | None = None, moves_json: list[JSON] | None = None) -> dict[str, Any]:
    """``POST /v1/games/{game}/apply``: ``move_json``, or each of ``moves_json`` in order (an error on a
    move names ``moves[i]``). The answer's state is in the form of the request's; in a game with a
    notation (chess), ``played_san`` is the last move played in it."""
    state_json = started(game_id, state_json)
    game, state = load_with_options(game_id, state_json, limits, game_options(game_id, options))
    if moves_json is not None and not moves_json:
        raise EngineError("moves", "moves lists at least one move to apply")
    several = moves_json is not None
    previous, move = state, None
    for previous, move, state in replayed(game, state, [move_json] if moves_json is None else moves_json, several):
        state_json = game.child_to_json(state_json, move, state)
    answer = {"state": state_json, **describe_state(game, state)}
    if game.notation is not None:
        answer[f"played_{game.notation}"] = game.move_notation(previous, move)
    return answer


def review(game_id: str, state_json: JSON, moves_json: list[JSON], algorithm: dict[str, Any],
           search: Callable[[JSON, float], SearchResult], time_limit_ms: float, limits: Limits = Limits(),
           options: dict[str, Any] | None = None) -> Review:
    """The :class:`engine.review.Review` of ``moves_json`` played from ``state_json``, judged by searches of
    ``algorithm`` that ``search(state JSON, time limit in ms)`` runs, within ``time_limit_ms`` in all. The
    request's errors (the state, a move, a setting, an algorithm that does not fit the game) are raised
    now, before any search."""
    module, _, in_algorithm, _ = settings_with_forced(game_id, algorithm)
    require_fit(module, game_id)
    game, state = load_with_options(game_id, state_json, limits, game_options(game_id, options, in_algorithm),
                                    set(in_algorithm) - set(options or ()))
    return Review(game_id, game, state, moves_json, search, time_limit_ms)


# A game's own errors name its options where the request should send them (``options.tile_probabilities``);
# load_with_options names those a search sent in its ``algorithm`` alone as ``algorithm.<name>``.
ALGORITHM_PREFIX, OPTION_PREFIX = "algorithm.", "options."


def unknown_setting_text(section: str, key: str, algorithm_name: str | None = None,
                         game_id: str | None = None) -> str:
    """The engine's message for a setting ``algorithm.<key>`` (``section`` "algorithm") or an option
    ``options.<key>`` (section "options") that is not taken, for the service's schemas to say it as the
    engine does: naming what the algorithm (or the game) takes."""
    if section == "options":
        known = game_type(game_id).option_names if game_id in GAME_MODULES else None
        return unknown_option_message(game_id, key, known)
    return unknown_setting_message(algorithm_name, key, accepted_settings(algorithm_name, game_id))


def game_options(game_id: str, options: dict[str, Any] | None,
                 in_algorithm: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game options of a request: ``options``, their one canonical place on every route, and for a
    search those its ``algorithm`` object carries too (their place before ``options`` existed, still
    accepted). An option the game does not declare is an error on ``options.<name>``, and so is one given in
    both places with different values."""
    options = dict(options or {})
    declared = game_type(game_id).option_names
    for name in options:
        if name not in declared:
            raise UnknownSetting(unknown_option_message(game_id, name, declared), field=f"options.{name}")
    for name, value in (in_algorithm or {}).items():
        if name in options and (options[name] != value or type(options[name]) is not type(value)):
            raise EngineError(f"options.{name}", f"{name} is given in options and in algorithm, with different "
                                                 "values; options is its place")
        options[name] = value
    return options


def load_with_options(game_id: str, state_json: JSON, limits: Limits, options: dict[str, Any],
                      algorithm_only: Set[str] = frozenset()) -> tuple[Game, State]:
    """``load`` under the game's ``options``, as :func:`game_options` gives them (checked);
    ``algorithm_only``: the names of those that a search's ``algorithm`` carried and its ``options`` did
    not. A game's own errors name an option ``options.<name>``; one of ``algorithm_only`` is named
    ``algorithm.<name>``, where the request sent it."""
    try:
        return load(game_id, state_json, limits, **options)
    except EngineError as exc:
        exc.errors = {ALGORITHM_PREFIX + field[len(OPTION_PREFIX):] if sent_in_algorithm(field, algorithm_only)
                      else field: messages for field, messages in exc.errors.items()}
        raise


def sent_in_algorithm(field: str, algorithm_only: Set[str]) -> bool:
    """Whether a game's error on ``field`` (``options.<name>...``) is about an option of ``algorithm_only``."""
    return field.startswith(OPTION_PREFIX) and field[len(OPTION_PREFIX):].split(".")[0] in algorithm_only


def describe_state(game: Game, state: State) -> dict[str, Any]:
    """Who moves, the players (their ids in player order), the legal moves (at a chance node the outcomes,
    with their probabilities in the same order) as ``legal_moves``, and once the game is over its
    ``utilities`` and its ``result`` (:func:`game_result`; both null while it goes on)."""
    terminal = game.is_terminal(state)
    mover = game.to_move(state)
    moves = [] if terminal else game.actions(state)
    info: dict[str, Any] = {
        "to_move": None if terminal else ("chance" if mover < 0 else game.players[mover]),
        "players": list(game.players),
        "legal_moves": [game.move_to_json(m) for m in moves],
        "terminal": terminal,
        "utilities": None,
        "result": None,
    }
    if game.notation is not None:
        info[game.notation] = [game.move_notation(state, m) for m in moves]
    info.update(game.position_extras(state))
    if not terminal and mover < 0:
        probability = dict(game.chance_outcomes(state))
        info["probabilities"] = [probability[m] for m in moves]
    if terminal:
        info["utilities"] = {name: float(u) for name, u in zip(game.players, game.utilities(state))}
        info["result"] = game_result(game, state)
    return info


def game_result(game: Game, state: State) -> dict[str, Any]:
    """A finished game's ``result``, one shape for every game: the ``winner`` (a player's id, or None) and
    the ``reason`` in words (None where the utilities say it all), with the game's own fields
    (backgammon: ``kind`` and ``points``)."""
    return {"winner": game.winner(state), "reason": game.end_reason(state), **game.result_extras(state)}


def describe_games() -> list[dict[str, Any]]:
    return [describe_game(game_id) for game_id in GAME_MODULES]


def describe_game(game_id: str) -> dict[str, Any]:
    """``GET /v1/games/{game}``: the game's declarations as JSON, with the algorithms that fit it."""
    declared = game_type(game_id)
    return {
        "id": declared.id,
        "name": declared.name,
        "description": declared.description,
        "players": list(declared.players),
        "player_info": [dataclasses.asdict(player) for player in declared.player_info],
        "player_prefix": declared.player_prefix,
        "min_players": declared.min_players,
        "max_players": declared.max_players,
        "chance": declared.chance,
        "zero_sum": declared.zero_sum,
        "alternating": declared.alternating,
        "outcomes": declared.outcomes,
        "utility_bounds": None if declared.utility_bounds is None else list(declared.utility_bounds),
        "value_unit": declared.value_unit,
        "value_scale": declared.value_scale,
        "max_length": declared.max_length,
        "state_format": declared.state_format,
        "initial_state": declared.initial_state,
        "move_format": declared.move_format,
        "move_schema": declared.move_schema,
        "history_field": declared.history_field,
        "conventions": declared.conventions,
        "options": [dataclasses.asdict(option) for option in declared.options],
        "algorithms": fitting_algorithms(declared),
        "cores": native.game_cores(declared),
        "example_request": declared.example_request,
    }
