"""``python -m bench [--quick] [--only WORKLOAD ...] [--json PATH] [--repeat N] [--markdown PATH] [--results PATH]``.

Runs the workloads (all by default), prints the table and writes the JSON report (default
``bench/results.json``, git-ignored). A complete run (every workload, not ``--quick``) also rewrites the
summary at the top of ``bench/RESULTS.md``, with its date and commit (bench/summary.py). Installs nothing:
missing peers are reported as missing.
"""
import argparse
import datetime
import json
import os
import sys
import time
from pathlib import Path

from bench import machine, ours, report, service, summary, workloads

REPO_ROOT = Path(__file__).resolve().parent.parent

ENGINE_WORKLOADS = {
    "tictactoe-minimax": workloads.tictactoe_minimax,
    "tictactoe-alphabeta": workloads.tictactoe_alphabeta,
    "connect4-depth8": workloads.connect4_depth8,
    "connect4-solve": workloads.connect4_solve,
    "mcts": workloads.mcts,
    "2048-expectimax": workloads.expectimax_2048,
    "cores": workloads.cores,
}
ALL = list(ENGINE_WORKLOADS) + list(service.SERVICE_WORKLOADS)


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true",
                   help="fewer repetitions, subsets of the Connect Four sets, shorter service runs")
    p.add_argument("--only", action="append", metavar="WORKLOAD", choices=ALL,
                   help="run only this workload (repeatable): " + ", ".join(ALL))
    p.add_argument("--json", default=str(REPO_ROOT / "bench" / "results.json"), metavar="PATH",
                   help="where to write the JSON report (default bench/results.json)")
    p.add_argument("--markdown", metavar="PATH", help="also write the report as a Markdown page to PATH (date, machine, table)")
    p.add_argument("--results", default=str(summary.RESULTS), metavar="PATH",
                   help="the results page whose summary a complete run rewrites (default bench/RESULTS.md)")
    p.add_argument("--repeat", type=int, metavar="N",
                   help="timed runs per side of each comparison (default 5, quick 2)")
    p.add_argument("--server-python", metavar="PATH", default=os.environ.get("TACTICIAN_BENCH_SERVER_PYTHON"),
                   help="the Python that runs gunicorn for the service workloads, if the service's "
                        "requirements live in another environment (default: this Python)")
    p.add_argument("--list", action="store_true", help="list the workloads and exit")
    args = p.parse_args(argv)
    if args.repeat is not None and args.repeat < 1:
        p.error("--repeat must be >= 1")
    return args


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def main(argv=None):
    args = parse_args(argv)
    if args.list:
        print("\n".join(ALL))
        return 0
    chosen = args.only or ALL
    chosen = [w for w in ALL if w in chosen]
    ctx = workloads.Context(quick=args.quick, repeat=args.repeat, log=log)
    ctx.server_python = args.server_python
    info = machine.info()
    log(f"tactician bench: {'quick' if args.quick else 'full'} run, repeat {ctx.repeat}, on {info['cpu_model']} "
        f"({info['cores']} cores), Python {info['python']}; peers: "
        + ", ".join(f"{k} {v}" for k, v in info["peers"].items()))
    ours.warm_up()
    rows = []
    started = time.perf_counter()
    for name in chosen:
        if name in ENGINE_WORKLOADS:
            log(f"[{name}]")
            t0 = time.perf_counter()
            try:
                rows += ENGINE_WORKLOADS[name](ctx)
            except Exception as exc:
                rows.append(report.make_row(name, "-", met=False, note=f"failed: {type(exc).__name__}: {exc}"))
            log(f"  done in {time.perf_counter() - t0:.1f} s")
    service_names = [n for n in chosen if n in service.SERVICE_WORKLOADS]
    if service_names:
        rows += service.run_service(ctx, service_names)
    elapsed = time.perf_counter() - started
    info["load_average_end"] = os.getloadavg()

    print(report.render(rows))
    print(f"\n{report.goals_line(rows)}; run took {elapsed:.0f} s ({'quick' if args.quick else 'full'})")
    result = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "mode": "quick" if args.quick else "full",
        "repeat": ctx.repeat,
        "workloads": chosen,
        "machine": info,
        "seconds": round(elapsed, 1),
        "rows": rows,
        "details": ctx.details,
    }
    path = Path(args.json)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2, default=str) + "\n")
    log(f"wrote {path}")
    if args.markdown:
        Path(args.markdown).write_text(report.markdown_document(result))
        log(f"wrote {args.markdown}")
    if complete(args):
        summary.write(report.markdown_document(result), Path(args.results))
        log(f"rewrote the summary of {args.results}")
    else:
        log(f"a partial or quick run: the summary of {args.results} is left as it is")
    return 0


def complete(args) -> bool:
    """Whether the run measures what the summary table reports: every workload, at full length."""
    return not args.quick and args.only is None


if __name__ == "__main__":
    sys.exit(main())
