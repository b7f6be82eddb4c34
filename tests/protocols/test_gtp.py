"""The GTP engine: its commands one by one (in process), and a real game against GNU Go, each program
relaying the other's moves as twogtp does (scripts/tactician-gtp as a subprocess)."""
import os
from pathlib import Path
import shutil
import subprocess
import time

import pytest

from protocols import gtp

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "tactician-gtp"
GNUGO = shutil.which("gnugo") or ("/usr/games/gnugo" if Path("/usr/games/gnugo").exists() else None)
KO = ["A3", "B3", "B4", "C4", "B2", "C2", "pass", "D3", "C3"]


def run(engine, *lines):
    return [engine.handle(line)[0] for line in lines]


def test_answers_carry_the_id_and_end_with_an_empty_line():
    engine = gtp.Engine()
    assert run(engine, "protocol_version", "7 name", "version", "known_command genmove", "known_command fly") == [
        "= 2\n\n", "=7 Tactician\n\n", "= 0.1.0\n\n", "= true\n\n", "= false\n\n"]
    assert run(engine, "3 fly", "", "# a comment") == ["?3 unknown command\n\n", None, None]
    assert engine.handle("list_commands")[0] == "= " + "\n".join(gtp.COMMANDS) + "\n\n"
    assert engine.handle("quit") == ("=\n\n", False)


def test_the_board_size_komi_and_moves_are_checked():
    engine = gtp.Engine()
    assert run(engine, "boardsize 1", "boardsize 20", "boardsize x", "komi abc", "komi 1e9") == [
        "? unacceptable size\n\n"] * 2 + ["? syntax error\n\n"] * 3
    assert run(engine, "boardsize 5", "komi 0.5") == ["=\n\n"] * 2
    for move in KO:
        colour = "b" if len(engine.moves) % 2 == 0 else "w"
        assert engine.handle(f"play {colour} {move}")[0] == "=\n\n"
    # The ko's retake repeats a position; an occupied point, a point off the board and the letter I are no moves.
    assert run(engine, "play w B3", "play w C3", "play w F1", "play w I1", "play x A1") == [
        "? illegal move\n\n"] * 4 + ["? syntax error\n\n"]
    # Black: four stones and the captured point B3 between them; White three stones; the rest reaches both.
    assert run(engine, "final_score") == ["= B+1.5\n\n"]
    assert engine.handle("undo")[0] == "=\n\n" and engine.moves == KO[:-1]


def test_a_colour_out_of_turn_passes_for_the_other_and_handicap_stones_come_first():
    engine = gtp.Engine()
    assert run(engine, "boardsize 9", "fixed_handicap 2", "play w E5") == ["=\n\n", "= C3 G7\n\n", "=\n\n"]
    assert engine.moves == ["pass", "E5"] and engine.handicap == 2
    assert run(engine, "fixed_handicap 3") == ["? board not empty\n\n"]
    board = engine.handle("showboard")[0].splitlines()
    assert board[1] == "   A B C D E F G H J" and board[4] == " 7 . . . . . . X . . 7" and board[6] == " 5 . . . . O . . . . 5"
    assert run(engine, "clear_board", "fixed_handicap 10") == ["=\n\n", "? invalid number of stones\n\n"]


def test_genmove_plays_a_legal_move_in_its_time():
    engine = gtp.Engine(move_time_ms=200)
    run(engine, "boardsize 7", "play b D4")
    started = time.perf_counter()
    answer = engine.handle("genmove w")[0]
    assert time.perf_counter() - started < 2.0
    move = answer[2:-2]
    assert engine.moves == ["D4", move.lower() if move == "pass" else move] and move != "D4"


def test_the_clock_sets_the_time_of_a_move():
    engine = gtp.Engine()
    state = engine.state([])
    assert engine.time_limit_ms("B", state) == gtp.DEFAULT_MOVE_TIME_MS
    run(engine, "time_settings 600 30 5")
    # Main time: 600 s over the moves to go that the empty points suggest (361 / 4 = 90).
    assert engine.time_limit_ms("B", state) == pytest.approx((600_000 - 30) / 90, rel=0.01)
    run(engine, "time_left b 20 5")              # in byo-yomi: 20 s for 5 stones
    assert engine.time_limit_ms("B", state) == pytest.approx((20_000 - 30) / 5, rel=0.01)
    run(engine, "time_settings 0 1 0")           # byo-yomi without stones: no time limit
    assert engine.time_limit_ms("W", state) == gtp.DEFAULT_MOVE_TIME_MS


class Program:
    """A GTP program on pipes."""

    def __init__(self, *command):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(self, line: str) -> str:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            read = self.process.stdout.readline()
            assert read, f"the program ended at {line!r}"
            if read == "\n" and lines:
                break
            lines.append(read.rstrip("\n"))
        answer = "\n".join(lines)
        assert answer.startswith("="), (line, answer)
        return answer[1:].strip()

    def close(self):
        self.process.stdin.write("quit\n")
        self.process.stdin.flush()
        self.process.wait(timeout=30)


def stones(showboard: str, size: int) -> list[str]:
    """The rows of a showboard answer (ours or GNU Go's), top first, as '.', 'X', 'O'."""
    out = []
    for line in showboard.splitlines():
        words = line.split()
        if words and words[0].isdigit() and len(words) > size:
            out.append("".join("." if w in ".+" else w for w in words[1:size + 1]))
    return out


def test_a_game_against_gnu_go():
    if GNUGO is None:
        if os.environ.get("CI") == "true":
            pytest.fail("GNU Go is missing: scripts/test installs it (apt-get install gnugo)")
        pytest.skip("GNU Go is not installed (apt-get install gnugo)")
    size, limit = 5, 80
    ours = Program(str(SCRIPT), "--move-time", "150")
    gnugo = Program(GNUGO, "--mode", "gtp", "--level", "1", "--chinese-rules")
    try:
        for program in (ours, gnugo):
            program.send(f"boardsize {size}")
            program.send("komi 0.5")
        played, passes = [], 0
        players = {"B": (ours, gnugo), "W": (gnugo, ours)}
        while passes < 2 and len(played) < limit:
            colour = "B" if len(played) % 2 == 0 else "W"
            mover, other = players[colour]
            move = mover.send(f"genmove {colour}")
            if move.lower() == "resign":
                break
            other.send(f"play {colour} {move}")                # the other program accepts it as legal
            passes = passes + 1 if move.lower() == "pass" else 0
            played.append(move)
        assert len(played) >= 4
        assert stones(ours.send("showboard"), size) == stones(gnugo.send("showboard"), size)
        assert ours.send("final_score")[0] in "BW0"
    finally:
        ours.close()
        gnugo.close()
