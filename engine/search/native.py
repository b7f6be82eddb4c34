"""The two cores: which one runs a search, and running one on the compiled core.

The compiled core (``native/``, the module ``tactician_native``) is a second implementation of the engine's
contract, in C++, for the games whose :class:`~engine.registry.GameType` declares ``native_core``: the
same rules, the same searches, the same values, node counts and statistics (``tests/native`` checks it).
The Python engine stays the reference, the teaching path (traces) and the fallback.

A request chooses with ``algorithm.core``: ``"native"`` or ``"python"``; without it, the compiled core
runs wherever it can (:func:`choose`). The answer's ``stats.core`` says which one ran.
"""
import dataclasses

from engine.errors import AlgorithmMismatch
from engine.registry import EXPLICIT_CHANCE
from engine.result import Line, MoveValue, SearchResult, Stats
from engine.root import root_indices
from engine.search import alphabeta, mcts
from engine.search.common import RootMoves
from engine.search.settings import depth_in_plies

NATIVE, PYTHON = "native", "python"
CORES = (NATIVE, PYTHON)
# The algorithms the compiled core runs, on games without chance nodes and on games with them; the others
# (and traces) run on the Python core.
DETERMINISTIC_ALGORITHMS = frozenset({"minimax", "alphabeta", "mcts"})
CHANCE_ALGORITHMS = frozenset({"expectimax"})
# The algorithms whose root loop the compiled core restricts to a request's root moves (engine.root); a
# restricted search of another runs on the Python core.
RESTRICTED_ALGORITHMS = frozenset({"minimax", "alphabeta", "mcts"})

try:
    import tactician_native
except ImportError as error:  # not built (no compiler where it was installed): the Python core runs
    tactician_native = None
    UNAVAILABLE: str | None = f"the compiled core is not built on this server ({error})"
else:
    UNAVAILABLE = None


def available() -> bool:
    """Whether the compiled core was built and loads."""
    return tactician_native is not None


def native_games() -> tuple:
    """The ids of the games the compiled core of this server runs."""
    return tuple(tactician_native.GAMES) if tactician_native is not None else ()


def status() -> dict:
    """The compiled core's state, for ``/readyz``, the start-up log and the metrics."""
    if tactician_native is None:
        return {"native": False, "games": [], "reason": UNAVAILABLE}
    return {"native": True, "games": list(native_games())}


def game_cores(game_type) -> list:
    """The cores that can run searches of a game on this server, the default first."""
    return [NATIVE, PYTHON] if game_type.native_core and game_type.id in native_games() else [PYTHON]


def native_algorithms(game_type) -> frozenset:
    """The algorithms the compiled core runs on a game of this type (where it has a core)."""
    return CHANCE_ALGORITHMS if game_type.chance == EXPLICIT_CHANCE else DETERMINISTIC_ALGORITHMS


def unfit(game, state, name: str, settings, trace: bool, limits, root_moves: RootMoves = None) -> str | None:
    """Why the compiled core cannot run algorithm ``name`` with ``settings`` on ``state`` (its root
    restricted to ``root_moves`` where given), or None when it can (the core itself says which searches
    of a game it covers)."""
    if tactician_native is None:
        return UNAVAILABLE
    if game.game_type is None or NATIVE not in game_cores(game.game_type):
        return f"{game.id} has no compiled core; its searches run on the python core"
    algorithms = native_algorithms(game.game_type)
    if name not in algorithms:
        return f"the compiled core runs {sorted(algorithms)} on {game.id}, not {name}"
    if trace:
        return "traces are written by the python core"
    if root_moves is not None and name not in RESTRICTED_ALGORITHMS:
        return f"the compiled core restricts the root moves of {sorted(RESTRICTED_ALGORITHMS)}, not of {name}"
    return tactician_native.unfit(game.id, game.native_state(state), name, native_settings(game, settings, limits))


def choose(game, state, name: str, settings, trace: bool, limits, requested: str | None,
           root_moves: RootMoves = None) -> str:
    """The core that runs the search: the requested one, else the compiled core where it fits. Asking for
    the compiled core where it does not fit is an error on ``algorithm.core``."""
    if requested == PYTHON:
        return PYTHON
    reason = unfit(game, state, name, settings, trace, limits, root_moves)
    if requested == NATIVE and reason is not None:
        raise AlgorithmMismatch(f"core 'native' cannot run this search: {reason}", field="algorithm.core")
    return PYTHON if reason is not None else NATIVE


def run(module, game, state, settings, *, deadline, trace: bool, limits, core: str | None = None,
        chosen: str | None = None, root_moves: RootMoves = None):
    """Run search ``module`` with ``settings``, its root restricted to ``root_moves`` where given
    (engine.root), on the core :func:`choose` picks (``auto`` picks for the
    algorithm it runs), or on ``chosen``, the core a caller already had :func:`choose` pick for the same
    arguments (engine.api.Search does, to know whether the search runs natively; choosing again converted
    the state and the settings for the compiled core a second time). Returns the :class:`~engine.result.SearchResult`
    with ``stats.core`` set."""
    if module.NAME == "auto":
        return module.search(game, state, settings, deadline=deadline, trace=trace, limits=limits, core=core,
                             root_moves=root_moves)
    if module.NAME == mcts.NAME and deadline.nodes is not None:  # MCTS's node budget: its iterations (capped)
        budget = min(deadline.nodes, mcts.MAX_ITERATIONS)
        settings = dataclasses.replace(settings, iterations=min(budget, settings.iterations or budget))
    if (chosen or choose(game, state, module.NAME, settings, trace, limits, core, root_moves)) == NATIVE:
        return search(game, state, module.NAME, settings, deadline, limits, root_moves)
    return module.search(game, state, settings, deadline=deadline, trace=trace, limits=limits, root_moves=root_moves)


def search(game, state, name: str, settings, deadline, limits, root_moves: RootMoves = None) -> SearchResult:
    """Algorithm ``name`` on the compiled core, with the interpreter lock released while it runs: the
    deadline's time left is its budget, cancelling the deadline cancels it, and its progress reports
    reach the deadline's listener. ``root_moves`` reach the core as their places in the root's natural
    order (``root_moves``: :func:`engine.root.root_indices`)."""
    if name == mcts.NAME:
        mcts.require_budget(settings, deadline)
    if name == alphabeta.NAME and settings.solve:
        alphabeta.require_solvable(game)   # the same refusal as the Python core's (chess has no solver)
    token = tactician_native.Token()
    deadline.parts.append(token)        # Deadline.cancel() cancels its parts
    if deadline.cancelled:
        token.cancel()
    move_of = move_reader(game, state)

    def lines_of(lines):
        """The core's multi-PV lines (tuples) as :class:`~engine.result.Line`, in the game's moves."""
        return [Line(move_of(move), value, [move_of(m) for m in pv], bound, outcome, plies, visits)
                for move, value, bound, pv, outcome, plies, visits in lines]

    def progress(report):
        """A report of the core's, its move and line in the game's moves (2048's are numbered 0-3 there)."""
        deadline.report(**{**report, "move": move_of(report["move"]), "pv": [move_of(m) for m in report["pv"]],
                           **({"lines": lines_of(report["lines"])} if "lines" in report else {}),
                           **({"value_scale": mcts.values_scale(game)} if name == mcts.NAME else {})})

    listener = None if deadline.on_progress is None else progress
    request = native_settings(game, settings, limits)
    if deadline.nodes is not None and name != mcts.NAME:
        request["nodes"] = deadline.max_nodes
    if root_moves is not None:
        request["root_moves"] = root_indices(game, state, root_moves)
    answer = tactician_native.search(game.id, game.native_state(state), name, request, deadline.remaining(), token,
                                     listener)
    stats = Stats(**answer["stats"], core=NATIVE)
    stats.finish(deadline.elapsed())
    result = SearchResult(move=move_of(answer["move"]), value=answer["value"] if answer["moves"] else None,
                          perspective=game.players[game.perspective(state)], outcome=answer["outcome"],
                          plies_to_end=answer["plies_to_end"], pv=[move_of(move) for move in answer["pv"]],
                          moves=[MoveValue(move_of(move), value, bound, visits)
                                 for move, value, bound, visits in answer["moves"]], stats=stats,
                          lines=lines_of(answer["lines"]) if "lines" in answer else None)
    if name == mcts.NAME:
        result.value_scale = mcts.values_scale(game)
    if name == "expectimax" and result.moves:   # the core's utility is linear: the certainty equivalent is
        result.certainty_equivalent = result.value  # the value (none for the fallback, as on the python core)
        for mv in result.moves:
            mv.certainty_equivalent = mv.value
    return result


def move_reader(game, state):
    """How the core's moves (ints) read as the game's moves: ``game.native_root_moves(state)``, for a game
    whose codes name moves only among the root's (backgammon: a play's index among the legal plays; its
    searches answer with root moves only), else ``game.from_native_move`` (a code that names its move,
    wherever it is played), else the int itself."""
    root_moves = getattr(game, "native_root_moves", None)
    if root_moves is not None:
        return root_moves(state)
    return getattr(game, "from_native_move", None) or (lambda move: move)


def native_settings(game, settings, limits) -> dict:
    """The settings as the compiled core reads them: the dataclass's fields, the depth in plies, and the
    limits it needs."""
    values = {f.name: getattr(settings, f.name) for f in dataclasses.fields(settings)}  # (no deep copy)
    if "depth_rounds" in values:
        values["depth"] = depth_in_plies(settings, game)
        del values["depth_rounds"]
    values["tt_max_entries"] = limits.tt_max_entries
    return values
