"""Chess's static exchange evaluation (engine/games/chess/exchange.py): exchanges counted by hand, and every
capture and promotion along random games against an exchange played out on python-chess's boards (its own
attack tables: a second implementation of the same rule)."""
import random

import chess
import pytest

from engine.games.chess import CENTIPAWNS_PER_UNIT, GAME, notation
from engine.games.chess.board import uci
from engine.games.chess.exchange import KING_VALUE, VICTIM

P, N, B, R, Q = (VICTIM[p] for p in "PNBRQ")
WORTH = {chess.PAWN: P, chess.KNIGHT: N, chess.BISHOP: B, chess.ROOK: R, chess.QUEEN: Q, chess.KING: KING_VALUE}


def centipawns(fen: str, uci: str) -> int:
    state = notation.from_board(chess.Board(fen))
    return round(GAME.exchange(state, notation.parse_move(uci, state)) * CENTIPAWNS_PER_UNIT)


@pytest.mark.parametrize("fen, uci, expected", [
    ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", P),                       # a free pawn
    ("4k3/2p5/3p4/8/8/8/3Q4/4K3 w - - 0 1", "d2d6", P - Q),                 # the queen for a guarded pawn
    ("4k3/8/2p5/3n4/8/8/8/3RK3 w - - 0 1", "d1d5", N - R),                  # a rook for a knight
    ("3r3k/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7", R),                     # the second rook, seen through
    ("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7", 0),                     # ... until the king takes last
    ("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "e1d2", P),                         # the king takes a loose pawn
    ("8/8/4k3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", P - R),                    # the king takes back
    ("8/8/4k3/3p4/8/8/B7/3RK3 w - - 0 1", "d1d5", P),                       # ... never a guarded piece
    ("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q", Q - P),                     # a free promotion
    ("r7/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q", -P),                       # a promotion taken at once
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", P),                       # en passant
    ("4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", 0),                     # en passant, retaken
    ("r3k3/8/8/8/8/8/8/R3K3 b - - 0 1", "a8a1", R),                         # Black's view: a rook
])
def test_exchanges_counted_by_hand(fen, uci, expected):
    assert centipawns(fen, uci) == expected


def played_out(board: chess.Board, move: chess.Move) -> int:
    """The exchange of ``move`` on python-chess's board: the swap list of the cheapest attackers (its
    ``attackers``, on the board as the captures leave it), each side free to stop."""
    b = board.copy(stack=False)
    to, mover = move.to_square, b.turn
    if b.is_en_passant(move):
        gains = [P]
        b.remove_piece_at(to - 8 if mover == chess.WHITE else to + 8)
    else:
        victim = b.piece_at(to)
        gains = [WORTH[victim.piece_type] if victim else 0]
    piece = b.piece_type_at(move.from_square)
    if move.promotion:
        gains[0] += WORTH[move.promotion] - P
        piece = move.promotion
    b.remove_piece_at(move.from_square)
    b.set_piece_at(to, chess.Piece(piece, mover))
    side = not mover
    while True:
        attackers = b.attackers(side, to)
        if not attackers:
            break
        square = min(attackers, key=lambda s: WORTH[b.piece_type_at(s)])
        gains.append(WORTH[b.piece_type_at(to)] - gains[-1])
        b.set_piece_at(to, b.remove_piece_at(square))
        side = not side
    for k in range(len(gains) - 1, 0, -1):
        gains[k - 1] = -max(-gains[k - 1], gains[k])
    return gains[0]


@pytest.mark.parametrize("seed", range(6))
def test_every_capture_along_random_games_as_python_chess_plays_it_out(seed):
    rng = random.Random(seed)
    board, checked = chess.Board(), 0
    for _ in range(160):
        if board.is_game_over():
            break
        state = notation.from_board(board)
        for _, a in GAME.noisy_actions(state):
            move = chess.Move.from_uci(uci(a))
            assert round(GAME.exchange(state, a) * CENTIPAWNS_PER_UNIT) == played_out(board, move), (board.fen(), move)
            checked += 1
        captures = [m for m in board.legal_moves if board.is_capture(m)]
        board.push(rng.choice(captures if captures and rng.random() < 0.3 else list(board.legal_moves)))
    assert checked > 20
