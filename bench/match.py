"""The referee and the match runner.

:func:`play` plays one game of a variant from an opening, the players seated by their specs, and draws
every chance outcome from a generator seeded by the game's seed (so a 2048 game's tiles depend only on
its seed and the moves chosen). Players never touch the referee's state: each gets a
:class:`~bench.players.Position` and answers a JSON move, which the referee checks and applies. Each
answer is timed on the wall clock.

:func:`head_to_head` plays every opening twice, the two players swapping seats, and :func:`solo` plays
seeded whole games of a one-player game; both spread the games over a pool of worker processes, one game
per process at a time, so that each move's time is one core's (on a machine with other load, less).
"""
import collections
from dataclasses import dataclass
import multiprocessing
import random
import time

from bench import elo, openings, players, solo_summary
from engine import api
from engine.game import CHANCE


@dataclass(frozen=True)
class GameTask:
    variant: str
    opening: tuple          # JSON moves played from the variant's starting state before the players
    seats: tuple            # a player spec per seat (player number)
    time_ms: float | None   # the time a move
    seed: int
    stop_at: int | None = None  # a one-player game stops once its milestone (2048: highest tile) reaches this


_PLAYERS = {}   # spec -> Player, kept for the worker's lifetime (an OpenSpiel player keeps its state)


def player(spec: str):
    if spec not in _PLAYERS:
        _PLAYERS[spec] = players.build(spec)
    return _PLAYERS[spec]


def play(task: GameTask) -> dict:
    """One game. Returns the final utilities by seat, the plies, each seat's move times (ms), why the game
    ended (the game's reason, or the variant's adjudication, see :mod:`bench.adjudication`), the final
    state (JSON) and the moves."""
    v = openings.variant(task.variant)
    game, state = api.load(v.game, v.initial_state)
    seats = [player(spec) for spec in task.seats]
    if len(seats) != game.n_players:
        raise ValueError(f"{v.name} has {game.n_players} players, the task seats {len(seats)}")
    rng = random.Random(task.seed)
    history, times = [], [[] for _ in seats]
    judge, measures, verdict = v.adjudication, [], None
    for move_json in task.opening:
        state = game.result(state, game.move_from_json(move_json, state))
        history.append(move_json)
    while not game.is_terminal(state):
        mover = game.to_move(state)
        if mover == CHANCE:
            outcomes = game.chance_outcomes(state)
            move = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            position = players.Position(v.game, v.initial_state, list(history), game.state_to_json(state),
                                        game, state, task.time_ms, task.seed)
            started = time.perf_counter()
            answer = seats[mover].choose(position)
            times[mover].append((time.perf_counter() - started) * 1000.0)
            move = game.move_from_json(answer, state)      # an illegal answer is an error, not a forfeit
        history.append(game.move_to_json(move))
        state = game.result(state, move)
        if task.stop_at is not None and solo_summary.milestone(v, game.state_to_json(state)) >= task.stop_at:
            verdict = list(game.utilities(state)), f"stopped at {task.stop_at}"
            break
        if judge is not None and not game.is_terminal(state):
            measures.append(judge.measure(game.state_to_json(state)))
            verdict = judge(measures, len(history))
            if verdict is not None:
                break
    utilities, end = verdict or (list(game.utilities(state)), game.end_reason(state))
    return {"task": task, "utilities": utilities, "plies": len(history), "times": times, "end": end,
            "final": game.state_to_json(state), "history": history}


def run(tasks: list, workers: int, log=None) -> list:
    """Play the tasks across ``workers`` processes (in this process when ``workers`` is 1), each with every
    game and algorithm imported first (a first import's table building is not a move's time)."""
    done = []
    if workers <= 1:
        api.preload()
        results = map(play, tasks)
    else:
        pool = multiprocessing.get_context("fork").Pool(workers, initializer=api.preload)
        results = pool.imap_unordered(play, tasks)
    try:
        for r in results:
            done.append(r)
            if log:
                log(f"  game {len(done)}/{len(tasks)}: {r['task'].seats} -> {r['utilities']} "
                    f"in {r['plies']} plies ({r['end']})")
    finally:
        if workers > 1:
            pool.terminate()
            pool.join()
    return done


def points(utilities: list, seat: int) -> float:
    """1, 1/2 or 0 for the player in ``seat`` of a two-player game: more utility than the other, as
    much, or less."""
    mine, theirs = utilities[seat], utilities[1 - seat]
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def timing(results: list, spec: str) -> dict:
    """Mean and max time a move of the player ``spec`` over the games, in ms."""
    ms = [t for r in results for seat, s in enumerate(r["task"].seats) if s == spec for t in r["times"][seat]]
    return {"moves": len(ms), "mean_ms": sum(ms) / len(ms) if ms else None, "max_ms": max(ms) if ms else None}


def head_to_head(variant: str, a: str, b: str, time_ms, n_openings: int, workers: int, seed: int = 1,
                 log=None, skip: int = 0) -> dict:
    """``a`` against ``b``: every opening twice, ``a`` first in one game and second in the other; the
    openings after the first ``skip``."""
    if a == b:
        raise ValueError("the two players have the same spec; a player's state is kept per spec")
    v = openings.variant(variant)
    lines = openings.openings(v, skip + n_openings, seed=seed)[skip:]
    tasks = [GameTask(variant, tuple(line), seats, time_ms, seed * 100_003 + 2 * i + j)
             for i, line in enumerate(lines, skip) for j, seats in enumerate(((a, b), (b, a)))]
    results = run(tasks, workers, log)
    tally, by_seat = elo.Tally(), [elo.Tally(), elo.Tally()]
    for r in results:
        seat = r["task"].seats.index(a)
        p = points(r["utilities"], seat)
        tally = tally.add(p)
        by_seat[seat] = by_seat[seat].add(p)
    return {"variant": variant, "a": a, "b": b, "time_ms": time_ms, "openings": len(lines),
            "result": elo.summary(tally), "text": elo.describe(tally),
            "a_first": elo.summary(by_seat[0]) if by_seat[0].games else None,
            "a_second": elo.summary(by_seat[1]) if by_seat[1].games else None,
            "timing": {a: timing(results, a), b: timing(results, b)},
            "ends": dict(collections.Counter(str(r["end"]) for r in results)),
            "adjudication": v.adjudication.describe() if v.adjudication else None,
            "games": [{"opening": list(r["task"].opening), "seats": list(r["task"].seats),
                       "utilities": r["utilities"], "plies": r["plies"], "end": r["end"], "moves": r["history"]}
                      for r in results]}


def solo(variant: str, spec: str, time_ms, games: int, workers: int, seed: int = 1, log=None,
         stop_at: int | None = None) -> dict:
    """Seeded whole games of a one-player game (its chance outcomes drawn from each game's seed); with
    ``stop_at``, each game stops once its milestone reaches that (a run censored there, to save time)."""
    tasks = [GameTask(variant, (), (spec,), time_ms, seed * 100_003 + i, stop_at) for i in range(games)]
    results = run(tasks, workers, log)
    v = openings.variant(variant)
    return {"variant": variant, "player": spec, "time_ms": time_ms, "games": len(results), "stop_at": stop_at,
            "summary": solo_summary.summarise(v, results, stop_at), "timing": {spec: timing(results, spec)}}
