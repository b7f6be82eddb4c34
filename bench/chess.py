"""``python -m bench.chess [--seconds 1] [--mate-seconds 5] [--core auto|native|python] [--sections ...]
[--depth 8] [--data DIR]``: our chess engine against sunfish, and our two cores side by side.

Both engines run in this process, one position at a time, with the same time per position:

- Bratko-Kopec (``bratko_kopec.epd``): solved when the move is one of the position's ``bm`` moves;
- the mates in 3 (``mate3.fen``): solved when the move mates in 3 against any defence. A move is checked,
  whoever played it, by our search after each reply (a win for the mover proven within 3 plies by its
  full-width mate search), with ``--verify-seconds`` for each;
- from the start position: nodes per second and the depth reached in the same time;
- ``cores``: nodes per second of the compiled core and the Python core from the start position, the two
  interleaved (native, python, native, ...) so that the machine's drift and load fall on both alike;
- ``depth``: the work a node, for comparing two builds: nodes and CPU seconds of the searching thread to a
  fixed depth (``--depth``) from four positions. The nodes are the same on every build of the same search,
  and the thread's CPU time leaves out the other processes' share of a loaded machine.

``--core`` chooses our core for the other sections (default: the compiled core where it is built);
``--sections`` which sections run (default all).

Our side goes through ``engine.api.search`` (alpha-beta, its defaults). Sunfish (``pip install -r
requirements-bench.txt``) is driven as its own UCI loop drives it: iterative MTD-bi with an in-search
deadline (read at every node, so that it stops on time), the move of the last completed depth. The
positions come from /work/shared/data/chess (not copied into the repository). Prints a Markdown section
for bench/RESULTS.md.
"""
import argparse
import os
import platform
import time
from pathlib import Path

import chess

REPO_ROOT = Path(__file__).resolve().parent.parent
START = chess.STARTING_FEN


def data_dir() -> Path:
    """``$TACTICIAN_CHESS_DATA`` when set, else ``../shared/data/chess`` next to the repository (a worktree
    elsewhere falls back on the machine's ``/work/shared/data/chess``)."""
    env = os.environ.get("TACTICIAN_CHESS_DATA")
    if env:
        return Path(env)
    beside = REPO_ROOT.parent / "shared" / "data" / "chess"
    return beside if beside.is_dir() else Path("/work/shared/data/chess")


def read_epd(path: Path) -> list:
    """``[(fen, {bm SAN}, id)]`` of an EPD file with ``bm`` and ``id`` operations."""
    out = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        board, ops = chess.Board.from_epd(line)
        out.append((board.fen(), set(board.san(m) for m in ops["bm"]), ops.get("id", "")))
    return out


def read_fens(path: Path) -> list:
    return [" ".join(line.split()[:4]) + " 0 1" for line in path.read_text().splitlines() if line.strip()]


# --- our engine ----------------------------------------------------------------------------------

USED = {"ours": [], "sunfish": []}             # the seconds each engine really took, position by position
SECTIONS = ("cores", "start", "bk", "mates", "depth")
# The depth section's positions: the start, Kiwipete, the Italian game after 3.Bc4 and Bratko-Kopec's third.
DEPTH_FENS = (START, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
              "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
              "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1")
CORE = {"core": None}                          # --core: None lets the engine choose
PEER = {"sunfish": True}                       # --no-sunfish: our side alone (two builds side by side)


def ours(fen: str, seconds: float, core: str | None = None) -> tuple:
    """``(uci, result)`` of our default alpha-beta in ``seconds`` (on ``core``, else --core's)."""
    from engine import api
    algorithm = {"name": "alphabeta"}
    if core or CORE["core"]:
        algorithm["core"] = core or CORE["core"]
    start = time.perf_counter()
    result = api.search("chess", {"fen": fen}, algorithm, time_limit_ms=int(seconds * 1000))
    USED["ours"].append(time.perf_counter() - start)
    return result.move, result


# --- sunfish ---------------------------------------------------------------------------------------

def sunfish_move(fen: str, seconds: float) -> tuple:
    """``(uci, nodes, depth, seconds used)``: sunfish's move after ``seconds`` (see
    :func:`bench.peers.sunfish_move`)."""
    from bench import peers
    move, nodes, depth, used = peers.sunfish_move(peers.sunfish_history(fen, []), fen.split()[1] == "b", seconds)
    USED["sunfish"].append(used)
    return move, nodes, depth, used


# --- scoring -------------------------------------------------------------------------------------

def san(fen: str, uci: str | None) -> str | None:
    if uci is None:
        return None
    board = chess.Board(fen)
    move = chess.Move.from_uci(uci)
    return board.san(move) if move in board.legal_moves else None


def mates_in_three(fen: str, uci: str | None, verify_seconds: float) -> bool:
    """Whether ``uci`` mates in 3: checkmate at once, or after every reply a win for the mover proven by
    our search within 3 plies (its full-width mate search; ``verify_seconds`` for each reply)."""
    from engine import api
    if san(fen, uci) is None:
        return False
    board = chess.Board(fen)
    board.push_uci(uci)
    if board.is_checkmate():
        return True
    if board.is_game_over():
        return False
    for reply in list(board.legal_moves):
        board.push(reply)
        ended, after = board.is_game_over(), board.fen()
        board.pop()
        if ended:                                        # the reply mates, stalemates or draws
            return False
        result = api.search("chess", {"fen": after}, {"name": "alphabeta"}, time_limit_ms=int(verify_seconds * 1000))
        if result.outcome != "win" or result.plies_to_end > 3:
            return False
    return True


def cores_side_by_side(seconds: float, rounds: int) -> list:
    """Markdown lines: nodes/s from the start position on each core, ``rounds`` interleaved pairs."""
    rows, ratios = [], []
    for n in range(1, rounds + 1):
        native_result, python_result = ours(START, seconds, "native")[1], ours(START, seconds, "python")[1]
        a, b = native_result.stats, python_result.stats
        ratios.append(a.nodes_per_second / max(b.nodes_per_second, 1))
        rows.append(f"| {n} | {a.nodes_per_second} ({a.depth_completed}) | {b.nodes_per_second} "
                    f"({b.depth_completed}) | {ratios[-1]:.1f} |")
    ratios.sort()
    return ([f"Nodes/s from the start position, {seconds:g} s a search, the cores interleaved: median ratio "
             f"**{ratios[len(ratios) // 2]:.1f}x** (native / python).\n",
             "| round | native nodes/s (depth) | python nodes/s (depth) | ratio |", "|---|---|---|---|"]
            + rows + [""])


def fixed_depth(depth: int) -> list:
    """Markdown lines: nodes and the searching thread's CPU seconds of our alpha-beta (its defaults) to
    ``depth`` plies from each of DEPTH_FENS, and in all (the time includes loading the FEN: milliseconds)."""
    from engine import api
    rows, nodes, cpu = [], 0, 0.0
    algorithm = {"name": "alphabeta", "depth": depth, **({"core": CORE["core"]} if CORE["core"] else {})}
    for fen in DEPTH_FENS:
        start = time.thread_time()       # (the compiled core searches in this thread, the lock released)
        result = api.search("chess", {"fen": fen}, algorithm)
        used = time.thread_time() - start
        nodes, cpu = nodes + result.stats.nodes, cpu + used
        rows.append(f"| `{fen}` | {result.stats.nodes} | {used:.3f} | {san(fen, result.move)} |")
    return ([f"Depth {depth} ({result.stats.core} core): **{nodes} nodes in {cpu:.3f} CPU seconds, "
             f"{nodes / max(cpu, 1e-9):.0f} nodes a CPU second**.\n",
             "| position | nodes | CPU seconds | move |", "|---|---|---|---|"] + rows + [""])


def run(data: Path, seconds: float, verify_seconds: float, mate_seconds: float, sections=SECTIONS,
        rounds: int = 5, depth: int = 8) -> str:
    from engine import api
    api.preload()
    ours(START, 0.05)                                    # warm up (first-call costs are not measured)
    lines = [f"## Chess\n\n`python -m bench.chess --seconds {seconds:g} --core {CORE['core'] or 'auto'} "
             f"--sections {' '.join(sections)}{'' if PEER['sunfish'] else ' --no-sunfish'}` on {platform.python_implementation()} "
             f"{platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; both "
             f"engines in one process, one position at a time, {seconds:g} s each.\n"]
    if "cores" in sections:
        lines += cores_side_by_side(seconds, rounds)
    if "depth" in sections:
        lines += fixed_depth(depth)
    if "start" in sections:
        lines += start_position(seconds)
    if "bk" in sections:
        lines += bratko_kopec(data, seconds)
    if "mates" in sections:
        lines += mates(data, mate_seconds, verify_seconds)
    lines.append("\nSeconds really used a position (mean / max): " + ", ".join(
        f"{side} {sum(t) / len(t):.2f} / {max(t):.2f}" for side, t in USED.items() if t) + ".")
    return "\n".join(lines) + "\n"


def start_position(seconds: float) -> list:
    lines = []
    move, result = ours(START, seconds)
    s_move, s_nodes, s_depth, s_used = sunfish_move(START, seconds)
    lines.append("| From the start position | nodes | nodes/s | depth completed | seconds used | move |\n"
                 "|---|---|---|---|---|---|")
    lines.append(f"| ours (alphabeta) | {result.stats.nodes} | {result.stats.nodes_per_second} | "
                 f"{result.stats.depth_completed} | {result.stats.time_ms / 1000:.2f} | {san(START, move)} |")
    lines.append(f"| sunfish | {s_nodes} | {int(s_nodes / s_used)} | {s_depth} | {s_used:.2f} | "
                 f"{san(START, s_move)} |\n")
    return lines


def bratko_kopec(data: Path, seconds: float) -> list:
    lines = []
    bk = read_epd(data / "bratko_kopec.epd")
    rows, ours_solved, sunfish_solved, nodes, depths = [], 0, 0, 0, 0
    for fen, best, name in bk:
        move, result = ours(fen, seconds)
        s_move = sunfish_move(fen, seconds)[0] if PEER["sunfish"] else None
        a, b = san(fen, move) in best, san(fen, s_move) in best
        ours_solved, sunfish_solved = ours_solved + a, sunfish_solved + b
        nodes, depths = nodes + result.stats.nodes, depths + result.stats.depth_completed
        rows.append(f"| {name} | {'/'.join(sorted(best))} | {san(fen, move)}{' ✓' if a else ''} | "
                    f"{san(fen, s_move)}{' ✓' if b else ''} | {result.stats.depth_completed} | {result.stats.nodes} |")
    peer = f", sunfish {sunfish_solved} / {len(bk)}" if PEER["sunfish"] else ""
    lines.append(f"Bratko-Kopec: **ours {ours_solved} / {len(bk)}{peer}**; ours: {nodes} nodes in all, mean depth "
                 f"{depths / len(bk):.2f}.\n")
    lines.append("| id | best | ours | sunfish | our depth | our nodes |\n|---|---|---|---|---|---|")
    lines += rows
    return lines


def mates(data: Path, mate_seconds: float, verify_seconds: float) -> list:
    lines = []
    positions = read_fens(data / "mate3.fen")
    rows, ours_solved, sunfish_solved, proven = [], 0, 0, 0
    for n, fen in enumerate(positions, 1):
        move, result = ours(fen, mate_seconds)
        s_move = sunfish_move(fen, mate_seconds)[0]
        a, b = mates_in_three(fen, move, verify_seconds), mates_in_three(fen, s_move, verify_seconds)
        ours_solved, sunfish_solved = ours_solved + a, sunfish_solved + b
        proven += result.outcome == "win" and result.plies_to_end == 5
        rows.append(f"| {n} | {san(fen, move)}{' ✓' if a else ''} | {result.outcome} {result.plies_to_end} | "
                    f"{result.stats.time_ms / 1000:.2f} | "
                    f"{san(fen, s_move)}{' ✓' if b else ''} |")
    lines.append(f"\nMates in 3, {mate_seconds:g} s a position for each engine: **ours {ours_solved} / "
                 f"{len(positions)} (proven `win` in 5 plies within that time: {proven}), sunfish {sunfish_solved} / "
                 f"{len(positions)}**.\n")
    lines.append("| # | ours | our proof | our seconds | sunfish |\n|---|---|---|---|---|")
    lines += rows
    return lines


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.chess", description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=1.0, help="time per position for each engine (default 1)")
    p.add_argument("--verify-seconds", type=float, default=10.0,
                   help="time for each proof, after a reply, that a move mates in 3 (default 10)")
    p.add_argument("--mate-seconds", type=float, default=5.0,
                   help="time per mate-in-3 position for each engine (default 5, the issue's limit)")
    p.add_argument("--data", type=Path, default=data_dir(), help="the directory of the test positions")
    p.add_argument("--core", choices=("auto", "native", "python"), default="auto",
                   help="our core for the sections but cores (default auto: the compiled one where built)")
    p.add_argument("--sections", nargs="+", choices=SECTIONS, default=list(SECTIONS), help="the sections to run")
    p.add_argument("--rounds", type=int, default=5, help="interleaved pairs of the cores section (default 5)")
    p.add_argument("--depth", type=int, default=8, help="the depth section's depth in plies (default 8)")
    p.add_argument("--no-sunfish", action="store_true",
                   help="Bratko-Kopec without sunfish (our side alone: two builds run side by side)")
    args = p.parse_args(argv)
    CORE["core"] = None if args.core == "auto" else args.core
    PEER["sunfish"] = not args.no_sunfish
    print(run(args.data, args.seconds, args.verify_seconds, args.mate_seconds, args.sections, args.rounds,
              args.depth))


if __name__ == "__main__":
    main()
