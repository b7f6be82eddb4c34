"""``python -m bench.go_match --log PATH [--games 20] [--size 9] [--iterations 45000] [--playout P] [--rave]
[--opponent gnugo --level 10 | --opponent self --their-playout P [--their-iterations N] [--their-rave]]``: Go matches of the
compiled core's MCTS, at a fixed number of playouts a move, against GNU Go or against another setting of
itself.

Our side is ``tactician_native.search("go", ...)`` with ``algorithm.iterations`` playouts a move (a fixed
budget, so that a loaded machine changes the time a game takes but not its moves) and the compiled core's
own settings (``playout``: ``light`` or ``guided``, native/src/games/go.hpp; ``rave``), which the Python
engine's settings do not carry. GNU Go runs as ``gnugo --mode gtp --level N --chinese-rules
--capture-all-dead --komi K``: area scoring and every dead stone taken off before it passes, so that the
game's end is Tromp-Taylor's (engine/games/go: two passes in a row), which scores it. A game still going at
``--max-plies`` is scored as the board stands. Our side takes Black in the even games and White in the odd
ones.

The log is JSON lines: a first line with the run (the command, the commit, the date, the settings), then a
line a game as it ends. A run with a log that has games already plays only the games still missing (the
settings must be the log's), so a stopped match resumes. At the end it prints the tally from our side with
its Elo difference and 95% interval (:mod:`bench.elo`), by colour too.
"""
import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import tactician_native

from bench import elo, machine
from bench.match import points
from engine import api
from engine.games.go import BOARD, START
from engine.games.go.board import vertex
from engine.games.go.scoring import margin

DEBIAN_GNUGO = "/usr/games/gnugo"
TREE_ENTRIES = 2_000_000


class Ours:
    """The compiled core's MCTS with fixed settings: ``move(game, state, seed)`` is its answer's vertex."""

    def __init__(self, iterations: int, playout: str, rave: bool):
        self.settings = {"iterations": iterations, "playout": playout, "rave": rave,
                         "tt_max_entries": TREE_ENTRIES, "rollout": "random"}

    def start(self, size: int, komi: float) -> None:
        """A new game (nothing to reset: each move is searched from its position)."""

    def play(self, colour: str, move: str) -> None:
        """The other side's move (the position comes whole with each search)."""

    def move(self, game, state, seed: int) -> str:
        answer = tactician_native.search("go", game.native_state(state), "mcts", {**self.settings, "seed": seed},
                                         None, tactician_native.Token(), None)
        return vertex(answer["move"], game.size)

    def close(self) -> None:
        """Nothing to release."""


def gnugo_path() -> str:
    """GNU Go on the PATH, or Debian's (/usr/games, often off root's PATH); SystemExit without either."""
    found = shutil.which("gnugo") or (DEBIAN_GNUGO if os.path.exists(DEBIAN_GNUGO) else None)
    if found is None:
        raise SystemExit("GNU Go is not installed (apt-get install gnugo)")
    return found


class GnuGo:
    """GNU Go over GTP, one process for the match, its board cleared for every game."""

    def __init__(self, level: int, komi: float):
        self.process = subprocess.Popen([gnugo_path(), "--mode", "gtp", "--level", str(level), "--chinese-rules",
                                         "--capture-all-dead", "--komi", str(komi)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def command(self, line: str) -> str:
        """GTP ``line``'s answer; RuntimeError for an error answer."""
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer = []
        while (text := self.process.stdout.readline()) not in ("\n", ""):
            answer.append(text.strip())
        reply = " ".join(answer)
        if not reply.startswith("="):
            raise RuntimeError(f"gnugo answered {reply!r} to {line!r}")
        return reply[1:].strip()

    def start(self, size: int, komi: float) -> None:
        self.command(f"boardsize {size}")
        self.command("clear_board")
        self.command(f"komi {komi}")

    def play(self, colour: str, move: str) -> None:
        self.command(f"play {colour} {move}")

    def move(self, game, state, seed: int) -> str:
        return self.command(f"genmove {'BW'[game.to_move(state)]}")

    def close(self) -> None:
        self.command("quit")
        self.process.wait(timeout=10)


def play_game(seats: tuple, size: int, komi: float, max_plies: int, seed: int) -> dict:
    """One game, ``seats`` (Black, White) each told the other's moves: Black's margin by Tromp-Taylor
    (a resignation: the resigner loses by the board's points), the plies, how it ended and the moves."""
    game, state = api.load("go", {"size": size, "komi": komi, "moves": []})
    for seat in seats:
        seat.start(size, komi)
    moves = []
    while not game.is_terminal(state) and len(moves) < max_plies:
        mover = game.to_move(state)
        move = seats[mover].move(game, state, seed * 1000 + len(moves))
        if move.lower() == "resign":
            return {"margin": (-1 if mover == 0 else 1) * size * size, "plies": len(moves), "end": "resigned",
                    "moves": moves}
        seats[1 - mover].play("BW"[mover], move)
        state = game.result(state, game.move_from_json(move, state))
        moves.append(move)
    end = "two passes" if game.is_terminal(state) else f"scored at {max_plies} plies"
    return {"margin": margin(state[BOARD], size, state[START].komi), "plies": len(moves), "end": end, "moves": moves}


def tally(games: list) -> tuple:
    """The tally from our side over ``games`` (the log's records), and by our colour (Black, White)."""
    total, by_colour = elo.Tally(), {"B": elo.Tally(), "W": elo.Tally()}
    for g in games:
        total = total.add(g["points"])
        by_colour[g["ours"]] = by_colour[g["ours"]].add(g["points"])
    return total, by_colour


def read_log(path: Path, run: dict) -> list:
    """The games of the log at ``path`` (none when it is new, after writing ``run`` as its first line);
    SystemExit when the log is of other settings."""
    if not path.exists() or path.stat().st_size == 0:
        path.write_text(json.dumps({"run": run}) + "\n")
        return []
    first, *rest = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if first["run"]["settings"] != run["settings"]:
        raise SystemExit(f"{path} holds games of other settings: {first['run']['settings']}")
    return rest


def arguments(argv):
    p = argparse.ArgumentParser(prog="python -m bench.go_match", description=__doc__.split("\n\n")[0])
    p.add_argument("--log", type=Path, required=True, help="the JSON-lines log, appended to game by game")
    p.add_argument("--games", type=int, default=20, help="games in all, colours alternating (default 20)")
    p.add_argument("--size", type=int, default=9)
    p.add_argument("--komi", type=float, default=7.0)
    p.add_argument("--max-plies", type=int, default=400, help="score the board as it stands after this many")
    p.add_argument("--iterations", type=int, default=45_000, help="our playouts a move (default 45,000)")
    p.add_argument("--playout", choices=("light", "guided"), default="light", help="our playout policy")
    p.add_argument("--rave", action="store_true", help="our MCTS with RAVE")
    p.add_argument("--opponent", choices=("gnugo", "self"), default="gnugo")
    p.add_argument("--level", type=int, default=10, help="GNU Go's --level (0-10)")
    p.add_argument("--their-playout", choices=("light", "guided"), default="light", help="--opponent self's")
    p.add_argument("--their-iterations", type=int, help="--opponent self's playouts a move (default: ours)")
    p.add_argument("--their-rave", action="store_true", help="--opponent self with RAVE")
    return p.parse_args(argv)


def main(argv=None):
    args = arguments(argv)
    settings = {k: v for k, v in vars(args).items() if k not in ("log", "games")}
    run = {"command": "python -m bench.go_match " + " ".join(sys.argv[1:] if argv is None else argv),
           "commit": machine.git_commit(), "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
           "settings": settings}
    games = read_log(args.log, run)
    api.preload()
    ours = Ours(args.iterations, args.playout, args.rave)
    theirs = (GnuGo(args.level, args.komi) if args.opponent == "gnugo" else
              Ours(args.their_iterations or args.iterations, args.their_playout, args.their_rave))
    try:
        for i in range(len(games), args.games):
            colour = "BW"[i % 2]
            g = play_game((ours, theirs) if colour == "B" else (theirs, ours), args.size, args.komi,
                          args.max_plies, seed=i + 1)
            record = {"game": i, "ours": colour, "points": points([g["margin"], -g["margin"]], "BW".index(colour)),
                      "commit": machine.git_commit(), **g}
            with args.log.open("a") as fh:
                fh.write(json.dumps(record) + "\n")
            games.append(record)
            print(f"game {i + 1}/{args.games}: ours {colour}, margin {g['margin']:+}, {g['plies']} plies ({g['end']})"
                  f" -> {elo.describe(tally(games)[0])}", flush=True)
    finally:
        theirs.close()
    total, by_colour = tally(games)
    print(f"ours: {elo.describe(total)}")
    for colour, t in by_colour.items():
        if t.games:
            print(f"  ours as {colour}: {elo.describe(t)}")


if __name__ == "__main__":
    main()
