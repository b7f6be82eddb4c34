"""Generating labelled positions: one process a core, each with its own reference engine and its own shard,
for a fixed wall-clock time."""
import multiprocessing
import random
import time

from learn import selfplay, shards
from learn.labels import Labeller


def worker(args) -> dict:
    directory, worker_id, seconds, depth, seed = args
    rng = random.Random(seed * 7919 + worker_id)
    path = shards.shard_path(directory, worker_id)
    positions = games = 0
    end = time.monotonic() + seconds
    with Labeller(depth) as labeller, path.open("a") as out:
        while time.monotonic() < end:
            game = selfplay.play(rng, labeller)
            if game is None:
                continue
            positions += shards.write_game(out, game, f"{path.stem}:{games}")
            games += 1
    return {"worker": worker_id, "games": games, "positions": positions, "seconds": seconds}


def generate(directory, seconds: float, processes: int, depth: int, seed: int, log=print) -> dict:
    """Play and label for ``seconds`` in ``processes`` processes; the totals."""
    started = time.monotonic()
    tasks = [(directory, w, seconds, depth, seed) for w in range(processes)]
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        done = pool.map(worker, tasks)
    elapsed = time.monotonic() - started
    total = {"games": sum(d["games"] for d in done), "positions": sum(d["positions"] for d in done),
             "seconds": round(elapsed, 1), "processes": processes, "depth": depth}
    total["positions_per_second"] = round(total["positions"] / elapsed, 1)
    log(f"generated {total['positions']} quiet labelled positions in {total['games']} games, "
        f"{total['positions_per_second']}/s over {processes} processes at depth {depth}")
    return total
