"""bench.cores_cpu: both cores' CPU time side by side, on a search small enough for a test."""
import pytest

from bench import cores_cpu
from tests.native.conftest import needs_native

TINY = ("backgammon", {"points": [0, 2, 2, 3, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -3, -3, -3, -2, -2, -2],
                       "off": {"X": 4, "O": 0}, "to_move": "O", "dice": [5, 2]},
        {"name": "expectimax", "depth": 2}, "a race, depth 2")


def test_a_backgammon_row_is_timed_on_both_cores_with_the_same_answer():
    needs_native("backgammon")
    [row] = cores_cpu.measure([TINY], rounds=3)
    assert row["label"] == "backgammon: a race, depth 2" and row["same"] and row["nodes"] > 1
    assert row["native_ms"] > 0 and row["python_ms"] > 0 and row["speedup"] == row["python_ms"] / row["native_ms"]


def test_rounds_below_two_are_refused():
    with pytest.raises(SystemExit):
        cores_cpu.main(["--rounds", "1"])
