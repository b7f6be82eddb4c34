"""engine/review.py: the judges' thresholds and accuracy, PGN reading, and reviews of known games with the
engine's own searches (the service's routes are tested in tests/service/test_review.py)."""
import math
import shutil

import pytest

import engine.api
from engine.errors import EngineError
from engine.review import GNUBG, LICHESS, RELATIVE, Side, from_pgn, judge_for

SCHOLARS_MATE = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"


def review(game_id, state, moves, algorithm, time_limit_ms=5000):
    def search(state_json, limit_ms):
        return engine.api.search(game_id, state_json, algorithm, limit_ms)
    return engine.api.review(game_id, state, moves, algorithm, search, time_limit_ms)


@pytest.mark.parametrize("drop, expected", [(0.0, "best"), (0.049, "good"), (0.05, "inaccuracy"),
                                            (0.0999, "inaccuracy"), (0.10, "mistake"), (0.15, "blunder"),
                                            (0.5, "blunder")])
def test_lichess_classes_are_its_winning_chance_drops_as_win_probability(drop, expected):
    assert LICHESS.classify(drop, best=False) == expected


def test_the_best_move_is_best_whatever_its_drop_and_gnubg_s_thresholds_are_equity():
    assert LICHESS.classify(0.3, best=True) == "best"
    assert [GNUBG.classify(d, False) for d in (0.03, 0.04, 0.08, 0.16)] == ["good", "inaccuracy", "mistake", "blunder"]


def test_accuracy_is_lichess_s_formula_on_win_percentage_points():
    assert LICHESS.accuracy(0.0) == 100.0
    ten_points = 103.1668100711649 * math.exp(-0.04354415386753951 * 10) - 3.166924740191411 + 1
    assert LICHESS.accuracy(0.10) == pytest.approx(ten_points)
    assert LICHESS.accuracy(1.0) == 0.0
    assert GNUBG.accuracy(0.2) == pytest.approx(ten_points)    # 0.2 equity: 10 points


def test_drops_on_each_measure():
    assert LICHESS.drop(Side(0.0, None, 0.5), Side(-1.0, None, 0.3)) == pytest.approx(0.2)
    assert GNUBG.drop(Side(0.1, None, None), Side(-0.05, None, None)) == pytest.approx(0.15)
    assert RELATIVE.drop(Side(10.0, None, None), Side(8.0, None, None)) == pytest.approx(0.2)
    assert RELATIVE.drop(Side(0.5, None, None), Side(0.4, None, None)) == pytest.approx(0.1)   # at least 1 unit
    assert LICHESS.drop(Side(0.0, None, 0.5), Side(0.2, None, 0.6)) == 0.0                   # never negative
    with pytest.raises(ValueError):
        LICHESS.drop(Side(0.0, None, None), Side(0.0, None, None))


def test_each_game_s_judge():
    assert judge_for("chess") is LICHESS and judge_for("connect4") is LICHESS
    assert judge_for("backgammon") is GNUBG and judge_for("2048") is RELATIVE and judge_for("tree") is RELATIVE


def test_a_pgn_gives_its_start_and_moves_and_its_errors_name_pgn():
    assert from_pgn(SCHOLARS_MATE) == ({"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                        "moves": []}, ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"])
    start, moves = from_pgn('[FEN "8/8/8/8/8/8/k7/7K w - - 0 1"]\n[SetUp "1"]\n\n1. Kg2 Kb2 *')
    assert start["fen"] == "8/8/8/8/8/8/k7/7K w - - 0 1" and moves == ["h1g2", "a2b2"]
    for bad in ("1. e4 e5 2. Ke3", '[FEN "bad"]\n\n1. e4'):
        with pytest.raises(EngineError) as error:
            from_pgn(bad)
        assert set(error.value.errors) == {"pgn"}


def test_tictactoe_blunders_are_found_and_summed_up_per_side():
    judged = review("tictactoe", {"board": ["...", "...", "..."]}, [4, 1, 0, 8, 2], {"name": "alphabeta", "depth": 9})
    plies = list(judged.plies())
    assert [p["class"] for p in plies] == ["best", "blunder", "best", "best", "blunder"]
    assert plies[1]["best_move"] == 0 and plies[1]["outcome_before"] == "draw" and plies[1]["outcome_after"] == "loss"
    assert plies[1]["value_after"] == -1.0 and plies[1]["win_probability_after"] == 0.0
    summary = judged.summary()
    assert summary["X"]["classes"]["blunder"] == 1 and summary["O"]["classes"]["blunder"] == 1
    assert summary["X"]["moves"] == 3 and summary["O"]["accuracy"] == pytest.approx((100 + 9.5278) / 2, abs=0.05)


def test_scholar_s_mate_marks_black_s_blunder_in_pawns_and_san():
    start, moves = from_pgn(SCHOLARS_MATE)
    plies = list(review("chess", start, moves, {"name": "alphabeta", "depth": 3}).plies())
    nf6 = plies[5]
    assert (nf6["san"], nf6["class"], nf6["value_after"], nf6["outcome_after"]) == ("Nf6", "blunder", -100.0, "loss")
    assert nf6["best_san"] != "Nf6" and nf6["win_probability_after"] == 0.0
    assert plies[6]["san"] == "Qxf7#" and plies[6]["class"] == "best"


def test_a_decision_before_a_roll_is_valued_as_the_expectation_over_the_rolls():
    """Backgammon, expectimax with Star1 pruning scores the moves not chosen by bounds: the played move's
    value is then the expectation over the opponent's rolls, each searched to the same depth; it equals the
    value the unpruned search (one ply of the move, one of the roll deeper) gives that move exactly."""
    start = engine.api.describe_game("backgammon")["initial_state"]
    played = "13/8 13/7"   # not the best 6-5 (24/18 18/13 is)
    algorithm = {"name": "expectimax", "depth": 1, "pruning": True}
    judged = list(review("backgammon", start, ["6-5", played], algorithm, 60_000).plies())
    assert len(judged) == 1 and judged[0]["ply"] == 1 and judged[0]["best_move"] != played
    rolled = engine.api.apply("backgammon", start, "6-5")["state"]
    exact = engine.api.search("backgammon", rolled, {"name": "expectimax", "depth": 3, "pruning": False}, 60_000)
    played_value = next(mv.value for mv in exact.moves if mv.move == played)
    assert judged[0]["value_after"] == pytest.approx(played_value, abs=1e-9)
    assert judged[0]["loss"] > 0 and judged[0]["class"] != "best"


def test_2048_s_moves_are_judged_given_the_tile_that_came():
    board = [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]]
    plies = list(review("2048", {"board": board}, ["up", {"cell": [0, 1], "tile": 2}, "left"],
                        {"name": "expectimax", "depth": 2}).plies())
    assert [p["ply"] for p in plies] == [0, 2] and all(p["win_probability_before"] is None for p in plies)


def test_errors_in_the_moves_are_raised_before_any_search():
    def search(*_):
        raise AssertionError("no search")
    with pytest.raises(EngineError) as error:
        engine.api.review("tictactoe", {"board": ["...", "...", "..."]}, [4, 4], {"name": "alphabeta"}, search, 1000)
    assert set(error.value.errors) == {"moves[1]"}
    with pytest.raises(EngineError) as error:
        engine.api.review("2048", {"board": [[2, 0, 0, 0]] + [[0] * 4] * 3}, ["up"], {"name": "alphabeta"}, search, 1000)
    assert set(error.value.errors) == {"algorithm.name"}


STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
LEGALS_MATE = "1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0"


@pytest.mark.skipif(STOCKFISH is None, reason="Stockfish is not installed (Debian: apt-get install stockfish)")
def test_legal_s_mate_its_blunders_and_stockfish_s_signs():
    """Légal's mate: 4...g6 lets the knight take on e5, 5...Bxd1 takes the queen and is mated. The review
    marks both, and where Stockfish (depth 14) sees the mover 0.6 pawns or more ahead or behind, the review's
    value of the position has the same sign (closer to equal, a shallow search may well differ)."""
    import chess.engine
    start, moves = from_pgn(LEGALS_MATE)
    plies = list(review("chess", start, moves, {"name": "alphabeta"}, 13 * 300).plies())
    classes = {p["san"]: p["class"] for p in plies}
    assert classes["Bxd1"] == "blunder" and classes["g6"] in ("inaccuracy", "mistake", "blunder")
    assert classes["Nxe5"] == classes["Bxf7+"] == classes["Nd5#"] == "best"
    board, signs = chess.Board(), []
    with chess.engine.SimpleEngine.popen_uci(STOCKFISH) as stockfish:
        for ply, move in zip(plies, moves):
            score = stockfish.analyse(board, chess.engine.Limit(depth=14))["score"].pov(board.turn)
            centipawns = score.score(mate_score=100_000)
            if abs(centipawns) >= 60:
                signs.append((ply["san"], ply["value_before"], centipawns))
            board.push_uci(move)
    assert len(signs) >= 7 and all(ours * theirs > 0 for _, ours, theirs in signs), signs


def test_a_loss_between_a_proven_disc_count_and_an_estimate_is_not_given():
    """Issue 50, item 6: Othello's review gave a 'loss' of 43.99 between a heuristic -0.01 before the move and
    a proven -44 discs after it; the units differ, so the loss is null (the drop in win probability still
    judges the move). Chess's proven values are pawns like its estimates: its loss stays."""
    from engine.api import load
    from engine.review import Review, Side

    for game_id, state, expected in (("othello", {}, None), ("chess", {}, 99.99)):
        game, s = load(game_id, state)
        review = Review(game_id, game, s, [], search=None, time_limit_ms=1000)
        estimate, proven = Side(-0.01, None, 0.495), Side(-100.0 if game_id == "chess" else -44.0, "loss", 0.0)
        assert review.loss(estimate, proven) == (None if expected is None else pytest.approx(expected))
        assert review.loss(Side(2.0, "win", 1.0), proven) == pytest.approx(2.0 - proven.value)
        assert review.loss(estimate, Side(-0.5, None, 0.25)) == pytest.approx(0.49)
