"""Issue 50, item 2: every integer field of every request schema in openapi.yaml, at its edges and past
them, through the service, on both cores: never a 5xx, and a value out of the field's documented range is a
422 naming the field (``algorithm.depth`` of 2**31 was a std::bad_cast in the compiled core, a 500).

The fields are found by walking the spec's request bodies (and the query of the chess evaluation), so that
a new integer field fails :func:`test_every_integer_field_of_the_spec_is_probed` until it is probed here."""
import json
import math
from urllib.parse import urlencode

import pytest
import yaml

import engine.api
from engine.registry import GAME_MODULES, game_type
from engine.search import fitting_algorithms
from engine.search.native import NATIVE, PYTHON
from service.spec import SPEC_PATH, Loader
from tests.service.support import ValidatingClient, make_app

SPEC = yaml.load(SPEC_PATH.read_text(), Loader=Loader)
COMPONENTS = SPEC["components"]["schemas"]
REQUESTS = {"/v1/search": "SearchRequest", "/v1/search/batch": "BatchRequest", "/v1/review": "ReviewRequest",
            "/v1/games/{game}/legal-moves": "StateRequest", "/v1/games/{game}/apply": "ApplyRequest"}
EVAL = "/v1/games/chess/eval"
HUGE = (2**31, 2**63, 2**64, 1e308, -1)  # past a C++ int, int64_t, uint64_t, any integer; below every minimum
TIME_LIMIT_MS = 20
ITEM = "[]"  # a list's item in a walked path


def integer_fields(node, path=(), seen=frozenset()):
    """``{path: (minimum, maximum)}`` of every integer in the schema ``node`` (``$ref``, ``properties``,
    ``items``, ``anyOf``/``oneOf``/``allOf`` followed; a path is a tuple of property names and ITEMs)."""
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[1]
        return {} if name in seen else integer_fields(COMPONENTS[name], path, seen | {name})
    kind = node.get("type")
    found = {path: (node.get("minimum"), node.get("maximum"))} if kind == "integer" or (
        isinstance(kind, list) and "integer" in kind) else {}
    for key, child in node.get("properties", {}).items():
        found.update(integer_fields(child, (*path, key), seen))
    if isinstance(node.get("items"), dict):
        found.update(integer_fields(node["items"], (*path, ITEM), seen))
    for key in ("anyOf", "oneOf", "allOf"):
        for child in node.get(key, []):
            found.update(integer_fields(child, path, seen))
    return found


def spec_fields() -> dict:
    """``{(route, path): (minimum, maximum)}`` of every integer a request to the service may carry."""
    out = {}
    for route, schema in REQUESTS.items():
        for path, bounds in integer_fields({"$ref": f"#/components/schemas/{schema}"}).items():
            out[route, path] = bounds
    for parameter in SPEC["paths"][EVAL]["get"]["parameters"]:
        if parameter["schema"].get("type") == "integer":
            out[EVAL, (parameter["name"],)] = (parameter["schema"].get("minimum"), parameter["schema"].get("maximum"))
    return out


FIELDS = spec_fields()


def edges(bounds) -> list:
    """The values to try: each bound, one past it, and the huge ones."""
    low, high = bounds
    values = [v for bound in (low, high) if bound is not None for v in (bound - 1, bound, bound + 1)]
    return list(dict.fromkeys([*values, *HUGE]))


def in_range(value, bounds) -> bool:
    low, high = bounds
    return math.isfinite(value) and float(value).is_integer() and (low is None or value >= low) and (
        high is None or value <= high)


@pytest.fixture(scope="module")
def client():
    return ValidatingClient(make_app())


def post(client, route: str, body: dict):
    return client.post(route, data=json.dumps(body), content_type="application/json")


def start(game_id: str) -> dict:
    return game_type(game_id).initial_state


# --- the searches whose settings are probed: per algorithm and core, a game on which it runs ---

def search_body(game_id, state, algorithm: dict, **extra) -> dict:
    return {"game": game_id, "state": state, "algorithm": algorithm, "time_limit_ms": TIME_LIMIT_MS, **extra}


def runs(client, body: dict) -> bool:
    return post(client, "/v1/search", body).status_code == 200


def setting_cases():
    """``(algorithm, setting)`` for every integer setting each algorithm takes."""
    for name, settings in engine.api.request_settings().items():
        for setting, schema in settings.items():
            if schema.get("type") == "integer":
                yield name, setting


def fitting_search(client, name: str, setting: str, low, core: str):
    """A search body of algorithm ``name`` on ``core`` with ``setting`` at ``low`` that answers 200: the
    first registered game (its start, then its samples) it runs on; None where the core runs none."""
    for game_id in GAME_MODULES:
        declared = game_type(game_id)
        if name not in fitting_algorithms(declared):
            continue
        for state in (declared.initial_state, *declared.sample_states):
            body = search_body(game_id, state, {"name": name, "core": core, setting: low})
            if runs(client, body):
                return body
    return None


def expect(response, value, bounds, field: str) -> None:
    """Never a 5xx; out of range, a 422 naming ``field``; in range, no error on ``field``."""
    assert response.status_code < 500, (field, value, response.data[:300])
    errors = response.get_json().get("errors", {}) if response.status_code == 422 else {}
    if in_range(value, bounds):
        assert field not in errors, (field, value, errors)
    else:
        assert response.status_code == 422 and field in errors, (field, value, response.data[:300])


@pytest.mark.parametrize("core", [NATIVE, PYTHON])
@pytest.mark.parametrize("name, setting", list(setting_cases()))
def test_every_integer_setting_at_its_edges_on_both_cores(client, name, setting, core):
    bounds = FIELDS["/v1/search", ("algorithm", setting)]
    body = fitting_search(client, name, setting, bounds[0], core)
    if body is None:
        pytest.skip(f"{name} runs on no game with the {core} core and {setting} {bounds[0]} (native expectimax: "
                    "games of chance only, which take no depth_rounds; maxn: the Python core alone)")
    for value in edges(bounds):
        probe = {**body, "algorithm": {**body["algorithm"], setting: value}}
        response = post(client, "/v1/search", probe)
        expect(response, value, bounds, f"algorithm.{setting}")
        if in_range(value, bounds):
            assert response.status_code == 200, (setting, value, response.data[:300])


def test_the_batch_and_review_check_settings_alike(client):
    """The same settings inside a batch's search and a review: one algorithm per setting."""
    tictactoe = start("tictactoe")
    for route, path in FIELDS:
        if route not in ("/v1/search/batch", "/v1/review") or path[-2:-1] != ("algorithm",):
            continue
        setting = path[-1]
        if setting in ("no_progress_plies",):
            continue  # a game option: test_game_options_at_their_edges
        name = next(n for n, s in setting_cases() if s == setting)
        for value in edges(FIELDS[route, path]):
            algorithm = {"name": name, setting: value}
            if route == "/v1/review":
                body, field = {"game": "tictactoe", "state": tictactoe, "moves": [4], "algorithm": algorithm,
                               "time_limit_ms": TIME_LIMIT_MS}, f"algorithm.{setting}"
            else:
                body = {"searches": [search_body("tictactoe", tictactoe, algorithm)]}
                field = f"searches[0].algorithm.{setting}"
            expect(post(client, route, body), value, FIELDS[route, path], field)


@pytest.mark.parametrize("core", [NATIVE, PYTHON])
def test_game_options_at_their_edges(client, core):
    """Every integer game option (checkers' ``no_progress_plies``), in ``options`` and in ``algorithm``,
    on a search, on the rules routes and in a batch."""
    options = [path[-1] for route, path in FIELDS if route == "/v1/search" and path[0] == "options"]
    assert options
    for option in options:
        game_id = next(g for g in GAME_MODULES if option in {o.name for o in game_type(g).options})
        state = start(game_id)
        for value in edges(FIELDS["/v1/search", ("options", option)]):
            bounds = FIELDS["/v1/search", ("options", option)]
            algorithm = {"name": "alphabeta", "core": core}
            expect(post(client, "/v1/search", search_body(game_id, state, algorithm, options={option: value})),
                   value, bounds, f"options.{option}")
            expect(post(client, "/v1/search", search_body(game_id, state, {**algorithm, option: value})),
                   value, bounds, f"algorithm.{option}")
            batch = {"searches": [search_body(game_id, state, algorithm, options={option: value})]}
            expect(post(client, "/v1/search/batch", batch), value, bounds, f"searches[0].options.{option}")
            for rule in ("legal-moves", "apply"):
                body = {"state": state, "options": {option: value}, **({"moves": []} if rule == "apply" else {})}
                expect(post(client, f"/v1/games/{game_id}/{rule}", body), value, bounds, f"options.{option}")


def test_time_limits_at_their_edges(client):
    """``time_limit_ms`` of a search, a batch's search and a review (a tree and tic-tac-toe: solved at
    once, whatever the limit)."""
    tree, tictactoe = start("tree"), start("tictactoe")
    for route, field, make in (
            ("/v1/search", "time_limit_ms", lambda v: {**search_body("tree", tree, {"name": "alphabeta"}),
                                                        "time_limit_ms": v}),
            ("/v1/search/batch", "searches[0].time_limit_ms",
             lambda v: {"searches": [{**search_body("tree", tree, {"name": "alphabeta"}), "time_limit_ms": v}]}),
            ("/v1/review", "time_limit_ms",
             lambda v: {"game": "tictactoe", "state": tictactoe, "moves": [4], "algorithm": {"name": "alphabeta"},
                        "time_limit_ms": v})):
        path = ("searches", ITEM, "time_limit_ms") if route == "/v1/search/batch" else ("time_limit_ms",)
        for value in edges(FIELDS[route, path]):
            expect(post(client, route, make(value)), value, FIELDS[route, path], field)


def test_a_clock_s_moves_to_go_at_its_edges(client):
    """``clock.moves_to_go`` of a search and of a batch's search (a tree: solved at once)."""
    tree = start("tree")

    def body(value):
        return {"game": "tree", "state": tree, "algorithm": {"name": "alphabeta"},
                "clock": {"remaining_ms": 1000, "moves_to_go": value}}
    for route, path, make, field in (
            ("/v1/search", ("clock", "moves_to_go"), body, "clock.moves_to_go"),
            ("/v1/search/batch", ("searches", ITEM, "clock", "moves_to_go"), lambda v: {"searches": [body(v)]},
             "searches[0].clock.moves_to_go")):
        for value in edges(FIELDS[route, path]):
            expect(post(client, route, make(value)), value, FIELDS[route, path], field)


ROOT_RESTRICTIONS = ("search_moves", "exclude_moves")


def test_moves_at_their_edges(client):
    """A move given as an integer (no bounds in the schema: the game's own), a 2048 chance outcome's cell
    and tile, on ``apply`` (``move`` and ``moves``), a review, and a search's (and a batch's search's) root
    restriction (``search_moves``, ``exclude_moves``)."""
    tictactoe = start("tictactoe")
    for value in edges((0, 8)):
        for body, field in (({"state": tictactoe, "move": value}, "move"),
                            ({"state": tictactoe, "moves": [value]}, "moves[0]")):
            expect(post(client, "/v1/games/tictactoe/apply", body), value, (0, 8), field)
        review = {"game": "tictactoe", "state": tictactoe, "moves": [value], "algorithm": {"name": "alphabeta"},
                  "time_limit_ms": TIME_LIMIT_MS}
        expect(post(client, "/v1/review", review), value, (0, 8), "moves[0]")
        for restriction in ROOT_RESTRICTIONS:
            search = search_body("tictactoe", tictactoe, {"name": "alphabeta", "depth": 1}, **{restriction: [value]})
            expect(post(client, "/v1/search", search), value, (0, 8), f"{restriction}[0]")
            expect(post(client, "/v1/search/batch", {"searches": [search]}), value, (0, 8),
                   f"searches[0].{restriction}[0]")
    chance = {"board": [[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4], "to_move": "chance"}
    for key, bounds in ((("cell", ITEM), FIELDS["/v1/games/{game}/apply", ("move", "cell", ITEM)]),
                        (("tile",), FIELDS["/v1/games/{game}/apply", ("move", "tile")])):
        for value in edges(bounds):
            outcome = {"cell": [value, 1], "tile": 2} if key[0] == "cell" else {"cell": [0, 1], "tile": value}
            field = "move.cell[0]" if key[0] == "cell" else "move.tile"
            review = {"game": "2048", "state": chance, "moves": [outcome], "algorithm": {"name": "expectimax"},
                      "time_limit_ms": TIME_LIMIT_MS}
            searches = [(restriction, search_body("2048", chance, {"name": "expectimax", "depth": 1},
                                                  **{restriction: [outcome]})) for restriction in ROOT_RESTRICTIONS]
            for route, body, at in (
                    ("/v1/games/2048/apply", {"state": chance, "move": outcome}, field),
                    ("/v1/games/2048/apply", {"state": chance, "moves": [outcome]}, field.replace("move", "moves[0]", 1)),
                    ("/v1/review", review, field.replace("move", "moves[0]", 1)),
                    *(("/v1/search", search, field.replace("move", f"{r}[0]", 1)) for r, search in searches),
                    *(("/v1/search/batch", {"searches": [search]}, field.replace("move", f"searches[0].{r}[0]", 1))
                      for r, search in searches)):
                response = post(client, route, body)
                assert response.status_code < 500, (body, response.data[:300])
                if not in_range(value, bounds):
                    assert response.status_code == 422 and at in response.get_json()["errors"], response.data


def test_the_chess_evaluation_s_query_at_its_edges(client):
    fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
    for (route, path), bounds in FIELDS.items():
        if route != EVAL:
            continue
        for value in edges(bounds):
            value = int(value) if float(value).is_integer() and abs(value) < 1e300 else value
            response = client.get(f"{EVAL}?{urlencode({'fen': fen, 'time_limit_ms': 50, path[0]: value})}")
            expect(response, value, bounds, path[0])


# Each walked field and the test above that probes it.
PROBED = {
    "/v1/search": {("algorithm", s) for _, s in setting_cases()} | {("options", "no_progress_plies"),
                                                                    ("algorithm", "no_progress_plies"),
                                                                    ("time_limit_ms",), ("clock", "moves_to_go")}
    | {(r, ITEM, *tail) for r in ROOT_RESTRICTIONS for tail in ((), ("cell", ITEM), ("tile",))},
    "/v1/search/batch": {("searches", ITEM, "algorithm", s) for _, s in setting_cases()}
    | {("searches", ITEM, "options", "no_progress_plies"), ("searches", ITEM, "algorithm", "no_progress_plies"),
       ("searches", ITEM, "time_limit_ms"), ("searches", ITEM, "clock", "moves_to_go")}
    | {("searches", ITEM, r, ITEM, *tail) for r in ROOT_RESTRICTIONS for tail in ((), ("cell", ITEM), ("tile",))},
    "/v1/review": {("algorithm", s) for _, s in setting_cases()} | {
        ("algorithm", "no_progress_plies"), ("options", "no_progress_plies"), ("time_limit_ms",), ("moves", ITEM),
        ("moves", ITEM, "cell", ITEM), ("moves", ITEM, "tile")},
    "/v1/games/{game}/legal-moves": {("options", "no_progress_plies")},
    "/v1/games/{game}/apply": {("options", "no_progress_plies"), ("move",), ("move", "cell", ITEM), ("move", "tile"),
                               ("moves", ITEM), ("moves", ITEM, "cell", ITEM), ("moves", ITEM, "tile")},
    EVAL: {("multi_pv",), ("time_limit_ms",)},
}


def test_every_integer_field_of_the_spec_is_probed():
    """The walk finds the fields probed above, and no other: a new integer field must be probed."""
    assert set(FIELDS) == {(route, path) for route, paths in PROBED.items() for path in paths}


def test_every_integer_field_has_a_maximum():
    """Every integer a request sets has a documented maximum; moves are bounded by their game (a legal
    move or a 422 naming it), those of a search's root restriction too."""
    unbounded = {key for key, (low, high) in FIELDS.items() if high is None}
    moves = {("move",), ("moves", ITEM), *((r, ITEM) for r in ROOT_RESTRICTIONS),
             *(("searches", ITEM, r, ITEM) for r in ROOT_RESTRICTIONS)}
    assert {path for _, path in unbounded} <= moves
