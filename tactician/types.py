"""The answers of the Tactician API as TypedDicts, one per schema of openapi.yaml (tests/client/test_types.py
checks that each has the schema's fields, required as the schema requires them). An answer is the JSON
object the server sent, so fields added to the API later are there too, untyped."""
from typing import Any, Literal, NotRequired, TypedDict

Move = Any  # each game's own: a cell or column index, a direction, a tree edge label, "e2e4", "11-15"...
# Each game's own format, GET /v1/games/{game} describes it: an object, or for chess also a FEN string.
State = dict[str, Any] | str


class Stats(TypedDict):
    nodes: int
    leaves: int
    depth_completed: int
    max_depth: int
    cutoffs: int
    tt_hits: int
    iterations: int | None
    time_ms: float
    nodes_per_second: int
    timed_out: bool
    stop_reason: Literal["completed", "solved", "time_limit", "iteration_limit", "node_limit", "forced", "cancelled",
                         "clock"]
    core: Literal["native", "python"]


class MoveValue(TypedDict):
    move: Move
    value: float
    score: dict[str, Any]            # {"cp"}, {"mate"}, {"win_in"}, {"loss_in"}, {"draw"} or {"value"}
    win_probability: float | None
    bound: Literal["exact", "lower", "upper", "estimate"]
    visits: int | None
    san: NotRequired[str]
    certainty_equivalent: NotRequired[float]
    values: NotRequired[list[float]]


class Line(TypedDict):
    """One of the best root moves of a multi-PV search (``algorithm.multi_pv``), best first."""
    move: Move
    value: float
    score: dict[str, Any]
    win_probability: float | None
    bound: Literal["exact", "estimate"]
    outcome: Literal["win", "loss", "draw"] | None
    plies_to_end: int | None
    pv: list[Move]
    visits: int | None
    pv_san: NotRequired[list[str] | None]


class ClockUse(TypedDict):
    allotted_ms: float    # the soft limit the clock allotted the move
    limit_ms: float       # the hard limit the search ran under
    used_ms: float


class WDL(TypedDict):
    """Win, draw and loss per mille for the perspective player, summing to 1000."""
    win: int
    draw: int
    loss: int


class SearchResponse(TypedDict):
    move: Move
    value: float | None                          # None: the time ran out before any root move was valued
    score: dict[str, Any] | None
    win_probability: float | None
    wdl: WDL | None                              # None where the game's scale has no win/draw/loss
    bound: NotRequired[Literal["exact", "lower", "upper", "estimate"] | None]  # how value stands to the move's
    perspective: str
    players: list[str] | None                    # the instance's player ids, in player order (values' order)
    position_key: str | None                     # 16 hex digits: the same for the same position (Polyglot in chess)
    outcome: Literal["win", "loss", "draw"] | None
    plies_to_end: int | None
    pv: list[Move]
    lines: NotRequired[list[Line]]               # algorithm.multi_pv > 1: the best root moves, best first
    san: NotRequired[str]
    pv_san: NotRequired[list[str]]
    moves: list[MoveValue]
    stats: Stats
    values: NotRequired[list[float]]
    certainty_equivalent: NotRequired[float]
    clock: NotRequired[ClockUse]                 # under a clock: the time allotted and used
    trace: NotRequired[list[dict[str, Any]]]
    steps: NotRequired[list[dict[str, Any]]]     # backgammon: the chosen play's steps
    board: NotRequired[list[str]]                # go: the searched position, rows top first
    captures: NotRequired[dict[str, int]]        # go: the stones each colour has captured
    sgf: NotRequired[str]                        # go: the game up to the searched position
    ownership: NotRequired[list[list[float]]]    # go, MCTS on the Python core: each point's mean owner
    score_lead: NotRequired[float]               # go, MCTS on the Python core: Black's mean final margin
    options: dict[str, Any]                      # the game options the search ran under
    algorithm: dict[str, Any]


class SearchInfo(TypedDict):
    depth: int
    seldepth: int | None
    value: float
    score: dict[str, Any]
    win_probability: float | None
    move: Move
    pv: list[Move]
    nodes: int
    nodes_per_second: int
    time_ms: float
    iterations: int | None
    lines: NotRequired[list[Line]]               # algorithm.multi_pv > 1
    pv_san: NotRequired[list[str]]               # chess: the line in SAN


class GameResult(TypedDict):
    """A finished game, in every game: who won (None: nobody alone) and why, in words where the game says."""
    winner: str | None
    reason: str | None
    kind: NotRequired[Literal["single", "gammon", "backgammon"]]   # backgammon
    points: NotRequired[int]                                       # backgammon
    score: NotRequired[str]                                        # go: "B+3.5", "W+0.5" or "0"


class Position(TypedDict):
    to_move: str | None
    players: list[str]                           # the instance's player ids, in player order
    legal_moves: list[Move]
    terminal: bool
    utilities: dict[str, float] | None
    result: GameResult | None                    # once the game is over
    san: NotRequired[list[str]]
    probabilities: NotRequired[list[float]]
    fen: NotRequired[str]                        # chess: the position now
    plays: NotRequired[list[dict[str, Any]]]     # backgammon: each play's steps and position
    board: NotRequired[list[str]]                # go: the position, rows top first
    captures: NotRequired[dict[str, int]]        # go: the stones each colour has captured
    sgf: NotRequired[str]                        # go: the game so far


class AppliedPosition(Position):
    state: State
    played_san: NotRequired[str]                 # chess: the move just played


class PlayerInfo(TypedDict):
    id: str                                      # as states and answers write the player
    name: str
    colour: str                                  # "#rrggbb"


class Game(TypedDict):
    id: str
    name: str
    description: str
    players: list[str]
    player_info: list[PlayerInfo]
    player_prefix: str | None                    # trees: an n-player tree's player i is prefix + i
    min_players: int
    max_players: int | None
    chance: Literal["none", "explicit", "optional"]
    zero_sum: bool
    alternating: bool
    outcomes: bool
    utility_bounds: list[float] | None
    value_unit: str
    value_scale: Literal["pawns", "outcome", "value"]
    max_length: int | None
    state_format: str
    initial_state: State
    move_format: str
    move_schema: dict[str, Any]
    history_field: str | None                    # the state's field that keeps the game's history
    conventions: str                             # the game's own numbering and letters, and their mapping
    options: list[dict[str, Any]]
    algorithms: list[str]
    cores: list[str]
    example_request: dict[str, Any]


class GameList(TypedDict):
    games: list[Game]


class Problem(TypedDict):
    type: str
    title: str
    status: int
    detail: str
    errors: NotRequired[dict[str, list[str]]]


class ManyStats(TypedDict):
    """The totals of a request's searches (a review, a batch)."""
    searches: int
    nodes: int
    timed_out: bool
    time_ms: float


# A decision judged by POST /v1/review (functional form: ``class`` is a keyword).
ReviewPly = TypedDict("ReviewPly", {
    "ply": int,
    "player": str,
    "move": Move,
    "value_before": float,
    "value_after": float,
    "outcome_before": Literal["win", "loss", "draw"] | None,
    "outcome_after": Literal["win", "loss", "draw"] | None,
    "win_probability_before": float | None,
    "win_probability_after": float | None,
    "best_move": Move,
    "pv": list[Move],
    "loss": float | None,               # None: the two values in different units (Othello: one proven)
    "drop": float,
    "class": Literal["best", "good", "inaccuracy", "mistake", "blunder"],
    "accuracy": float,
    "san": NotRequired[str],
    "best_san": NotRequired[str],
    "pv_san": NotRequired[list[str]],
})


class ReviewSide(TypedDict):
    moves: int
    accuracy: float
    classes: dict[str, int]


class ReviewJudge(TypedDict):
    measure: Literal["win_probability", "value", "relative_value"]
    inaccuracy: float
    mistake: float
    blunder: float
    source: str


class ReviewResponse(TypedDict):
    game: str
    players: list[str]
    complete: bool                               # every decision judged before the time ran out
    plies: list[ReviewPly]
    summary: dict[str, ReviewSide]               # per player id
    judge: ReviewJudge
    stats: ManyStats
    options: dict[str, Any]
    algorithm: dict[str, Any]


class BatchItem(TypedDict):
    """One search of a streamed batch (a ``search`` event), as it finishes."""
    index: int
    result: SearchResponse


class BatchResponse(TypedDict):
    results: list[SearchResponse]
    stats: ManyStats
