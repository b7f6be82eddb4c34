"""Generating labelled positions: one process a core, each with its own labeller and its own shard, for a
fixed wall-clock time. A game's parts (:func:`parts`): its labeller, made from the labelling depth (chess:
Stockfish's depth; backgammon: gnubg's ply), its self-play and its shard writer."""
import importlib
import multiprocessing
import random
import time

from learn import shards


def parts(game: str) -> tuple:
    """``(Labeller, play, write_game)`` of ``game``: ``Labeller(depth)`` a context manager,
    ``play(rng, labeller)`` one game (None when it ended before anything was labelled) and
    ``write_game(out, game, game_id)`` the number of positions it appended."""
    if game == "chess":
        from learn import labels, selfplay
        return labels.Labeller, selfplay.play, shards.write_game
    package = f"learn.{game}"
    labels, selfplay, game_shards = (importlib.import_module(f"{package}.{m}") for m in ("labels", "selfplay", "shards"))
    return labels.Labeller, selfplay.play, game_shards.write_game


def worker(args) -> dict:
    game, directory, worker_id, seconds, depth, seed = args
    Labeller, play, write_game = parts(game)
    rng = random.Random(seed * 7919 + worker_id)
    path = shards.shard_path(directory, worker_id)
    positions = games = 0
    end = time.monotonic() + seconds
    with Labeller(depth) as labeller, path.open("a") as out:
        while time.monotonic() < end:
            played = play(rng, labeller)
            if played is None:
                continue
            positions += write_game(out, played, f"{path.stem}:{games}")
            games += 1
    return {"worker": worker_id, "games": games, "positions": positions, "seconds": seconds}


def generate(game: str, directory, seconds: float, processes: int, depth: int, seed: int, log=print) -> dict:
    """Play and label ``game`` for ``seconds`` in ``processes`` processes; the totals."""
    started = time.monotonic()
    tasks = [(game, directory, w, seconds, depth, seed) for w in range(processes)]
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        done = pool.map(worker, tasks)
    elapsed = time.monotonic() - started
    total = {"games": sum(d["games"] for d in done), "positions": sum(d["positions"] for d in done),
             "seconds": round(elapsed, 1), "processes": processes, "depth": depth}
    total["positions_per_second"] = round(total["positions"] / elapsed, 1)
    log(f"generated {total['positions']} labelled {game} positions in {total['games']} games, "
        f"{total['positions_per_second']}/s over {processes} processes at depth {depth}")
    return total
