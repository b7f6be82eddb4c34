"""The harness's HTTP player against the real server: the same answer shape as the in-process player."""
from bench import match, players
from engine import api
from tests.service.test_gunicorn import server  # noqa: F401  (the fixture: a running gunicorn)


def test_the_http_player_plays_legal_moves_through_the_server(server):  # noqa: F811
    base, _ = server
    player = players.build(f"http:auto,level=2,seed=3@{base}")
    game, state = api.load("connect4", {"moves": "44"})
    position = players.Position("connect4", {"moves": ""}, [3, 3], game.state_to_json(state), game, state,
                                100, 1)
    assert player.choose(position) in [game.move_to_json(m) for m in game.actions(state)]
    result = match.play(match.GameTask("tictactoe", (4,), (player.spec, "random"), 50, 2))
    assert sorted(result["utilities"]) in ([-1.0, 1.0], [0.0, 0.0]) and len(result["times"][0]) >= 2
