"""bench.chess_losses: a hung queen found by an engine's judgement in a PGN of our games, and the report's rows
counted by hand. The engine here is a stand-in that counts material a ply ahead: Stockfish is driven through
python-chess's asyncio subprocesses, which, started in the test process, would keep Playwright's browser
tests from starting theirs."""
import io

import chess
import chess.engine
import chess.pgn

from bench import chess_losses
from bench.adjudication import VALUES


def centipawns(piece_type):
    return 100 * VALUES.get(piece_type, 0)                   # (the king: 0)


# White ("Tactician auto") puts its queen where the knight f6 takes it, at ply 8.
BLUNDER = """[White "Tactician auto"]
[Black "Stockfish UCI_Elo 2400"]
[Result "0-1"]

1. e4 e5 2. Nc3 Nf6 3. Bc4 Bc5 4. d3 d6 5. Qh5 Nxh5 0-1
"""


class MaterialEngine:
    """Judges a position as the mover's material plus the most valuable piece it can take at once, and gives
    that capture (else the first legal move) as its best move: enough to see a piece left en prise."""

    def analyse(self, board, limit):
        mover = sum(centipawns(p.piece_type) * (1 if p.color == board.turn else -1) for p in board.piece_map().values())
        captures = [(centipawns(board.piece_type_at(m.to_square) or chess.PAWN), m) for m in board.legal_moves
                    if board.is_capture(m)]
        gain, best = max(captures, key=lambda c: c[0], default=(0, next(iter(board.legal_moves))))
        return {"score": chess.engine.PovScore(chess.engine.Cp(mover + gain), board.turn), "pv": [best]}


def test_a_hung_queen_is_our_largest_loss_and_the_opponents_moves_are_not_judged():
    game = chess.pgn.read_game(io.StringIO(BLUNDER))
    found = chess_losses.losses([game], MaterialEngine(), 8, "Tactician")
    assert [(one.ply, one.played) for one in found] == [(8, "Qh5")]   # White's moves from ply 8 on
    # Before: Bxf7+ wins a pawn (+100); after Qh5, Nxh5 wins the queen (-900 for White).
    assert (found[0].before, found[0].after, found[0].centipawns, found[0].best) == (100, -900, 1000, "Bxf7+")


def loss(ply, before, after):
    return chess_losses.Loss(chess.STARTING_FEN, "e4", "d4", before, after, ply)


def test_the_report_counts_balanced_moves_by_phase_and_lists_the_worst():
    found = [loss(8, 20, -40), loss(12, 0, -120), loss(40, -100, -90), loss(70, 400, 100), loss(120, 150, 149)]
    text = chess_losses.report(found, 2)
    assert "| balanced, plies 8-29 | 2 | 90.0 | 2 | 1 |" in text           # losses 60 and 120
    assert "| balanced, plies 30-59 | 1 | 0.0 | 0 | 0 |" in text           # a gain counts as no loss
    assert "| balanced, plies 60-99 | 0 | - | 0 | 0 |" in text            # 400 is not balanced
    assert "| balanced, plies 100 on | 1 | 1.0 | 0 | 0 |" in text
    assert "| all | 5 | 96.2 | 3 | 2 |" in text                             # 60, 120, 0, 300, 1
    worst = [line for line in text.splitlines() if "`" in line]
    assert [line.split(" | ")[0] for line in worst] == ["| 120", "| 60"]
