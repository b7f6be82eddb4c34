"""A whole Connect Four game over HTTP against the real server, as a front end would play it: ``auto`` at
full strength against ``auto`` at level 1, using only ``/v1/search`` and ``/v1/games/connect4/apply``."""
import requests

from tests.service.test_gunicorn import server  # noqa: F401  (the fixture: a running gunicorn)

TIME_LIMIT_MS = 100
SIDES = ({"name": "auto"}, {"name": "auto", "level": 1, "seed": 5})


def post(url, body):
    reply = requests.post(url, json=body, timeout=30)
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_auto_plays_a_full_game_against_level_1(server):  # noqa: F811
    base, _ = server
    state = {"moves": ""}
    position = {"terminal": False, "moves": list(range(7))}     # the empty board
    plies = 0
    while not position["terminal"]:
        algorithm = SIDES[plies % 2]
        answer = post(f"{base}/v1/search", {"game": "connect4", "state": state, "algorithm": algorithm,
                                            "time_limit_ms": TIME_LIMIT_MS})
        assert answer["move"] in position["moves"]
        assert answer["algorithm"]["name"] == "auto"
        assert answer["algorithm"]["chosen"]["name"] in ("alphabeta", "mcts")
        assert (answer["algorithm"]["handicap"] is None) == ("level" not in algorithm)
        position = post(f"{base}/v1/games/connect4/apply", {"state": state, "move": answer["move"]})
        state = position["state"]
        plies += 1
        assert plies <= 42
    assert set(position["utilities"]) == {"X", "O"}
    assert sorted(position["utilities"].values()) in ([-1.0, 1.0], [0.0, 0.0])
