"""The engine's own chess position: a 120-character board seen from the side to move, after sunfish.

The board is a 10 x 12 mailbox string: rows 2..9 hold ranks 8..1 of the mover's view, columns 1..8 files
a..h, and a frame of spaces and newlines stops every ray (a knight's jump from the edge still lands on the
frame). The side to move is always upper case and plays "up" the board; after a move the board is turned
round (``board[::-1].swapcase()``), so square ``s`` of one view is square ``119 - s`` of the other and one
move generator serves both colours. Positions are immutable values; making a move builds a new string.

Moves are ints naming absolute squares (White's view), ``from * 1024 + to * 8 + promotion`` with
:data:`PROMOTIONS` codes, so that a move means the same thing at every node (killers, history, JSON).

Legality: pseudo-legal moves are filtered by one attack test on the mover's king, done only for king moves,
en passant, moves of a pinned piece, and every move when in check. Castling checks the
squares the king crosses. python-chess checks all of this in the tests (perft), never at run time.
"""
N, E, S, W = -10, 1, 10, -1
A1, H1, A8, H8 = 91, 98, 21, 28
KNIGHT = (N + N + E, E + N + E, E + S + E, S + S + E, S + S + W, W + S + W, W + N + W, N + N + W)
ORTHOGONAL, DIAGONAL = (N, E, S, W), (N + E, S + E, S + W, N + W)
KING = ORTHOGONAL + DIAGONAL
DIRECTIONS = {"P": (N, N + N, N + W, N + E), "N": KNIGHT, "B": DIAGONAL, "R": ORTHOGONAL, "Q": KING, "K": KING}
SLIDERS = frozenset("BRQ")
PROMOTIONS = " NBRQ"                      # promotion code -> piece; 0: no promotion
EMPTY_BOARD = (" " * 9 + "\n") * 2 + (" " + "." * 8 + "\n") * 8 + (" " * 9 + "\n") * 2
SQUARES = tuple(21 + 10 * r + f for r in range(8) for f in range(8))   # a8..h8, ..., a1..h1

# Castling rights, four bits in the mover's view: the mover's rooks on A1 and H1, the opponent's on H8
# and A8 (ordered so that turning the board round swaps the two halves).
OUR_A1, OUR_H1, THEIR_H8, THEIR_A8 = 1, 2, 4, 8


def turned_rights(rights: int) -> int:
    """Castling rights seen from the other side."""
    return rights >> 2 | (rights & 3) << 2


def square_name(s: int) -> str:
    """An absolute square's name (``e4``)."""
    return "abcdefgh"[s % 10 - 1] + str(10 - s // 10)


def square_of(name: str) -> int:
    return A1 + "abcdefgh".index(name[0]) - 10 * (int(name[1]) - 1)


def move_code(i: int, j: int, promotion: int = 0) -> int:
    return i * 1024 + j * 8 + promotion


def move_squares(move: int) -> tuple:
    """``(from, to, promotion)`` in absolute squares."""
    return move >> 10, (move >> 3) & 127, move & 7


def uci(move: int) -> str:
    i, j, promotion = move_squares(move)
    return square_name(i) + square_name(j) + PROMOTIONS[promotion].strip().lower()


def attacked(board: str, s: int) -> bool:
    """Whether the opponent (lower case) attacks square ``s``."""
    if board[s + N + W] == "p" or board[s + N + E] == "p":
        return True
    for d in KNIGHT:
        if board[s + d] == "n":
            return True
    for d in KING:
        if board[s + d] == "k":
            return True
    for lines, sliders in ((ORTHOGONAL, "rq"), (DIAGONAL, "bq")):
        for d in lines:
            j = s + d
            while board[j] == ".":
                j += d
            if board[j] in sliders:
                return True
    return False


def ray(s: int, d: int, slides: bool) -> tuple:
    """The squares from ``s`` in direction ``d`` up to the edge of the board (one step for a non-slider)."""
    out, j = [], s + d
    while EMPTY_BOARD[j] == ".":
        out.append(j)
        if not slides:
            break
        j += d
    return tuple(out)


# RAYS[piece][square]: the rays a slider (B, R, Q) moves along; STEPS[piece][square]: where a knight or a
# king can step. Precomputed, so that generating moves walks tuples instead of testing the board's frame.
RAYS = {p: {s: tuple(r for r in (ray(s, d, True) for d in DIRECTIONS[p]) if r) for s in SQUARES} for p in "BRQ"}
STEPS = {p: {s: tuple(r[0] for r in (ray(s, d, False) for d in DIRECTIONS[p]) if r) for s in SQUARES}
         for p in "NK"}
PROMOTION_ORDER = (4, 1, 3, 2)                # queen first, then the under-promotions


def pawn_captures(board: str, i: int, ep: int):
    """The captures of the mover's pawn on ``i`` (en passant too), each promotion apart on the last rank."""
    for j in (i + N + W, i + N + E):
        if board[j] in "pnbrqk" or j == ep:
            if j <= H8:
                for promotion in PROMOTION_ORDER:
                    yield i, j, promotion
            else:
                yield i, j, 0


def pseudo_moves(board: str, rights: int, ep: int):
    """``(from, to, promotion)`` for every pseudo-legal move but castling, in the mover's view."""
    for i in SQUARES:
        p = board[i]
        if p not in "PNBRQK":
            continue
        if p == "P":
            j = i + N
            if board[j] == ".":
                if j <= H8:
                    for promotion in PROMOTION_ORDER:
                        yield i, j, promotion
                else:
                    yield i, j, 0
                    if i >= A1 + N and board[j + N] == ".":      # from the second rank, two squares
                        yield i, j + N, 0
            yield from pawn_captures(board, i, ep)
        elif p in "NK":
            for j in STEPS[p][i]:
                if board[j] not in "PNBRQK":
                    yield i, j, 0
        else:
            for line in RAYS[p][i]:
                for j in line:
                    q = board[j]
                    if q == ".":
                        yield i, j, 0
                        continue
                    if q in "pnbrqk":
                        yield i, j, 0
                    break


def pseudo_noisy(board: str, rights: int, ep: int):
    """``(from, to, promotion)`` for the pseudo-legal captures and promotions, in the mover's view."""
    for i in SQUARES:
        p = board[i]
        if p not in "PNBRQK":
            continue
        if p == "P":
            yield from pawn_captures(board, i, ep)
            if i < A8 + S + S and board[i + N] == ".":          # a push from the seventh rank
                for promotion in PROMOTION_ORDER:
                    yield i, i + N, promotion
        elif p in "NK":
            for j in STEPS[p][i]:
                if board[j] in "pnbrqk":
                    yield i, j, 0
        else:
            for line in RAYS[p][i]:
                for j in line:
                    q = board[j]
                    if q != ".":
                        if q in "pnbrqk":
                            yield i, j, 0
                        break


def castlings(board: str, rights: int, king: int):
    """The castling moves of the mover (king moves of two squares), checked square by square."""
    if not rights & 3 or king not in (94, 95) or attacked(board, king):
        return
    for bit, rook, step in ((OUR_A1, A1, W), (OUR_H1, H1, E)):
        if rights & bit and board[rook] == "R":
            if all(board[s] == "." for s in range(min(king, rook) + 1, max(king, rook))) \
                    and not attacked(board, king + step) and not attacked(board, king + 2 * step):
                yield king, king + 2 * step, 0


def make(board: str, i: int, j: int, promotion: int, rights: int, ep: int) -> tuple:
    """Play ``i -> j`` on the mover's view: ``(board, rights, ep, irreversible)``, the board not yet turned,
    ``ep`` the square behind a pawn that just advanced two (in the new mover's view, 0 if none), and
    whether the move can never be undone (a capture or a pawn move: the fifty-move clock restarts)."""
    p, q = board[i], board[j]
    piece = PROMOTIONS[promotion] if promotion else p
    if i < j:
        board = board[:i] + "." + board[i + 1:j] + piece + board[j + 1:]
    else:
        board = board[:j] + piece + board[j + 1:i] + "." + board[i + 1:]
    new_ep = 0
    if p == "P":
        if j == ep:                                   # en passant: the captured pawn is behind j
            c = j + S
            board = board[:c] + "." + board[c + 1:]
        elif i - j == 20:
            new_ep = 119 - (i + N)
    elif p == "K":
        rights &= ~(OUR_A1 | OUR_H1)
        if abs(j - i) == 2:                           # castling: the rook jumps over the king
            rook, to = (A1, i - 1) if j < i else (H1, i + 1)
            board = board[:rook] + "." + board[rook + 1:]
            board = board[:to] + "R" + board[to + 1:]
    if rights:
        if i == A1 or j == A1:
            rights &= ~OUR_A1
        if i == H1 or j == H1:
            rights &= ~OUR_H1
        if j == H8:
            rights &= ~THEIR_H8
        if j == A8:
            rights &= ~THEIR_A8
    return board, rights, new_ep, p == "P" or q != "."


def pinned(board: str, king: int) -> tuple:
    """The mover's king, and the mover's pieces that stand between it and an opponent's slider on the
    same line: the pieces whose moves may expose the king."""
    out: tuple[int, ...] = (king,)
    for d in KING:
        j = king + d
        while board[j] == ".":
            j += d
        if board[j] in "PNBRQ":
            i, j = j, j + d
            while board[j] == ".":
                j += d
            if board[j] == "q" or board[j] == ("r" if d in ORTHOGONAL else "b"):
                out += (i,)
    return out


def legal_moves(board: str, rights: int, ep: int, king: int, in_check: bool, suspects: tuple,
                noisy: bool = False):
    """The legal moves ``(from, to, promotion)`` in the mover's view, one at a time (``noisy``: only the
    captures and promotions). Only moves from ``suspects`` (the king and the pinned pieces, see
    :func:`pinned`), en passant captures and every move out of check need the attack test."""
    for i, j, promotion in (pseudo_noisy if noisy else pseudo_moves)(board, rights, ep):
        if in_check or i in suspects or (j == ep and board[i] == "P"):
            after = make(board, i, j, promotion, rights, ep)[0]
            if attacked(after, j if i == king else king):
                continue
        yield i, j, promotion
    if not in_check and rights & 3 and not noisy:
        yield from castlings(board, rights, king)


def turned(board: str) -> str:
    """The board seen by the other side."""
    return board[::-1].swapcase()


def legal_ep(board: str, ep: int) -> int:
    """``ep`` (in the view of ``board``, the new mover's) if some pawn can take en passant legally there,
    else 0: positions that differ only by an en passant square nobody can use are the same position."""
    if not ep:
        return 0
    king = board.index("K")
    for i in (ep + S + W, ep + S + E):
        if board[i] == "P":
            after = make(board, i, ep, 0, 0, ep)[0]
            if not attacked(after, king):
                return ep
    return 0
