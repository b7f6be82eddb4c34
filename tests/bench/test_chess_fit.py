"""bench.chess_fit: the features it reads by raising each weight, and the fit (no Stockfish needed)."""
import numpy as np
import pytest

from bench import chess_fit
from engine.games.chess import CENTIPAWNS_PER_UNIT, load


@pytest.mark.parametrize("where", chess_fit.WEIGHTS, ids=chess_fit.label)
def test_raising_a_weight_raises_that_weight_alone(where):
    module, name, _ = where
    kept = getattr(module, name)
    before = [chess_fit.weight(w) for w in chess_fit.WEIGHTS]
    setattr(module, name, chess_fit.raised(where, 3))
    try:
        after = [chess_fit.weight(w) for w in chess_fit.WEIGHTS]
    finally:
        setattr(module, name, kept)
    assert [b - a for a, b in zip(before, after)] == [3 if w == where else 0 for w in chess_fit.WEIGHTS]


@pytest.mark.parametrize("fen", ["r1bqkb1r/pppp1ppp/2n2n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                                 "4k3/8/2b5/8/8/8/8/4K2R b - - 0 1"])          # drawish: scaled by 2/16
def test_the_evaluation_is_the_game_s(fen):
    evaluation, _ = chess_fit.features(fen)
    game, state = load(fen)
    assert evaluation == pytest.approx(game.evaluate(state, game.to_move(state)) * CENTIPAWNS_PER_UNIT)


def test_the_features_are_the_blended_terms_and_the_evaluation_is_the_game_s():
    fen = "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1"              # White's bishop pair; the phase is 2 of 24
    evaluation, row = chess_fit.features(fen)
    game, state = load(fen)
    assert evaluation == pytest.approx(game.evaluate(state, 0) * CENTIPAWNS_PER_UNIT)
    pair = {chess_fit.label(w): x for w, x in zip(chess_fit.WEIGHTS, row)}
    assert pair["BISHOP_PAIR[0]"] == pytest.approx(2 / 24) and pair["BISHOP_PAIR[1]"] == pytest.approx(22 / 24)
    assert pair["DOUBLED[0]"] == 0 and pair["KING_ATTACK"] == 0        # no pawns, no queen


def test_the_fit_finds_planted_weights():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(6000, 4))
    cp = rng.uniform(-400, 400, size=6000)
    planted = np.array([5.0, -3.0, 0.0, 12.0])
    evaluation = 0.7 * cp - x @ planted                  # what the planted changes would set right
    result = chess_fit.fit(cp, evaluation, x)
    assert result["scale"] == pytest.approx(0.7, abs=0.01)
    assert np.allclose(result["changes"], planted, atol=0.5)
    assert result["after"][0] < 1.0 < result["before"][0]
