"""A tapered evaluation after PeSTO (Ronald Friederich): material and piece-square tables for the middle
game and the endgame, blended by the game phase (knights and bishops 1, rooks 2, queens 4; 24 at the
start). The figures are PeSTO's published ones; the code is ours.

Each table is indexed by the 120-square board of the mover's view (see :mod:`.board`) and includes the
piece's material value. A position keeps its middle-game and endgame sums (the mover's pieces minus the
opponent's, in centipawns) and its phase, and a move updates them (:func:`move_delta`), so evaluating a
position is one blend, plus the pawn-structure terms (:func:`structure`: doubled, isolated and passed pawns),
looked up by the position's pawns.
"""
from engine.games.chess.board import A1, H1, PROMOTIONS, S, SQUARES

MATERIAL_MG = {"P": 82, "N": 337, "B": 365, "R": 477, "Q": 1025, "K": 0}
MATERIAL_EG = {"P": 94, "N": 281, "B": 297, "R": 512, "Q": 936, "K": 0}
PHASE = {"P": 0, "N": 1, "B": 1, "R": 2, "Q": 4, "K": 0}
FULL_PHASE = 24

# PeSTO's piece-square tables, a8..h8 first, from White's side.
PST_MG = {
    "P": (0, 0, 0, 0, 0, 0, 0, 0, 98, 134, 61, 95, 68, 126, 34, -11, -6, 7, 26, 31, 65, 56, 25, -20,
          -14, 13, 6, 21, 23, 12, 17, -23, -27, -2, -5, 12, 17, 6, 10, -25, -26, -4, -4, -10, 3, 3, 33, -12,
          -35, -1, -20, -23, -15, 24, 38, -22, 0, 0, 0, 0, 0, 0, 0, 0),
    "N": (-167, -89, -34, -49, 61, -97, -15, -107, -73, -41, 72, 36, 23, 62, 7, -17, -47, 60, 37, 65, 84, 129,
          73, 44, -9, 17, 19, 53, 37, 69, 18, 22, -13, 4, 16, 13, 28, 19, 21, -8, -23, -9, 12, 10, 19, 17, 25,
          -16, -29, -53, -12, -3, -1, 18, -14, -19, -105, -21, -58, -33, -17, -28, -19, -23),
    "B": (-29, 4, -82, -37, -25, -42, 7, -8, -26, 16, -18, -13, 30, 59, 18, -47, -16, 37, 43, 40, 35, 50, 37,
          -2, -4, 5, 19, 50, 37, 37, 7, -2, -6, 13, 13, 26, 34, 12, 10, 4, 0, 15, 15, 15, 14, 27, 18, 10, 4, 15,
          16, 0, 7, 21, 33, 1, -33, -3, -14, -21, -13, -12, -39, -21),
    "R": (32, 42, 32, 51, 63, 9, 31, 43, 27, 32, 58, 62, 80, 67, 26, 44, -5, 19, 26, 36, 17, 45, 61, 16, -24,
          -11, 7, 26, 24, 35, -8, -20, -36, -26, -12, -1, 9, -7, 6, -23, -45, -25, -16, -17, 3, 0, -5, -33,
          -44, -16, -20, -9, -1, 11, -6, -71, -19, -13, 1, 17, 16, 7, -37, -26),
    "Q": (-28, 0, 29, 12, 59, 44, 43, 45, -24, -39, -5, 1, -16, 57, 28, 54, -13, -17, 7, 8, 29, 56, 47, 57,
          -27, -27, -16, -16, -1, 17, -2, 1, -9, -26, -9, -10, -2, -4, 3, -3, -14, 2, -11, -2, -5, 2, 14, 5,
          -35, -8, 11, 2, 8, 15, -3, 1, -1, -18, -9, 10, -15, -25, -31, -50),
    "K": (-65, 23, 16, -15, -56, -34, 2, 13, 29, -1, -20, -7, -8, -4, -38, -29, -9, 24, 2, -16, -20, 6, 22,
          -22, -17, -20, -12, -27, -30, -25, -14, -36, -49, -1, -27, -39, -46, -44, -33, -51, -14, -14, -22,
          -46, -44, -30, -15, -27, 1, 7, -8, -64, -43, -16, 9, 8, -15, 36, 12, -54, 8, -28, 24, 14),
}
PST_EG = {
    "P": (0, 0, 0, 0, 0, 0, 0, 0, 178, 173, 158, 134, 147, 132, 165, 187, 94, 100, 85, 67, 56, 53, 82, 84,
          32, 24, 13, 5, -2, 4, 17, 17, 13, 9, -3, -7, -7, -8, 3, -1, 4, 7, -6, 1, 0, -5, -1, -8, 13, 8, 8, 10,
          13, 0, 2, -7, 0, 0, 0, 0, 0, 0, 0, 0),
    "N": (-58, -38, -13, -28, -31, -27, -63, -99, -25, -8, -25, -2, -9, -25, -24, -52, -24, -20, 10, 9, -1, -9,
          -19, -41, -17, 3, 22, 22, 22, 11, 8, -18, -18, -6, 16, 25, 16, 17, 4, -18, -23, -3, -1, 15, 10, -3,
          -20, -22, -42, -20, -10, -5, -2, -20, -23, -44, -29, -51, -23, -15, -22, -18, -50, -64),
    "B": (-14, -21, -11, -8, -7, -9, -17, -24, -8, -4, 7, -12, -3, -13, -4, -14, 2, -8, 0, -1, -2, 6, 0, 4, -3,
          9, 12, 9, 14, 10, 3, 2, -6, 3, 13, 19, 7, 10, -3, -9, -12, -3, 8, 10, 13, 3, -7, -15, -14, -18, -7,
          -1, 4, -9, -15, -27, -23, -9, -23, -5, -9, -16, -5, -17),
    "R": (13, 10, 18, 15, 12, 12, 8, 5, 11, 13, 13, 11, -3, 3, 8, 3, 7, 7, 7, 5, 4, -3, -5, -3, 4, 3, 13, 1, 2,
          1, -1, 2, 3, 5, 8, 4, -5, -6, -8, -11, -4, 0, -5, -1, -7, -12, -8, -16, -6, -6, 0, 2, -9, -9, -11,
          -3, -9, 2, 3, -1, -5, -13, 4, -20),
    "Q": (-9, 22, 22, 27, 27, 19, 10, 20, -17, 20, 32, 41, 58, 25, 30, 0, -20, 6, 9, 49, 47, 35, 19, 9, 3, 22,
          24, 45, 57, 40, 57, 36, -18, 28, 19, 47, 31, 34, 39, 23, -16, -27, 15, 6, 9, 17, 10, 5, -22, -23,
          -30, -16, -16, -23, -36, -32, -33, -28, -22, -43, -5, -32, -20, -41),
    "K": (-74, -35, -18, -18, -11, 15, 4, -17, -12, 17, 14, 17, 17, 38, 23, 11, 10, 17, 23, 15, 20, 45, 44, 13,
          -8, 22, 24, 27, 26, 33, 26, 3, -18, -4, 21, 24, 27, 23, 9, -11, -19, -3, 11, 21, 23, 16, 7, -9, -27,
          -11, 4, 13, 14, 4, -5, -17, -53, -34, -21, -11, -28, -14, -24, -43),
}


def board_table(material: dict, pst: dict, black: int) -> dict:
    """piece -> 120-entry list in the view of the side that owns the piece: material plus the square's
    bonus (0 off the board). Black's view is White's turned round, which also swaps the files: Black's
    tables are White's mirrored left to right (PeSTO's, flipped top to bottom, seen from Black's side)."""
    out = {}
    for piece, bonus in pst.items():
        row = [0] * 120
        for k, s in enumerate(SQUARES):
            row[s] = material[piece] + bonus[k ^ 7 if black else k]
        out[piece] = row
    return out


# TABLES[side][0] and [1]: the middle-game and endgame tables of White's (0) and Black's (1) pieces.
TABLES = tuple((board_table(MATERIAL_MG, PST_MG, side), board_table(MATERIAL_EG, PST_EG, side)) for side in (0, 1))


def totals(board: str, black: int) -> tuple:
    """``(mg, eg, phase)`` of a board from scratch: the mover's sums minus the opponent's; ``black``: the
    mover is Black."""
    (mg_ours, eg_ours), (mg_theirs, eg_theirs) = TABLES[black], TABLES[1 - black]
    mg = eg = phase = 0
    for s, c in enumerate(board):
        if c in "PNBRQK":
            mg, eg, phase = mg + mg_ours[c][s], eg + eg_ours[c][s], phase + PHASE[c]
        elif c in "pnbrqk":
            p = c.upper()
            mg, eg, phase = mg - mg_theirs[p][119 - s], eg - eg_theirs[p][119 - s], phase + PHASE[p]
    return mg, eg, phase


def move_delta(board: str, i: int, j: int, promotion: int, ep: int, black: int) -> tuple:
    """How the move ``i -> j`` on the mover's view changes ``(mg, eg, phase)``, from the mover's side;
    ``black``: the mover is Black."""
    (mg_ours, eg_ours), (mg_theirs, eg_theirs) = TABLES[black], TABLES[1 - black]
    p, q = board[i], board[j]
    mg_row, eg_row = mg_ours[p], eg_ours[p]
    mg, eg, phase = mg_row[j] - mg_row[i], eg_row[j] - eg_row[i], 0
    if q != ".":
        v = q.upper()
        mg, eg, phase = mg + mg_theirs[v][119 - j], eg + eg_theirs[v][119 - j], phase - PHASE[v]
    if p == "P":
        if promotion:
            piece = PROMOTIONS[promotion]
            mg, eg, phase = (mg + mg_ours[piece][j] - mg_row[j], eg + eg_ours[piece][j] - eg_row[j],
                             phase + PHASE[piece])
        elif j == ep:
            mg, eg = mg + mg_theirs["P"][119 - (j + S)], eg + eg_theirs["P"][119 - (j + S)]
    elif p == "K" and abs(j - i) == 2:
        rook, to = (A1, i - 1) if j < i else (H1, i + 1)
        mg, eg = mg + mg_ours["R"][to] - mg_ours["R"][rook], eg + eg_ours["R"][to] - eg_ours["R"][rook]
    return mg, eg, phase


def blend(mg: int, eg: int, phase: int) -> float:
    """The tapered score in centipawns."""
    if phase > FULL_PHASE:
        phase = FULL_PHASE
    return (mg * phase + eg * (FULL_PHASE - phase)) / FULL_PHASE


# --- pawn structure -------------------------------------------------------------------------------
# Terms of the pawns alone, so a position's are looked up by its pawns (a small table: most positions a
# search meets share their pawns with many others). Centipawns, (middle game, endgame).
DOUBLED = (10, 20)            # each pawn beyond the first on a file
ISOLATED = (10, 15)           # a pawn with no friendly pawn on the files beside it
# A passed pawn (no enemy pawn ahead on its file or the files beside it), by its rank (2..7) from its
# owner's side. PeSTO's pawn tables already pay for advanced pawns, so these stay small.
PASSED_MG = (0, 0, 0, 5, 10, 20, 35, 50)
PASSED_EG = (0, 0, 5, 10, 20, 35, 55, 80)
PAWNS_ONLY = bytes(c if chr(c) in "Pp" else 46 for c in range(256))   # every other square -> "."
STRUCTURE_CACHE_SIZE = 1 << 16
STRUCTURE_CACHE: dict[bytes, tuple[int, int]] = {}


def structure(board: str) -> tuple:
    """``(mg, eg)``: the pawn structure terms of a board, the mover's minus the opponent's, in centipawns;
    cached by the pawns."""
    key = board.encode().translate(PAWNS_ONLY)
    cached = STRUCTURE_CACHE.get(key)
    if cached is None:
        if len(STRUCTURE_CACHE) >= STRUCTURE_CACHE_SIZE:
            STRUCTURE_CACHE.clear()
        ours_mg, ours_eg = side_structure(key, 80, 112)                               # "P", "p"
        theirs_mg, theirs_eg = side_structure(key[::-1], 112, 80)                     # turned round
        cached = STRUCTURE_CACHE[key] = (ours_mg - theirs_mg, ours_eg - theirs_eg)
    return cached


def side_structure(key: bytes, own: int, enemy: int) -> tuple:
    """``(mg, eg)`` of the side whose pawns (byte ``own``) play up ``key`` (a board's pawns, rows 2..9 the
    ranks 8..1 of that side, files in columns 1..8; turned round, the board reads the same for the other
    side, files mirrored). ``rows`` holds the side's pawns by file; ``front``: the enemy's frontmost pawn on
    each file, the lowest row, 99 when none (so a pawn is passed when no enemy pawn stands on a lower row,
    ahead of it, on its file or the files beside it)."""
    rows: list[list[int]] = [[] for _ in range(10)]
    front = [99] * 10
    for s in range(21, 99):
        c = key[s]
        if c == own:
            rows[s % 10].append(s // 10)
        elif c == enemy and s // 10 < front[s % 10]:
            front[s % 10] = s // 10
    mg = eg = 0
    for f in range(1, 9):
        pawns = rows[f]
        if not pawns:
            continue
        if len(pawns) > 1:
            mg, eg = mg - DOUBLED[0] * (len(pawns) - 1), eg - DOUBLED[1] * (len(pawns) - 1)
        if not rows[f - 1] and not rows[f + 1]:
            mg, eg = mg - ISOLATED[0] * len(pawns), eg - ISOLATED[1] * len(pawns)
        for r in pawns:
            if front[f - 1] >= r and front[f] >= r and front[f + 1] >= r:
                rank = 10 - r
                mg, eg = mg + PASSED_MG[rank], eg + PASSED_EG[rank]
    return mg, eg
