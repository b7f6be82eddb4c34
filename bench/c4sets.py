"""The standard Connect Four test sets (Pascal Pons' benchmark), read from the shared data directory.

The sets are never copied into the project. They are looked up in ``$TACTICIAN_C4_DATA`` when set, else in
``../shared/data/connect4`` relative to the repository root. When they are missing, :func:`random_positions`
makes unlabelled positions (random legal play from the empty board) so that the timing still runs; those
rows say so, and only their agreement with a peer can be checked.
"""
import os
import random
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA_DIR = REPO_ROOT.parent / "shared" / "data" / "connect4"

# name in the data directory -> (name in Pons' benchmark, the C++ solver's published mean time in ms and
# mean nodes per position, from the data README; for Test_L1_R2, the first 100 positions)
SETS = {
    "Test_L3_R1": ("End-Easy", 0.006, 51),
    "Test_L2_R1": ("Middle-Easy", 0.052, 449),
    "Test_L2_R2": ("Middle-Medium", 5.1, 39_808),
    "Test_L1_R1": ("Begin-Easy", 0.33, 3_296),
    "Test_L1_R2": ("Begin-Medium", 146.0, 1_100_000),
}

WIDTH, HEIGHT, CELLS = 7, 6, 42


def data_dir():
    env = os.environ.get("TACTICIAN_C4_DATA")
    return Path(env) if env else DEFAULT_DATA_DIR


def parse_line(line):
    """``"<moves> <score>"`` -> ``(moves, score)``."""
    parts = line.split()
    if len(parts) != 2 or not parts[0].isdigit() or not set(parts[0]) <= set("1234567"):
        raise ValueError(f"not a test-set line: {line!r}")
    return parts[0], int(parts[1])


def load_set(name, limit=None, directory=None):
    """The first ``limit`` (all when None) ``(moves, score)`` pairs of a set, or None if the file is absent."""
    path = Path(directory or data_dir()) / name
    if not path.is_file():
        return None
    out = []
    with open(path, encoding="ascii") as fh:
        for line in fh:
            if line.strip():
                out.append(parse_line(line))
                if limit is not None and len(out) >= limit:
                    break
    return out


def expected(moves, score):
    """``(outcome, plies_to_end)`` for the player to move, from a test-set score (data README):
    the winner wins with their ``22 - |score|``-th stone, so the board then holds ``43 - 2|score|``
    stones if the first player wins, ``44 - 2|score|`` if the second does; a draw fills the board."""
    played = len(moves)
    if score == 0:
        return "draw", CELLS - played
    mover_is_first = played % 2 == 0
    winner_is_first = mover_is_first if score > 0 else not mover_is_first
    stones = (43 if winner_is_first else 44) - 2 * abs(score)
    return ("win" if score > 0 else "loss"), stones - played


def outcome_of_value(value):
    """A game value from the mover's point of view (+ win, 0 draw, - loss) as an outcome word."""
    return "win" if value > 0 else "loss" if value < 0 else "draw"


def _won(heights, grid, col):
    """Whether the stone just dropped in ``col`` completes four in a row. ``grid[c][r]`` is 0/1/2."""
    r = heights[col] - 1
    who = grid[col][r]
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for sign in (1, -1):
            c, rr = col + sign * dc, r + sign * dr
            while 0 <= c < WIDTH and 0 <= rr < HEIGHT and grid[c][rr] == who:
                n += 1
                c, rr = c + sign * dc, rr + sign * dr
        if n >= 4:
            return True
    return False


def random_positions(count, plies, seed=0):
    """``count`` distinct move strings of ``plies`` random legal moves from the empty board, none of them
    finished and none with an immediate win for the player to move (so they are not trivial). Unlabelled:
    their game-theoretic value is unknown."""
    rng = random.Random(seed)
    seen, out = set(), []
    attempts = 0
    while len(out) < count:
        attempts += 1
        if attempts > count * 1000:
            raise RuntimeError("could not generate enough random positions")
        heights, grid, moves = [0] * WIDTH, [[0] * HEIGHT for _ in range(WIDTH)], []
        ok = True
        for ply in range(plies):
            col = rng.choice([c for c in range(WIDTH) if heights[c] < HEIGHT])
            grid[col][heights[col]] = 1 + ply % 2
            heights[col] += 1
            moves.append(str(col + 1))
            if _won(heights, grid, col):
                ok = False
                break
        if not ok:
            continue
        # reject positions where the player to move wins at once
        who = 1 + plies % 2
        for col in range(WIDTH):
            if heights[col] < HEIGHT:
                grid[col][heights[col]] = who
                heights[col] += 1
                win = _won(heights, grid, col)
                heights[col] -= 1
                grid[col][heights[col]] = 0
                if win:
                    ok = False
                    break
        s = "".join(moves)
        if ok and s not in seen:
            seen.add(s)
            out.append(s)
    return out
