"""Go games in SGF (FF[4]): read with sgfmill, whole or not at all, and written from a state.

SGF's points are two letters, column then row, ``a`` the left column and the top row; a pass is an empty
value (``B[]``; ``tt`` too on boards up to 19). Reading keeps the root's size, komi, handicap and setup
stones and the main line's moves; anything the engine's state cannot hold is refused rather than dropped.
"""
from dataclasses import dataclass

from sgfmill import sgf, sgf_grammar

from engine.games.go.board import BLACK, MAX_SIZE, MIN_SIZE, WHITE

LETTERS = "abcdefghijklmnopqrs"
COLOUR_NAMES = {BLACK: "B", WHITE: "W"}


class SgfError(ValueError):
    """An SGF the engine refuses, with the reason in words."""


@dataclass(frozen=True)
class Record:
    """What a game record holds: ``size``, ``komi`` (None: not given), ``handicap`` (the HA property, 0
    when absent), ``black`` and ``white`` (setup points, handicap stones among them, as move codes) and
    ``moves``: ``(colour, code)`` in order, the pass as ``size * size``."""

    size: int
    komi: float | None
    handicap: int
    black: tuple[int, ...]
    white: tuple[int, ...]
    moves: tuple[tuple[int, int], ...]


def read(text: str) -> Record:
    """The record of an SGF game; :class:`SgfError` saying what is wrong when sgfmill cannot read it,
    or when it holds what a state cannot: a size outside 2..19, setup stones after the root, a move that
    is not a point, text before or after the game (a second game among it). Variations are skipped: the
    main line is the game."""
    data = text.encode("utf-8")
    try:
        game = sgf.Sgf_game.from_bytes(data)
        _, end = sgf_grammar.tokenise(data)
    except ValueError as exc:
        raise SgfError(f"not a readable SGF game: {exc}") from None
    if not data.lstrip().startswith(b"(") or data[end:].strip():
        raise SgfError("an SGF state is one game, (;...), with nothing before or after it")
    size = game.get_size()
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise SgfError(f"SZ[{size}]: the board's size is 2 to 19")
    root = game.get_root()
    try:
        komi = game.get_komi() if root.has_property("KM") else None
        handicap = game.get_handicap() or 0
        black, white, empty = root.get_setup_stones()
    except ValueError as exc:
        raise SgfError(f"the root's properties: {exc}") from None
    if empty:
        raise SgfError("AE (points made empty) cannot be read: the state starts from setup stones only")
    moves = []
    for n, node in enumerate(game.get_main_sequence()[1:], start=1):
        if node.has_setup_stones():
            raise SgfError(f"node {n} adds or removes stones (AB/AW/AE): setup is read in the root only")
        try:
            colour, point = node.get_move()
        except ValueError:
            raise SgfError(f"node {n}: its move is not a point of the {size} x {size} board") from None
        if colour is None:
            continue
        if point is not None and not (0 <= point[0] < size and 0 <= point[1] < size):
            raise SgfError(f"node {n}: the move is off the {size} x {size} board")
        code = size * size if point is None else point[0] * size + point[1]
        moves.append((BLACK if colour == "b" else WHITE, code))
    return Record(size, komi, handicap, tuple(r * size + c for r, c in sorted(black)),
                  tuple(r * size + c for r, c in sorted(white)), tuple(moves))


def point_text(code: int, size: int) -> str:
    """A move code as SGF writes it: two letters, or empty for the pass."""
    if code == size * size:
        return ""
    row, col = divmod(code, size)
    return LETTERS[col] + LETTERS[size - 1 - row]


def komi_text(komi: float) -> str:
    return str(int(komi)) if komi == int(komi) else repr(komi)


def write(size: int, komi: float, handicap: int, black, white, moves, first: int = BLACK,
          result: str | None = None) -> str:
    """An SGF game: the root with size, komi, handicap and setup stones (``black``, ``white``: codes),
    then ``moves`` (codes, players alternating from ``first``), and ``result`` (RE) once the game is over."""
    root = f";GM[1]FF[4]CA[UTF-8]SZ[{size}]KM[{komi_text(komi)}]"
    if handicap:
        root += f"HA[{handicap}]"
    if black:
        root += "AB" + "".join(f"[{point_text(p, size)}]" for p in black)
    if white:
        root += "AW" + "".join(f"[{point_text(p, size)}]" for p in white)
    if result is not None:
        root += f"RE[{result}]"
    colour, body = first, []
    for code in moves:
        body.append(f";{COLOUR_NAMES[colour]}[{point_text(code, size)}]")
        colour = BLACK + WHITE - colour
    return "(" + root + "".join(body) + ")"
