"""Choosing the core, through the service: ``algorithm.core``, ``stats.core``, the games' ``cores``,
``/readyz``; and what the compiled core promises a server: the interpreter lock released while it
searches, cancellation and progress reports as on the Python core."""
from pathlib import Path
import subprocess
import sys
import threading
import time

import pytest

import engine.api
from engine.errors import AlgorithmMismatch
from engine.registry import GAME_MODULES, game_type
from engine.search import native
from tests.native.conftest import needs_native
from tests.service.support import ValidatingClient, make_app
from tests.service.test_stream import parse

C4 = {"moves": "4453"}


@pytest.fixture(scope="module")
def client():
    return ValidatingClient(make_app())


def search(client, algorithm, game="connect4", state=C4, **extra):
    return client.post("/v1/search", json={"game": game, "state": state, "algorithm": algorithm, **extra})


@pytest.mark.parametrize("game_id", list(GAME_MODULES))
def test_every_game_lists_the_cores_that_run_it(client, game_id):
    cores = client.get(f"/v1/games/{game_id}").get_json()["cores"]
    declared = game_type(game_id)
    built = declared.native_core and game_id in native.native_games()
    assert cores == (["native", "python"] if built else ["python"])


@pytest.mark.parametrize("core", ["native", "python"])
def test_the_answer_says_which_core_ran(client, core):
    if core == "native":
        needs_native("connect4")
    response = search(client, {"name": "alphabeta", "depth": 4, "core": core})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["stats"]["core"] == core


def test_the_compiled_core_runs_by_default_where_it_can(client):
    needs_native("connect4")
    assert search(client, {"name": "alphabeta", "depth": 4}).get_json()["stats"]["core"] == "native"
    assert search(client, {"name": "auto"}, time_limit_ms=100).get_json()["stats"]["core"] == "native"
    traced = search(client, {"name": "alphabeta", "depth": 2}, trace=True).get_json()
    assert traced["stats"]["core"] == "python" and traced["trace"]


@pytest.mark.parametrize("body, why", [
    ({"game": "tree", "state": {"root": {"type": "max", "children": [{"value": 1}]}},
      "algorithm": {"name": "minimax", "core": "native"}}, "no compiled core"),
    ({"game": "connect4", "state": C4, "algorithm": {"name": "alphabeta", "core": "native", "depth": 2},
      "trace": True}, "trace"),
    ({"game": "connect4", "state": C4, "algorithm": {"name": "expectimax", "core": "native", "depth": 2}},
     "expectimax"),
])
def test_asking_for_the_compiled_core_where_it_cannot_run_is_named(client, body, why):
    needs_native("connect4")
    response = client.post("/v1/search", json=body)
    assert response.status_code == 422
    assert why in " ".join(response.get_json()["errors"]["algorithm.core"])


def test_an_unknown_core_is_named(client):
    response = search(client, {"name": "alphabeta", "depth": 2, "core": "gpu"})
    assert response.status_code == 422 and "algorithm.core" in response.get_json()["errors"]


def test_readiness_says_whether_the_compiled_core_is_loaded(client):
    cores = client.get("/readyz").get_json()["cores"]
    assert cores["native"] == native.available()
    assert cores["games"] == list(native.native_games())
    assert cores["native"] or cores["reason"]


def test_a_native_stream_reports_its_iterations_then_the_answer(client):
    needs_native("connect4")
    response = client.post("/v1/search/stream", json={"game": "connect4", "state": C4, "time_limit_ms": 2000,
                                                      "algorithm": {"name": "alphabeta", "depth": 6}})
    events = parse(response.get_data(as_text=True))
    infos = [data for name, data in events if name == "info"]
    assert [info["depth"] for info in infos] == [1, 2, 3, 4, 5, 6]
    name, result = events[-1]
    assert name == "result" and result["stats"]["core"] == "native"
    assert result["move"] == infos[-1]["move"] and result["value"] == infos[-1]["value"]


@pytest.mark.parametrize("game_id", sorted(gid for gid in GAME_MODULES if game_type(gid).native_core))
def test_every_compiled_core_streams_its_iterations_in_the_games_move_form(client, game_id):
    """A progress report's move and line are in the game's JSON form, as the answer's are (2048's moves are
    numbered 0-3 in the compiled core: its progress once reached the game's JSON writer unconverted, a 500
    in the middle of a stream)."""
    needs_native(game_id)
    declared = game_type(game_id)
    state = declared.initial_state
    game, loaded = engine.api.load(game_id, state)
    if game.to_move(loaded) < 0:   # backgammon starts at a chance node, where nobody chooses: its example rolled
        state = declared.example_request["state"]
    if game_id == "go":            # 19 x 19's first report, after 1,024 playouts, comes later under the sanitizers
        state = {"size": 5, "komi": 0.5, "moves": []}
    response = client.post("/v1/search/stream", json={"game": game_id, "state": state,
                                                      "time_limit_ms": 300, "algorithm": {"name": "auto"}})
    events = parse(response.get_data(as_text=True))
    name, result = events[-1]
    assert name == "result", events[-1]
    assert result["stats"]["core"] == "native"
    infos = [data for name, data in events if name == "info"]
    legal = client.post(f"/v1/games/{game_id}/legal-moves", json={"state": state}).get_json()
    assert infos or result["stats"]["stop_reason"] == "solved"      # (the empty 3 x 3 board is solved at once)
    assert all(info["move"] in legal["legal_moves"] and info["pv"][0] == info["move"] for info in infos)


def test_a_native_search_leaves_the_interpreter_to_other_threads():
    """While a native search runs in another thread, this thread's Python work goes on: a search that held
    the interpreter lock would stop it until the search ended. (At least a fifth of its pace alone: the
    machine's other work may take the rest.)"""
    needs_native("connect4")

    def spin(seconds):
        count, end = 0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            count += 1
        return count

    alone = spin(0.3)
    prepared = engine.api.Search("connect4", {"moves": ""}, {"name": "alphabeta"}, time_limit_ms=800)
    worker = threading.Thread(target=prepared.run)
    worker.start()
    time.sleep(0.05)
    beside = spin(0.3)
    searching = worker.is_alive()
    worker.join()
    assert searching and beside > 0.2 * alone, (beside, alone)


def test_cancelling_stops_a_native_search_at_once():
    needs_native("connect4")
    prepared = engine.api.Search("connect4", {"moves": ""}, {"name": "alphabeta"}, time_limit_ms=10_000)
    answer = {}
    worker = threading.Thread(target=lambda: answer.update(result=prepared.run()))
    worker.start()
    time.sleep(0.2)
    cancelled = time.perf_counter()
    prepared.cancel()
    worker.join(5)
    assert time.perf_counter() - cancelled < 0.1
    assert answer["result"].stats.timed_out and answer["result"].stats.core == "native"


def test_the_python_core_is_the_fallback_and_can_be_forced():
    result = engine.api.search("connect4", C4, {"name": "alphabeta", "depth": 3, "core": "python"}, 1000)
    assert result.stats.core == "python"
    with pytest.raises(AlgorithmMismatch) as raised:
        engine.api.search("tree", {"root": {"type": "max", "children": [{"value": 1}]}},
                          {"name": "minimax", "core": "native"}, 1000)
    assert list(raised.value.errors) == ["algorithm.core"]


def test_without_the_compiled_core_the_service_runs_on_python_and_says_so():
    """A server whose core was not built (no compiler) starts, searches on the Python core, and says so: a
    warning at start-up, /readyz, the games' cores, the metric, and a 422 for a search forced native."""
    script = """
import sys
sys.modules["tactician_native"] = None          # as where the core was not built
from tests.service.support import make_app
client = make_app().test_client()
search = {"game": "connect4", "state": {"moves": "4453"}, "algorithm": {"name": "alphabeta", "depth": 4}}
print(client.get("/readyz").get_json()["cores"]["native"])
print(client.post("/v1/search", json=search).get_json()["stats"]["core"])
print(client.get("/v1/games/connect4").get_json()["cores"])
forced = {**search, "algorithm": {**search["algorithm"], "core": "native"}}
print(list(client.post("/v1/search", json=forced).get_json()["errors"]))
print([line for line in client.get("/metrics").get_data(as_text=True).splitlines()
       if line.startswith("tactician_native_core ")])
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if not line.startswith("{")]  # request log lines
    assert lines == ["False", "python", "['python']", "['algorithm.core']", "['tactician_native_core 0.0']"]
    assert "running on the python core only" in done.stderr


@pytest.mark.parametrize("algorithm", [{"name": "alphabeta", "depth": 3}, {"name": "alphabeta", "core": "python", "depth": 3},
                                       {"name": "mcts", "iterations": 50, "seed": 1}])
def test_a_search_has_its_core_chosen_once(monkeypatch, algorithm):
    """engine.api.Search chooses the core to know whether the search runs natively; running it does not
    ask the compiled core again (issue 33: a tenth of a native search's bridge went to asking twice)."""
    needs_native("connect4")
    calls = []
    choose = native.choose
    monkeypatch.setattr(native, "choose", lambda *args: calls.append(args) or choose(*args))
    result = engine.api.search("connect4", C4, algorithm, time_limit_ms=5000)
    assert len(calls) == 1
    assert result.stats.core == choose(*calls[0])
