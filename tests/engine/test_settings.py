"""Each setting is declared once, on its Settings field (engine.search.settings.setting): the engine checks
it from that declaration, and engine.api.request_settings gives the service the same declaration as JSON
Schema."""
import math

import pytest

import engine.api
from engine.errors import AlgorithmMismatch
from engine.search import ALGORITHM_MODULES, algorithm_module
from engine.search.settings import BOOLEAN, INTEGER, NUMBER, STRING, UTILITY, Setting

SETTINGS = {name: algorithm_module(name).Settings for name in ALGORITHM_MODULES}
DECLARED = [(name, key, how, default) for name, cls in SETTINGS.items()
            for key, (how, default) in cls.declared().items()]


def refused(how: Setting) -> list:
    """Values a setting declared as ``how`` refuses."""
    wrong_type = {INTEGER: [1.5, "1", True], NUMBER: ["1", True, math.inf, math.nan], BOOLEAN: [1, "true"],
                  STRING: ["bogus", 1], UTILITY: ["quadratic", {"power": "x"}]}[how.type]
    bounds = []
    if how.minimum is not None:
        bounds.append(how.minimum - 1)
    if how.maximum is not None:
        bounds.append(how.maximum + 1)
    return wrong_type + bounds


def accepted(how: Setting) -> list:
    """Values a setting declared as ``how`` takes: its bounds, its choices (the engine's own too)."""
    if how.type == BOOLEAN:
        return [True, False]
    if how.type == STRING:
        return list(how.choices + how.engine_only)
    if how.type == UTILITY:
        return ["linear", {"power": 0.5}]
    return [v for v in (how.minimum, how.maximum) if v is not None] or [1]


@pytest.mark.parametrize("name, key, how, default", DECLARED, ids=[f"{n}.{k}" for n, k, _, _ in DECLARED])
def test_a_setting_is_checked_as_declared(name, key, how, default):
    settings = SETTINGS[name]
    for value in accepted(how):  # (alone: a value may break a rule between settings, strict_cutoffs true)
        how.check(value, key)
    for value in refused(how):
        with pytest.raises(AlgorithmMismatch) as error:
            settings(**{key: value})
        assert list(error.value.errors) == [f"algorithm.{key}"], (key, value)


def test_none_is_taken_where_it_is_the_default_alone():
    for name, key, how, default in DECLARED:
        if default is None:
            SETTINGS[name](**{key: None})
        else:
            with pytest.raises(AlgorithmMismatch):
                SETTINGS[name](**{key: None})


def test_the_engine_takes_an_opponent_model_that_a_request_may_not_send():
    expectimax = SETTINGS["expectimax"]
    assert expectimax(opponent_model="minimax").opponent_model == "minimax"
    assert engine.api.request_settings()["expectimax"]["opponent_model"]["enum"] == ["uniform", "epsilon_greedy"]


def test_the_request_settings_are_the_declarations_as_json_schema():
    every = {"core": {"type": "string", "enum": ["native", "python"]},
             "forced_move_search": {"type": "boolean", "default": False},
             "nodes": {"type": "integer", "minimum": 1, "maximum": 10_000_000_000}}
    declared = engine.api.request_settings()
    assert list(declared) == list(ALGORITHM_MODULES)
    assert declared["mcts"] == {"multi_pv": {"type": "integer", "minimum": 1, "maximum": 32, "default": 1},
                                "iterations": {"type": "integer", "minimum": 1, "maximum": 10**9},
                                "exploration": {"type": "number", "minimum": 0, "maximum": 100.0,
                                                "default": math.sqrt(2)},
                                "seed": {"type": "integer", "minimum": 0, "maximum": 2**64 - 1},
                                "rollout": {"type": "string", "enum": ["random", "heuristic"], "default": "random"},
                                **every}
    assert declared["expectimax"]["utility"] == {"$ref": "#/components/schemas/Utility"}
    for name, cls in SETTINGS.items():
        assert set(declared[name]) == set(cls.names()) | set(every)


def test_every_algorithm_s_settings_are_checked_too():
    for algorithm, field in (({"name": "mcts", "core": "gpu"}, "algorithm.core"),
                             ({"name": "mcts", "forced_move_search": "yes"}, "algorithm.forced_move_search")):
        with pytest.raises(AlgorithmMismatch) as error:
            engine.api.settings_for("tictactoe", algorithm)
        assert list(error.value.errors) == [field]
    assert engine.api.settings_for("tictactoe", {"name": "mcts", "core": "python"})[3] == "python"


def test_the_rules_between_settings_still_hold():
    with pytest.raises(AlgorithmMismatch) as error:
        SETTINGS["alphabeta"](depth=3, depth_rounds=1)
    assert list(error.value.errors) == ["algorithm.depth_rounds"]
    with pytest.raises(AlgorithmMismatch) as error:
        SETTINGS["alphabeta"](solve=True, depth=3)
    assert list(error.value.errors) == ["algorithm.solve"]
    with pytest.raises(AlgorithmMismatch) as error:
        SETTINGS["expectimax"](depth=2, depth_rounds=1)
    assert list(error.value.errors) == ["algorithm.depth_rounds"]


def test_echoed_defaults_are_those_declared_echoed():
    assert engine.api.echoed_defaults("alphabeta") == {"move_ordering": True, "transposition_table": True}
    assert engine.api.echoed_defaults("expectimax") == {"utility": "linear"}
    assert engine.api.echoed_defaults("mcts") == {}


def test_two_games_may_not_declare_one_option_unlike(monkeypatch):
    from engine.registry import GameOption
    ours = [type("T", (), {"id": game, "options": (GameOption("speed", {"type": kind}, ""),)})
            for game, kind in (("a", "integer"), ("b", "number"))]
    monkeypatch.setattr(engine.api, "game_types", lambda: ours)
    with pytest.raises(ValueError, match="speed"):
        engine.api.option_schemas()


def test_a_string_option_two_games_declare_takes_both_games_values(monkeypatch):
    """Pacman's and chess's ``evaluation``: one schema with every value and no default; an option of another
    kind declared with values of its own stays an error."""
    from engine.registry import GameOption
    schemas = ({"type": "string", "enum": ["a", "b"], "default": "a"}, {"type": "string", "enum": ["c", "b"],
                                                                          "default": "c"})
    ours = [type("T", (), {"id": game, "options": (GameOption("speed", schema, ""),)})
            for game, schema in zip("xy", schemas)]
    monkeypatch.setattr(engine.api, "game_types", lambda: ours)
    assert engine.api.option_schemas() == {"speed": {"type": "string", "enum": ["a", "b", "c"]}}
    ours[1].options = (GameOption("speed", {"type": "integer", "enum": [1]}, ""),)
    with pytest.raises(ValueError, match="speed"):
        engine.api.option_schemas()


def test_the_service_s_schemas_merge_the_algorithms_settings_as_the_games_options_are_merged():
    """One function merges both kinds of declaration (issue 50, item 20): the settings two algorithms
    share are declared alike, and one declared otherwise is an error naming it."""
    settings = engine.api.request_settings()
    assert engine.api.merged(settings.items(), "setting")["depth"] == settings["alphabeta"]["depth"]
    with pytest.raises(ValueError, match="b declares setting depth unlike another"):
        engine.api.merged([("a", {"depth": {"type": "integer"}}), ("b", {"depth": {"type": "number"}})], "setting")
