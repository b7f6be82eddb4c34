"""``auto``: the strongest configuration the engine knows for the game, and difficulty levels 1 to 10.

The configuration is data. A game may declare the algorithm object (name and settings) that plays it
best, measured with ``python -m bench.strength``, as ``GameType.auto_algorithm``; a game that declares
nothing gets one derived from what the loaded game is (:func:`derived`): alpha-beta for two zero-sum
sides without chance when the game can evaluate a position or is short, expectimax for one player or two
zero-sum sides with chance when it can evaluate, max^n for more players likewise, else Monte Carlo tree
search, which needs only the rules. Each algorithm evaluates with the game's own evaluation.

Levels (:data:`LEVELS`): 10 is full strength, the configuration with the whole time. A lower level is
weaker by design, along two axes that both shrink as the level rises: it searches with a share of the time
and, from level 8 down, to a capped depth (in the game's depth steps, :func:`depth_cap`: a ply, or in
backgammon a move and the roll) or a capped number of MCTS iterations; and with the level's
``mistake`` probability it plays, instead of the search's move, a mistake: one drawn uniformly from the
worse half of the other legal moves, as a one-ply look (the game's evaluation of the position each move
leaves) ranks them, or from all of them when the game cannot evaluate. A mistake that matters: a uniformly
random move is often as good as the best in a quiet position, so in a short, drawish game (5 x 5, k = 4)
a low mistake rate hardly changed the result and the levels bunched together. A mistake rather than noise
on the root values or the second-best move: an alpha-beta search proves only its best move's value, the
other root moves get bounds (a null-window search stops as soon as a move is shown no better), so ranking
them by those numbers is arbitrary (a lost move bounded "at most a draw" ties with the drawing move). The
mistake probability's log-odds, log(p / (1 - p)), fall by 0.3 to 0.9 a level from level 2 on (level 1
always errs): near the top the level that
errs less often wins about in the ratio of the two probabilities, near the bottom in the ratio of the good
moves, and the log-odds measure both; the steps are largest where the depth and time ladder adds least
(levels 2 and 3 share depth 1, and above depth 4 a deeper search hardly helps in a small game). The draws come from a generator seeded by ``seed`` and the
position, so the same seed, position and search answer the same move; without a seed each search draws
afresh.
"""
from dataclasses import dataclass, fields
import json
import random
import zlib

from engine.deadline import Deadline
from engine.errors import AlgorithmMismatch
from engine.game import EVALUATION
from engine.limits import Limits
from engine.search import algorithm_module, native
from engine.search.common import RootMoves
from engine.search.mcts import MAX_SEED
from engine.search.settings import INTEGER, AlgorithmSettings, setting

NAME = "auto"
SHORT_GAME_PLIES = 20   # without an evaluation, alpha-beta or max^n still fit a game this short


@dataclass(frozen=True)
class Level:
    """A difficulty level: ``time_share`` of the time limit; ``depth`` (in the game's depth steps,
    :func:`depth_cap`) and ``iterations`` caps, each applied when the chosen algorithm takes it (None:
    none); ``mistake``, the probability of playing a mistake (:func:`play_level`) instead of the search's
    choice."""

    time_share: float
    depth: int | None
    iterations: int | None
    mistake: float


LEVELS = {
    1: Level(0.05, 1, 20, 1.0),
    2: Level(0.10, 1, 50, 0.80),
    3: Level(0.15, 1, 100, 0.62),
    4: Level(0.20, 2, 200, 0.52),
    5: Level(0.25, 3, 400, 0.38),
    6: Level(0.35, 4, 800, 0.32),
    7: Level(0.50, 6, 1600, 0.22),
    8: Level(0.65, 8, 3200, 0.14),
    9: Level(0.80, None, None, 0.08),
    10: Level(1.0, None, None, 0.0),
}
FULL_STRENGTH = 10


@dataclass(frozen=True)
class Settings(AlgorithmSettings):
    """``level``: 1 (weakest) to 10 (full strength); ``seed``: makes a level's noise and choices repeatable."""

    level: int = setting(FULL_STRENGTH, INTEGER, minimum=min(LEVELS), maximum=max(LEVELS))
    seed: int | None = setting(None, INTEGER, minimum=0, maximum=MAX_SEED)


def requires(game_type) -> str | None:
    """auto picks an algorithm that fits the loaded game; MCTS fits every game, so auto does too."""
    return None


def derived(game, state) -> dict:
    """The algorithm object for a game that declares none, from what the loaded game is."""
    evaluates = EVALUATION in game.capabilities
    bound = game.plies_bound(state)
    short = bound is not None and bound <= SHORT_GAME_PLIES
    one_number = game.n_players == 1 or (game.n_players == 2 and game.zero_sum)
    if not (evaluates or short):
        return {"name": "mcts"}
    if game.has_chance:
        return {"name": "expectimax"} if one_number else {"name": "maxn"}
    if game.n_players == 2 and game.zero_sum:
        return {"name": "alphabeta"}
    return {"name": "maxn"} if not one_number else {"name": "mcts"}


def configuration(game, state) -> dict:
    """The full-strength algorithm object: the game's declaration, else :func:`derived`."""
    declared = game.game_type.auto_algorithm if game.game_type is not None else None
    return dict(declared) if declared else derived(game, state)


def chosen(game, state) -> tuple:
    """``(module, algorithm object)`` of the full-strength configuration that fits the game (MCTS when the
    declared one does not)."""
    algorithm = configuration(game, state)
    module = algorithm_module(algorithm["name"])
    if game.game_type is not None and module.requires(game.game_type) is not None:
        algorithm = {"name": "mcts"}
        module = algorithm_module("mcts")
    return module, algorithm


def depth_cap(game, level: Level) -> int | None:
    """The level's depth cap in plies: ``level.depth`` steps of the game's ``depth_step``, the first a
    single ply (backgammon's step of 2: caps 1, 2, 3 are 1, 3, 5 plies, each ending on a decision)."""
    if level.depth is None:
        return None
    step = game.game_type.depth_step if game.game_type is not None else 1
    return 1 + step * (level.depth - 1)


def search(game, state, settings: Settings = Settings(), *, deadline: Deadline, trace: bool = False,
           limits: Limits = Limits(), core: str | None = None, root_moves: RootMoves = None):
    """Run the configuration at the level's handicap, on ``core`` (:mod:`engine.search.native`), then let
    the level choose among the root moves (those of ``root_moves`` alone, where given: engine.root).
    The result is the chosen algorithm's, with ``auto`` saying what ran (``{"chosen": algorithm object
    with its time limit, "handicap": the level}``); when the level plays another move than the search's
    best, the principal variation and any proof belonged to that best move and are dropped."""
    if deadline.end is None:
        raise AlgorithmMismatch("auto plays within a time limit: give time_limit_ms", field="time_limit_ms")
    level = LEVELS[settings.level]
    module, algorithm = chosen(game, state)
    taken = {f.name for f in fields(module.Settings)}
    cap = depth_cap(game, level)
    if cap is not None and "depth" in taken:
        algorithm["depth"] = min(cap, algorithm.get("depth") or cap)
    if level.iterations is not None and "iterations" in taken:
        algorithm["iterations"] = min(level.iterations, algorithm.get("iterations") or level.iterations)
    if settings.seed is not None and "seed" in taken:
        algorithm["seed"] = settings.seed
    budget = deadline.share(level.time_share)
    remaining = budget.remaining()
    assert remaining is not None  # the deadline ends (checked above), and so does its share
    given_ms = round(1000.0 * remaining, 1)
    module_settings = module.Settings(**{k: v for k, v in algorithm.items() if k != "name"})
    result = native.run(module, game, state, module_settings, deadline=budget, trace=trace, limits=limits, core=core,
                        root_moves=root_moves)
    handicap = None
    if settings.level != FULL_STRENGTH:
        handicap = {"level": settings.level, "time_share": level.time_share, "mistake": level.mistake}
        play_level(game, state, result, level, generator(game, state, settings.seed))
    result.auto = {"chosen": {**algorithm, "time_limit_ms": given_ms},
                   "handicap": handicap}
    result.stats.finish(deadline.elapsed())
    return result


def generator(game, state, seed) -> random.Random:
    """The level's random stream: from ``seed`` and the position (JSON, so stable across processes)."""
    if seed is None:
        return random.Random()
    position = json.dumps(game.state_to_json(state), sort_keys=True).encode()
    return random.Random(seed * 4_294_967_311 + zlib.crc32(position))


def play_level(game, state, result, level: Level, rng: random.Random) -> None:
    """With probability ``level.mistake``, replace the search's move by one drawn uniformly from
    :func:`worse_half` of the other legal moves the search valued; never when the search's move wins at
    once (:func:`wins_at_once`). The answer is then the played move's: its value and ``bound`` those the
    search listed for it (a bound, for most moves of an alpha-beta search, which says so), and the
    principal variation and any proof, which belonged to the search's move, are dropped. When the search
    valued no other move, its move stands."""
    if rng.random() >= level.mistake or wins_at_once(game, state, result.move):
        return
    listed = [mv for mv in result.moves if mv.move != result.move]
    valued = [a for a in game.actions(state) if any(mv.move == a for mv in listed)]
    if not valued:
        return
    chosen = rng.choice(worse_half(game, state, valued))
    played = next(mv for mv in listed if mv.move == chosen)
    result.move, result.value, result.bound, result.pv = chosen, played.value, played.bound, [chosen]
    result.outcome = result.plies_to_end = None


def wins_at_once(game, state, move) -> bool:
    """Whether ``move`` ends a game of win, draw or loss outcomes with a win for the player who makes it
    (a level takes a win in one whenever its search finds it)."""
    child = game.result(state, move)
    return game.outcome_game and game.is_terminal(child) and game.utility(child, game.to_move(state)) > 0


def worse_half(game, state, moves: list) -> list:
    """The half of ``moves`` (rounded up) that a one-ply look ranks lowest for the player to move: the
    game's evaluation of the position each leaves (exact where it ends the game), ties in move order; all of
    ``moves`` when the game cannot evaluate."""
    if EVALUATION not in game.capabilities:
        return moves
    player = game.to_move(state)
    ranked = sorted(moves, key=lambda a: game.evaluate(game.result(state, a), player))
    return ranked[:(len(ranked) + 1) // 2]
