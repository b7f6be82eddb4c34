"""A UCI engine on the compiled core (``scripts/tactician-uci``, or ``python -m protocols.uci``).

It speaks the Universal Chess Interface that GUIs (cute-chess, Arena) and bots (lichess-bot) drive: ``uci``,
``isready``, ``setoption`` (``MultiPV``, ``Hash``, ``Level``, ``Move Overhead``, ``UCI_ShowWDL``), ``ucinewgame``,
``position [startpos | fen F] [moves ...]``, ``go`` with ``wtime btime winc binc movestogo nodes depth movetime
infinite ponder searchmoves``, ``stop``, ``ponderhit`` and ``quit``. Each ``go`` is one :class:`engine.api.Search` on its own
thread, reporting ``info`` lines after every iteration; ``stop`` cancels it and the best move so far is
played. Under a clock the move's time comes from :mod:`engine.clock`; ``infinite`` and ``ponder`` search
until ``stop`` (and ``ponderhit`` starts the clock's allotment then). With ``UCI_ShowWDL`` every ``info``
line with a score also says ``wdl W D L``, per mille for the side to move (engine.scale.wdl).
"""
from dataclasses import dataclass
import sys
import threading
import time

import chess

from engine import api, scale
from engine.clock import Allotment, Clock, TimeManager, allot
from engine.limits import Limits
from engine.scale import WON_PAWNS

NAME, AUTHOR = "Tactician", "the Tactician developers"
TT_ENTRY_BYTES = 16
OPTIONS = {  # name: (type, default, min, max)
    "MultiPV": ("spin", 1, 1, 5),
    "Hash": ("spin", 64, 1, 1024),
    "Level": ("spin", 10, 1, 10),
    "Move Overhead": ("spin", 30, 0, 5000),
}
CHECKS = {"UCI_ShowWDL": False}  # the options of type check: name, default
GO_NUMBERS = ("wtime", "btime", "winc", "binc", "movestogo", "nodes", "depth", "movetime")
GO_FLAGS = ("infinite", "ponder", "searchmoves")


@dataclass
class Go:
    """A ``go`` command's limits (milliseconds for the times), and the root moves it searches alone
    (``searchmoves``; None: all)."""

    numbers: dict
    infinite: bool = False
    ponder: bool = False
    searchmoves: list | None = None


def parse_go(words: list) -> Go:
    """A ``go`` command's words as a :class:`Go`: each number after its name, ``searchmoves`` the moves
    that follow it up to the next of the command's words."""
    go, i = Go({}), 0
    while i < len(words):
        word = words[i]
        if word in GO_NUMBERS and i + 1 < len(words):
            go.numbers[word] = int(words[i + 1])
            i += 2
            continue
        go.infinite |= word == "infinite"
        go.ponder |= word == "ponder"
        i += 1
        if word == "searchmoves":
            go.searchmoves = []
            while i < len(words) and words[i] not in GO_NUMBERS + GO_FLAGS:
                go.searchmoves.append(words[i])
                i += 1
    return go


def info_score(value: float, outcome: str | None = None, plies: int | None = None) -> str:
    """UCI's ``score``: ``mate N`` for a proven win in N moves (negative: mated), else ``cp``."""
    if outcome in ("win", "loss") and plies is not None:
        moves = (plies + 1) // 2
        return f"mate {moves if outcome == 'win' else -moves}"
    if outcome == "draw":
        return "cp 0"
    cp = int(round(max(-WON_PAWNS, min(WON_PAWNS, value)) * 100))
    return f"cp {cp}"


class Engine:
    """The protocol's state: the position, the options and the search running, if any."""

    def __init__(self, out=sys.stdout):
        self.out, self.lock = out, threading.Lock()
        self.options = {**{name: spec[1] for name, spec in OPTIONS.items()}, **CHECKS}
        self.fen, self.moves, self.white_to_move, self.ply = chess.STARTING_FEN, [], True, 0
        self.search: api.Search | None = None
        self.thread: threading.Thread | None = None
        self.released = threading.Event()   # an infinite or ponder search may answer (stop, ponderhit)
        self.go: Go | None = None
        self.warming = threading.Thread(target=api.preload, daemon=True)
        self.warming.start()

    def send(self, line: str) -> None:
        with self.lock:
            self.out.write(line + "\n")
            self.out.flush()

    def handle(self, line: str) -> bool:
        """Act on one line; False once ``quit`` is read."""
        words = line.split()
        if not words:
            return True
        command, rest = words[0], words[1:]
        if command == "quit":
            self.stop()
            return False
        handler = getattr(self, "on_" + command, None)
        if handler is not None:
            handler(rest)
        return True

    def on_uci(self, _):
        self.send(f"id name {NAME}")
        self.send(f"id author {AUTHOR}")
        for name, (kind, default, low, high) in OPTIONS.items():
            self.send(f"option name {name} type {kind} default {default} min {low} max {high}")
        for name, checked in CHECKS.items():
            self.send(f"option name {name} type check default {str(checked).lower()}")
        self.send("uciok")

    def on_isready(self, _):
        self.warm()
        self.send("readyok")

    def warm(self):
        """Wait for the games' tables and the compiled core, loading since start-up on their own thread, so
        that no clock pays for them (GUIs wait for ``readyok``)."""
        self.warming.join()

    def on_ucinewgame(self, _):
        self.stop()
        self.fen, self.moves, self.white_to_move, self.ply = chess.STARTING_FEN, [], True, 0

    def on_setoption(self, words):
        text = " ".join(words)
        name, _, value = text.partition(" value ")
        name = name.removeprefix("name ").strip()
        canonical = next((n for n in self.options if n.lower() == name.lower()), None)
        if canonical is None:
            self.send(f"info string unknown option {name}")
            return
        if canonical in CHECKS:
            self.set_check(canonical, value.strip().lower())
            return
        try:
            number = int(value)
        except ValueError:
            self.send(f"info string option {name} takes an integer")
            return
        spec = OPTIONS[canonical]
        self.options[canonical] = max(spec[2], min(spec[3], number))

    def set_check(self, name: str, value: str) -> None:
        """A check option set to ``true`` or ``false``; any other value is refused."""
        if value not in ("true", "false"):
            self.send(f"info string option {name} takes true or false")
            return
        self.options[name] = value == "true"

    def on_position(self, words):
        fen, moves = chess.STARTING_FEN, []
        if words and words[0] == "fen":
            end = words.index("moves") if "moves" in words else len(words)
            fen = " ".join(words[1:end])
            words = words[end:]
        elif words and words[0] == "startpos":
            words = words[1:]
        if words and words[0] == "moves":
            moves = words[1:]
        try:
            board = chess.Board(fen)
            for move in moves:
                board.push_uci(move)
        except ValueError as error:
            self.send(f"info string position refused: {error}")
            return
        self.fen, self.moves, self.white_to_move, self.ply = fen, moves, board.turn == chess.WHITE, board.ply()

    def algorithm(self, go: Go) -> dict:
        """``auto`` at the Level, except where UCI asks for what only the full-strength search gives (auto's
        configuration for chess: the enhanced alpha-beta): a depth, several lines, or no time limit."""
        multi_pv, level = self.options["MultiPV"], self.options["Level"]
        full = "depth" in go.numbers or go.infinite or go.ponder or (multi_pv > 1 and level == 10)
        algorithm = {"name": "alphabeta"} if full else {"name": "auto", "level": level}
        if "depth" in go.numbers:
            algorithm["depth"] = max(1, go.numbers["depth"])
        if full and multi_pv > 1:
            algorithm["multi_pv"] = multi_pv
        if "nodes" in go.numbers:
            algorithm["nodes"] = max(1, go.numbers["nodes"])
        return algorithm

    def allotment(self, go: Go) -> Allotment | None:
        """The clock's allotment for the side to move, or None when ``go`` gives no clock."""
        white = self.white_to_move
        mine, theirs = ("wtime", "btime") if white else ("btime", "wtime")
        if mine not in go.numbers:
            return None
        increment = go.numbers.get("winc" if white else "binc", 0)
        clock = Clock(go.numbers[mine], increment, go.numbers.get("movestogo"), go.numbers.get(theirs),
                      self.options["Move Overhead"])
        return allot(clock, ply=len(self.moves))

    def time_limit_ms(self, go: Go, allotment: Allotment | None) -> float | None:
        if go.infinite or go.ponder:
            return None
        if "movetime" in go.numbers:
            return max(1.0, go.numbers["movetime"] - self.options["Move Overhead"])
        return None if allotment is None else allotment.hard_ms

    def on_go(self, words):
        self.stop()
        self.warm()
        go = parse_go(words)
        allotment = self.allotment(go)
        self.go, self.released = go, threading.Event()
        if not (go.infinite or go.ponder):
            self.released.set()
        limits = Limits(tt_max_entries=self.options["Hash"] * 2**20 // TT_ENTRY_BYTES)
        state = {"fen": self.fen, "moves": list(self.moves)}
        try:
            self.search = api.Search("chess", state, self.algorithm(go), self.time_limit_ms(go, allotment),
                                     limits=limits, search_moves=go.searchmoves)
        except Exception as error:        # a finished game, or a position the engine refuses
            self.send(f"info string no search: {error}")
            self.send("bestmove 0000")
            return
        manager = TimeManager(allotment) if allotment is not None and not go.ponder else None
        self.thread = threading.Thread(target=self.think, args=(self.search, manager), daemon=True)
        self.thread.start()

    def think(self, search: api.Search, manager: TimeManager | None):
        started = time.perf_counter()

        def on_progress(progress):
            self.report(progress, started)
            if manager is not None and manager.stop_after(progress):
                search.cancel()

        try:
            result = search.run(on_progress)
        except Exception as error:     # never leave the GUI waiting for a bestmove
            self.send(f"info string the search failed: {error}")
            self.released.wait()
            self.send("bestmove 0000")
            return
        self.released.wait()
        self.report_final(result)
        ponder = f" ponder {result.pv[1]}" if len(result.pv) > 1 else ""
        self.send(f"bestmove {result.move}{ponder}")

    def report(self, progress, started: float):
        lines = progress.lines or [None]
        for k, line in enumerate(lines, 1):
            value, pv = (progress.value, progress.pv) if line is None else (line.value, line.pv)
            nps = int(progress.nodes / max(progress.time_ms, 1e-3) * 1000)
            multipv = f" multipv {k}" if progress.lines else ""
            seldepth = f" seldepth {progress.seldepth}" if progress.seldepth else ""
            wdl = self.wdl_words(scale.wdl(progress.value_scale or scale.PAWNS, value, None, self.ply))
            self.send(f"info depth {progress.depth}{seldepth}{multipv} score {info_score(value)}{wdl} nodes "
                      f"{progress.nodes} nps {nps} time {int(progress.time_ms)} pv {' '.join(map(str, pv))}")

    def report_final(self, result):
        """The answer's ``info`` line; without ``score`` when the search valued no move in its time."""
        stats = result.stats
        score = "" if result.value is None else f" score {info_score(result.value, result.outcome, result.plies_to_end)}"
        score += self.wdl_words(result.wdl)
        self.send(f"info depth {stats.depth_completed or 0}{score} nodes {stats.nodes} "
                  f"time {int(stats.time_ms)} pv {' '.join(map(str, result.pv or [result.move]))}")

    def wdl_words(self, wdl: dict | None) -> str:
        """`` wdl W D L`` after a score where ``UCI_ShowWDL`` is set and the value has one, else nothing."""
        if not self.options["UCI_ShowWDL"] or wdl is None:
            return ""
        return f" wdl {wdl['win']} {wdl['draw']} {wdl['loss']}"

    def on_stop(self, _):
        self.stop()

    def on_ponderhit(self, _):
        """The move pondered was played: search on under the clock's allotment from now, then answer."""
        search, go = self.search, self.go
        if search is None or go is None:
            return
        allotment = self.allotment(go)
        self.released.set()
        if allotment is not None:
            threading.Timer(allotment.soft_ms / 1000.0, search.cancel).start()

    def stop(self):
        """Stop the search running, if any, and wait for its ``bestmove``."""
        if self.search is not None:
            self.search.cancel()
            self.released.set()
        if self.thread is not None:
            self.thread.join()
        self.search = self.thread = None


def main(stdin=sys.stdin, stdout=sys.stdout) -> None:
    engine = Engine(stdout)
    for line in stdin:
        if not engine.handle(line.strip()):
            break
    engine.stop()


if __name__ == "__main__":
    main()
