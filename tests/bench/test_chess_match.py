"""The chess match's plumbing: the openings, the material adjudication, and sunfish as a player
(untimed: a short time a move, only legality is asserted)."""
import chess
import chess.engine
import chess.pgn
import pytest

from bench import adjudication, openings, peers, players
from engine import api


def test_chess_openings_are_legal_distinct_and_running():
    lines = openings.variant("chess").openings
    assert len(lines) >= 20 and len(set(lines)) == len(lines)
    for line in lines:
        board = chess.Board()
        for move in line:
            board.push_uci(move)
        assert not board.is_game_over()


def test_material_balance_counts_white_minus_black():
    assert adjudication.material_balance(chess.Board()) == 0
    assert adjudication.material_balance(chess.Board("4k3/8/8/8/8/8/8/R3K2R w - - 0 1")) == 10
    assert adjudication.material_balance(chess.Board("q3k3/pp6/8/8/8/8/8/4K2N w - - 0 1")) == -8


def test_material_adjudication_needs_a_lead_held_for_its_plies():
    judge = adjudication.MaterialAdjudication(lead=5, plies=4, max_plies=100)
    assert judge([5, 5, 5], 20) is None                     # not yet held for 4 plies
    assert judge([0, 5, 5, 5, 5], 20)[0] == [1.0, -1.0]
    assert judge([-6, -5, -7, -5], 20)[0] == [-1.0, 1.0]
    assert judge([5, 5, 4, 5], 20) is None                  # the lead dropped once
    assert judge([1, 1], 100)[0] == [0.0, 0.0]              # the ply limit: a draw
    state = {"fen": chess.STARTING_FEN, "moves": ["e2e4", "d7d5", "e4d5"]}
    assert judge.measure(state) == 1


def test_sunfish_history_replays_castling_and_promotion_like_python_chess():
    fen = "r3k2r/1P3p2/8/8/8/8/8/R3K2R w KQkq - 0 1"
    moves = ["e1g1", "e8g8", "b7a8q"]
    history = peers.sunfish_history(fen, moves)
    board = chess.Board(fen)
    for move in moves:
        board.push_uci(move)
    ours = peers.sunfish_history(board.fen(), [])[-1]
    assert history[-1].board == ours.board


@pytest.mark.parametrize("moves", [[], ["e2e4"], ["e2e4", "e7e5", "g1f3"]])
def test_sunfish_player_answers_a_legal_move(moves):
    game, state = api.load("chess", {"fen": chess.STARTING_FEN, "moves": moves})
    position = players.Position("chess", {"fen": chess.STARTING_FEN, "moves": []}, list(moves),
                                game.state_to_json(state), game, state, 50, 1)
    move = players.build("sunfish").choose(position)
    assert move in [game.move_to_json(m) for m in game.actions(state)]


class FirstMoveEngine:
    """A stand-in for Stockfish: plays the first legal move, as chess.engine's ``play`` answers."""

    def play(self, board, limit):
        return chess.engine.PlayResult(next(iter(board.legal_moves)), None)


@pytest.mark.parametrize("ours_white", [True, False])
def test_a_stockfish_game_ends_by_the_rules_or_by_material_at_the_ply_limit(ours_white):
    from bench import stockfish
    points, end, board = stockfish.play_game(FirstMoveEngine(), ("e2e4", "e7e5"), ours_white, 0.02, 8)
    assert board.ply() == 8 and end.startswith("adjudicated") and points in (0.0, 0.5, 1.0)
    # Scholar's mate against a first-legal-move defender: our side mates, by the rules, long before the limit.
    points, end, board = stockfish.play_game(FirstMoveEngine(), ("e2e4", "a7a6", "d1h5", "a6a5", "f1c4", "a5a4"),
                                             True, 0.2, 40)
    assert (points, end) == (1.0, "checkmate") and board.ply() == 7


@pytest.mark.parametrize("ours_white", [True, False])
def test_a_stockfish_game_is_written_as_pgn_that_replays_to_its_end(ours_white):
    import io
    from bench import stockfish
    points, end, board = stockfish.play_game(FirstMoveEngine(), ("e2e4", "e7e5"), ours_white, 0.02, 8)
    text = stockfish.pgn(board, 2400, ours_white, points, end)
    game = chess.pgn.read_game(io.StringIO(text))
    assert game.end().board() == board and game.headers["Termination"] == end
    ours = "White" if ours_white else "Black"
    assert game.headers[ours] == "Tactician auto" and game.headers["Black" if ours_white else "White"] == "Stockfish UCI_Elo 2400"
    white_points = points if ours_white else 1 - points
    assert game.headers["Result"] == {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}[white_points]


def test_a_stockfish_ladder_plays_the_openings_after_those_skipped(monkeypatch):
    """``--skip-openings``: each level plays the chosen openings with both colours, so that a longer match
    can run in parts or in parallel processes; a choice beyond the openings is refused."""
    from bench import stockfish
    from bench.openings import CHESS_OPENINGS

    class Engine(FirstMoveEngine):
        def configure(self, options):
            pass

        def quit(self):
            pass

    played = []

    def play_game(engine, opening, ours_white, seconds, max_plies):
        played.append((opening, ours_white))
        board = chess.Board()
        for move in opening:
            board.push_uci(move)
        return 0.5, "adjudicated (+0 material)", board

    monkeypatch.setattr(stockfish, "stockfish_path", lambda: "cat")
    monkeypatch.setattr(stockfish.chess.engine.SimpleEngine, "popen_uci", lambda path: Engine())
    monkeypatch.setattr(stockfish, "play_game", play_game)
    table = stockfish.run([2000, 2400], 2, 1.0, 160, skip=3)
    assert played == [(o, white) for o in CHESS_OPENINGS[3:5] for white in (True, False)] * 2
    assert "--skip-openings 3" in table and "| 2400 | +0 =4 -0, 50.0% |" in table
    with pytest.raises(SystemExit):
        stockfish.main(["--skip-openings", str(len(CHESS_OPENINGS) - 1), "--openings", "2"])


def test_a_rating_from_games_against_several_levels_is_the_likeliest():
    """bench.elo.rating: even results against one level give that level; at the likeliest rating the
    points expected equal the points scored (the logistic model's likelihood equation); the interval holds
    it and narrows with more games; only wins leave it unbounded above."""
    from bench import elo
    assert elo.rating([(2000, 1.0), (2000, 0.0), (2000, 0.5)])[0] == 2000
    games = [(1700, 1.0)] * 5 + [(2000, 1.0), (2000, 0.5), (2000, 0.0)] + [(2400, 0.5), (2400, 0.0), (2400, 0.0)]
    best, low, high = elo.rating(games)
    expected = sum(1 / (1 + 10 ** ((o - best) / 400)) for o, _ in games)
    assert abs(expected - sum(p for _, p in games)) < 0.01 and low < best < high
    _, low4, high4 = elo.rating(games * 4)
    assert low < low4 < best < high4 < high
    assert elo.rating([(2000, 1.0), (2400, 1.0)])[::2] == (None, None)


def test_several_stockfish_runs_are_scored_together(tmp_path):
    """--score: the games two runs printed, one table by level and one rating over all of them."""
    from bench import stockfish
    one, two = tmp_path / "one.out", tmp_path / "two.out"
    one.write_text("UCI_Elo 2400: W 1 checkmate 115\nUCI_Elo 2400: B 0 checkmate 69\n| 2400 | (a table) |\n"
                   "UCI_Elo 2000: W 0.5 threefold_repetition 90\n")
    two.write_text("UCI_Elo 2400: W 0.5 adjudicated (-1 material) 160\nUCI_Elo 2000: B 1 checkmate 40\n")
    text = stockfish.score_files([str(one), str(two)])
    rows = [line for line in text.splitlines() if line.startswith("| 2")]
    assert [row.split(" | ")[:2] for row in rows] == [["| 2000", "+1 =1 -0, 75.0%"], ["| 2400", "+1 =1 -1, 50.0%"]]
    assert "W 0.5 adjudicated (-1 material) 160" in rows[1]
    from bench import elo
    best, low, high = elo.rating([(2000, 0.5), (2000, 1.0), (2400, 1.0), (2400, 0.0), (2400, 0.5)])
    assert f"All 5 games together: our rating on the `UCI_Elo` scale **{best}**, 95% interval [{low}, {high}]" in text
    empty = tmp_path / "empty.out"
    empty.write_text("| 2400 | (a table, no games) |\n")
    with pytest.raises(SystemExit):
        stockfish.score_files([str(empty)])
