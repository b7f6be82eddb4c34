"""engine.scale: the common value scale (score, win_probability) beside each game's own unit."""
import math

import pytest

from engine import scale
from engine.registry import GAME_MODULES, game_type


def test_a_proven_result_scores_by_its_distance():
    assert scale.score(scale.OUTCOME, 1.0, "win", 3) == {"win_in": 3}
    assert scale.score(scale.OUTCOME, -1.0, "loss", 4) == {"loss_in": 4}
    assert scale.score(scale.VALUE, 12.0, "win", None) == {"win_in": None}
    assert scale.score(scale.OUTCOME, 0.0, "draw", 9) == {"draw": True}
    assert scale.score(scale.PAWNS, 0.0, "draw", 2) == {"draw": True}


def test_chess_mates_count_moves_negative_when_mated():
    assert scale.score(scale.PAWNS, 100.0, "win", 1) == {"mate": 1}
    assert scale.score(scale.PAWNS, 100.0, "win", 5) == {"mate": 3}
    assert scale.score(scale.PAWNS, -100.0, "loss", 2) == {"mate": -1}
    assert scale.score(scale.PAWNS, -100.0, "loss", 4) == {"mate": -2}
    assert scale.score(scale.PAWNS, 100.0, "win", None) == {"mate": None}


def test_unproven_values_are_centipawns_in_chess_else_the_value():
    assert scale.score(scale.PAWNS, 0.32, None, None) == {"cp": 32}
    assert scale.score(scale.PAWNS, -1.005, None, None) == {"cp": -100}
    assert scale.score(scale.OUTCOME, 0.25) == {"value": 0.25}
    assert scale.score(scale.VALUE, 1234.0) == {"value": 1234.0}


def test_win_probability():
    assert [scale.win_probability(s, 0.3, o) for s in scale.SCALES for o in ("win", "draw", "loss")] == \
        [1.0, 0.5, 0.0] * 3
    assert scale.win_probability(scale.PAWNS, 0.0) == 0.5
    # Lichess: winning chances 2 / (1 + exp(-0.00368208 cp)) - 1; +100 cp is about 59.2 %
    assert scale.win_probability(scale.PAWNS, 1.0) == pytest.approx((1 + 2 / (1 + math.exp(-0.368208)) - 1) / 2)
    assert 0.59 < scale.win_probability(scale.PAWNS, 1.0) < 0.60
    assert scale.win_probability(scale.PAWNS, 100.0) == 1.0 and scale.win_probability(scale.PAWNS, -100.0) == 0.0
    assert scale.win_probability(scale.OUTCOME, 0.5) == 0.75
    assert scale.win_probability(scale.OUTCOME, -1.0) == 0.0
    assert scale.win_probability(scale.VALUE, 0.9997) is None


@pytest.mark.parametrize("game_id", list(GAME_MODULES))
def test_every_game_documents_its_unit_and_scale(game_id):
    declared = game_type(game_id)
    assert declared.value_unit and declared.value_scale in scale.SCALES


def test_the_scales_of_the_games():
    scales = {game_id: game_type(game_id).value_scale for game_id in GAME_MODULES}
    assert scales == {"tree": "value", "tictactoe": "outcome", "connect4": "outcome", "2048": "value",
                      "chess": "pawns", "checkers": "outcome", "othello": "outcome", "pacman": "value",
                      "backgammon": "value", "go": "outcome"}
