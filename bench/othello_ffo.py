"""``python -m bench.othello_ffo [--numbers 20,21,...] [--time-limit-s 30] [--python-reach 16] [--repeat N]``

The FFO endgames #20-39 (issue 30), from ``../shared/data/othello/ffo-20-39.obf`` relative to the repository
root, or ``$TACTICIAN_OTHELLO_DATA``: each position solved through ``engine.api.search`` (``alphabeta``,
``solve``, the compiled core, the time limit per position) and checked against the file, best move and
final disc difference. Goal: every one exact within 30 s. Where the Python core can solve a position too
(at most ``--python-reach`` empty squares, its endgame solver's reach), both cores solve it, interleaved, and
their nodes/s (per CPU second) stand side by side (they visit the same nodes). Prints a Markdown table,
with wall-clock and CPU times (on a shared machine the wall clock overstates the search's time).
"""
import argparse
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from engine import api

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA_DIR = REPO_ROOT.parent / "shared" / "data" / "othello"
FILE = "ffo-20-39.obf"
FIRST = 20
GOAL_S = 30.0


@dataclass
class Position:
    number: int
    state: dict            # the API's othello state
    empties: int
    scores: list           # every move with its final disc difference for the side to move, best first

    @property
    def best(self) -> list:
        """The moves with the best score, as ``(move, score)``."""
        top = self.scores[0][1]
        return [(move, score) for move, score in self.scores if score == top]


def data_dir() -> Path:
    env = os.environ.get("TACTICIAN_OTHELLO_DATA")
    return Path(env) if env else DEFAULT_DATA_DIR


def parse_line(number: int, line: str) -> Position:
    """A line of the file: 64 cells (``X`` black, ``O`` white, ``-`` empty, a1..h1 first), the side to move,
    then ``MOVE:+score;`` for every move."""
    cells, side, *rest = line.replace(";", " ").split()
    if len(cells) != 64 or set(cells) - set("XO-") or side not in ("X", "O"):
        raise ValueError(f"not an FFO line: {line!r}")
    board = [cells[8 * r:8 * r + 8].replace("X", "B").replace("O", "W").replace("-", ".") for r in range(8)]
    scores = [(move.lower(), int(score)) for move, score in (item.split(":") for item in rest)]
    return Position(number, {"board": board, "to_move": "B" if side == "X" else "W"}, cells.count("-"), scores)


def load_positions(numbers=None, directory=None) -> list:
    """The positions numbered ``numbers`` (all when None), in file order; skips the calling test when the
    file is absent under pytest, else raises FileNotFoundError."""
    path = Path(directory or data_dir()) / FILE
    if not path.exists():
        if "pytest" in sys.modules:
            import pytest
            pytest.skip(f"{path} is absent (set TACTICIAN_OTHELLO_DATA)")
        raise FileNotFoundError(path)
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    positions = [parse_line(FIRST + i, line) for i, line in enumerate(lines)]
    return [p for p in positions if numbers is None or p.number in numbers]


def solve(position: Position, core: str, time_limit_s: float) -> dict:
    start, cpu = time.perf_counter(), time.process_time()
    answer = api.search("othello", position.state, {"name": "alphabeta", "solve": True, "core": core},
                        time_limit_ms=time_limit_s * 1000)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    solved = answer.stats.stop_reason == "solved"
    right = solved and (answer.move, answer.value) in [(m, float(s)) for m, s in position.best]
    return {"seconds": seconds, "cpu_seconds": cpu, "nodes": answer.stats.nodes, "move": answer.move, "value": answer.value,
            "solved": solved, "right": right}


def run(numbers, time_limit_s: float, python_reach: int, repeat: int) -> list:
    rows = []
    for position in load_positions(numbers):
        cores = ["native"] + (["python"] if position.empties <= python_reach else [])
        runs = {core: [] for core in cores}
        for _ in range(repeat):                    # interleaved: the machine's drift hits both cores alike
            for core in cores:
                runs[core].append(solve(position, core, time_limit_s))
        row = {"number": position.number, "empties": position.empties,
               "expected": " ".join(f"{m}:{s:+d}" for m, s in position.best)}
        for core, results in runs.items():
            last = results[-1]
            seconds = statistics.median(r["seconds"] for r in results)
            cpu = statistics.median(r["cpu_seconds"] for r in results)
            row[core] = {**last, "seconds": seconds, "cpu_seconds": cpu, "nodes_per_s": last["nodes"] / max(cpu, 1e-6),
                         "right": all(r["right"] for r in results)}
        rows.append(row)
        native = row["native"]
        print(f"#{position.number} ({position.empties} empty): {native['move']} {native['value']:+.0f} "
              f"{'right' if native['right'] else 'WRONG or unsolved'} in {native['seconds']:.2f} s "
              f"({native['cpu_seconds']:.2f} s CPU)", file=sys.stderr,
              flush=True)
    return rows


def markdown(rows, time_limit_s: float) -> str:
    out = ["| FFO | empty | expected | native: answer | native wall s | native CPU s | native nodes "
           "| native nodes/s | python CPU s | python nodes/s | native/python nodes/s |",
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for row in rows:
        n, p = row["native"], row.get("python")
        answer = f"{n['move']} {n['value']:+.0f} " + ("right" if n["right"] else "**not solved**" if not n["solved"]
                                                        else "**wrong**")
        python = (f"{p['cpu_seconds']:.2f} | {p['nodes_per_s']:,.0f} | {n['nodes_per_s'] / p['nodes_per_s']:.0f}x"
                  if p else "beyond its reach | | ")
        out.append(f"| #{row['number']} | {row['empties']} | {row['expected']} | {answer} | {n['seconds']:.2f} "
                   f"| {n['cpu_seconds']:.2f} | {n['nodes']:,} | {n['nodes_per_s']:,.0f} | {python} |")
    within = sum(1 for row in rows if row["native"]["right"] and row["native"]["seconds"] <= time_limit_s)
    out.append("")
    out.append(f"{within} of {len(rows)} solved exactly (best move and disc difference) within {time_limit_s:g} s.")
    return "\n".join(out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--numbers", help="comma-separated FFO numbers (default: all)")
    parser.add_argument("--time-limit-s", type=float, default=GOAL_S)
    parser.add_argument("--python-reach", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args(argv)
    numbers = None if not args.numbers else {int(n) for n in args.numbers.split(",")}
    print(markdown(run(numbers, args.time_limit_s, args.python_reach, args.repeat), args.time_limit_s))


if __name__ == "__main__":
    main()
