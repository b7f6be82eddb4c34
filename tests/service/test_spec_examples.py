"""openapi.yaml's response examples: each is valid against its schema, and the server gives the answer shown.

A response example corresponds to a request: the operation's request example of the same key (for the game
routes, the key is also the game in the path), `GET /v1/games/{key}` for one game, or its own
`x-request: {method, path, body?}` (the errors, which no request example may be: those must pass the
schemas). Compared as README's examples are (tests/service/test_readme_examples.py): the status; a search's
stable fields (a batch's, search by search); a review's answer but its ``stats``; any other answer field for
field; `GET /v1/games`'s abridged list game by game."""
import pytest
from openapi_schema_validator import OAS31Validator

from tests.service.support import ValidatingClient, make_app
from tests.service.readme_examples import parse_events, same, stable, without_stats
from service.spec import load_spec

SPEC = load_spec()
METHODS = ("get", "post", "put", "patch", "delete")


def resolve(node: dict) -> dict:
    while "$ref" in node:
        section, name = node["$ref"].split("/")[-2:]
        node = SPEC["components"][section][name]
    return node


def response_examples():
    """``(where, path, method, status, schema, key, example)`` for every JSON response example."""
    for path, item in SPEC["paths"].items():
        for method in METHODS:
            if method not in item:
                continue
            for status, response in item[method]["responses"].items():
                for media_type, media in resolve(response).get("content", {}).items():
                    if not media_type.endswith("json"):
                        continue
                    for key, example in media.get("examples", {}).items():
                        yield (f"{method.upper()} {path} {status} {key}", path, method, status, media["schema"],
                               key, example)


EXAMPLES = list(response_examples())


def test_the_main_routes_and_an_error_have_response_examples():
    have = {(path, method, status) for _, path, method, status, *_ in EXAMPLES}
    assert have >= {("/v1/search", "post", "200"), ("/v1/games", "get", "200"), ("/v1/games/{game}", "get", "200"),
                    ("/v1/games/{game}/legal-moves", "post", "200"), ("/v1/games/{game}/apply", "post", "200"),
                    ("/v1/search", "post", "422"), ("/v1/games/{game}", "get", "404")}


@pytest.mark.parametrize("where, path, method, status, schema, key, example", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_every_response_example_is_valid(where, path, method, status, schema, key, example):
    OAS31Validator({**schema, "components": SPEC["components"]}).validate(example["value"])
    if status.isdigit() and "status" in example["value"]:
        assert example["value"]["status"] == int(status)


@pytest.fixture(scope="module")
def client():
    return ValidatingClient(make_app())


def request_for(path, method, key, example):
    """``(method, url, body)`` of the request the example answers; None if it answers none."""
    if "x-request" in example:
        request = example["x-request"]
        return request["method"], request["path"], request.get("body")
    if path == "/v1/games/{game}":
        return "GET", f"/v1/games/{key}", None
    body = SPEC["paths"][path][method].get("requestBody")
    requests = body["content"]["application/json"].get("examples", {}) if body else {}
    if key in requests:
        return method.upper(), path.replace("{game}", key), requests[key]["value"]
    return None


@pytest.mark.parametrize("where, path, method, status, schema, key, example", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_the_server_answers_as_the_example_shows(client, where, path, method, status, schema, key, example):
    expected = example["value"]
    if path == "/v1/games" and status == "200":  # abridged: each game listed is the server's
        served = {game["id"]: game for game in client.get("/v1/games").get_json()["games"]}
        assert expected["games"]
        for game in expected["games"]:
            assert same(served[game["id"]], game), game["id"]
        return
    request = request_for(path, method, key, example)
    assert request is not None, f"{where}: no request example named {key!r} and no x-request"
    verb, url, body = request
    response = client.open(url, method=verb, json=body) if body is not None else client.open(url, method=verb)
    assert response.status_code == int(status), response.get_data(as_text=True)
    actual = response.get_json()
    if path == "/v1/search" and status == "200":
        assert same(stable(actual), stable(expected)), (stable(actual), stable(expected))
    elif path == "/v1/search/batch" and status == "200":
        assert [stable(r) for r in actual["results"]] == [stable(r) for r in expected["results"]]
    elif path == "/v1/review" and status == "200":  # all but the searches' timings and node counts
        assert same(without_stats(actual), without_stats(expected)), response.get_data(as_text=True)
    else:
        assert same(actual, expected), response.get_data(as_text=True)


def stream_examples():
    for path, item in SPEC["paths"].items():
        for method in METHODS:
            for status, response in item.get(method, {}).get("responses", {}).items():
                media = resolve(response).get("content", {}).get("text/event-stream")
                for key, example in (media or {}).get("examples", {}).items():
                    yield f"{method.upper()} {path} {status} {key}", path, method, key, example


STREAMS = list(stream_examples())
EVENT_SCHEMAS = {"info": "SearchInfo", "result": "SearchResponse", "error": "Problem"}


def test_the_stream_has_an_example():
    assert [where for where, *_ in STREAMS] == ["POST /v1/search/stream 200 connect4_alphabeta"]


@pytest.mark.parametrize("where, path, method, key, example", STREAMS, ids=[s[0] for s in STREAMS])
def test_a_stream_example_is_valid_and_what_the_server_streams(client, where, path, method, key, example):
    events = parse_events(example["value"])
    assert [name for name, _ in events][-1] == "result"
    for name, data in events:
        OAS31Validator({"$ref": f"#/components/schemas/{EVENT_SCHEMAS[name]}", "components": SPEC["components"]}) \
            .validate(data)
    verb, url, body = request_for(path, method, key, example)
    response = client.open(url, method=verb, json=body)
    assert response.status_code == 200
    served = parse_events(response.get_data(as_text=True))
    response.close()
    assert [(name, data.get("depth")) for name, data in served] == [(name, data.get("depth")) for name, data in events]
    assert same(stable(served[-1][1]), stable(events[-1][1]))
