"""Names that mean one thing, for every registered game (issue 35.4): the players a game declares
(``GET /v1/games/{game}``'s ``players`` and ``player_info``) are those its states and answers use, its
history lives in the state field it declares, and its options are read in their one canonical place,
``options``, on every route (and, as before, in a search's ``algorithm``). Every answer here comes from the
service and is checked against openapi.yaml (``ValidatingClient``). A game is covered by being registered."""
import random
import re

import pytest

from engine.registry import GAME_MODULES, game_type
from tests.service.support import ValidatingClient, make_app

PLIES = 12            # moves of each random walk through the rules routes
COLOUR = re.compile(r"^#[0-9a-f]{6}$")


@pytest.fixture(scope="module")
def client():
    return ValidatingClient(make_app())


@pytest.fixture(scope="module", params=list(GAME_MODULES))
def game(request, client):
    """``(id, its description as served)``."""
    response = client.get(f"/v1/games/{request.param}")
    assert response.status_code == 200
    return request.param, response.get_json()


def instance_players(described: dict, players: list) -> bool:
    """Whether ``players`` (an answer's) are those of an instance of the described game: the first n of the
    declared players, n within the declared range, or, for a game with a ``player_prefix``, prefix + i."""
    n = len(players)
    if not described["min_players"] <= n <= (described["max_players"] or n):
        return False
    if players == described["players"][:n]:
        return True
    prefix = described["player_prefix"]
    return prefix is not None and players == [f"{prefix}{i}" for i in range(n)]


def starts(described: dict) -> list:
    declared = game_type(described["id"])
    return [described["initial_state"], described["example_request"]["state"], *declared.sample_states]


def walk(client, game_id: str, state, rng: random.Random) -> list:
    """The rules routes' answers along a random walk from ``state``: legal-moves, then apply of a random
    legal move, again and again (a chance outcome by its probability)."""
    answers = [client.post(f"/v1/games/{game_id}/legal-moves", json={"state": state}).get_json()]
    for _ in range(PLIES):
        position = answers[-1]
        if position["terminal"]:
            break
        moves = position["legal_moves"]
        move = rng.choices(moves, position["probabilities"])[0] if "probabilities" in position else rng.choice(moves)
        response = client.post(f"/v1/games/{game_id}/apply", json={"state": state, "move": move})
        assert response.status_code == 200, response.get_json()
        answers.append(response.get_json())
        state = answers[-1]["state"]
    return answers


def test_the_declared_players_have_ids_names_and_colours(game):
    game_id, described = game
    info = described["player_info"]
    assert [p["id"] for p in info] == described["players"] == list(game_type(game_id).players)
    assert len(set(described["players"])) == len(described["players"])
    assert "chance" not in described["players"]          # to_move's word for a chance node
    for player in info:
        assert player["name"].strip() and COLOUR.match(player["colour"]), player
    assert described["conventions"].strip()


def test_states_and_rules_answers_use_the_declared_players_and_history_field(game, client):
    game_id, described = game
    rng, history = random.Random(35), described["history_field"]
    kept_history = False
    for start in starts(described):
        for answer in walk(client, game_id, start, rng):
            players = answer["players"]
            assert instance_players(described, players), players
            assert "moves" not in answer  # the legal moves are legal_moves alone (issue 50)
            if answer["terminal"]:
                assert answer["to_move"] is None and set(answer["utilities"]) == set(players)
                result = answer["result"]   # a finished game, one shape in every game (issue 50)
                assert {"winner", "reason"} <= set(result) and "reason" not in answer, result
                assert result["winner"] is None or result["winner"] in players, result
            else:
                assert answer["result"] is None
                assert answer["to_move"] in players or answer["to_move"] == "chance", answer["to_move"]
            state = answer.get("state")
            if isinstance(state, dict):
                if "to_move" in state and not answer["terminal"]:  # states that name the mover (Othello's
                    # names one at the end too: its format has no word for nobody)
                    assert state["to_move"] in players or state["to_move"] == "chance", state["to_move"]
                    if answer["to_move"] != "chance":  # backgammon's chance node names who is about to roll
                        assert state["to_move"] == answer["to_move"], (state["to_move"], answer["to_move"])
                if history is None:
                    assert not {"moves", "history"} & set(state), state
                else:
                    kept_history |= history in state
    assert history is None or kept_history, f"no state kept its history in {history!r}"


def search(client, game_id: str, body: dict) -> dict:
    response = client.post("/v1/search", json={"game": game_id, **body})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def shallow(described: dict) -> dict:
    """The game's example request on the Python core (the same answers on every server), one ply deep where
    it has a depth, else within a node budget (a textbook tree, a small board solved at once, or chess)."""
    example = described["example_request"]
    algorithm = {**example["algorithm"], "core": "python"}
    if "depth" in algorithm:
        algorithm["depth"] = 1
    else:
        algorithm["nodes"] = 4096
    return {"state": example["state"], "algorithm": algorithm, "time_limit_ms": example.get("time_limit_ms", 1000)}


def test_search_answers_name_the_players_as_the_rules_do(game, client):
    game_id, described = game
    request = shallow(described)
    answer = search(client, game_id, request)
    position = client.post(f"/v1/games/{game_id}/legal-moves", json={"state": request["state"]}).get_json()
    assert answer["players"] == position["players"]
    assert answer["perspective"] in answer["players"]
    if "values" in answer:
        assert len(answer["values"]) == len(answer["players"])
    assert {mv["move"] for mv in answer["moves"]} <= set(position["legal_moves"])
    assert answer["options"] == {}


def test_each_declared_option_is_read_in_options_on_every_route_and_in_algorithm(game, client):
    """An option set to its declared default changes nothing on the rules routes; a search reads it in
    ``options`` as in ``algorithm`` and echoes it; an option the game does not declare is refused, named."""
    game_id, described = game
    request = shallow(described)
    state = request["state"]
    body = {key: value for key, value in request.items() if key != "time_limit_ms"}
    plain = client.post(f"/v1/games/{game_id}/legal-moves", json={"state": state}).get_json()
    for option in described["options"]:
        options = {option["name"]: option["schema"]["default"]}
        with_options = client.post(f"/v1/games/{game_id}/legal-moves", json={"state": state, "options": options})
        assert with_options.get_json() == plain, option["name"]
        canonical = search(client, game_id, {**request, "options": options})
        older = search(client, game_id, {**request, "algorithm": {**request["algorithm"], **options}})
        assert canonical["options"] == older["options"] == options
        assert (canonical["move"], canonical["value"]) == (older["move"], older["value"])
    for route, body in ((f"/v1/games/{game_id}/legal-moves", {"state": state}),
                        ("/v1/search", {"game": game_id, **body})):
        refused = client.post(route, json={**body, "options": {"no_such_option": 1}})
        assert refused.status_code == 422 and "options.no_such_option" in refused.get_json()["errors"]
