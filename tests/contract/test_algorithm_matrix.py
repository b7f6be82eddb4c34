"""Every algorithm on every registered game it fits, on every core that runs it, with small limits: each run
returns a legal move within its deadline, with finite values and consistent statistics. A game is covered
by being registered; an algorithm by being in the algorithm registry; a core by the game's ``cores``."""
import math

import pytest

import engine.api
from engine.errors import AlgorithmMismatch
from engine.registry import GAME_MODULES, OPTIONAL_CHANCE, game_type
from engine.search import ALGORITHM_MODULES, algorithm_module, fitting_algorithms
from engine.search.native import NATIVE, game_cores, native_algorithms

TIME_LIMIT_MS = 60
SLACK_MS = 25       # the service's promise: an answer within the limit plus this

engine.api.preload()  # as a server does at start-up: no search pays for importing its module


def cases():
    for game_id in GAME_MODULES:
        declared = game_type(game_id)
        for name in ALGORITHM_MODULES:
            for core in game_cores(declared):
                if core == NATIVE and name not in native_algorithms(declared) | {"auto"}:
                    continue
                for index, start in enumerate([declared.initial_state, *declared.sample_states]):
                    yield pytest.param(game_id, name, start, core, id=f"{game_id}-{name}-{core}-{index}")


@pytest.mark.parametrize("game_id, name, start, core", list(cases()))
def test_every_fitting_algorithm_answers_a_legal_move_in_time(game_id, name, start, core):
    declared = game_type(game_id)
    algorithm = {"name": name, "core": core}
    if name not in fitting_algorithms(declared):
        with pytest.raises(AlgorithmMismatch):
            engine.api.search(game_id, start, algorithm, time_limit_ms=TIME_LIMIT_MS)
        return
    game, state = engine.api.load(game_id, start)
    if game.to_move(state) < 0:
        return                              # at a chance node nobody chooses: every search refuses it
    legal = [game.move_to_json(m) for m in game.actions(state)]
    try:
        result = engine.api.search(game_id, start, algorithm, time_limit_ms=TIME_LIMIT_MS)
    except AlgorithmMismatch as mismatch:
        if list(mismatch.errors) == ["algorithm.core"]:   # a search the compiled core does not cover
            assert core == NATIVE and "not native yet" in mismatch.errors["algorithm.core"][0]
            return
        assert list(mismatch.errors) == ["algorithm.name"]  # this instance is narrower than its type
        assert declared.chance == OPTIONAL_CHANCE or declared.general_sum_instances
        return
    stats = result.stats
    assert result.move in legal
    assert stats.time_ms <= TIME_LIMIT_MS + SLACK_MS
    if result.value is None:            # no root move valued in time: no value, rather than a made-up one
        assert stats.depth_completed == 0 and stats.stop_reason in ("time_limit", "forced")
    else:
        assert math.isfinite(result.value)
    assert all(math.isfinite(m.value) for m in result.moves)
    assert all(m.move in legal for m in result.moves)
    assert stats.nodes >= 1 and stats.leaves <= stats.nodes and stats.cutoffs <= stats.nodes
    assert stats.timed_out == (stats.stop_reason == "time_limit")
    assert result.pv and result.pv[0] == result.move
    assert result.plies_to_end is None or result.outcome is not None
    assert stats.core == core


@pytest.mark.parametrize("name", list(ALGORITHM_MODULES))
def test_a_misspelt_setting_is_an_error_on_every_path(name):
    """Through the front door and by direct construction of the settings alike."""
    with pytest.raises(AlgorithmMismatch) as raised:
        engine.api.search("tictactoe", {"board": ["...", "...", "..."]}, {"name": name, "dpeth": 3},
                          time_limit_ms=50)
    assert "algorithm.dpeth" in raised.value.errors
    with pytest.raises(TypeError):
        algorithm_module(name).Settings(dpeth=3)


@pytest.fixture(scope="module", autouse=True)
def preloaded():
    """Every module imported first, as the service does at start-up: a first search's imports count
    against its time limit, and these tests time the searches."""
    engine.api.preload()


def multi_pv_cases():
    for game_id in GAME_MODULES:
        declared = game_type(game_id)
        for name in ALGORITHM_MODULES:
            if "multi_pv" in algorithm_module(name).Settings.names() and name in fitting_algorithms(declared):
                for index, start in enumerate([declared.initial_state, *declared.sample_states]):
                    yield pytest.param(game_id, name, start, id=f"{game_id}-{name}-{index}")


@pytest.mark.parametrize("game_id, name, start", list(multi_pv_cases()))
def test_multi_pv_lists_up_to_three_best_legal_lines_in_time(game_id, name, start):
    """multi_pv 3 on every game each algorithm that takes it fits: at most three lines (one at least; once a
    pass has finished, three, or as many root moves as the search kept and valued), of
    distinct legal root moves, the chosen move first, finite values, each line starting with its move,
    on one of the game's cores, in time."""
    declared = game_type(game_id)
    game, state = engine.api.load(game_id, start)
    if game.to_move(state) < 0:
        return
    legal = [game.move_to_json(m) for m in game.actions(state)]
    try:
        result = engine.api.search(game_id, start, {"name": name, "multi_pv": 3}, time_limit_ms=TIME_LIMIT_MS)
    except AlgorithmMismatch as mismatch:
        assert list(mismatch.errors) == ["algorithm.name"]  # this instance is narrower than its type
        return
    lines = result.lines
    assert 1 <= len(lines) <= min(3, len(legal))
    if result.stats.depth_completed >= 1:  # a finished pass lists three, or every root move it kept
        assert len(lines) == min(3, len([mv for mv in result.moves if mv.bound in ("exact", "estimate")]))
    assert lines[0].move == result.move and len({line.move for line in lines}) == len(lines)
    assert all(line.move in legal and line.pv[0] == line.move and math.isfinite(line.value) for line in lines)
    assert all(line.bound in ("exact", "estimate") for line in lines)
    assert all(line.plies_to_end is None or line.outcome is not None for line in lines)
    assert result.stats.time_ms <= TIME_LIMIT_MS + SLACK_MS
    assert result.stats.core in game_cores(declared)
