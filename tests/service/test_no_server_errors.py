"""No input, however malformed, produces a 5xx: near-miss states for every game (the inputs most likely
to slip past shape checks into the engine), with every algorithm and random settings."""
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.service.support import ValidatingClient, make_app

APP = make_app(DEFAULT_TIME_LIMIT_MS=30, MAX_TIME_LIMIT_MS=50, MAX_TREE_NODES=500, MAX_TREE_DEPTH=50)
CLIENT = ValidatingClient(APP)  # and every answer must match the spec

numbers = st.one_of(st.integers(-5, 70000), st.floats(allow_nan=False, allow_infinity=False), st.booleans(),
                    st.sampled_from([10**400, -10**400, 2**64, 1.7e308, -1.7e308]),
                    st.none(), st.text(max_size=3))
rows = st.text(alphabet="XO.xo 1", max_size=9)
tictactoe = st.fixed_dictionaries({"board": st.lists(rows, max_size=9)},
                                  optional={"k": numbers, "extra": numbers})
connect4 = st.one_of(st.fixed_dictionaries({"moves": st.text(alphabet="0123456789 x", max_size=45)}),
                     st.fixed_dictionaries({"board": st.lists(st.text(alphabet="XO.", max_size=8), max_size=8)}))
twenty48 = st.fixed_dictionaries(
    {"board": st.lists(st.lists(st.sampled_from([0, 2, 4, 8, 2048, 32768, 65536, 3, -2, 2.0, True, "2"]),
                                max_size=5), max_size=5)},
    optional={"to_move": st.sampled_from(["player", "chance", "nobody", 1])})
leaf = st.fixed_dictionaries({"value": st.one_of(numbers, st.lists(numbers, max_size=4))},
                             optional={"id": st.one_of(st.text(max_size=2), st.integers(0, 3)), "p": numbers,
                                       "move": st.one_of(st.text(max_size=2), st.integers(0, 3), st.booleans())})
node = st.recursive(leaf, lambda kids: st.fixed_dictionaries(
    {"children": st.lists(kids, max_size=4)},
    optional={"type": st.sampled_from(["max", "min", "chance", "avg"]), "player": numbers, "eval": numbers,
              "id": st.text(max_size=2), "p": numbers}), max_leaves=12)
tree = st.fixed_dictionaries({"root": node})
algorithm = st.fixed_dictionaries(
    {"name": st.sampled_from(["minimax", "alphabeta", "expectimax", "maxn", "mcts"])},
    optional={"depth": st.integers(1, 6), "move_ordering": st.booleans(), "transposition_table": st.booleans(),
              "opponent_model": st.sampled_from(["uniform", "epsilon_greedy"]),
              "epsilon": st.floats(0, 1), "pruning": st.booleans(), "iterations": st.integers(1, 50),
              "exploration": st.floats(0, 100), "seed": st.integers(0, 2**64 - 1),
              "rollout": st.sampled_from(["random", "heuristic"]),
              "tile_probabilities": st.dictionaries(st.sampled_from(["2", "4", "8", "3", "65536"]),
                                                    st.floats(0, 1), min_size=1, max_size=3)})
games = st.one_of(st.tuples(st.just("tictactoe"), tictactoe), st.tuples(st.just("connect4"), connect4),
                  st.tuples(st.just("2048"), twenty48), st.tuples(st.just("tree"), tree))
moves = st.one_of(st.integers(-1, 50), st.sampled_from(["up", "left", "x", ""]),
                  st.fixed_dictionaries({"cell": st.lists(st.integers(0, 4), min_size=2, max_size=2),
                                         "tile": st.sampled_from([2, 4, 8])}))

FAST = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def assert_no_server_error(response):
    assert response.status_code < 500, response.get_data(as_text=True)
    assert response.status_code in (200, 422), response.get_data(as_text=True)


@FAST
@given(games, algorithm, st.booleans())
def test_searches_never_fail_on_the_server(game_state, algorithm, trace):
    game, state = game_state
    assert_no_server_error(CLIENT.post("/v1/search", json={"game": game, "state": state, "algorithm": algorithm,
                                                           "trace": trace}))


@FAST
@given(games, moves)
def test_the_rules_never_fail_on_the_server(game_state, move):
    game, state = game_state
    assert_no_server_error(CLIENT.post(f"/v1/games/{game}/legal-moves", json={"state": state}))
    assert_no_server_error(CLIENT.post(f"/v1/games/{game}/apply", json={"state": state, "move": move}))
