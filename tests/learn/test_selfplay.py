"""learn.selfplay and learn.labels: a real game of the compiled core labelled by Stockfish, and the
adjudication and quiet-position rules."""
import random

import chess
import pytest

from learn import labels, selfplay
from learn.labels import Label
from tests.debian import require


def test_adjudication_needs_the_whole_streak():
    decisive = [selfplay.DECISIVE_CP] * selfplay.DECISIVE_PLIES
    assert selfplay.adjudicated(decisive) == 1.0
    assert selfplay.adjudicated([-cp for cp in decisive]) == 0.0
    assert selfplay.adjudicated(decisive[:-1]) is None
    assert selfplay.adjudicated([0] + decisive[1:]) is None


def test_a_capture_a_check_or_a_mate_is_not_quiet():
    board = chess.Board("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    assert selfplay.quiet(board, Label(20, False, chess.Move.from_uci("b1c3")))
    assert not selfplay.quiet(board, Label(20, False, chess.Move.from_uci("e4d5")))
    assert not selfplay.quiet(board, Label(labels.MATE_CP, True, chess.Move.from_uci("b1c3")))
    checked = chess.Board("rnb1kbnr/pppp1ppp/8/4p3/5P1q/8/PPPPP1PP/RNBQKBNR w KQkq - 1 3")
    assert not selfplay.quiet(checked, Label(-50, False, chess.Move.from_uci("g2g3")))


def test_a_labelled_game_of_the_compiled_core():
    require("stockfish")
    with labels.Labeller(depth=2) as labeller:
        game = selfplay.play(random.Random(5), labeller, depth=1, random_plies=(2, 2))
    assert game is not None and game.result in (0.0, 0.5, 1.0)
    assert game.samples and game.plies > 2
    for sample in game.samples:
        board = chess.Board(sample.fen)
        assert not board.is_check() and abs(sample.cp) < labels.MATE_CP
        assert sample.white == (board.turn == chess.WHITE)


@pytest.mark.parametrize("fen, sign", [("6k1/8/8/8/8/8/8/QQ4K1 w - - 0 1", 1), ("6k1/8/8/8/8/8/8/QQ4K1 b - - 0 1", -1)])
def test_a_label_is_the_movers_score(fen, sign):
    require("stockfish")
    with labels.Labeller(depth=4) as labeller:
        label = labeller.label(chess.Board(fen))
    assert sign * label.cp > 500
