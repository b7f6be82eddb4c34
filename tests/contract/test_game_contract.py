"""The contract every registered game keeps, in the spirit of OpenSpiel's api_test: random playouts from
the initial state and from the game's sample states check the rules against the game's own declarations
(its ``GameType``) and capabilities. A game is covered by being registered."""
import copy
import math
import random

import pytest

import engine.api
from engine.game import (ASPIRATION, CAPABILITIES, CHANCE, ENDGAME_SOLVER, EVALUATION, EXCHANGE, EXTENSIONS, FUTILITY,
                         IMMEDIATE_WIN, MOVE_ORDERING, NULL_MOVE, OUTCOME_BOUNDS, QUIESCENCE, REPETITION,
                         SAFE_CHILDREN, THREATS, Game)
from engine.registry import GAME_MODULES, NO_CHANCE, game_type
from engine.search.endgame import EndgameSolver
from engine.search.mcts import PlayoutGame
from engine.search.negamax import Exchange, Extensions, Futility, NullMove, Quiescence, Repetition
from engine.search.pvs import Aspiration, ThreatSpace
from engine.search.solver import ImmediateWin, OutcomeBounds, SafeChildren

# The hooks a game adds for one search: the protocol that states each one's contract, in that search's module.
HOOKS = {IMMEDIATE_WIN: ImmediateWin, SAFE_CHILDREN: SafeChildren, OUTCOME_BOUNDS: OutcomeBounds,
         QUIESCENCE: Quiescence, EXTENSIONS: Extensions, NULL_MOVE: NullMove, REPETITION: Repetition,
         ASPIRATION: Aspiration, THREATS: ThreatSpace, ENDGAME_SOLVER: EndgameSolver, EXCHANGE: Exchange,
         FUTILITY: Futility}

PLAYOUTS = 3          # per starting state
MAX_PLIES = 120       # a playout stops here if the game has not ended
TOLERANCE = 1e-9


def starts(game_id):
    declared = game_type(game_id)
    return [declared.initial_state, *declared.sample_states]


def walks(game_id, seed=0):
    """Every ``(game, path)`` of the random playouts: ``path`` is the list of states from a start."""
    rng = random.Random(seed)
    for start in starts(game_id):
        game, state = engine.api.load(game_id, start)
        for _ in range(PLAYOUTS):
            path = [state]
            s = state
            while not game.is_terminal(s) and len(path) <= MAX_PLIES:
                if game.to_move(s) == CHANCE:
                    outcomes, weights = zip(*game.chance_outcomes(s))
                    move = rng.choices(outcomes, weights)[0]
                else:
                    move = rng.choice(game.actions(s))
                s = game.result(s, move)
                path.append(s)
            yield game, path


@pytest.fixture(scope="module", params=list(GAME_MODULES))
def played(request):
    game_id = request.param
    return game_id, list(walks(game_id))


def states(played_walks):
    for game, path in played_walks:
        for s in path:
            yield game, s


def test_the_declared_type_is_the_games(played):
    game_id, runs = played
    declared = game_type(game_id)
    assert declared.id == game_id
    for game, _ in runs:
        assert game.game_type is declared and game.id == game_id
        assert declared.min_players <= game.n_players <= (declared.max_players or math.inf)
        assert game.capabilities <= CAPABILITIES
        if declared.chance == NO_CHANCE:
            assert not game.has_chance
        assert game.outcome_game == declared.outcomes
        if declared.utility_bounds is not None:
            assert tuple(game.utility_bounds) == tuple(declared.utility_bounds)


def test_every_capability_is_a_game_method_or_a_searchs_hook():
    """``Game`` has a default for each of its own capabilities and none of the hooks, which their
    protocols describe (each names its capability's method)."""
    hooks = set(HOOKS)
    assert hooks <= CAPABILITIES
    assert {c for c in CAPABILITIES if hasattr(Game, c)} == CAPABILITIES - hooks
    for capability, hook in HOOKS.items():
        assert not hasattr(Game, capability) and hasattr(hook, capability), capability
        assert not isinstance(Game(), hook), capability


def test_listed_capabilities_are_implemented(played):
    """A capability the game lists has its own method (the default is the one for games without it), and
    a hook the methods of its protocol."""
    for game, _ in played[1]:
        for capability in game.capabilities:
            if capability in HOOKS:
                assert isinstance(game, HOOKS[capability]), capability
            else:
                assert getattr(type(game), capability) is not getattr(Game, capability), capability


def test_states_are_never_changed_in_place(played):
    for game, path in played[1]:
        for s in path[:-1]:
            before, before_json = copy.deepcopy(s), game.state_to_json(s)
            if game.to_move(s) == CHANCE:
                moves = [outcome for outcome, _ in game.chance_outcomes(s)]
            else:
                moves = game.actions(s)
            for move in moves:
                game.result(s, move)
            assert s == before and game.state_to_json(s) == before_json


def test_chance_probabilities_sum_to_one(played):
    for game, s in states(played[1]):
        if not game.is_terminal(s) and game.to_move(s) == CHANCE:
            outcomes = game.chance_outcomes(s)
            assert outcomes and all(0 < p <= 1 for _, p in outcomes)
            assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9)


def test_utilities_and_evaluations_stay_within_the_declared_bounds(played):
    game_id, runs = played
    declared = game_type(game_id)
    for game, s in states(runs):
        bounds = game.utility_bounds
        values = list(game.utilities(s)) if game.is_terminal(s) else []
        if EVALUATION in game.capabilities and game.to_move(s) != CHANCE or game.is_terminal(s):
            values += list(game.evaluations(s))
        assert all(math.isfinite(v) for v in values)
        if bounds is not None:
            lo, hi = bounds
            if game.zero_sum and game.n_players == 2:
                lo, hi = min(lo, -hi), max(hi, -lo)
            assert all(lo - TOLERANCE <= v <= hi + TOLERANCE for v in values), (values, bounds)
        if game.is_terminal(s):
            u = game.utilities(s)
            if declared.outcomes:
                assert set(u) <= {-1, 0, 1}
            if game.zero_sum and game.n_players == 2:
                assert math.isclose(u[0], -u[1], abs_tol=TOLERANCE)


def test_ordered_moves_are_a_permutation_of_the_legal_moves(played):
    for game, s in states(played[1]):
        if not game.is_terminal(s) and game.to_move(s) != CHANCE:
            legal = game.actions(s)
            assert len(set(map(repr, legal))) == len(legal)
            if MOVE_ORDERING in game.capabilities:
                assert sorted(map(repr, game.ordered_actions(s))) == sorted(map(repr, legal))


def test_threat_tests_agree_with_the_rules(played):
    for game, s in states(played[1]):
        if game.is_terminal(s) or game.to_move(s) == CHANCE:
            continue
        mover = game.to_move(s)
        winning = [a for a in game.actions(s)
                   if game.is_terminal(game.result(s, a)) and game.utility(game.result(s, a), mover) > 0]
        if IMMEDIATE_WIN in game.capabilities:
            win = game.immediate_win(s)
            assert (win is None) == (not winning) and (win is None or win in winning)
        if SAFE_CHILDREN in game.capabilities and not winning:
            safe = {a: child for _, a, child in game.safe_children(s)}
            assert game.has_safe_move(s) == bool(safe)
            for a in game.actions(s):
                child = game.result(s, a)
                if a in safe:
                    assert safe[a] == child
                if not game.is_terminal(child):
                    loses = any(game.is_terminal(game.result(child, b))
                                and game.utility(game.result(child, b), mover) < 0 for b in game.actions(child))
                    assert (a in safe) == (not loses)


def test_a_games_own_playout_agrees_with_playing_move_by_move(played):
    for game, path in played[1]:
        if not isinstance(game, PlayoutGame):
            continue
        start = path[0]
        stream = random.Random(7)
        quick = game.random_playout(start, stream.random)
        stream = random.Random(7)
        s, plies = start, 0
        while not game.is_terminal(s):
            moves = game.actions(s)
            s = game.result(s, moves[int(stream.random() * len(moves))])
            plies += 1
        assert quick == (game.utilities(s), plies)


def test_every_state_and_move_round_trips_through_json(played):
    game_id, runs = played
    for game, s in states(runs):
        again_game, again = engine.api.load(game_id, game.state_to_json(s))
        assert again_game.state_to_json(again) == game.state_to_json(s)
        if not game.is_terminal(s) and game.to_move(s) != CHANCE:
            for move in game.actions(s):
                assert game.move_from_json(game.move_to_json(move), s) == move


def test_keys_are_equal_exactly_when_states_are(played):
    """Within one game, equal keys mean equal states and one state has one key; where the game declares
    that a key fixes the ply, a key comes at one distance from a starting state only."""
    game_id, runs = played
    declared = game_type(game_id)
    state_of, key_of, ply_of = {}, {}, {}
    for game, path in runs:
        for ply, s in enumerate(path):
            key = game.key(s)
            assert state_of.setdefault((id(game), key), s) == s, "two states share a key"
            assert key_of.setdefault((id(game), s), key) == key, "one state has two keys"
            if declared.key_fixes_ply:
                assert ply_of.setdefault((id(game), path[0], key), ply) == ply, "a key came at two plies"


def test_turns_and_lengths_follow_the_declarations(played):
    game_id, runs = played
    declared = game_type(game_id)
    for game, path in runs:
        movers = [game.to_move(s) for s in path if not game.is_terminal(s)]
        if declared.alternating:
            assert all(a != b and CHANCE not in (a, b) for a, b in zip(movers, movers[1:]))
        if declared.max_length is not None:
            assert len(path) - 1 <= declared.max_length
        bound = game.plies_bound(path[0])
        if bound is not None and game.is_terminal(path[-1]):
            assert len(path) - 1 <= bound
