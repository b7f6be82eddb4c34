"""``python -m learn chess|backgammon|othello --hours 2``: generate labelled positions, train from the committed net,
export, and match the new net against the committed one; each stage on its own with ``--stage``.

The run is resumable: positions are appended to shards under ``learn/data/<game>/`` game by game, so a run
stopped at any moment keeps what it played, and a later run trains on all the shards there. What a run
learned is kept only in the weights file it writes, once the match accepts them.
"""
import argparse
import os
from pathlib import Path

from learn import accept, generate, run, shards
from learn.backgammon import accept as backgammon_accept, run as backgammon_run
from learn.othello import accept as othello_accept, run as othello_run

# The labelling depth of each game: Stockfish's depth, gnubg's ply, the empty squares the solver starts at.
DEPTHS = {"chess": 7, "backgammon": 1, "othello": 18}


def parse(argv=None):
    p = argparse.ArgumentParser(prog="python -m learn", description=__doc__.split("\n\n")[0])
    p.add_argument("game", choices=list(DEPTHS))
    p.add_argument("--stage", choices=["generate", "train", "accept", "all"], default="all")
    p.add_argument("--hours", type=float, default=2.0, help="the whole run's wall-clock budget")
    p.add_argument("--generate-share", type=float, default=0.6, help="the share of --hours spent generating")
    p.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    p.add_argument("--depth", type=int, default=None,
                   help="the reference's depth a label (chess: Stockfish's, 7; backgammon: gnubg's ply, 1; othello: "
                        "the empty squares from which the endgame solver labels, 18)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--hidden", type=int, default=128,
                   help="the net's hidden units (chess: a perspective; backgammon: the contact net's)")
    p.add_argument("--race-hidden", type=int, default=32, help="backgammon: the race net's hidden units")
    p.add_argument("--lr", type=float, default=3e-3, help="the trainer's first learning rate (halved on a stall)")
    p.add_argument("--games", type=int, default=accept.MIN_GAMES, help="the acceptance match's games")
    p.add_argument("--time-ms", type=float, default=100, help="the acceptance match's time a move")
    p.add_argument("--match-depth", type=int, default=None,
                   help="othello: the acceptance match at this fixed alpha-beta depth instead of a time a move")
    p.add_argument("--seconds", type=float, default=None,
                   help="the stage's budget in seconds, train or (backgammon) accept (default: its share of --hours)")
    p.add_argument("--data", type=Path, default=None, help="the shards' folder (default learn/data/<game>)")
    args = p.parse_args(argv)
    if args.depth is None:
        args.depth = DEPTHS[args.game]
    return args


def main(argv=None):
    args = parse(argv)
    data = args.data or shards.DATA / args.game
    budget = args.hours * 3600
    generated = trained = matched = None
    if args.stage in ("generate", "all"):
        seconds = budget * (args.generate_share if args.stage == "all" else 1.0)
        generated = generate.generate(args.game, data, seconds, args.processes, args.depth, args.seed)
    if args.stage in ("train", "all"):
        seconds = args.seconds or budget * (0.1 if args.stage == "all" else 1.0)
        if args.game == "chess":
            trained = run.train_stage(data, data, args.hidden, seconds, args.seed, args.lr)
        elif args.game == "othello":
            trained = othello_run.train_stage(data, seconds, args.lr, args.depth)
        else:
            hidden = {"contact": args.hidden, "race": args.race_hidden}
            trained = backgammon_run.train_stage(data, data, hidden, seconds, args.seed, args.lr, args.depth)
    if args.stage in ("accept", "all"):
        if args.game == "chess":
            matched = run.accept_stage(data / "candidate.bin", args.games, args.time_ms, args.processes)
        elif args.game == "othello":
            matched = othello_accept.accept_stage(args.games, args.time_ms, args.processes, args.match_depth)
        else:
            seconds = args.seconds if args.stage == "accept" else budget * (1.0 - args.generate_share - 0.1)
            matched = backgammon_accept.accept_stage(data, args.games, args.time_ms, seconds)
    if args.game == "othello":
        if trained or matched:
            print(f"report: {othello_run.write_report(trained, generated, matched)}")
    elif args.game == "backgammon":
        if trained:
            print(f"report: {backgammon_run.write_report(trained, generated, matched)}")
        elif matched:
            print(f"report: {backgammon_run.write_match_report(matched)}")
    elif trained:
        print(f"report: {run.write_report(args.game, trained, generated, matched)}")
    elif matched:
        print(f"report: {run.write_match_report(args.game, data / 'candidate.bin', matched)}")


if __name__ == "__main__":
    main()
