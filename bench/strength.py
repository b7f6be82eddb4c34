"""``python -m bench.strength``: playing strength, measured by matches.

Two-player variants: player ``--a`` against each ``--b``, every opening twice (both colours), at
``--time-ms`` a move; prints wins, draws and losses from ``--a``'s side, the score and the Elo difference
with its 95% interval, and each side's mean and maximum time a move. One-player variants (2048): ``--a``
plays ``--games`` seeded whole games; prints the final results (for 2048 the highest tile's distribution,
the rate of 2048, 4096 and 8192, the mean score).

Examples::

    python -m bench.strength --variant connect4 --a ours:alphabeta --b ours:mcts --b openspiel:mcts
    python -m bench.strength --variant 2048 --a ours:auto --time-ms 100 --games 20
    python -m bench.strength --variant tictactoe-5x5-k4 --ladder        # auto level n against level n - 1
    python -m bench.strength --variant connect4 --ladder --rungs 2-6    # the pairings of levels 2..6 only
    python -m bench.strength --preset issue10 --markdown bench/STRENGTH.md
    python -m bench.strength --variant chess --a ours:alphabeta --b sunfish --time-ms 1000 --openings 10 --workers 2

Player specs: :mod:`bench.players`. Variants: every registered game and :data:`bench.openings.VARIANTS`.
"""
import argparse
import datetime
import json
import os
import sys
import time
from pathlib import Path

from bench import machine, match, openings
from engine import api

REPO_ROOT = Path(__file__).resolve().parent.parent
PRESETS = {
    # Issue 10: the default alpha-beta against depth 8 and against MCTS, Connect Four, 300 ms a move.
    "issue10": {"variant": "connect4", "a": "ours:alphabeta", "b": ["ours:alphabeta,depth=8", "ours:mcts"],
                "time_ms": 300, "openings": 25},
}
LEVELS = range(1, 11)


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.strength", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    p.add_argument("--variant", default="connect4", choices=openings.variant_names())
    p.add_argument("--a", default="ours:auto", metavar="SPEC", help="the player measured (default ours:auto)")
    p.add_argument("--b", action="append", metavar="SPEC", help="an opponent (repeatable)")
    p.add_argument("--ladder", action="store_true",
                   help="instead of --a/--b: ours:auto at level n against level n - 1, n = 2..10")
    p.add_argument("--rungs", default="2-10", metavar="N-M",
                   help="with --ladder, only the pairings of levels n = N..M against n - 1 (default 2-10), "
                        "so that a long ladder can run in parts")
    p.add_argument("--time-ms", default="300", help="time a move in ms, or 'none' (default 300)")
    p.add_argument("--openings", type=int, default=20, help="openings, each played twice (default 20)")
    p.add_argument("--skip-openings", type=int, default=0, metavar="N",
                   help="start after the first N openings (a long match in chunks: --openings 10, then "
                        "--skip-openings 10 --openings 10)")
    p.add_argument("--games", type=int, default=20, help="games of a one-player variant (default 20)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="parallel games (default: cores)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--stop-at", type=int, metavar="N",
                   help="one-player variants: stop each game once its milestone (2048: the highest tile) "
                        "reaches N; the rates above N are then not measured")
    p.add_argument("--preset", choices=sorted(PRESETS), help="a named set of options (overrides the others)")
    p.add_argument("--json", default=str(REPO_ROOT / "bench" / "strength.json"), metavar="PATH")
    p.add_argument("--markdown", metavar="PATH", help="append the results as a section to PATH "
                                                     "(bench/STRENGTH.md)")
    p.add_argument("--verbose", action="store_true", help="log every game")
    args = p.parse_args(argv)
    if args.preset:
        preset = PRESETS[args.preset]
        args.variant, args.a, args.b = preset["variant"], preset["a"], preset["b"]
        args.time_ms, args.openings = str(preset["time_ms"]), preset["openings"]
    args.time_ms = None if args.time_ms.lower() == "none" else float(args.time_ms)
    if args.openings < 1 or args.games < 1 or args.workers < 1 or args.skip_openings < 0:
        p.error("--openings, --games and --workers are at least 1")
    low, _, high = args.rungs.partition("-")
    try:
        args.rungs = range(int(low), int(high or low) + 1)
    except ValueError:
        p.error(f"--rungs is N or N-M, levels from 2 to 10; got {args.rungs!r}")
    if not args.rungs or args.rungs[0] < LEVELS[1] or args.rungs[-1] > LEVELS[-1]:
        p.error("--rungs names levels from 2 to 10, the lower first")
    return args


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def pairings(args, players: int) -> list:
    if args.ladder:
        return [(f"ours:auto,level={n},seed={n}", f"ours:auto,level={n - 1},seed={n - 1}") for n in args.rungs]
    if players == 1:
        return [(args.a, None)]
    if not args.b:
        raise SystemExit("a two-player variant needs at least one --b SPEC (or --ladder)")
    return [(args.a, b) for b in args.b]


def fmt_ms(x):
    return "-" if x is None else f"{x:.0f}"


def line_for(r: dict) -> str:
    if "summary" in r:
        s, t = r["summary"], r["timing"][r["player"]]
        text = f"{r['player']} on {r['variant']}, {r['games']} games: mean plies {s['mean_plies']:.0f}"
        if "highest_tile" in s:
            text += (f", highest tile {s['highest_tile']}, reached " +
                     ", ".join(f"{k}: {'-' if v is None else f'{100 * v:.0f}%'}" for k, v in s["reached"].items()) +
                     f", mean score {s['mean_score']:.0f}")
        if "stop_at" in s:
            text += f"; stopped at {s['stop_at']}: {s['stopped']}, ended early: {s['ended_early']}"
        return text + f"; {fmt_ms(t['mean_ms'])} ms a move (max {fmt_ms(t['max_ms'])})"
    ta, tb = r["timing"][r["a"]], r["timing"][r["b"]]
    text = (f"{r['a']} vs {r['b']} on {r['variant']}, {r['openings']} openings x 2: {r['text']}; "
            f"ms a move {fmt_ms(ta['mean_ms'])} (max {fmt_ms(ta['max_ms'])}) vs "
            f"{fmt_ms(tb['mean_ms'])} (max {fmt_ms(tb['max_ms'])})")
    if r.get("adjudication"):
        text += (f"; games ended by: {', '.join(f'{k} {n}' for k, n in sorted(r['ends'].items()))} "
                 f"(adjudication: {r['adjudication']})")
    return text


def markdown(report: dict) -> str:
    m = report["machine"]
    out = [f"#### {report['variant']}, {report['time_ms']} ms a move: {report['date']}", "",
           f"- Machine: {m['cpu_model']}, {m['cores']} cores, Python {m['python']}; commit {m['git_commit']}; "
           f"load average {fmt_load(m['load_average'])} at the start, {fmt_load(report['load_average_end'])} "
           f"at the end; {report['workers']} games at a time; took {report['seconds']:.0f} s.",
           f"- Command: `python -m bench.strength {' '.join(report['argv'])}`", ""]
    out += [f"- {line_for(r)}" for r in report["results"]]
    return "\n".join(out) + "\n"


def fmt_load(load) -> str:
    return "-" if load is None else " / ".join(f"{x:.1f}" for x in load)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    v = openings.variant(args.variant)
    game, _ = api.load(v.game, v.initial_state)
    info = machine.info()
    started = time.perf_counter()
    results = []
    for a, b in pairings(args, game.n_players):
        progress = log if args.verbose else None
        log(f"[{a}{'' if b is None else ' vs ' + b} on {v.name}]")
        if b is None:
            r = match.solo(v.name, a, args.time_ms, args.games, args.workers, args.seed, progress,
                           args.stop_at)
        else:
            r = match.head_to_head(v.name, a, b, args.time_ms, args.openings, args.workers, args.seed, progress,
                                   skip=args.skip_openings)
        results.append(r)
        print(line_for(r), flush=True)
    report = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "argv": argv, "variant": v.name, "time_ms": args.time_ms, "workers": args.workers,
              "machine": info, "load_average_end": os.getloadavg(),
              "seconds": time.perf_counter() - started, "results": results}
    Path(args.json).write_text(json.dumps(report, indent=1, default=str) + "\n")
    if args.markdown:
        with open(args.markdown, "a", encoding="utf-8") as fh:
            fh.write("\n" + markdown(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
