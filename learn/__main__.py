"""``python -m learn chess --hours 2``: generate labelled positions, train from the committed net, export,
and match the new net against the committed one; each stage on its own with ``--stage``.

The run is resumable: positions are appended to shards under ``learn/data/<game>/`` game by game, so a run
stopped at any moment keeps what it played, and a later run trains on all the shards there. What a run
learned is kept only in the weights file it writes, once the match accepts them.
"""
import argparse
import os
from pathlib import Path

from learn import accept, generate, run, shards


def parse(argv=None):
    p = argparse.ArgumentParser(prog="python -m learn", description=__doc__.split("\n\n")[0])
    p.add_argument("game", choices=["chess"])
    p.add_argument("--stage", choices=["generate", "train", "accept", "all"], default="all")
    p.add_argument("--hours", type=float, default=2.0, help="the whole run's wall-clock budget")
    p.add_argument("--generate-share", type=float, default=0.6, help="the share of --hours spent generating")
    p.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    p.add_argument("--depth", type=int, default=7, help="the reference engine's depth a label")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--hidden", type=int, default=128, help="the net's hidden units a perspective")
    p.add_argument("--lr", type=float, default=3e-3, help="the trainer's first learning rate (halved on a stall)")
    p.add_argument("--games", type=int, default=accept.MIN_GAMES, help="the acceptance match's games")
    p.add_argument("--time-ms", type=float, default=100, help="the acceptance match's time a move")
    p.add_argument("--data", type=Path, default=None, help="the shards' folder (default learn/data/<game>)")
    return p.parse_args(argv)


def main(argv=None):
    args = parse(argv)
    data = args.data or shards.DATA / args.game
    budget = args.hours * 3600
    generated = trained = matched = None
    if args.stage in ("generate", "all"):
        seconds = budget * (args.generate_share if args.stage == "all" else 1.0)
        generated = generate.generate(data, seconds, args.processes, args.depth, args.seed)
    if args.stage in ("train", "all"):
        seconds = budget * (0.1 if args.stage == "all" else 1.0)
        trained = run.train_stage(data, data, args.hidden, seconds, args.seed, args.lr)
    if args.stage in ("accept", "all"):
        matched = run.accept_stage(data / "candidate.bin", args.games, args.time_ms, args.processes)
    if trained:
        print(f"report: {run.write_report(args.game, trained, generated, matched)}")
    elif matched:
        print(f"report: {run.write_match_report(args.game, data / 'candidate.bin', matched)}")


if __name__ == "__main__":
    main()
