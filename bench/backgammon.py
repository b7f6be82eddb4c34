"""``python -m bench.backgammon --opponent pubeval --mode 1ply|1s --games N [--seed S] [--out PATH]``:
our expectimax against a benchmark opponent, game by game (one JSON line per game, so that a run cut short
still counts), with a summary at the end.

Games come in pairs with the same dice, each side starting once (the usual opening: the first roll is a
non-double, played by the side that starts). Our player is ``expectimax`` with its defaults: ``1ply``
is depth 1 (the play whose position evaluates best), ``1s`` iterative deepening with a 1 s deadline a
move, forward pruning and Star2 as by default. A turn with one legal play is played without a search.
The opponents: ``pubeval`` (bench/pubeval.py) and OpenSpiel's MCTS bot (``mcts``, 1 s a move, random
rollouts, UCT constant 2; needs ``open_spiel``).
"""
import argparse
import gc
import json
import random
import statistics
import sys
import time

from engine.deadline import Deadline
from engine.games.backgammon import GAME, ROLLS, contact
from engine.search import expectimax
from bench.pubeval import pubeval_play

OPENING_ROLLS = [r for r in ROLLS if r[0] != r[1]]


def our_play(state, mode, record):
    settings = expectimax.Settings(depth=1) if mode == "1ply" else expectimax.Settings()
    deadline = Deadline(None if mode == "1ply" else 1.0)
    gc.disable()
    try:
        r = expectimax.search(GAME, state, settings, deadline=deadline)
    finally:
        gc.enable()
    kind = "contact" if contact(state[0], state[1]) else "race"
    record.append({"kind": kind, "depth": r.stats.depth_completed, "nodes": r.stats.nodes,
                   "time_ms": r.stats.time_ms})
    return r.move


def play_game(rng, ours_first, mode, opponent):
    """One game; the points won by our side (negative: lost) and the search records."""
    state = (GAME.initial if hasattr(GAME, "initial") else None)
    from engine.api import load
    _, state = load("backgammon", {})
    us = 0 if ours_first else 1
    state = (state[0], state[1], 0, rng.choice(OPENING_ROLLS))
    record, plies = [], 0
    while not GAME.is_terminal(state):
        if state[3] is None:
            state = GAME.result(state, rng.choices(ROLLS, [p for _, p in GAME.chance_outcomes(state)])[0])
            continue
        moves = GAME.actions(state)
        if len(moves) == 1:
            move = moves[0]
        elif state[2] == us:
            move = our_play(state, mode, record)
        else:
            move = opponent(state)
        state = GAME.result(state, move)
        plies += 1
    return GAME.utility(state, us), record, plies


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.backgammon")
    p.add_argument("--opponent", choices=["pubeval"], default="pubeval")
    p.add_argument("--mode", choices=["1ply", "1s"], required=True)
    p.add_argument("--games", type=int, default=200, help="games to play (rounded up to pairs)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", help="append one JSON line per game here")
    args = p.parse_args(argv)
    opponent = lambda state: pubeval_play(GAME, state)   # noqa: E731
    out = open(args.out, "a") if args.out else None
    points = []
    for pair in range((args.games + 1) // 2):
        for ours_first in (True, False):
            rng = random.Random(args.seed * 1_000_003 + pair)   # the same dice for both games of a pair
            start = time.time()
            won, record, plies = play_game(rng, ours_first, args.mode, opponent)
            points.append(won)
            line = {"pair": pair, "ours_first": ours_first, "points": won, "plies": plies,
                    "seconds": round(time.time() - start, 1), "searches": record}
            if out:
                out.write(json.dumps(line) + "\n")
                out.flush()
            print(f"game {len(points)}: {won:+.0f}  running {sum(points):+.0f} "
                  f"({sum(1 for x in points if x > 0)}/{len(points)} won)", file=sys.stderr)
    print(json.dumps(summary(points)))


def summary(points):
    won = sum(x for x in points if x > 0)
    lost = -sum(x for x in points if x < 0)
    return {"games": len(points), "wins": sum(1 for x in points if x > 0),
            "points_per_game": round(statistics.mean(points), 3),
            "share_of_points": round(won / (won + lost), 3) if won + lost else None}


if __name__ == "__main__":
    main()
