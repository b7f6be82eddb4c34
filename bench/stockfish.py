"""``python -m bench.stockfish [--elos 1700 2000 2200] [--openings 1] [--skip-openings 0] [--seconds 1]``:
``auto`` against Debian's Stockfish held to a ``UCI_Elo``, a short ladder.

Stockfish (``/usr/games/stockfish``; installed here with apt-get when missing and this is root, as
scripts/test installs its Debian packages) is driven through python-chess's ``chess.engine`` with
``UCI_LimitStrength``, one thread. Each opening of :data:`bench.openings.CHESS_OPENINGS` (the first
``--openings``, after the first ``--skip-openings``: a longer match in parts, or in
parallel processes) is played twice, our side with either colour, both sides with ``--seconds`` a move, one game
at a time in this process. A game ends by the rules (python-chess's ``outcome(claim_draw=True)``), or at
``--max-plies`` by material (3 pawns or more ahead wins: :func:`bench.adjudication.material_balance`). Prints a Markdown section
for bench/STRENGTH.md: per level the result, the score's Elo difference with its 95% interval
(:mod:`bench.elo`) and what it says of our Elo on Stockfish's scale. ``--pgn PATH`` appends every game to
PATH, so that a lost game can be read again. The table ends with our rating from all the levels' games at
once (:func:`bench.elo.rating`); ``--score FILE...`` prints that table and rating for the games several runs
printed (the parts of a longer ladder), without playing.
"""
import argparse
import os
import re
import shutil
import subprocess
import time

import chess
import chess.engine
import chess.pgn

from bench import elo
from bench.adjudication import material_balance
from bench.openings import CHESS_OPENINGS

DECISIVE_LEAD = 3                     # pawns ahead at --max-plies that win an unfinished game
GAME_LINE = re.compile(r"UCI_Elo (\d+): ([WB]) ([\d.]+) (.+) (\d+)")   # as run() prints a game
TABLE_HEAD = ["| UCI_Elo | result (ours) | Elo difference [95%] | our Elo estimate | games (points, end, plies) |",
              "|---|---|---|---|---|"]


def stockfish_path() -> str:
    """Debian's stockfish, installed first when missing (as root with apt-get); SystemExit if it cannot be."""
    found = shutil.which("stockfish") or ("/usr/games/stockfish" if os.path.exists("/usr/games/stockfish") else None)
    if found is None and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "stockfish"], check=False, env=env)
        found = shutil.which("stockfish") or ("/usr/games/stockfish" if os.path.exists("/usr/games/stockfish") else None)
    if found is None:
        raise SystemExit("stockfish is not installed (apt-get install stockfish)")
    return found


def play_game(engine, opening: tuple, ours_white: bool, seconds: float, max_plies: int) -> tuple:
    """``(points for us, how it ended, the final board)`` of one game against the configured engine
    (anything with python-chess's ``play(board, limit)``); the board holds the game's moves."""
    from engine import api
    board, moves = chess.Board(), list(opening)
    for m in opening:
        board.push_uci(m)
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        if board.turn == (chess.WHITE if ours_white else chess.BLACK):
            move = api.search("chess", {"moves": moves}, {"name": "auto"}, time_limit_ms=int(seconds * 1000)).move
        else:
            move = engine.play(board, chess.engine.Limit(time=seconds)).move.uci()
        board.push_uci(move)
        moves.append(move)
    ours = chess.WHITE if ours_white else chess.BLACK
    outcome = board.outcome(claim_draw=True)
    if outcome is not None:
        points = 0.5 if outcome.winner is None else 1.0 if outcome.winner == ours else 0.0
        return points, outcome.termination.name.lower(), board
    ahead = material_balance(board) * (1 if ours_white else -1)
    points = 1.0 if ahead >= DECISIVE_LEAD else 0.0 if ahead <= -DECISIVE_LEAD else 0.5
    return points, f"adjudicated ({ahead:+d} material)", board


def pgn(board: chess.Board, level: int, ours_white: bool, points: float, end: str) -> str:
    """One game as PGN: the players, our result as the game's (an adjudicated one included), how it ended."""
    game = chess.pgn.Game.from_board(board)
    ours, theirs = "Tactician auto", f"Stockfish UCI_Elo {level}"
    game.headers["Event"] = "python -m bench.stockfish"
    game.headers["Date"] = time.strftime("%Y.%m.%d", time.gmtime())
    game.headers["White"], game.headers["Black"] = (ours, theirs) if ours_white else (theirs, ours)
    white_points = points if ours_white else 1.0 - points
    game.headers["Result"] = {1.0: "1-0", 0.0: "0-1"}.get(white_points, "1/2-1/2")
    game.headers["Termination"] = end
    return str(game) + "\n\n"


def run(elos, openings: int, seconds: float, max_plies: int, pgn_path: str | None = None, skip: int = 0) -> str:
    from engine import api
    from engine.search import native
    api.preload()
    path = stockfish_path()
    version = subprocess.run([path], input="quit\n", capture_output=True, text=True).stdout.splitlines()[0]
    lines = [f"## Chess: `auto` against Stockfish (a short ladder)\n\n`python -m bench.stockfish --elos "
             f"{' '.join(map(str, elos))} --openings {openings} --skip-openings {skip} --seconds {seconds:g} --max-plies {max_plies}`, "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {version}; our core: "
             f"{'native' if 'chess' in native.native_games() else 'python'}. {2 * openings} games a level "
             f"(each opening with both colours), {seconds:g} s a move for both, one game at a time; a game "
             f"unfinished at {max_plies} plies is adjudicated by material. Few games: the intervals are wide.\n"]
    lines += TABLE_HEAD
    played = []                                     # (level, points) of every game
    engine = chess.engine.SimpleEngine.popen_uci(path)
    try:
        for level in elos:
            engine.configure({"UCI_LimitStrength": True, "UCI_Elo": level, "Threads": 1, "Hash": 64})
            tally, games = elo.Tally(), []
            for opening in CHESS_OPENINGS[skip:skip + openings]:
                for ours_white in (True, False):
                    points, end, board = play_game(engine, opening, ours_white, seconds, max_plies)
                    tally = tally.add(points)
                    played.append((level, points))
                    games.append(f"{'W' if ours_white else 'B'} {points:g} {end} {board.ply()}")
                    if pgn_path:
                        with open(pgn_path, "a") as f:
                            f.write(pgn(board, level, ours_white, points, end))
                    print(f"UCI_Elo {level}: {games[-1]}", flush=True)
            lines.append(level_row(level, tally, games))
    finally:
        engine.quit()
    return "\n".join(lines + ["", rating_line(played)]) + "\n"


def level_row(level: int, tally: elo.Tally, games: list) -> str:
    """A level's row of the table: the result, the Elo difference with its interval, what it makes of our
    Elo, and the games."""
    s, (lo, hi) = elo.score(tally), elo.score_interval(tally)
    diff = elo.elo(s)
    estimate = "-" if diff is None else f"{level + diff:.0f}"
    return (f"| {level} | +{tally.wins} ={tally.draws} -{tally.losses}, {100 * s:.1f}% | "
            f"{elo.fmt_elo(s)} [{elo.fmt_elo(lo)}, {elo.fmt_elo(hi)}] | {estimate} | {'; '.join(games)} |")


def rating_line(played: list) -> str:
    """Our rating on Stockfish's UCI_Elo scale from every level's games at once (:func:`bench.elo.rating`)."""
    best, low, high = elo.rating(played)
    shown = ["unbounded" if x is None else f"{x}" for x in (best, low, high)]
    return (f"All {len(played)} games together: our rating on the `UCI_Elo` scale **{shown[0]}**, 95% interval "
            f"[{shown[1]}, {shown[2]}] (the likeliest under the logistic model, a draw half a win).")


def score_files(paths: list) -> str:
    """The table and the rating of several runs' printed games at once (runs in parts, or in parallel
    processes with --skip-openings): each line ``UCI_Elo N: W|B points end plies`` of the files."""
    levels: dict[int, list] = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                m = GAME_LINE.fullmatch(line.strip())
                if m:
                    levels.setdefault(int(m[1]), []).append((float(m[3]), f"{m[2]} {m[3]} {m[4]} {m[5]}"))
    if not levels:
        raise SystemExit(f"no games in {', '.join(paths)}")
    rows, played = list(TABLE_HEAD), []
    for level in sorted(levels):
        tally = elo.Tally()
        for points, _ in levels[level]:
            tally = tally.add(points)
            played.append((level, points))
        rows.append(level_row(level, tally, [text for _, text in levels[level]]))
    return "\n".join(rows + ["", rating_line(played)]) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.stockfish", description=__doc__.split("\n\n")[0])
    p.add_argument("--elos", type=int, nargs="+", default=[1700, 2000, 2200], help="Stockfish's UCI_Elo levels")
    p.add_argument("--openings", type=int, default=1, help="openings a level, each played with both colours")
    p.add_argument("--skip-openings", type=int, default=0, metavar="N", help="start after the first N openings")
    p.add_argument("--seconds", type=float, default=1.0, help="time a move for both sides (default 1)")
    p.add_argument("--max-plies", type=int, default=200, help="adjudicate by material after this many plies")
    p.add_argument("--pgn", metavar="PATH", help="append every game to PATH as PGN")
    p.add_argument("--score", nargs="+", metavar="FILE",
                   help="instead of playing: the table and rating of the games these runs printed, together")
    args = p.parse_args(argv)
    if args.score:
        print(score_files(args.score))
        return
    if args.openings < 1 or args.skip_openings < 0 or args.skip_openings + args.openings > len(CHESS_OPENINGS):
        p.error(f"--skip-openings and --openings must pick from the {len(CHESS_OPENINGS)} openings")
    print(run(args.elos, args.openings, args.seconds, args.max_plies, args.pgn, args.skip_openings))


if __name__ == "__main__":
    main()
