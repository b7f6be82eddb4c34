"""Static exchange evaluation (SEE): what a move wins or loses on its target square when both sides go on
capturing there, each with its least valuable piece, and each free to stop when going on would lose.

It works on the mover's view of the board (:mod:`.board`: upper case moves, "up" the board) and sees
through the pieces that have captured (x-rays), but not pins, checks or promotions after the first move.
The compiled core's ``Chess::exchange`` (native/src/games/chess.hpp) computes the same numbers on bitboards.
"""
from engine.games.chess.board import DIAGONAL, E, KING, KNIGHT, N, ORTHOGONAL, W
from engine.games.chess.evaluation import MATERIAL_EG, MATERIAL_MG

# A piece's worth in exchanges (and in move ordering, as the victim): the larger of its two materials. The
# king is worth more than everything else together: it may take last, never into a recapture.
VICTIM = {p: max(MATERIAL_MG[p], MATERIAL_EG[p]) for p in "PNBRQ"}
KING_VALUE = 20_000
WORTH = {**VICTIM, "K": KING_VALUE}
CHEAPEST_FIRST = "PNBRQK"


def exchange(board: str, i: int, j: int, promotion_piece: str, en_passant: bool) -> int:
    """The centipawns the mover wins (negative: loses) by moving from ``i`` to ``j`` (squares of the mover's
    view), promoting to ``promotion_piece`` (``""``: none) and taking en passant if ``en_passant``, when the
    exchange on ``j`` is played out; at least the move's first gain or its loss."""
    cells = list(board)
    piece = cells[i]
    if en_passant:
        gains = [VICTIM["P"]]
        cells[j - N] = "."                        # the pawn taken, behind the target square
    else:
        gains = [VICTIM[cells[j].upper()] if cells[j] != "." else 0]
    if promotion_piece:
        gains[0] += VICTIM[promotion_piece] - VICTIM["P"]
        piece = promotion_piece
    on_square = WORTH[piece]
    cells[i] = "."
    side = "pnbrqk"                               # the opponent's pieces recapture first
    while True:
        attacker = cheapest_attacker(cells, j, side)
        if attacker is None:
            break
        gains.append(on_square - gains[-1])        # the score if this capture is made, for its side
        on_square = WORTH[cells[attacker].upper()]
        cells[attacker] = "."
        side = side.swapcase()
    for k in range(len(gains) - 1, 0, -1):         # each side captures only when that does not lose
        gains[k - 1] = -max(-gains[k - 1], gains[k])
    return gains[0]


def cheapest_attacker(cells: list, j: int, side: str) -> int | None:
    """The square of the least valuable piece among ``side`` (``"PNBRQK"`` or ``"pnbrqk"``) that attacks
    ``j`` on ``cells``, or None."""
    upper = side == CHEAPEST_FIRST
    pawn, knight, bishop, rook, queen, king = tuple(side)
    behind = (-N - W, -N - E) if upper else (N - W, N - E)   # where that side's pawns attack ``j`` from
    for d in behind:
        if cells[j + d] == pawn:
            return j + d
    for d in KNIGHT:
        if cells[j + d] == knight:
            return j + d
    sliders: dict[str, int] = {}                   # the first piece along each line, by the piece
    for lines, movers in ((DIAGONAL, (bishop, queen)), (ORTHOGONAL, (rook, queen))):
        for d in lines:
            s = j + d
            while cells[s] == ".":
                s += d
            if cells[s] in movers:
                sliders.setdefault(cells[s], s)
    for p in (bishop, rook, queen):
        if p in sliders:
            return sliders[p]
    for d in KING:
        if cells[j + d] == king:
            return j + d
    return None

