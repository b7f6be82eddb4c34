"""Chess states: immutable tuples built once per move, with everything a search asks about precomputed.

A state is the tuple indexed by the constants below:

- ``BOARD``, ``RIGHTS``, ``EP``: the mover's view of the board, the castling rights and the en passant
  square (kept only when some pawn can really take there), see :mod:`.board`;
- ``CLOCK``: plies since the last capture or pawn move (the fifty-move rule);
- ``PLY``: plies since the start of the game (White moves at even plies; the FEN's move number);
- ``HISTORY``: the earlier positions that can still come again, oldest first: those since the last
  capture, pawn move or change of castling rights (nothing before them can recur);
- ``LINE``: the moves played from the history's positions (they follow from the positions, and spare
  :func:`~.notation.history_json` finding them again);
- derived from those: ``MOVES`` (the legal moves, see :func:`moves`), ``CHECK``, ``STATUS``, ``REPEATS`` (how often the
  position occurred before), the evaluation sums ``MG``, ``EG``, ``PHASE``, and ``KEY``.

The key is the position, the clock, the ply and the history: everything the rest of the game depends on,
so two states share a key only when they are the same state. The search's transposition table keys by
less (the game's ``table_key``): the position, the side to move and, from ``KEYED_CLOCK`` plies on, the
clock, so that the same position reached by other moves shares an entry. A repetition draw found below
one line can then reach another where it would not happen (the graph-history interaction), the price
every chess engine pays for its transpositions; the fifty-move draw cannot, since the clock is in the key
wherever a search can reach it.
"""
from engine.games.chess.board import attacked, legal_ep, legal_moves, make, pinned, turned, turned_rights
from engine.games.chess.evaluation import move_delta

BOARD, RIGHTS, EP, CLOCK, PLY, HISTORY, MOVES, CHECK, STATUS, REPEATS, MG, EG, PHASE, KEY, LINE = range(15)
ONGOING, CHECKMATE, STALEMATE, INSUFFICIENT, FIFTY_MOVES, THREEFOLD = range(6)
REASONS = {CHECKMATE: "checkmate", STALEMATE: "stalemate", INSUFFICIENT: "insufficient material",
           FIFTY_MOVES: "fifty-move rule", THREEFOLD: "threefold repetition"}
FLIP = 119 * 1024 + 119 * 8                   # a view move code -> the absolute one, for Black
# The clock from which it joins the table key: 40 plies short of the fifty-move draw, beyond what a search's
# lines reach below its root (a second's search: some 25 plies).
KEYED_CLOCK = 60


def position_key(board: str, rights: int, ep: int) -> str:
    """The position itself, as repetition compares it (same side to move, implied by the ply's parity)."""
    return board + chr(48 + rights) + chr(ep)


class Moves:
    """The legal moves of a position, generated when first asked for (:func:`moves`): most states a search
    makes at its horizon are valued without them. Equal to every other ``Moves`` and hashed alike, so that
    a state's equality and hash are those of its position fields, which determine the moves."""

    __slots__ = ("args", "codes")

    def __init__(self, args: tuple[str, int, int, int, bool, tuple, int]):
        self.args, self.codes = args, None

    def __eq__(self, other):
        return isinstance(other, Moves)

    def __hash__(self):
        return 0


def moves(state: tuple) -> tuple:
    """The legal move codes of a state, in generation order."""
    cache = state[MOVES]
    if cache.codes is None:
        args, black = cache.args[:-1], cache.args[-1]
        if black:
            cache.codes = tuple(FLIP - i * 1024 - j * 8 + p for i, j, p in legal_moves(*args))
        else:
            cache.codes = tuple(i * 1024 + j * 8 + p for i, j, p in legal_moves(*args))
    return cache.codes


def noisy_moves(state: tuple):
    """The legal captures and promotions ``(from, to, promotion)`` in the mover's view."""
    cache: Moves = state[MOVES]
    return legal_moves(*cache.args[:-1], noisy=True)


def build(board, rights, ep, clock, ply, history, line, mg, eg, phase, material_changed=True) -> tuple:
    """The state of a position (see the module docstring); ``material_changed`` asks for the insufficient
    material test, which only a capture or a promotion can make true. Only the first legal move is looked
    for here (to tell checkmate and stalemate); the others when :func:`moves` asks."""
    king = board.index("K")
    check = attacked(board, king)
    suspects = pinned(board, king)
    movable = next(legal_moves(board, rights, ep, king, check, suspects), None) is not None
    here = position_key(board, rights, ep)
    repeats = history[-2::-2].count(here) if len(history) >= 4 else 0
    if not movable and check:
        status = CHECKMATE
    elif material_changed and insufficient(board):
        status = INSUFFICIENT
    elif not movable:
        status = STALEMATE
    elif clock >= 100:
        status = FIFTY_MOVES
    elif repeats >= 2:
        status = THREEFOLD
    else:
        status = ONGOING
    cache = Moves((board, rights, ep, king, check, suspects, ply & 1))
    return (board, rights, ep, clock, ply, history, cache, check, status, repeats, mg, eg, phase,
            (here, clock, ply, history), line)


def insufficient(board: str) -> bool:
    """Neither side can mate (python-chess's rule): only kings and minor pieces, and either a lone knight
    or bishops all on squares of one colour."""
    for c in "PRQprq":
        if c in board:
            return False
    minors = [(s, c) for s, c in enumerate(board) if c in "NBnb"]
    if any(c in "Nn" for _, c in minors):
        return len(minors) == 1
    return len({(s // 10 + s % 10) & 1 for s, _ in minors}) <= 1


def play(state: tuple, move: int) -> tuple:
    """The state after ``move`` (a legal move code)."""
    board, rights, ep, clock, ply = state[0], state[1], state[2], state[3], state[4]
    i, j, promotion = move >> 10, (move >> 3) & 127, move & 7
    if ply & 1:
        i, j = 119 - i, 119 - j
    dmg, deg, dphase = move_delta(board, i, j, promotion, ep, ply & 1)
    after, new_rights, new_ep, irreversible = make(board, i, j, promotion, rights, ep)
    after = turned(after)
    if new_ep:
        new_ep = legal_ep(after, new_ep)
    if irreversible or new_rights != rights:
        history, line = (), ()
    else:
        history, line = state[HISTORY] + (state[KEY][0],), state[LINE] + (move,)
    clock = 0 if irreversible else clock + 1
    return build(after, turned_rights(new_rights), new_ep, clock, ply + 1, history, line, -state[MG] - dmg,
                 -state[EG] - deg, state[PHASE] + dphase, material_changed=irreversible and (
                     board[j] != "." or promotion != 0))


def passed(state: tuple) -> tuple:
    """The state with the turn passed (a null move, for the search's null-move pruning): no en passant,
    no history (a pass is not a game move, so nothing repeats across it)."""
    return build(turned(state[BOARD]), turned_rights(state[RIGHTS]), 0, state[CLOCK], state[PLY] + 1, (), (),
                 -state[MG], -state[EG], state[PHASE], material_changed=False)
