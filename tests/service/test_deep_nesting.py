"""Issue 50, item 1: a state nested deeper than the service reads is a short 4xx at any nesting the body
limit admits, never a 500 (pickling a tree of 5,000 levels for a search process overran Python's recursion
limit), and an over-deep tree is named ``state.root``, with its depth and the limit (not its deepest node's
path, ``.children[0]`` written out a thousand times)."""
import json

import pytest

from engine.limits import LARGEST_TREE_DEPTH
from tests.service.support import TEST_SETTINGS, ValidatingClient, make_app

LIMIT = TEST_SETTINGS["MAX_TREE_DEPTH"]
BODY_LIMIT = TEST_SETTINGS["MAX_CONTENT_LENGTH"]
OPEN, CLOSE = '{"type":"max","children":[', ']}'
SHORT = 1024  # bytes: an error that names a field and two numbers


def chain(plies: int) -> str:
    """A tree state ``plies`` deep, as JSON text: a max node above each level, a leaf at the bottom."""
    return '{"root":' + OPEN * plies + '{"value":1}' + CLOSE * plies + "}"


def post(client, path: str, text: str):
    return client.post(path, data=text, content_type="application/json")


def search_body(state: str, core: str | None = None) -> str:
    """A search of ``state`` with a limit that reading the body cannot use up: in a long test session a full
    collection of the test process's heap can take 500 ms, and a limit spent before the state is read is
    answered with the root's first move, as it should be, not with the 422 this file is about."""
    algorithm = {"name": "minimax"} if core is None else {"name": "minimax", "core": core}
    return '{"game":"tree","algorithm":%s,"time_limit_ms":10000,"state":%s}' % (json.dumps(algorithm), state)


def assert_too_deep(response, plies: int, field: str = "state.root") -> None:
    assert response.status_code == 422, response.data[:300]
    assert len(response.data) < SHORT
    (message,) = response.get_json()["errors"][field]
    assert f"{plies} plies deep" in message and str(LIMIT) in message


# 1,001: just past the limit; 5,000 and 8,000 went to a search process and answered 500; 9,900: about
# the deepest tree the JSON decoder reads (two levels a ply, under Python's recursion limit of 20,000).
@pytest.mark.parametrize("plies", [LIMIT + 1, 5_000, 8_000, 9_900])
@pytest.mark.parametrize("core", [None, "python", "native"])
def test_an_over_deep_tree_is_a_short_422_on_state_root(client, plies, core):
    assert_too_deep(post(client, "/v1/search", search_body(chain(plies), core)), plies)


@pytest.mark.parametrize("plies", [LIMIT + 1, 5_000, 9_900])
def test_every_route_names_state_root(client, plies):
    state = chain(plies)
    assert_too_deep(post(client, "/v1/games/tree/legal-moves", '{"state":%s}' % state), plies)
    assert_too_deep(post(client, "/v1/games/tree/apply", '{"state":%s,"move":0}' % state), plies)
    stream = post(client, "/v1/search/stream", search_body(state))
    assert_too_deep(stream, plies)
    batch = post(client, "/v1/search/batch", '{"searches":[%s]}' % search_body(state))
    assert_too_deep(batch, plies, "searches[0].state.root")


def test_a_tree_at_the_limit_is_searched(client):
    response = post(client, "/v1/search", search_body(chain(LIMIT), "python"))
    assert response.status_code == 200 and response.get_json()["value"] == 1


@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta", "mcts"])
def test_a_tree_at_the_largest_depth_setting_is_searched_in_a_search_process(algorithm):
    """MAX_TREE_DEPTH at its largest: the tree is sent to a search process and searched on the Python core."""
    client = ValidatingClient(make_app(MAX_TREE_DEPTH=LARGEST_TREE_DEPTH))
    text = search_body(chain(LARGEST_TREE_DEPTH), "python").replace('"minimax"', f'"{algorithm}"')
    response = post(client, "/v1/search", text)
    assert response.status_code == 200 and response.get_json()["stats"]["core"] == "python"


@pytest.mark.parametrize("opening, closing", [(OPEN, CLOSE), ("[", "]"), ('{"a":', "}")])
def test_the_deepest_body_the_limit_admits_is_a_400(client, opening, closing):
    """Nesting beyond the decoder's reach, as deep as the body limit allows: the decoder's own recursion
    is a short 400 (bad-json)."""
    head, tail = '{"game":"tree","algorithm":{"name":"minimax"},"state":{"root":', "}}"
    levels = (BODY_LIMIT - len(head) - len(tail) - 16) // (len(opening) + len(closing))
    text = head + opening * levels + "1" + closing * levels + tail
    assert len(text) < BODY_LIMIT
    response = post(client, "/v1/search", text)
    assert response.status_code == 400 and len(response.data) < SHORT
    assert response.get_json()["type"].endswith("/bad-json")


@pytest.mark.parametrize("game, state", [
    ("tictactoe", '{"board":%s}'), ("connect4", '{"board":%s}'), ("chess", '{"fen":%s}'),
    ("othello", '{"board":%s}'), ("pacman", '{"layout":%s}'), ("2048", '{"board":%s}'),
])
def test_deep_junk_in_any_game_state_is_a_short_4xx(client, game, state):
    """A big body nested 6,000 levels in another game's state is read in the worker, where the game refuses
    it: it is never sent to a search process to fail there."""
    junk = "[" * 6_000 + '"%s"' % ("x" * 40_000) + "]" * 6_000  # over INLINE_BYTES: a big body
    text = '{"game":"%s","algorithm":{"name":"mcts","core":"python"},"state":%s}' % (game, state % junk)
    for path in ("/v1/search", "/v1/search/stream"):
        response = post(client, path, text)
        assert 400 <= response.status_code < 500 and len(response.data) < 4 * SHORT, response.data[:300]


DEEP_OBJECT = '{"a":' * 6_000 + '"%s"' % ("x" * 40_000) + "}" * 6_000  # a big body, nested 6,000 deep
BOARD = '{"board":["...","...","..."]}'


@pytest.mark.parametrize("path, text", [
    ("/v1/search", '{"game":"tictactoe","state":%s,"algorithm":{"name":"minimax","depth":%s}}' % (BOARD, DEEP_OBJECT)),
    ("/v1/search", '{"game":"tictactoe","state":%s,"algorithm":{"name":"minimax"},"options":%s}' % (BOARD, DEEP_OBJECT)),
    ("/v1/games/tictactoe/apply", '{"state":%s,"move":%s}' % (BOARD, DEEP_OBJECT)),
    ("/v1/review", '{"game":"tictactoe","state":%s,"moves":[%s],"algorithm":{"name":"minimax"}}' % (BOARD, DEEP_OBJECT)),
    ("/v1/search/batch", '{"searches":[{"game":"tree","state":%s,"algorithm":{"name":"minimax"}}]}' % DEEP_OBJECT),
])
def test_deep_junk_in_any_field_is_a_short_422(client, path, text):
    response = post(client, path, text)
    assert response.status_code == 422 and len(response.data) < SHORT, response.data[:300]
