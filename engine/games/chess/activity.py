"""Piece activity and king safety after Fruit 2.1 (Fabien Letouzey, 2005: eval.cpp and material.cpp, the
values as published there, not tuned by us; the code is ours). Centipawns, (middle game, endgame), added to
PeSTO's sums before the blend (:mod:`.evaluation`); all integers, so that the compiled core
(native/src/games/chess_activity.hpp) computes the same number.

For each side, on the board of its own view (its pieces upper case, playing up the board):

- **mobility** of each knight, bishop, rook and queen: the squares it attacks that are empty or hold an enemy
  piece, less the number a piece of its kind is expected to reach (:data:`MOBILITY_UNIT`), times a weight;
- **bishop pair**: two bishops or more;
- **rooks on files**: on a file with pawns of its own side -10 / -10, on a semi-open one (no pawn of its own)
  0 / 0, on an open one (no pawn at all) +10 / +10; on a semi-open or open file on or beside the enemy
  king's file +10 in the middle game, +20 on the king's file, when its side has the material to attack (below);
- **rook and queen on the seventh** rank when an enemy pawn stands there or the enemy king on the eighth;
- **king attack**, when its side has a queen and another piece (Fruit's ``MatKingFlag``): the pieces whose
  attacks reach the enemy king or a square beside it, counted and weighted (knight and bishop 1, rook 2,
  queen 4; ``units * 20 * KING_ATTACK_WEIGHT[attackers] // 256`` in the middle game);
- **pawn shelter and storm** of its king, when the enemy has a queen and another piece: each of the king's
  file and the files beside it is judged by its side's nearest pawn on or ahead of the king's rank
  (``36 - (8 - rank) ** 2``, 36 without one; the king's own file twice; 11 when nothing is missing: a weak
  back rank) and by the enemy's most advanced pawn on it (on the enemy's rank 4, 5, 6: 10, 30, 60). With a
  castling right, the square the king would castle to (b1 or g1 of its view) is judged too, and the penalty
  is the mean of the king's square's and the better of the two, rounded down: the middle game only.
"""
from engine.games.chess.board import OUR_A1, OUR_H1, RAYS, SQUARES, STEPS, turned, turned_rights

MOBILITY_UNIT = {"N": 4, "B": 6, "R": 7, "Q": 13}
MOBILITY = {"N": (4, 4), "B": (5, 5), "R": (2, 4), "Q": (1, 2)}        # a square beyond (or short of) the unit
BISHOP_PAIR = (50, 50)
ROOK_CLOSED_FILE = (-10, -10)                                           # Fruit: -RookOpenFile / 2
ROOK_SEMI_OPEN_FILE = (10, 10)                                          # on top of the closed file's
ROOK_OPEN_FILE = (10, 10)                                               # on top of the semi-open file's
ROOK_NEAR_KING_FILE, ROOK_ON_KING_FILE = 10, 20                         # middle game
SEVENTH = {"R": (20, 40), "Q": (10, 20)}
KING_ATTACK_UNIT = {"N": 1, "B": 1, "R": 2, "Q": 4}
KING_ATTACK = 20
KING_ATTACK_WEIGHT = (0, 0, 128, 192, 224, 240, 248, 252, 254, 255, 256, 256, 256, 256, 256, 256)
WEAK_BACK_RANK = 11
STORM = {4: 10, 5: 30, 6: 60}                                           # by the enemy pawn's rank from its side
CASTLE_SQUARES = ((OUR_A1, 92), (OUR_H1, 97))                           # b1 and g1 of the side's view
KIND = {"N": "minor", "B": "minor", "R": "major", "Q": "major"}          # of attacker, for the threats


def activity(board: str, rights: int) -> tuple:
    """``(mg, eg, ours, theirs)``: the terms of the mover (upper case on ``board``, the mover's view; ``rights``
    in that view) minus the opponent's, in centipawns, and the squares the mover and the opponent attack,
    each side's in its own view (:func:`side_activity`'s), which the threats (:mod:`.threats`) read."""
    ours, theirs = no_attacks(), no_attacks()
    ours_mg, ours_eg = side_activity(board, rights, ours)
    theirs_mg, theirs_eg = side_activity(turned(board), turned_rights(rights), theirs)
    return ours_mg - theirs_mg, ours_eg - theirs_eg, ours, theirs


def no_attacks() -> dict:
    """Where :func:`side_activity` gathers the squares a side attacks (a square is attacked by a piece that
    could capture there, were an enemy piece on it): by its pawns ``"P"``, by its knights and bishops
    ``"minor"``, by its rooks and queens ``"major"``, and by any piece, its king's steps among them,
    ``"all"``. A side's attacks include the squares of its own pieces that it guards."""
    return {"P": set(), "minor": set(), "major": set(), "all": set()}


def can_attack_king(board: str, side: str) -> bool:
    """Fruit's ``MatKingFlag``: ``side`` ("NBRQ" or "nbrq") has a queen and at least one more piece."""
    return board.count(side[3]) >= 1 and sum(board.count(p) for p in side) >= 2


def side_activity(board: str, rights: int, attacked: dict) -> tuple:
    """``(mg, eg)`` of the upper-case side of ``board`` (its own view, castling ``rights`` in it); fills in
    ``attacked`` (:func:`no_attacks`) with the squares the side attacks, found on the way."""
    mg = eg = 0
    enemy_king = board.index("k")
    zone = frozenset((enemy_king,) + STEPS["K"][enemy_king])
    attacking = can_attack_king(board, "NBRQ")
    attackers = units = 0
    for s in SQUARES:
        p = board[s]
        if p == "P":
            attacked["P"].update((s - 11, s - 9))
        elif p == "K":
            attacked["all"].update(STEPS["K"][s])
        if p not in "NBRQ":
            continue
        reached = STEPS["N"][s] if p == "N" else reached_by_slider(board, RAYS[p][s])
        attacked[KIND[p]].update(reached)
        reach = len(reached) - sum(board[j].isupper() for j in reached)      # less its own pieces guarded
        weight_mg, weight_eg = MOBILITY[p]
        mg, eg = mg + (reach - MOBILITY_UNIT[p]) * weight_mg, eg + (reach - MOBILITY_UNIT[p]) * weight_eg
        if not zone.isdisjoint(reached):
            attackers, units = attackers + 1, units + KING_ATTACK_UNIT[p]
        if p == "R":
            mg, eg = rook_file(board, s, enemy_king, attacking, mg, eg)
        if p in SEVENTH and s // 10 == 3 and ("p" in board[31:39] or enemy_king // 10 == 2):
            mg, eg = mg + SEVENTH[p][0], eg + SEVENTH[p][1]
    attacked["all"].update(attacked["P"], attacked["minor"], attacked["major"])
    if board.count("B") >= 2:
        mg, eg = mg + BISHOP_PAIR[0], eg + BISHOP_PAIR[1]
    if attacking:
        mg += units * KING_ATTACK * KING_ATTACK_WEIGHT[attackers] // 256
    if can_attack_king(board, "nbrq"):
        king = board.index("K")
        penalty = here = shelter(board, king)
        for right, square in CASTLE_SQUARES:
            if rights & right:
                penalty = min(penalty, shelter(board, square))
        mg -= (here + penalty) // 2
    return mg, eg


def reached_by_slider(board: str, rays: tuple) -> list:
    """The squares a slider reaches along its ``rays``: on each, up to and including the first piece."""
    reached = []
    for ray in rays:
        for j in ray:
            reached.append(j)
            if board[j] != ".":
                break
    return reached


def rook_file(board: str, s: int, enemy_king: int, attacking: bool, mg: int, eg: int) -> tuple:
    """``(mg, eg)`` with the file terms of the rook on ``s`` added."""
    f = s % 10
    file = board[20 + f:100:10]
    mg, eg = mg + ROOK_CLOSED_FILE[0], eg + ROOK_CLOSED_FILE[1]
    if "P" not in file:
        mg, eg = mg + ROOK_SEMI_OPEN_FILE[0], eg + ROOK_SEMI_OPEN_FILE[1]
        if "p" not in file:
            mg, eg = mg + ROOK_OPEN_FILE[0], eg + ROOK_OPEN_FILE[1]
        if attacking and abs(f - enemy_king % 10) <= 1:
            mg += ROOK_ON_KING_FILE if f == enemy_king % 10 else ROOK_NEAR_KING_FILE
    return mg, eg


def shelter(board: str, square: int) -> int:
    """Fruit's ``shelter_square``: the penalty (>= 0) of a king of the upper-case side on ``square``."""
    f, row = square % 10, square // 10
    files = [g for g in (f - 1, f, f + 1) if 1 <= g <= 8]
    penalty = sum(shelter_file(board, g, row) * (2 if g == f else 1) for g in files)
    if penalty == 0:
        penalty = WEAK_BACK_RANK
    return penalty + sum(storm_file(board, g) for g in files)


def shelter_file(board: str, f: int, row: int) -> int:
    """``36 - (8 - rank) ** 2`` of the side's nearest pawn on file ``f`` on or ahead of ``row`` (rows 2..9
    are the ranks 8..1), 36 when there is none."""
    for r in range(row, 1, -1):
        if board[10 * r + f] == "P":
            return 36 - (8 - (10 - r)) ** 2
    return 36


def storm_file(board: str, f: int) -> int:
    """The storm penalty of the enemy's most advanced pawn on file ``f`` (by its rank from its own side)."""
    for r in range(9, 1, -1):
        if board[10 * r + f] == "p":
            return STORM.get(r - 1, 0)
    return 0
