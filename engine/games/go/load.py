"""A Go state's JSON read and checked: the start (size, komi, handicap and setup stones) and the moves
played from it, each still JSON with the field that names it. The moves' legality is the rules' to judge
(:mod:`engine.games.go`), which replays them."""
from dataclasses import dataclass
import math

from engine.errors import InvalidState
from engine.games.go import sgf
from engine.games.go.board import BLACK, MAX_SIZE, MIN_SIZE, WHITE, neighbours, parse_vertex, play, vertex

DEFAULT_SIZE, DEFAULT_KOMI = 19, 7.5
KEYS = {"size", "komi", "moves", "handicap", "setup", "sgf"}
MAX_MOVES = 4 * MAX_SIZE * MAX_SIZE     # a game longer than this is no game people play (and loads in time)
MAX_SGF_CHARS = 200_000
MAX_KOMI = MAX_SIZE * MAX_SIZE


@dataclass(frozen=True)
class Start:
    """Where a game starts: the board's ``size``, ``komi`` (White's, in points), the ``handicap`` (GTP's
    fixed placement, 0 for none) and the explicit ``setup`` stones of each colour (move codes, sorted).
    Black moves first."""

    size: int
    komi: float
    handicap: int = 0
    setup_black: tuple[int, ...] = ()
    setup_white: tuple[int, ...] = ()

    @property
    def black(self) -> tuple[int, ...]:
        """Every black stone at the start, the handicap's among them, sorted."""
        return tuple(sorted(set(handicap_points(self.size, self.handicap)) | set(self.setup_black)))

    @property
    def white(self) -> tuple[int, ...]:
        return self.setup_white


def handicap_points(size: int, stones: int) -> list[int]:
    """GTP 2's fixed handicap placement (section 4.1.1) of ``stones`` on a ``size`` board: the star points,
    on the third line up to 12 x 12 and on the fourth from 13 x 13; at most 9 on odd sizes from 9 x 9, 4 on
    even sizes and on 7 x 7, none below 7 x 7. ValueError where GTP defines none."""
    if stones == 0:
        return []
    most = 0 if size < 7 else 4 if size % 2 == 0 or size == 7 else 9
    if not 2 <= stones <= most:
        raise ValueError(f"GTP places 2 to {most} handicap stones on a {size} x {size} board" if most
                         else f"GTP places no handicap stones on a board smaller than 7 x 7 ({size} x {size})")
    edge = 2 if size <= 12 else 3
    low, mid, high = edge, size // 2, size - 1 - edge

    def at(col, row):
        return row * size + col

    corners = [at(low, low), at(high, high), at(low, high), at(high, low)]
    sides = [at(low, mid), at(high, mid), at(mid, low), at(mid, high)]
    centre = at(mid, mid)
    if stones <= 4:
        return corners[:stones]
    if stones == 5:
        return corners + [centre]
    if stones <= 7:
        return corners + sides[:2] + ([centre] if stones == 7 else [])
    return corners + sides + ([centre] if stones == 9 else [])


def parse(state_json) -> tuple[Start, list[tuple[str, object]]]:
    """``(start, moves)``: the state's start and its moves as ``(field, vertex JSON)``, from ``{"size",
    "komi", "moves", "handicap", "setup"}`` or ``{"sgf"}``; :class:`InvalidState` names the field at fault."""
    unknown = set(state_json) - KEYS
    if unknown:
        raise InvalidState(f"unknown keys {sorted(unknown)}; a go state has {sorted(KEYS - {'sgf'})}, or sgf alone")
    if "sgf" in state_json:
        return from_sgf(state_json)
    size = state_json.get("size", DEFAULT_SIZE)
    if type(size) is not int or not MIN_SIZE <= size <= MAX_SIZE:
        raise InvalidState(f"the board's size is an integer from {MIN_SIZE} to {MAX_SIZE}", field="state.size")
    komi = checked_komi(state_json.get("komi", DEFAULT_KOMI), "state.komi")
    handicap = state_json.get("handicap", 0)
    if type(handicap) is not int:
        raise InvalidState("the handicap is an integer, the number of black stones GTP places", field="state.handicap")
    try:
        placed = handicap_points(size, handicap)
    except ValueError as exc:
        raise InvalidState(str(exc), field="state.handicap") from None
    black, white = setup_points(state_json.get("setup", {}), size, placed)
    moves = state_json.get("moves", [])
    if not isinstance(moves, list) or len(moves) > MAX_MOVES:
        raise InvalidState(f"moves is a list of at most {MAX_MOVES} vertices (\"E5\", \"pass\")", field="state.moves")
    start = Start(size, komi, handicap, black, white)
    require_living(start, "state.setup")
    return start, [(f"state.moves[{i}]", m) for i, m in enumerate(moves)]


def checked_komi(komi, field: str) -> float:
    """``komi`` as a float: a finite number of at most ``MAX_KOMI`` points either way."""
    if type(komi) not in (int, float) or not math.isfinite(komi) or abs(komi) > MAX_KOMI:
        raise InvalidState(f"komi is a finite number of points, at most {MAX_KOMI} either way (the points of "
                           "the largest board)", field=field)
    return float(komi)


def setup_points(setup, size: int, placed: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The setup stones ``{"black": [vertices], "white": [vertices]}`` as sorted codes, each point at most
    once, none on a handicap stone (``placed``)."""
    if not isinstance(setup, dict) or set(setup) - {"black", "white"}:
        raise InvalidState("setup is {\"black\": [vertices], \"white\": [vertices]}", field="state.setup")
    taken = set(placed)
    out = []
    for colour in ("black", "white"):
        vertices = setup.get(colour, [])
        if not isinstance(vertices, list) or len(vertices) > size * size:
            raise InvalidState("a list of vertices (\"D4\")", field=f"state.setup.{colour}")
        codes = []
        for i, text in enumerate(vertices):
            field = f"state.setup.{colour}[{i}]"
            try:
                code = parse_vertex(text, size)
            except ValueError as exc:
                raise InvalidState(str(exc), field=field) from None
            if code == size * size:
                raise InvalidState("a setup stone is on a point, not a pass", field=field)
            if code in taken:
                raise InvalidState(f"{vertex(code, size)} already holds a stone (a handicap or setup stone)",
                                   field=field)
            taken.add(code)
            codes.append(code)
        out.append(tuple(sorted(codes)))
    return out[0], out[1]


def require_living(start: Start, field: str) -> None:
    """Every group of the starting position has a liberty (a board reached by play has no other)."""
    size, near = start.size, neighbours(start.size)
    board = bytearray(size * size)
    for p in start.black:
        board[p] = BLACK
    for p in start.white:
        board[p] = WHITE
    for p in (*start.black, *start.white):
        empty = bytearray(board)
        empty[p] = 0
        if play(bytes(empty), near, p, board[p]) is None:
            raise InvalidState(f"the group of {vertex(p, size)} has no liberty: no position of play has one",
                               field=field)


def from_sgf(state_json) -> tuple[Start, list[tuple[str, object]]]:
    """The start and the moves of ``{"sgf": "(;GM[1]SZ[9]...)"}``: Black moves first, so a record whose
    first move is White's (a handicap game's) reads as Black's pass before it; otherwise the players
    alternate."""
    if set(state_json) != {"sgf"}:
        raise InvalidState("an sgf state has sgf alone: its root gives size, komi, handicap and setup",
                           field="state.sgf")
    text = state_json["sgf"]
    if not isinstance(text, str) or len(text) > MAX_SGF_CHARS:
        raise InvalidState(f"sgf is a string of at most {MAX_SGF_CHARS} characters", field="state.sgf")
    try:
        record = sgf.read(text)
    except sgf.SgfError as exc:
        raise InvalidState(str(exc), field="state.sgf") from None
    size = record.size
    komi = checked_komi(DEFAULT_KOMI if record.komi is None else record.komi, "state.sgf")
    try:
        fixed = handicap_points(size, record.handicap)
    except ValueError:
        fixed = []
    # HA with exactly GTP's stones among the setup is kept as a handicap; any other setup is setup.
    handicap = record.handicap if fixed and set(fixed) <= set(record.black) else 0
    extra = tuple(p for p in record.black if p not in fixed) if handicap else record.black
    start = Start(size, komi, handicap, extra, record.white)
    require_living(start, "state.sgf")
    colours = [colour for colour, _ in record.moves]
    codes = [code for _, code in record.moves]
    if colours[:1] == [WHITE]:
        colours, codes = [BLACK, *colours], [size * size, *codes]
    for n, colour in enumerate(colours):
        if colour != (BLACK if n % 2 == 0 else WHITE):
            raise InvalidState(f"move {n + 1} is {'B' if colour == BLACK else 'W'}'s, twice in a row: the players "
                               "alternate (a pass is B[] or W[])", field="state.sgf")
    if len(codes) > MAX_MOVES:
        raise InvalidState(f"at most {MAX_MOVES} moves", field="state.sgf")
    return start, [("state.sgf", vertex(code, size)) for code in codes]
