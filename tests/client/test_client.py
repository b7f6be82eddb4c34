"""tactician.Client against a real server (gunicorn, two workers): every method, errors, the streams, the
Retry-After of a refusal and the API key."""
import threading
import time
import typing

import pytest

import tactician
from tests.service.server import gunicorn
from tests.service.support import FIGURE_5_2

KEY = "client-test-key"
BIG_BOARD = {"board": ["." * 7] * 7, "k": 4}  # minimax runs until its deadline


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # One search at a time per client, so that a second one is refused with 429 and Retry-After.
    with gunicorn(tmp_path_factory.mktemp("client"), MAX_SEARCHES_PER_CLIENT=1, API_KEYS=KEY) as (base, _):
        yield base


@pytest.fixture(scope="module")
def client(server):
    with tactician.Client(server, api_key=KEY, timeout=30) as client:
        yield client


def test_games_and_game(client):
    games = client.games()
    assert [g["id"] for g in games] == ["tree", "tictactoe", "connect4", "2048", "chess", "checkers", "othello",
                                        "pacman", "backgammon", "go"]
    tictactoe = client.game("tictactoe")
    assert tictactoe == next(g for g in games if g["id"] == "tictactoe")
    assert "alphabeta" in tictactoe["algorithms"]


def test_legal_moves_and_apply(client):
    position = client.legal_moves("connect4", {"moves": "4453"})
    assert (position["to_move"], position["legal_moves"], position["terminal"]) == ("X", list(range(7)), False)
    assert position["players"] == ["X", "O"] and "moves" not in position
    applied = client.apply("connect4", {"moves": "4453"}, 3)
    assert applied["state"]["moves"] == "44534" and applied["to_move"] == "O"
    won = client.apply("tictactoe", {"board": ["XX.", "OO.", "..."]}, 2)
    assert won["terminal"] and won["utilities"] == {"X": 1.0, "O": -1.0}
    assert won["result"] == {"winner": "X", "reason": None}


def test_apply_sends_a_list_of_moves(client):
    applied = client.apply("connect4", {"moves": "44"}, moves=[4, 2, 3])
    assert applied["state"]["moves"] == "44534" and applied["to_move"] == "O"
    mated = client.apply("chess", {}, moves=["f3", "e5", "g4", "Qh4"])
    assert mated["terminal"] and mated["result"] == {"winner": "black", "reason": "checkmate"}
    with pytest.raises(tactician.ProblemError) as refused:             # the server names the bad move
        client.apply("connect4", {"moves": "44"}, moves=[4, 9])
    assert list(refused.value.problem["errors"]) == ["moves[1]"]
    for wrong in ({}, {"move": 3, "moves": [3]}):                       # one of the two, as the API takes
        with pytest.raises(TypeError):
            client.apply("connect4", {"moves": "44"}, **wrong)


def test_a_chess_state_is_a_fen_string(client):
    fen: tactician.State = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
    mated = client.apply("chess", fen, "d1d8")
    assert mated["state"] == "3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1" and mated["result"]["reason"] == "checkmate"
    assert client.search("chess", fen, {"name": "alphabeta", "depth": 2})["move"] == "d1d8"
    assert str in typing.get_args(tactician.State)


def test_options_reach_the_rules(client):
    after = client.apply("2048", {"board": [[2, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4]}, "left",
                         options={"tile_probabilities": {"4": 1.0}})
    assert after["to_move"] == "chance" and {m["tile"] for m in after["legal_moves"]} == {4}
    assert after["probabilities"] == pytest.approx([1 / 15] * 15)
    position = client.legal_moves("2048", after["state"], options={"tile_probabilities": {"4": 1.0}})
    assert position["probabilities"] == after["probabilities"]


def test_options_reach_the_search_and_its_stream(client):
    """Game options go in ``options`` on every route: a 2048 whose only new tile is a 4 values a board
    otherwise than the default odds do, and the answer echoes them."""
    board, options = {"board": [[2, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4]}, {"tile_probabilities": {"4": 1.0}}
    algorithm = {"name": "expectimax", "depth": 2, "core": "python"}
    answer = client.search("2048", board, algorithm, time_limit_ms=5000, options=options)
    default = client.search("2048", board, algorithm, time_limit_ms=5000)
    assert answer["options"] == options and default["options"] == {}
    assert answer["value"] != default["value"] and answer["players"] == ["player"]
    streamed = list(client.search_stream("2048", board, algorithm, time_limit_ms=5000, options=options))[-1].data
    assert (streamed["value"], streamed["options"]) == (answer["value"], options)


def test_search(client):
    answer = client.search("tree", FIGURE_5_2, {"name": "alphabeta", "move_ordering": False,
                                                "transposition_table": False}, time_limit_ms=2000, trace=True)
    assert (answer["move"], answer["value"], answer["stats"]["nodes"]) == ("B", 3.0, 11)
    assert len(answer["trace"]) == 11
    by_name = client.search("tictactoe", {"board": ["X.O", "...", "..."]}, "minimax")
    assert (by_name["move"], by_name["outcome"], by_name["plies_to_end"]) == (3, "win", 5)
    assert "trace" not in by_name


def test_search_under_a_clock(client):
    answer = client.search("connect4", {"moves": "44"}, "auto", clock={"remaining_ms": 2000, "increment_ms": 50})
    assert answer["clock"]["used_ms"] <= answer["clock"]["limit_ms"] + 60
    assert answer["stats"]["stop_reason"] in ("clock", "time_limit", "solved", "completed")


def test_search_stream(client):
    request = ("connect4", {"moves": "4453"}, {"name": "alphabeta", "depth": 6, "core": "python"})
    events = list(client.search_stream(*request, time_limit_ms=5000))
    assert [e.event for e in events] == ["info"] * 6 + ["result"]
    assert [e.data["depth"] for e in events[:-1]] == [1, 2, 3, 4, 5, 6]
    result, plain = events[-1].data, client.search(*request, time_limit_ms=5000)
    assert (result["move"], result["value"], result["pv"]) == (plain["move"], plain["value"], plain["pv"])


def test_review_and_its_stream(client):
    review = client.review("chess", "alphabeta", pgn="1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0", time_limit_ms=2000)
    assert review["complete"] and [(p["san"], p["class"]) for p in review["plies"]][5:] == [("Nf6", "blunder"),
                                                                                          ("Qxf7#", "best")]
    game = ("tictactoe", {"name": "alphabeta", "depth": 9})
    events = list(client.review_stream(*game, state={"board": ["...", "...", "..."]}, moves=[4, 1, 0],
                                       time_limit_ms=3000))
    assert [e.event for e in events] == ["ply"] * 3 + ["result"]
    assert [e.data["class"] for e in events[:-1]] == ["best", "blunder", "best"] == \
        [p["class"] for p in events[-1].data["plies"]]
    with pytest.raises(tactician.ProblemError) as raised:
        list(client.review_stream(*game, state={"board": ["...", "...", "..."]}, moves=[4, 4]))
    assert raised.value.status == 422 and "moves[1]" in raised.value.errors


def test_search_batch(client):
    searches = [{"game": "tictactoe", "state": {"board": ["X.O", "...", "..."]}, "algorithm": {"name": "minimax"}},
                {"game": "connect4", "state": {"moves": "4453"}, "algorithm": {"name": "alphabeta", "depth": 6}}]
    batch = client.search_batch(searches)
    singles = [client.search(s["game"], s["state"], s["algorithm"]) for s in searches]
    assert [(r["move"], r["value"]) for r in batch["results"]] == [(r["move"], r["value"]) for r in singles]
    assert batch["stats"]["searches"] == 2
    events = list(client.search_batch_stream(searches))
    assert [(e.event, e.data.get("index")) for e in events] == [("search", 0), ("search", 1), ("result", None)]
    assert [e.data["result"]["move"] for e in events[:2]] == [r["move"] for r in batch["results"]]
    with pytest.raises(tactician.ProblemError) as raised:
        client.search_batch([{**searches[0], "state": {"board": ["XXX", "...", "..."]}}])
    assert raised.value.status == 422 and "searches[0].state.board" in raised.value.errors


def test_errors_are_problems(client):
    with pytest.raises(tactician.ProblemError) as raised:
        client.search("tictactoe", {"board": ["...", "...", "..."]}, {"name": "minimax", "depth": 2.5})
    error = raised.value
    assert (error.status, error.title, error.type) == (422, "Unprocessable Content", "https://tactician.dev/problems/validation")
    assert error.errors == {"algorithm.depth": ["Not a valid integer."]}
    assert error.problem["detail"] == error.detail and error.retry_after is None
    with pytest.raises(tactician.ProblemError) as raised:
        client.game("shogi")
    assert raised.value.status == 404
    with pytest.raises(tactician.ProblemError) as raised:
        list(client.search_stream("tictactoe", {"board": ["XXX", "...", "..."]}, "alphabeta"))
    assert raised.value.status == 422 and "state.board" in raised.value.errors
    with pytest.raises(tactician.ProblemError) as raised:
        client.apply("connect4", {"moves": "4453"}, 9)
    assert raised.value.status == 422 and "move" in raised.value.errors


def test_an_unknown_key_is_a_401(server):
    with pytest.raises(tactician.ProblemError) as raised:
        tactician.Client(server, api_key="not-" + KEY).search("tree", FIGURE_5_2, "minimax")
    assert raised.value.status == 401


def test_a_refusal_carries_retry_after(client):
    def hold_the_place():  # the long search, until the server admits it (a probe below may hold the place)
        while True:
            try:
                client.search("tictactoe", BIG_BOARD, "minimax", 3000)
                return
            except tactician.ProblemError as error:
                if error.status != 429:
                    raise
                time.sleep(0.01)

    long = threading.Thread(target=hold_the_place)
    long.start()
    try:
        deadline = time.monotonic() + 2.5
        while True:  # the long search holds the client's one place once the server has admitted it
            try:
                client.search("tree", FIGURE_5_2, "minimax")
            except tactician.ProblemError as error:
                refused = error
                break
            assert time.monotonic() < deadline, "never refused"
            time.sleep(0.05)
        assert refused.status == 429 and refused.retry_after is not None and refused.retry_after > 0
        assert refused.headers["Retry-After"]
    finally:
        long.join(timeout=15)
