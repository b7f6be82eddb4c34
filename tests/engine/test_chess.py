"""Chess: the engine's own move generator against python-chess (perft, random playouts), the game's end,
the JSON state, and the searches: mates found and proven, draws recognised."""
import random

import chess
import pytest

from engine import api
from engine.errors import EngineError, IllegalMove, InvalidState
from engine.games.chess import GAME, load
from engine.games.chess.board import uci
from engine.games.chess.notation import to_board
from engine.games.chess.position import moves, play

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

# Published perft counts at depth 3 (chessprogramming.org, "Perft Results"), and positions whose traps
# (en passant that exposes the king, castling through or out of check, promotions with capture) are
# counted by python-chess itself in the test.
PUBLISHED = [
    (chess.STARTING_FEN, 8902),
    (KIWIPETE, 97862),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 2812),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 9467),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 62379),
]
TRAPS = [
    "8/8/8/2k5/2pP4/8/B7/4K3 b - d3 0 3",          # en passant would expose the king to the bishop
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",           # en passant along a rank pinned by the queen
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",         # castling both ways, both colours
    "r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1",       # castling out of check is illegal
    "r3k2r/8/8/8/8/8/8/R2rK2R w KQkq - 0 1",        # castling through an attacked square
    "4k3/1P6/8/8/8/8/6p1/4K2R w K - 0 1",          # promotions of both colours
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",     # promotions with capture
]


def perft(state, depth):
    if depth == 1:
        return len(moves(state))
    return sum(perft(play(state, m), depth - 1) for m in moves(state))


def reference_perft(board, depth):
    if depth == 0:
        return 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += reference_perft(board, depth - 1)
        board.pop()
    return total


def state_of(fen, moves_played=()):
    return load({"fen": fen, "moves": list(moves_played)})[1]


@pytest.mark.parametrize("fen, count", PUBLISHED)
def test_perft_depth_3_matches_the_published_counts(fen, count):
    assert perft(state_of(fen), 3) == count


@pytest.mark.parametrize("fen", TRAPS)
def test_perft_depth_3_matches_python_chess(fen):
    assert perft(state_of(fen), 3) == reference_perft(chess.Board(fen), 3)


def python_chess_over(board: chess.Board) -> bool:
    """The game's end as the module docstring states it, in python-chess's terms."""
    return (board.is_checkmate() or board.is_stalemate() or board.is_insufficient_material()
            or board.halfmove_clock >= 100 or board.is_repetition(3))


@pytest.mark.parametrize("seed", range(4))
def test_random_playouts_agree_with_python_chess(seed):
    """Every position of a random game: the same legal moves, the same captures and promotions, the same
    end, the same FEN; and its JSON loads back to the same state."""
    rng = random.Random(seed)
    fen = [chess.STARTING_FEN, KIWIPETE, "4k3/8/8/8/8/8/8/R3K2R w KQ - 90 60", "8/8/3k4/8/8/3K4/3N4/8 w - - 0 1"][seed]
    board, state = chess.Board(fen), state_of(fen)
    for _ in range(250):
        assert sorted(uci(m) for m in moves(state)) == sorted(m.uci() for m in board.legal_moves)
        assert sorted(uci(m) for _, m in GAME.noisy_actions(state)) == sorted(
            m.uci() for m in board.legal_moves if board.is_capture(m) or m.promotion)
        assert to_board(state).fen() == board.fen(en_passant="legal")
        assert GAME.is_terminal(state) == python_chess_over(board)
        assert load(GAME.state_to_json(state))[1] == state
        if GAME.is_terminal(state):
            break
        move = rng.choice(moves(state))
        state = play(state, move)
        board.push(chess.Move.from_uci(uci(move)))


def test_states_are_immutable_values_with_keys():
    a, b = state_of(chess.STARTING_FEN, ["g1f3", "g8f6"]), state_of(chess.STARTING_FEN, ["g1f3", "g8f6"])
    assert a == b and hash(a) == hash(b) and GAME.key(a) == GAME.key(b)
    # The same position by another history is another state: its repetitions differ.
    c = state_of(chess.STARTING_FEN, ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6"])
    assert to_board(c).fen().split()[:4] == to_board(a).fen().split()[:4]
    assert c != a and GAME.key(c) != GAME.key(a)


def test_the_table_key_is_the_position_whatever_the_moves_that_reached_it():
    """Transpositions share the search's table entry (the history is left out), the side to move does not,
    and the clock joins the key from KEYED_CLOCK, where a fifty-move draw comes within a search's reach."""
    a = state_of(chess.STARTING_FEN, ["g1f3", "g8f6", "b1c3"])
    b = state_of(chess.STARTING_FEN, ["b1c3", "g8f6", "g1f3"])
    assert a != b and GAME.key(a) != GAME.key(b) and GAME.table_key(a) == GAME.table_key(b)
    again = state_of(chess.STARTING_FEN, ["g1f3", "g8f6", "f3g1", "f6g8"])
    assert GAME.table_key(again) == GAME.table_key(state_of(chess.STARTING_FEN))
    white, black = state_of("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), state_of("4k3/8/8/8/8/8/8/4K3 b - - 0 1")
    assert GAME.table_key(white) != GAME.table_key(black)
    rook = "8/8/3k4/8/8/3K4/8/R7 w - - {} 80"
    keys = [GAME.table_key(state_of(rook.format(clock))) for clock in (0, 59, 60, 61)]
    assert keys[0] == keys[1] and len(set(keys[1:])) == 3


def test_the_search_s_table_shares_transpositions(monkeypatch):
    """The same search finds more of its positions in the table when the table keys by the position than by
    the whole state (the nodes it visits may then differ either way: what it finds changes its order)."""
    def table_hits():
        algorithm = {"name": "alphabeta", "depth": 4, "core": "python"}
        return api.search("chess", {"fen": chess.STARTING_FEN}, algorithm, time_limit_ms=600_000).stats.tt_hits
    shared = table_hits()
    monkeypatch.setattr(type(GAME), "table_key", type(GAME).key)
    assert shared > table_hits()


def structure_of(fen):
    from engine.games.chess.evaluation import structure
    return structure(state_of(fen, [])[0])


def test_pawn_structure_terms_by_hand():
    from engine.games.chess.evaluation import DOUBLED, ISOLATED, PASSED_EG, PASSED_MG
    # White: a2 isolated and passed (rank 2), c2 passed (rank 2), d5 passed (rank 5).
    expected = (PASSED_MG[2] * 2 + PASSED_MG[5] - ISOLATED[0], PASSED_EG[2] * 2 + PASSED_EG[5] - ISOLATED[1])
    assert structure_of("4k3/8/8/3P4/8/8/P1P5/4K3 w - - 0 1") == expected
    assert structure_of("4k3/8/8/3P4/8/8/P1P5/4K3 b - - 0 1") == (-expected[0], -expected[1])
    # White's a4 and a3: doubled and both isolated; Black's b7: isolated. b7 stands ahead of the a-pawns on
    # the file beside theirs, and they ahead of it, so none is passed.
    mg = -DOUBLED[0] - 2 * ISOLATED[0] + ISOLATED[0]
    eg = -DOUBLED[1] - 2 * ISOLATED[1] + ISOLATED[1]
    assert structure_of("4k3/1p6/8/8/P7/P7/8/4K3 w - - 0 1") == (mg, eg)
    # White's g-pawn is gone: f2 and h2 are isolated (and blocked).
    assert structure_of("6k1/5ppp/8/8/8/8/5P1P/6K1 w - - 0 1") == (-2 * ISOLATED[0], -2 * ISOLATED[1])


@pytest.mark.parametrize("seed", range(3))
def test_the_evaluation_is_colour_symmetric(seed):
    """A position and its mirror image with the colours swapped evaluate alike for the side to move."""
    rng = random.Random(seed)
    board = chess.Board()
    for _ in range(60):
        if board.is_game_over():
            break
        board.push(rng.choice(list(board.legal_moves)))
        if not board.is_game_over():
            a, b = state_of(board.fen(), []), state_of(board.mirror().fen(), [])
            assert GAME.evaluate(a, GAME.to_move(a)) == pytest.approx(GAME.evaluate(b, GAME.to_move(b)))


def search(fen, moves_played=(), **algorithm):
    return api.search("chess", {"fen": fen, "moves": list(moves_played)},
                      {"name": "alphabeta", **algorithm}, time_limit_ms=20_000)


def test_mate_in_one_is_found_and_proven():
    result = search("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    assert (result.move, result.outcome, result.plies_to_end, result.value) == ("d1d8", "win", 1, 100.0)
    assert result.move_notation == "Rd8#"


def test_mate_in_two_is_found_and_proven():
    """Legal's mate: 1. Nf6+ gxf6 2. Bxf7#."""
    fen = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1"
    result = search(fen)
    assert (result.outcome, result.plies_to_end) == ("win", 3)
    board = chess.Board(fen)
    for move in result.pv:
        board.push_uci(move)
    assert board.is_checkmate() and len(result.pv) == 3


def test_the_mated_side_sees_its_loss():
    """Black to move in a lost position (after 1. Nf6+ of Legal's mate): gxf6 is forced, then Bxf7#."""
    result = search("r2qkb1r/pp2nppp/3p1N2/2p1N1B1/2BnP3/3P4/PPP2PPP/R2bK2R b KQkq - 2 1")
    assert (result.outcome, result.plies_to_end, result.value) == ("loss", 2, -100.0)


def test_stalemate_is_a_draw():
    info = api.legal_moves("chess", {"fen": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"})
    assert info["terminal"] and info["result"]["reason"] == "stalemate" and info["legal_moves"] == []
    assert info["utilities"] == {"white": 0.0, "black": 0.0}


def test_threefold_repetition_ends_the_game_from_the_history():
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"]
    assert not api.legal_moves("chess", {"moves": shuffle + shuffle[:3]})["terminal"]
    info = api.apply("chess", {"moves": shuffle + shuffle[:3]}, "f6g8")
    assert info["terminal"] and info["result"]["reason"] == "threefold repetition"
    # The answer's state carries the history that matters, and loads back as the same finished game.
    assert api.legal_moves("chess", info["state"])["result"]["reason"] == "threefold repetition"


def test_the_search_scores_a_repetition_as_a_draw():
    """A queen up, Black is back where the game started: going to b2 again repeats a position, which the
    search scores as a draw (either side could repeat once more), so it plays on elsewhere."""
    moves_played = ["a2b2", "h1g1", "b2a2", "g1h1"]
    state = state_of("k7/8/8/8/8/8/q7/7K b - - 0 1", moves_played)
    assert GAME.repeated(state) and not GAME.is_terminal(state)
    result = search("k7/8/8/8/8/8/q7/7K b - - 0 1", moves_played, depth=2)
    values = {mv.move: mv.value for mv in result.moves}
    assert values["a2b2"] == 0.0 and result.move != "a2b2" and result.value > 5


def test_fifty_move_rule():
    fen = "7k/8/5KQ1/8/8/8/8/8 w - - 99 80"
    assert api.apply("chess", {"fen": fen}, "g6g7")["result"]["reason"] == "checkmate"   # a mate on the 100th ply
    assert api.apply("chess", {"fen": fen}, "g6e4")["result"]["reason"] == "fifty-move rule"
    # A queen up, but every move but the mate ends in a draw: the search takes the mate...
    assert search(fen).outcome == "win"
    # ...and where there is none, proves the draw at once: every move ends the game.
    result = search("7k/8/5K2/8/8/8/8/1Q6 w - - 99 80")
    assert (result.value, result.outcome, result.plies_to_end, result.stats.depth_completed) == (0.0, "draw", 1, 1)


def test_insufficient_material():
    info = api.apply("chess", {"fen": "8/8/3k4/8/8/3K4/3n4/4B3 w - - 0 1"}, "e1d2")
    assert info["terminal"] and info["result"]["reason"] == "insufficient material"


def test_san_next_to_uci():
    result = search(chess.STARTING_FEN, depth=2)
    assert result.move_notation == chess.Board().san(chess.Move.from_uci(result.move))
    assert len(result.pv_notation) == len(result.pv)
    info = api.legal_moves("chess", {"moves": ["e2e4", "e7e5"]})
    assert len(info["san"]) == len(info["legal_moves"]) and "Nf3" in info["san"]


@pytest.mark.parametrize("state, field", [
    ({"fen": "not a fen"}, "state.fen"),
    ({"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, "state.fen"),                                # no kings
    ({"fen": "4k3/8/8/8/8/8/8/R3K2R b - - 0 1"}, None),                                 # legal: control
    ({"fen": "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"}, "state.fen"),                          # side not to move in check
    ({"fen": "P3k3/8/8/8/8/8/8/4K3 w - - 0 1"}, "state.fen"),                           # pawn on the last rank
    ({"moves": ["e2e4", "e2e4"]}, "state.moves[1]"),
    ({"moves": ["e2e9"]}, "state.moves[0]"),
    ({"moves": ["e2e4", "e7e5", "e4e5k"]}, "state.moves[2]"),                    # promotion to a king
    ({"moves": 42}, "state.moves"),
    ({"board": []}, "state"),
    ({"moves": "e4 e4"}, "state.moves[1]"),                                       # issue 35: SAN, strings
    ({"moves": ["e4", "Nf9"]}, "state.moves[1]"),
    ({"pgn": "1. e4 e4"}, "state.pgn"),
    ({"pgn": 7}, "state.pgn"),
    ({"pgn": "1. e4", "moves": []}, "state"),
    ("not a fen", "state"),
    (7, "state"),
])
def test_bad_states_name_their_field(state, field):
    if field is None:
        load(state)
        return
    with pytest.raises(InvalidState) as raised:
        load(state)
    assert field in raised.value.errors


def test_illegal_moves_and_finished_games_name_their_field():
    with pytest.raises(IllegalMove) as raised:
        api.apply("chess", {}, "e2e5")
    assert "move" in raised.value.errors
    for promotion in ("e2e4k", "e7e8p"):                                    # UCI spells them; no pawn may
        with pytest.raises(IllegalMove) as raised:
            api.apply("chess", {"fen": "8/4P3/8/8/8/8/8/k3K3 w - - 0 1"}, promotion)
        assert "move" in raised.value.errors
    with pytest.raises(EngineError) as raised:
        api.apply("chess", {"fen": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}, "h8g8")
    assert "state" in raised.value.errors
    with pytest.raises(InvalidState) as raised:
        load({"moves": ["f2f3", "e7e5", "g2g4", "d8h4", "a2a3"]})     # after the fool's mate
    assert "state.moves[4]" in raised.value.errors


@pytest.mark.parametrize("algorithm", [
    {"name": "minimax", "depth": 2},
    {"name": "alphabeta", "depth": 2, "move_ordering": False, "transposition_table": False},
    {"name": "expectimax", "depth": 2},
    {"name": "maxn", "depth": 1},
    {"name": "mcts", "seed": 1, "iterations": 2},
])
def test_every_fitting_algorithm_runs_on_chess(algorithm):
    fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
    result = api.search("chess", {"fen": fen}, algorithm, time_limit_ms=5000)
    assert result.move in [m.uci() for m in chess.Board(fen).legal_moves]
    if algorithm["name"] in ("minimax", "alphabeta", "expectimax"):
        assert result.move == "d1d8" and result.value == 100.0      # the mate, worth a won game


def shared_mates_in_three() -> list:
    """The FENs of the shared mates in 3 (../shared/data/chess/mate3.fen); empty when the data is absent."""
    from bench.chess import data_dir, read_fens
    path = data_dir() / "mate3.fen"
    return read_fens(path) if path.is_file() else []


@pytest.mark.parametrize("number", range(1, 15))
def test_the_shared_mates_in_three_are_proven(number):
    """Untimed (a limit far beyond the mate search's need): the mate search proves each a win in exactly
    5 plies, and its principal variation is a mate that python-chess confirms."""
    fens = shared_mates_in_three()
    if len(fens) < number:
        pytest.skip("the shared mates in 3 are not here")
    fen = fens[number - 1]
    result = api.search("chess", {"fen": fen}, {"name": "alphabeta"}, time_limit_ms=600_000)
    assert (result.outcome, result.plies_to_end, result.value) == ("win", 5, 100.0)
    board = chess.Board(fen)
    for move in result.pv:
        board.push_uci(move)
    assert len(result.pv) == 5 and board.is_checkmate()



def test_writing_san_stops_soon_after_the_deadline():
    """A principal variation is written in SAN within the answer's time: when the search's deadline is
    long past, only the chosen move and the first of the variation are, and the variation is cut to
    them; with time in hand, all of it is."""
    from engine.api import to_json_moves
    from engine.deadline import Deadline
    from engine.result import MoveValue, SearchResult, Stats

    state = state_of(chess.STARTING_FEN)
    line = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7"]   # Ruy Lopez

    def answer(deadline):
        s, codes = state, []
        for text in line:
            code = GAME.move_from_json(text, s)
            codes.append(code)
            s = play(s, code)
        result = SearchResult(move=codes[0], value=0.0, perspective="white", pv=list(codes),
                              moves=[MoveValue(m, 0.0) for m in moves(state)], stats=Stats())
        return to_json_moves(GAME, result, state, deadline)

    late = Deadline(1.0)
    late.end -= 10.0                                             # expired ten seconds ago
    cut = answer(late)
    assert (cut.move_notation, cut.pv_notation, cut.pv) == ("e4", ["e4"], ["e2e4"])
    assert all(mv.notation is None for mv in cut.moves)
    full = answer(Deadline(600.0))
    assert full.pv == line and full.pv_notation == "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7".split()
    assert all(mv.notation for mv in full.moves)


# --- issue 35: the forms players have ----------------------------------------------------------------

AFTER_E4_E5_NF3 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"


@pytest.mark.parametrize("state", [
    {"moves": ["e2e4", "e7e5", "g1f3"]},
    {"moves": ["e4", "e5", "Nf3"]},
    {"moves": "e2e4 e7e5 g1f3"},
    {"moves": "e4 e5  Nf3"},
    {"moves": ["e4", "e7e5", "Nf3"]},
    {"pgn": '[Event "?"]\n\n1. e4 e5 2. Nf3 *'},
    {"pgn": "1. e4 {best by test} e5 (1... c5) 2. Nf3"},
    AFTER_E4_E5_NF3,
])
def test_every_form_of_a_state_gives_the_position_and_its_fen(state):
    info = api.legal_moves("chess", state)
    assert info["fen"] == AFTER_E4_E5_NF3 and info["to_move"] == "black"


def test_a_pgn_s_moves_are_its_history_for_threefold_repetition():
    info = api.legal_moves("chess", {"pgn": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"})
    assert info["terminal"] and info["result"]["reason"] == "threefold repetition"


@pytest.mark.parametrize("move", ["e4", "e2e4", "E2E4"[:0] + "e2e4"])
def test_a_move_in_san_or_uci(move):
    assert api.apply("chess", {}, move)["fen"] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


@pytest.mark.parametrize("move", ["e7e8Q", "e7e8q", "e8=Q", "e8Q"])
def test_an_uppercase_promotion_and_san_promotions(move):
    answer = api.apply("chess", "8/4P3/8/8/8/8/8/k3K3 w - - 0 1", move)
    assert answer["state"] == "4Q3/8/8/8/8/8/8/k3K3 b - - 0 1" and answer["played_san"] == "e8=Q"


def test_apply_answers_in_the_request_s_form_and_keeps_the_whole_history():
    answer = api.apply("chess", {"moves": ["e2e4", "e7e5"]}, "Nf3")
    assert answer["state"] == {"fen": chess.STARTING_FEN, "moves": ["e2e4", "e7e5", "g1f3"]}
    assert answer["played_san"] == "Nf3" and answer["fen"] == AFTER_E4_E5_NF3 and "Nc6" in answer["san"]
    assert api.apply("chess", {"moves": "e4 e5"}, "g1f3")["state"]["moves"] == "e4 e5 Nf3"
    assert api.apply("chess", {"moves": "e2e4 e7e5"}, "Nf3")["state"]["moves"] == "e2e4 e7e5 g1f3"
    # a capture used to cut the returned history; it is kept now
    answer = api.apply("chess", {"moves": ["e2e4", "d7d5"]}, "exd5")
    assert answer["state"]["moves"] == ["e2e4", "d7d5", "e4d5"]
    pgn = api.apply("chess", {"pgn": '[White "A"]\n[Result "1-0"]\n\n1. e4 e5 1-0'}, "Nf3")["state"]["pgn"]
    assert '[White "A"]' in pgn and '[Result "*"]' in pgn and "2. Nf3 *" in pgn
    assert api.legal_moves("chess", {"pgn": pgn})["fen"] == AFTER_E4_E5_NF3


def test_apply_a_list_of_moves():
    answer = api.apply("chess", {"moves": ["e2e4"]}, moves_json=["e5", "g1f3"])
    assert answer["state"]["moves"] == ["e2e4", "e7e5", "g1f3"] and answer["fen"] == AFTER_E4_E5_NF3
    assert answer["played_san"] == "Nf3"
    with pytest.raises(IllegalMove) as raised:
        api.apply("chess", {}, moves_json=["e4", "e5", "Ke3"])
    assert list(raised.value.errors) == ["moves[2]"]
    with pytest.raises(InvalidState) as raised:
        api.apply("chess", {"fen": "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"}, moves_json=["Rd8", "Kh8"])
    assert list(raised.value.errors) == ["moves[1]"]


def test_a_string_state_is_chess_s_alone():
    with pytest.raises(InvalidState) as raised:
        api.legal_moves("tictactoe", "X........")
    assert "chess" in raised.value.errors["state"][0]


def test_a_pgn_s_variations_are_skipped_and_its_tags_and_comments_read_as_such():
    text = ('[Event "Open (round 1) ]\\" x"]\n\n1. e4 {a (comment} e5 (1... c5 2. Nf3 (2. c3) d6) ; note (\n'
            '2. Nf3 (2. d4 exd4) *')
    assert api.legal_moves("chess", {"pgn": text})["fen"] == AFTER_E4_E5_NF3
    pgn = api.apply("chess", {"pgn": text}, "Nc6")["state"]["pgn"]
    assert "c5" not in pgn and "{ a (comment }" in pgn and pgn.rstrip().endswith("2. Nf3 Nc6 *")


@pytest.mark.parametrize("text", ["((", "", "[FEN \"x\"]\n\n1. e4", "1. e4 " + "{" * 10 + "x" * 300_000])
def test_a_bad_or_huge_pgn_is_a_422_on_state_pgn(text):
    with pytest.raises(InvalidState) as raised:
        api.legal_moves("chess", {"pgn": text})
    assert list(raised.value.errors) == ["state.pgn"]
