"""bench.chess_losses: a blunder found by Stockfish in a PGN of our games, and the report's rows counted by
hand."""
import io

import chess
import chess.engine
import chess.pgn

from bench import chess_losses
from bench.stockfish import stockfish_path

# White ("Tactician auto") puts its queen where the knight f6 takes it, at ply 8.
BLUNDER = """[White "Tactician auto"]
[Black "Stockfish UCI_Elo 2400"]
[Result "0-1"]

1. e4 e5 2. Nc3 Nf6 3. Bc4 Bc5 4. d3 d6 5. Qh5 Nxh5 0-1
"""


def test_a_hung_queen_is_our_largest_loss_and_the_opponents_moves_are_not_judged():
    game = chess.pgn.read_game(io.StringIO(BLUNDER))
    engine = chess.engine.SimpleEngine.popen_uci(stockfish_path())
    try:
        found = chess_losses.losses([game], engine, 8, "Tactician")
    finally:
        engine.quit()
    assert [(one.ply, one.played) for one in found] == [(8, "Qh5")]   # White's moves from ply 8 on
    assert found[0].centipawns > 600 and found[0].best != "Qh5"


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
