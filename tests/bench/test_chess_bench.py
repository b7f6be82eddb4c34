"""bench.chess's depth section: the nodes it reports are the searches' own, on either core."""
import re

from bench import chess as bench_chess
from engine import api


def test_the_depth_section_reports_each_position_and_the_total(monkeypatch):
    monkeypatch.setitem(bench_chess.CORE, "core", "python")
    lines = bench_chess.fixed_depth(2)
    expected = [api.search("chess", {"fen": fen}, {"name": "alphabeta", "depth": 2, "core": "python"}).stats.nodes
                for fen in bench_chess.DEPTH_FENS]
    rows = [line for line in lines if line.startswith("| `")]
    assert [int(row.split("|")[2]) for row in rows] == expected
    total = re.search(r"\*\*(\d+) nodes in", lines[0])
    assert total is not None and int(total.group(1)) == sum(expected)
    assert lines[0].startswith("Depth 2 (python core)")
