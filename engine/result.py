"""What a search returns: the chosen move, its value, a proof when there is one, and statistics.

The field names and meanings are those of the API core (``POST /v1/search``): ``value`` is finite and taken
from the point of view of ``perspective`` (None when the search valued no root move: it has no value); ``outcome`` and ``plies_to_end`` are set only when the search
proved the game-theoretic result; ``stats.nodes`` counts every state the search visited, root included.
"""
from dataclasses import dataclass, field
import math

# Why a search stopped.
COMPLETED = "completed"        # it searched everything it was asked to (the depth, or the whole game)
SOLVED = "solved"              # iterative deepening stopped early because the root result was proven
TIME_LIMIT = "time_limit"      # the deadline passed; the answer is the best found so far
ITERATION_LIMIT = "iteration_limit"  # MCTS reached its iteration cap
FORCED = "forced"              # a single legal move, answered after a short search (engine.api)
NODE_LIMIT = "node_limit"      # the node budget (algorithm.nodes) ran out; the answer is the best found so far
CANCELLED = "cancelled"        # its owner cancelled it (the client went away); the answer is the best found so far
CLOCK = "clock"                # the clock's time manager started no other iteration (engine.clock)

# How a root move's value relates to its true value: equal, a bound, or an estimate (an MCTS mean, a
# static evaluation).
EXACT, LOWER, UPPER, ESTIMATE = "exact", "lower", "upper", "estimate"


@dataclass
class Stats:
    """Counters every search keeps. ``nodes`` counts visits (a transposition hit is a visit); ``leaves``
    counts nodes valued without expanding them (terminal states and depth-limit cut-offs); ``cutoffs``
    counts alpha-beta (or Star1) prunings; ``max_depth`` is the deepest ply visited; ``depth_completed``
    the deepest iteration that finished; ``core`` the core that ran it (:mod:`engine.search.native`)."""

    nodes: int = 0
    leaves: int = 0
    depth_completed: int = 0
    max_depth: int = 0
    cutoffs: int = 0
    tt_hits: int = 0
    iterations: int | None = None
    time_ms: float = 0.0
    nodes_per_second: int = 0
    timed_out: bool = False
    stop_reason: str = COMPLETED
    core: str = "python"  # the core that ran the search: "native" (the compiled core) or "python"

    def finish(self, seconds: float) -> None:
        """Record the elapsed time and derive the rate."""
        self.time_ms = round(seconds * 1000.0, 3)
        self.nodes_per_second = int(self.nodes / seconds) if seconds > 0 else 0

    def to_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass
class MoveValue:
    """One root move's value from the root perspective, with whether it is exact or only a bound
    (alpha-beta proves ``value <= v`` for a refuted move), and MCTS visit counts."""

    move: object
    value: float
    bound: str = EXACT
    visits: int | None = None
    values: list | None = None  # n-player searches: one utility per player
    notation: str | None = None  # the move in the game's notation (chess: SAN), if it has one
    certainty_equivalent: float | None = None  # expectimax: U^-1 of the value, in the game's units


@dataclass
class Line:
    """One of the best root moves of a multi-PV search (``algorithm.multi_pv``), as a UCI ``info multipv``
    line: the root ``move``, its ``value`` from the root perspective (as :class:`SearchResult`'s, exact:
    the move was searched with a full window; MCTS: the mean of its playouts, ``bound`` ``estimate``), its
    principal variation ``pv`` (starting with ``move``), and where the search proved it, the ``outcome``
    for the perspective player after that move and ``plies_to_end`` (counting ``move``). ``visits``:
    MCTS's visits of the move."""

    move: object
    value: float
    pv: list
    bound: str = EXACT
    outcome: str | None = None
    plies_to_end: int | None = None
    visits: int | None = None
    pv_notation: list | None = None  # the line in the game's notation (chess: SAN), if it has one

    def __post_init__(self):
        self.value = finite(self.value)


@dataclass
class Progress:
    """What a search knows after one more iteration (of iterative deepening, or of MCTS every so many):
    the fields of a UCI ``info`` line. ``depth`` is the iteration's depth in plies (MCTS: the tree's depth),
    ``seldepth`` the deepest ply visited; ``value`` and ``pv`` are as in :class:`SearchResult`, ``move``
    the best root move so far; ``nodes`` and ``time_ms`` count from the start of the search."""

    depth: int
    value: float
    move: object
    pv: list
    nodes: int
    time_ms: float
    seldepth: int | None = None
    iterations: int | None = None
    lines: list | None = None  # multi-PV: the iteration's best lines (Line), best first
    notation: str | None = None     # the name of the game's own notation (chess: "san"), if it has one
    pv_notation: list | None = None  # the line in it
    value_scale: str | None = None  # as SearchResult's

    def __post_init__(self):
        self.value = finite(self.value)


@dataclass
class SearchResult:
    move: object
    value: float | None  # None: the search valued no root move (the time ran out first)
    perspective: str
    outcome: str | None = None
    plies_to_end: int | None = None
    pv: list = field(default_factory=list)
    moves: list = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)
    values: list | None = None  # n-player searches: the root's utility vector
    trace: list | None = None
    notation: str | None = None       # the name of the game's own notation (chess: "san"), if it has one
    move_notation: str | None = None  # the move and the principal variation in it
    pv_notation: list | None = None
    certainty_equivalent: float | None = None  # expectimax: U^-1 of the value, in the game's units
    auto: dict | None = None  # algorithm auto: what it ran ("chosen") and the level's "handicap"
    move_extras: dict | None = None  # the game's own fields about the move (backgammon: its "steps")
    players: list | None = None  # the instance's player ids, in player order (values are in that order)
    options: dict | None = None  # the game options the search ran under
    lines: list | None = None  # multi-PV (algorithm.multi_pv): the best root moves as Line, best first
    bound: str | None = None  # how value relates to the move's true value (EXACT...); None: as listed
    # The scale (engine.scale) of the values where it is not the game's (MCTS: utilities), which are then
    # in the game's utility unit, not converted by Game.value_to_json; None: the game's own.
    value_scale: str | None = None
    position_key: str | None = None  # the root position's key (Game.position_key); None when it was not read
    wdl: dict | None = None  # win/draw/loss per mille for the perspective player (engine.scale.wdl), where it has one
    clock: dict | None = None  # a search under a clock: the time it allotted ("allotted_ms", "limit_ms"), "used_ms"

    def __post_init__(self):
        """``value`` made finite; ``bound``, unless given, the one the search listed for ``move`` with this
        value (an MCTS mean is an estimate), else exact (None without a value)."""
        if self.value is None:
            return
        self.value = finite(self.value)
        if self.bound is None:
            self.bound = next((mv.bound for mv in self.moves if mv.move == self.move and mv.value == self.value),
                              EXACT)


def finite(x: float) -> float:
    """JSON has no Infinity or NaN: clamp infinities to the largest float and refuse NaN."""
    x = float(x)
    if math.isnan(x):
        raise ValueError("a search produced NaN")
    if math.isinf(x):
        return math.copysign(1.7976931348623157e308, x)
    return x + 0.0  # no negative zero
