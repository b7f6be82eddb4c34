"""bench.ab: one timing runs a checkout's own engine and reports its CPU time and nodes; the report names
both checkouts' medians, their ratio and node counts."""
from pathlib import Path
import subprocess

import pytest

from bench import ab

ROOT = Path(__file__).resolve().parents[2]
TINY = ("tic-tac-toe d2", "tictactoe", {"board": ["X..", ".O.", "..."]}, {"name": "alphabeta", "depth": 2})


def test_a_timing_is_the_checkouts_search(tmp_path):
    seconds, nodes = ab.timed(str(ROOT), TINY)
    assert 0 <= seconds < 10 and nodes > 1
    (tmp_path / "engine").mkdir()                   # a checkout without an engine cannot be timed
    with pytest.raises(subprocess.CalledProcessError):
        ab.timed(str(tmp_path), TINY)


def test_the_report_compares_both_checkouts(monkeypatch, capsys):
    monkeypatch.setattr(ab, "WORKLOADS", (TINY,))
    ab.main([str(ROOT), str(ROOT), "--rounds", "1"])
    line = capsys.readouterr().out.strip()
    assert line.startswith("tic-tac-toe d2: A ") and " B/A " in line
    nodes = line.split("nodes A ")[1]
    assert nodes.split(" B ")[0] == nodes.split(" B ")[1]          # the same search, the same nodes
