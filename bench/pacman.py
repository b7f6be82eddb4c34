"""``python -m bench.pacman``: Pacman's strength against CS188's ghost agents, on the project's layouts.

Each game is played as CS188's ``pacman.py`` plays it: Pacman (our search, through ``engine.api.search``
on the game's JSON state, as a client would) and the ghosts move in turn until the game is won or lost.
The ghosts are those of CS188's ``ghostAgents.py``:

- ``random``: ``RandomGhost``, a legal move uniformly at random;
- ``directional``: ``DirectionalGhost``: with probability 0.8 a move that brings it nearest Pacman by
  Manhattan distance (farthest from him when scared), the rest spread uniformly over its legal moves.

A game still running after ``--max-moves`` Pacman moves stops there and counts as not won. Prints one line a
game and a summary (wins, mean score); ``--json`` writes them too.
"""
import argparse
import json
import random
import statistics
import sys
import time

from bench.pacman_layouts import data_dir, read_layout
from engine import api
from engine.games.pacman import VECTORS

PROB_ATTACK = PROB_SCARED_FLEE = 0.8


def random_ghost(game, state, rng):
    return rng.choice(game.actions(state))


def directional_ghost(game, state, rng):
    """CS188's ``DirectionalGhost.getDistribution``, then a draw from it."""
    moves = game.actions(state)
    hx, hy, _, scared = state[3][game.to_move(state) - 1]
    speed = 1 if scared else 2                                  # half cells
    px, py = 2 * (state[1] % game.width), 2 * (state[1] // game.width)
    distances = [abs(hx + VECTORS[m][0] * speed - px) + abs(hy + VECTORS[m][1] * speed - py) for m in moves]
    target = max(distances) if scared else min(distances)
    best = [m for m, d in zip(moves, distances) if d == target]
    bonus = PROB_SCARED_FLEE if scared else PROB_ATTACK
    weights = [(bonus / len(best) if m in best else 0.0) + (1 - bonus) / len(moves) for m in moves]
    return rng.choices(moves, weights)[0]


GHOSTS = {"random": random_ghost, "directional": directional_ghost}


def play(layout, algorithm, ghost, time_limit_ms, rng, max_moves):
    """One game: ``(won, score, pacman moves, seconds)``."""
    game, state = api.load("pacman", {"layout": layout}, **({"evaluation": algorithm["evaluation"]}
                                                             if "evaluation" in algorithm else {}))
    moves, started = 0, time.perf_counter()
    while not game.is_terminal(state) and moves < max_moves:
        if game.to_move(state) == 0:
            answer = api.search("pacman", game.state_to_json(state), algorithm, time_limit_ms)
            move = game.move_from_json(answer.move, state)
            moves += 1
        else:
            move = ghost(game, state, rng)
        state = game.result(state, move)
    return state[7] == 1, state[6], moves, time.perf_counter() - started


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.pacman", description=__doc__.split("\n\n")[0])
    p.add_argument("--layout", default="smallClassic")
    p.add_argument("--ghosts", choices=sorted(GHOSTS), default="random")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--algorithm", default='{"name": "expectimax", "evaluation": "better"}',
                   help="the algorithm object, JSON")
    p.add_argument("--time-limit-ms", type=int, default=1000, help="per Pacman move (the service's default)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-moves", type=int, default=2000)
    p.add_argument("--json", metavar="PATH")
    args = p.parse_args(argv)
    layout = read_layout(args.layout)
    if layout is None:
        sys.exit(f"layout {args.layout!r} not found in {data_dir()} (set TACTICIAN_PACMAN_DATA)")
    algorithm = json.loads(args.algorithm)
    rng = random.Random(args.seed)
    games = []
    for i in range(args.games):
        won, score, moves, seconds = play(layout, algorithm, GHOSTS[args.ghosts], args.time_limit_ms, rng,
                                          args.max_moves)
        games.append({"won": won, "score": score, "moves": moves, "seconds": round(seconds, 1)})
        print(f"game {i + 1}: {'win ' if won else 'loss'} score {score:5d} moves {moves:4d} {seconds:6.1f} s",
              flush=True)
    summary = {"layout": args.layout, "ghosts": args.ghosts, "algorithm": algorithm,
               "time_limit_ms": args.time_limit_ms, "seed": args.seed, "games": len(games),
               "wins": sum(g["won"] for g in games), "mean_score": statistics.mean(g["score"] for g in games)}
    print(f"{summary['layout']} vs {summary['ghosts']} ghosts, {json.dumps(algorithm)}, "
          f"{args.time_limit_ms} ms a move: {summary['wins']}/{summary['games']} won, "
          f"mean score {summary['mean_score']:.1f}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"summary": summary, "games": games}, out, indent=1)


if __name__ == "__main__":
    main()
