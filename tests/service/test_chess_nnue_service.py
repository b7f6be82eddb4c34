"""Chess's ``options.evaluation`` through the real app: ``"nnue"`` searches with the net in use (the same
answer on both cores, the engine's own), a 422 naming the option and the reason while the server has none
or refused its file, the classic evaluation unaffected, and ``/readyz`` saying the net's state."""
import chess
import pytest

import engine.api
from engine.games.pacman import SMALL_MAZE
from engine.search import native
from tests.nnue_nets import flip_a_byte_of, net_file
from tests.service.support import ValidatingClient, make_app

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def search(client, core, **options):
    body = {"game": "chess", "state": KIWIPETE, "time_limit_ms": 10000,
            "algorithm": {"name": "alphabeta", "depth": 2, "core": core}}
    return client.post("/v1/search", json={**body, "options": options} if options else body)


@pytest.fixture
def client(fresh_search_pools):
    """A client of an app made in the test, after the net in use is set (the search processes fork then)."""
    return lambda: ValidatingClient(make_app())


@pytest.mark.parametrize("core", ["python", "native"])
def test_an_nnue_search_through_the_app(installed_net, client, core):
    if core == "native" and "chess" not in native.native_games():
        pytest.skip("no compiled chess core")
    net = installed_net(3, w2=40)
    app = client()
    answer = search(app, core, evaluation="nnue")
    assert answer.status_code == 200, answer.get_json()
    answer = answer.get_json()
    assert answer["stats"]["core"] == core and answer["options"] == {"evaluation": "nnue"}
    expected = engine.api.search("chess", KIWIPETE, {"name": "alphabeta", "depth": 2, "core": "python"},
                                 options={"evaluation": "nnue"})
    assert (answer["move"], answer["value"], answer["stats"]["nodes"]) == (expected.move, expected.value,
                                                                          expected.stats.nodes)
    classic = search(app, core).get_json()
    assert classic["value"] != answer["value"]
    assert search(app, core, evaluation="classic").get_json()["value"] == classic["value"]
    ready = app.get("/readyz").get_json()
    assert ready["chess_nnue"] == {"loaded": True, "hidden": net.hidden, "sha256": net.sha256}


@pytest.mark.parametrize("broken", [False, True])
def test_without_a_net_nnue_is_a_422_and_classic_runs(default_net, client, tmp_path, broken):
    path = tmp_path / "nnue.bin"
    if broken:
        flip_a_byte_of(net_file(path))
    default_net(path)
    app = client()
    ready = app.get("/readyz").get_json()
    reason = "sha256" if broken else "cannot be read"
    assert ready["chess_nnue"]["loaded"] is False and reason in ready["chess_nnue"]["reason"]
    refused = search(app, "python", evaluation="nnue")
    assert refused.status_code == 422 and refused.mimetype == "application/problem+json"
    (message,) = refused.get_json()["errors"]["options.evaluation"]
    assert "unavailable" in message and reason in message
    assert search(app, "python").status_code == 200


@pytest.mark.parametrize("game, state, value", [("chess", chess.STARTING_FEN, "better"),
                                                ("pacman", {"layout": SMALL_MAZE}, "nnue"),
                                                ("chess", chess.STARTING_FEN, "deep")])
def test_each_game_takes_its_own_evaluations(client, game, state, value):
    """pacman and chess share the option's name, each its own values (the schema takes all of them)."""
    body = {"game": game, "state": state, "algorithm": {"name": "alphabeta", "depth": 1},
            "options": {"evaluation": value}}
    response = client().post("/v1/search", json=body)
    assert response.status_code == 422
    assert list(response.get_json()["errors"]) == ["options.evaluation"]
