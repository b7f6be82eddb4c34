"""``python -m bench.backgammon_speed [--positions N] [--depth D] [--seed S]``: what each backgammon evaluation
costs the compiled core's search: nodes a second of ``expectimax`` at a fixed depth (its defaults
otherwise) on the same seeded contact positions, for the ``net`` evaluation (the 32-unit contact net) and
the ``learned`` one (the learning pipeline's contact net, the size its file holds), each position searched
once per evaluation, alternately (so that a change of the machine's load falls on both). The positions: the
contact positions after 6 to 20 random plays of seeded games, with a roll. One JSON line an evaluation.
"""
import argparse
import json
import random
import time

from engine import api
from engine.games import backgammon as bg
from engine.games import backgammon_net


def positions(n: int, seed: int) -> list:
    rng, out = random.Random(seed), []
    while len(out) < n:
        state = bg.State(bg.START, bg.START, 0, rng.choice([r for r in bg.ROLLS if r[0] != r[1]]))
        for _ in range(rng.randint(6, 20)):
            state = bg.GAME.result(state, rng.choice(bg.GAME.actions(state)))
            state = bg.GAME.result(state, rng.choice(bg.ROLLS))
            if bg.GAME.is_terminal(state):
                break
        if not bg.GAME.is_terminal(state) and bg.contact(state.x, state.o):
            out.append(bg.GAME.state_to_json(state))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.backgammon_speed")
    p.add_argument("--positions", type=int, default=30)
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--seed", type=int, default=5)
    args = p.parse_args(argv)
    sizes = {"net": len(backgammon_net.NET.hidden_bias),
             "learned": len(backgammon_net.learned("contact").net.hidden_bias)}
    totals = {name: [0, 0.0] for name in sizes}
    for state in positions(args.positions, args.seed):
        for name in sizes:
            started = time.perf_counter()
            result = api.search("backgammon", state, {"name": "expectimax", "depth": args.depth},
                                options={"evaluation": name})
            totals[name][1] += time.perf_counter() - started
            totals[name][0] += result.stats.nodes
    for name, (nodes, seconds) in totals.items():
        print(json.dumps({"evaluation": name, "contact_hidden": sizes[name], "depth": args.depth,
                          "positions": args.positions, "nodes": nodes, "seconds": round(seconds, 2),
                          "nodes_per_s": round(nodes / seconds)}))


if __name__ == "__main__":
    main()
