"""README.md's curl examples, run against a real server: every example answers as the README shows.

Compared: the status, always; every answer field for field, at every depth, but its timings (``time_ms``,
``nodes_per_second``): the README's searches have a fixed depth or seeded iterations, or finish well within
their time, so their moves, values, principal variations and node counts are the same on every run and on
both cores. An example marked ``<!-- example: shape only -->`` (a search that runs out of time) is checked for
its status and its shape only (its fields' names, at every depth). A streamed search is compared event by
event, each as any other answer."""
import json

import pytest
import requests

from tests.service.readme_examples import README, exact, examples, fences, parse_events, same, shape
from tests.service.server import gunicorn

EXAMPLES = examples()


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    with gunicorn(tmp_path_factory.mktemp("readme")) as (url, _):
        yield url


def test_every_code_fence_is_closed_and_the_examples_are_found():
    blocks = fences(README.read_text())
    assert blocks and all(info in ("sh", "console", "text", "python") for info, *_ in blocks)
    assert len(EXAMPLES) >= 40
    assert {e.path for e in EXAMPLES} >= {"/v1/search", "/v1/search/stream", "/v1/games/tictactoe"}


def test_the_introduction_names_every_game(base):
    games = [g["id"] for g in requests.get(f"{base}/v1/games", timeout=10).json()["games"]]
    intro = " ".join(README.read_text().split("\n## ", 1)[0].split())
    words = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
             10: "ten", 11: "eleven", 12: "twelve"}
    assert f"knows {words[len(games)]} games" in intro
    for game in games:
        assert f"`{game}`" in intro, game


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.id for e in EXAMPLES])
def test_example(base, example):
    headers = {"Content-Type": "application/json"} if example.body is not None else {}
    response = requests.request(example.method, base + example.path, data=example.body, headers=headers,
                                timeout=60)
    if example.answer is None:  # a command shown without its answer: it must succeed
        assert response.status_code == 200, response.text
        return
    if example.stream:
        assert response.status_code == 200 and response.headers["Content-Type"].startswith("text/event-stream")
        actual, expected = ([list(event) for event in parse_events(text)] for text in (response.text, example.answer))
    else:
        expected = json.loads(example.answer)
        expected_status = expected.get("status", 200) if "title" in expected else 200
        assert response.status_code == expected_status, response.text
        actual = response.json()
    if example.shape_only:
        assert shape(actual) == shape(expected), response.text
    else:
        assert same(exact(actual), exact(expected)), response.text


def test_the_python_examples_run(base, monkeypatch):
    """The README's Python blocks (the client), run against the server: the first as a notebook would, the
    second's test functions as pytest would, with TACTICIAN_URL set."""
    blocks = [lines for info, _, lines, *_ in fences(README.read_text()) if info == "python"]
    assert len(blocks) == 2
    notebook = "\n".join(blocks[0]).replace('"http://localhost:8000"', repr(base))
    assert repr(base) in notebook
    exec(compile(notebook, "README.md", "exec"), {})
    monkeypatch.setenv("TACTICIAN_URL", base)
    namespace = {}
    exec(compile("\n".join(blocks[1]), "README.md", "exec"), namespace)
    tests = [f for name, f in namespace.items() if name.startswith("test_")]
    assert tests
    for test in tests:
        test()
