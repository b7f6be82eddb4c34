"""A GTP engine for Go (``scripts/tactician-gtp``, or ``python -m protocols.gtp``).

It speaks the Go Text Protocol version 2 that GUIs (Sabaki, GoGui), servers' bots and other engines (GNU
Go's ``twogtp``) drive: ``protocol_version``, ``name``, ``version``, ``known_command``, ``list_commands``,
``quit``, ``boardsize``, ``clear_board``, ``komi``, ``fixed_handicap``, ``play``, ``genmove``, ``undo``,
``final_score``, ``showboard``, ``time_settings`` and ``time_left``. A command may carry a numeric id, which
its answer repeats (``=id result`` or ``?id error``, each ended by an empty line).

The game is a Go state of :mod:`engine.games.go` (size, komi, handicap and the moves), in which Black moves
first and the players alternate: a ``play`` or ``genmove`` of the colour not to move (as after
``fixed_handicap``, where White moves first) first passes for the other colour. ``genmove`` is one
:func:`engine.api.Search` of ``auto`` (MCTS for Go) at the ``--level`` asked for; its time is the clock's
allotment (:mod:`engine.clock`: the soft limit, as MCTS has no iterations to manage) when ``time_settings``
gave a clock, else ``--move-time``.
"""
import argparse
import sys

from engine import api
from engine.clock import Allotment, Clock, allot
from engine.errors import EngineError
from engine.games.go import BOARD, START
from engine.games.go.board import COLUMNS, MAX_SIZE, MIN_SIZE, rows, vertex
from engine.games.go.load import DEFAULT_KOMI, DEFAULT_SIZE, handicap_points
from engine.games.go.scoring import margin, result_text
import tactician

NAME = "Tactician"
COMMANDS = ("protocol_version", "name", "version", "known_command", "list_commands", "quit", "boardsize",
            "clear_board", "komi", "fixed_handicap", "play", "genmove", "undo", "final_score", "showboard",
            "time_settings", "time_left")
COLOURS = {"b": "B", "black": "B", "w": "W", "white": "W"}
DEFAULT_MOVE_TIME_MS = 1000.0
MOVES_PER_EMPTY_POINT = 0.25    # a sudden-death clock expects a move of its own for every four empty points
MIN_MOVES_TO_GO = 10


class GtpError(Exception):
    """A command that fails: its message is GTP's error text."""


class Engine:
    """The protocol's state: the board's size, komi and handicap, the moves so far, and the clocks."""

    def __init__(self, level: int = 10, move_time_ms: float = DEFAULT_MOVE_TIME_MS):
        self.level, self.move_time_ms = level, move_time_ms
        self.size, self.komi, self.handicap = DEFAULT_SIZE, DEFAULT_KOMI, 0
        self.moves: list[str] = []
        self.settings: tuple[float, float, int] | None = None   # main time, byo-yomi time (s), stones
        self.left: dict[str, tuple[float, int]] = {}             # colour: (seconds, stones) from time_left

    # --- the protocol ----------------------------------------------------------------------------

    def handle(self, line: str) -> tuple[str | None, bool]:
        """``(answer, go on)`` for one line: the answer with its ``=``/``?`` and the empty line that ends it
        (None for a line that is no command), and False once ``quit`` is answered."""
        words = line.split("#", 1)[0].replace("\t", " ").split()
        if not words:
            return None, True
        ident = words.pop(0) if words[0].isdigit() else ""
        if not words:
            return f"?{ident} no command\n\n", True
        command, args = words[0].lower(), words[1:]
        if command not in COMMANDS:
            return f"?{ident} unknown command\n\n", True
        try:
            result = getattr(self, "on_" + command)(args)
        except GtpError as error:
            return f"?{ident} {error}\n\n", True
        body = f" {result}" if result else ""
        return f"={ident}{body}\n\n", command != "quit"

    def on_protocol_version(self, _):
        return "2"

    def on_name(self, _):
        return NAME

    def on_version(self, _):
        return tactician.__version__

    def on_known_command(self, args):
        return "true" if args and args[0].lower() in COMMANDS else "false"

    def on_list_commands(self, _):
        return "\n".join(COMMANDS)

    def on_quit(self, _):
        return ""

    def on_boardsize(self, args):
        size = number(args, int)
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise GtpError("unacceptable size")
        self.size = size
        self.on_clear_board(args)
        return ""

    def on_clear_board(self, _):
        self.moves, self.handicap, self.left = [], 0, {}
        return ""

    def on_komi(self, args):
        komi = number(args, float)
        try:
            api.load("go", {"size": self.size, "komi": komi})
        except EngineError:
            raise GtpError("syntax error") from None
        self.komi = komi
        return ""

    def on_fixed_handicap(self, args):
        stones = number(args, int)
        if self.moves or self.handicap:
            raise GtpError("board not empty")
        try:
            points = handicap_points(self.size, stones)
        except ValueError:
            raise GtpError("invalid number of stones") from None
        self.handicap = stones
        return " ".join(vertex(p, self.size) for p in points)

    def on_play(self, args):
        if len(args) != 2 or args[0].lower() not in COLOURS:
            raise GtpError("syntax error")
        colour, move = COLOURS[args[0].lower()], args[1]
        if move.lower() == "resign":
            return ""
        moves = self.turned(colour) + [move]
        try:
            api.load("go", self.state(moves))
        except EngineError:
            raise GtpError("illegal move") from None
        self.moves = moves
        return ""

    def on_genmove(self, args):
        if len(args) != 1 or args[0].lower() not in COLOURS:
            raise GtpError("syntax error")
        colour = COLOURS[args[0].lower()]
        moves = self.turned(colour)
        state = self.state(moves)
        try:
            search = api.Search("go", state, {"name": "auto", "level": self.level}, self.time_limit_ms(colour, state))
        except EngineError:           # the game is over (two passes): nothing to do but pass
            search = None
        move = "pass" if search is None else str(search.run().move)
        self.moves = moves + [move]
        return move.upper() if move != "pass" else move

    def on_undo(self, _):
        if not self.moves:
            raise GtpError("cannot undo")
        self.moves.pop()
        return ""

    def on_final_score(self, _):
        _, state = api.load("go", self.state(self.moves))
        return result_text(margin(state[BOARD], self.size, state[START].komi))

    def on_showboard(self, _):
        _, state = api.load("go", self.state(self.moves))
        letters = "   " + " ".join(COLUMNS[: self.size])
        lines = [letters] + [f"{self.size - r:2} {' '.join(row)} {self.size - r}"
                             for r, row in enumerate(rows(state[BOARD], self.size))] + [letters]
        return "\n" + "\n".join(lines)

    def on_time_settings(self, args):
        main, byo_yomi, stones = number(args[:1], float), number(args[1:2], float), number(args[2:3], int)
        if min(main, byo_yomi, stones) < 0:
            raise GtpError("syntax error")
        # GTP: byo-yomi time without stones means no time limit.
        self.settings = None if byo_yomi > 0 and stones == 0 else (main, byo_yomi, stones)
        self.left = {}
        return ""

    def on_time_left(self, args):
        if len(args) != 3 or args[0].lower() not in COLOURS:
            raise GtpError("syntax error")
        self.left[COLOURS[args[0].lower()]] = (number(args[1:2], float), number(args[2:3], int))
        return ""

    # --- the game ---------------------------------------------------------------------------------

    def state(self, moves: list[str]) -> dict:
        out = {"size": self.size, "komi": self.komi, "moves": moves}
        if self.handicap:
            out["handicap"] = self.handicap
        return out

    def turned(self, colour: str) -> list[str]:
        """The moves so far, with a pass for the other colour when ``colour`` is not to move."""
        to_move = "B" if len(self.moves) % 2 == 0 else "W"
        return list(self.moves) if colour == to_move else self.moves + ["pass"]

    def allotment(self, colour: str, state: dict) -> Allotment | None:
        """The clock's allotment for ``colour`` (:mod:`engine.clock`), or None without a clock. In main time
        the moves to go are guessed from the empty points (a move of one's own for every four); in
        byo-yomi they are the period's stones."""
        if self.settings is None:
            return None
        main, byo_yomi, stones = self.settings
        seconds, left_stones = self.left.get(colour, (main, 0) if main > 0 else (byo_yomi, stones))
        if left_stones:
            return allot(Clock(seconds * 1000.0, moves_to_go=left_stones))
        _, position = api.load("go", state)
        empty = position[BOARD].count(0)
        moves_to_go = max(MIN_MOVES_TO_GO, int(empty * MOVES_PER_EMPTY_POINT))
        return allot(Clock(seconds * 1000.0, moves_to_go=moves_to_go), ply=len(state["moves"]))

    def time_limit_ms(self, colour: str, state: dict) -> float:
        allotment = self.allotment(colour, state)
        return self.move_time_ms if allotment is None else allotment.soft_ms


def number(args: list, kind):
    """The first of ``args`` as ``kind`` (int or float); GTP's ``syntax error`` when it is none."""
    try:
        return kind(args[0])
    except (IndexError, ValueError):
        raise GtpError("syntax error") from None


def main(argv=None, stdin=sys.stdin, stdout=sys.stdout) -> None:
    parser = argparse.ArgumentParser(description="Tactician's Go engine over GTP")
    parser.add_argument("--level", type=int, default=10, choices=range(1, 11), help="auto's level, 1-10")
    parser.add_argument("--move-time", type=float, default=DEFAULT_MOVE_TIME_MS,
                        help="milliseconds a move without a clock (time_settings) may take")
    args = parser.parse_args(argv)
    api.preload()
    engine = Engine(args.level, args.move_time)
    for line in stdin:
        answer, going = engine.handle(line)
        if answer is not None:
            stdout.write(answer)
            stdout.flush()
        if not going:
            break


if __name__ == "__main__":
    main()
