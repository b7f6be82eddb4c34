"""A chess position as the net's inputs: the active features of each perspective (the format of
engine/games/chess/nnue.py: a piece of colour c and type t on square s is feature
``(c != p) * 384 + t * 64 + (s if p is White else s ^ 56)`` for perspective p), listed for the side to move
first, then for the other side, each padded to ``MAX_PIECES`` with ``PAD`` (a feature whose weights the
trainer holds at zero)."""
import numpy as np

from engine.games.chess.nnue import INPUTS, MAX_PIECES, feature

PAD = INPUTS
PIECE_TYPES = "pnbrqk"


def piece_squares(placement: str):
    """``(colour, type, square)`` of every piece of a FEN placement; White 0, Black 1; a1 = 0."""
    rank, file = 7, 0
    for ch in placement:
        if ch == "/":
            rank, file = rank - 1, 0
        elif ch.isdigit():
            file += int(ch)
        else:
            yield (0 if ch.isupper() else 1), PIECE_TYPES.index(ch.lower()), rank * 8 + file
            file += 1


def fen_features(fen: str) -> tuple:
    """``(mover's features, other side's features)`` of a FEN, each a list."""
    placement, turn = fen.split(" ")[:2]
    mover = 0 if turn == "w" else 1
    pieces = list(piece_squares(placement))
    ours = [feature(mover, c, t, s) for c, t, s in pieces]
    theirs = [feature(1 - mover, c, t, s) for c, t, s in pieces]
    return ours, theirs


def encode(fens: list) -> tuple:
    """Two int16 arrays (n, MAX_PIECES): the mover's and the other side's features, padded with PAD."""
    ours = np.full((len(fens), MAX_PIECES), PAD, np.int16)
    theirs = np.full((len(fens), MAX_PIECES), PAD, np.int16)
    for i, fen in enumerate(fens):
        a, b = fen_features(fen)
        ours[i, :len(a)], theirs[i, :len(b)] = a, b
    return ours, theirs
