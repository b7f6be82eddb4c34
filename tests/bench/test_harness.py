"""Light, fast checks of the benchmark harness (no peers, no engine searches)."""
import json

import pytest

from bench import c4sets, report, stats
from bench.__main__ import ALL, parse_args
from bench.workloads import alternate


def test_median_odd_even():
    assert stats.median([3, 1, 2]) == 2
    assert stats.median([4, 1, 3, 2]) == 2.5
    with pytest.raises(ValueError):
        stats.median([])


def test_percentile_interpolates_like_numpy():
    xs = list(range(1, 101))  # 1..100
    assert stats.percentile(xs, 0) == 1
    assert stats.percentile(xs, 100) == 100
    assert stats.percentile(xs, 50) == 50.5
    assert stats.percentile(xs, 99) == pytest.approx(99.01)
    assert stats.percentile([5], 99) == 5


def test_nearest_rank_takes_a_sample_as_locust_does():
    xs = list(range(1, 101))
    assert stats.nearest_rank(xs, 50) == 50 and stats.nearest_rank(xs, 99) == 99
    assert stats.nearest_rank([3, 1, 2], 50) == 2 and stats.nearest_rank([7], 99) == 7


def test_summary_and_ratio():
    s = stats.summary([1.0, 2.0, 3.0])
    assert s["n"] == 3 and s["median"] == 2.0 and s["mean"] == 2.0 and s["max"] == 3.0
    assert stats.summary([]) is None
    assert stats.ratio(1.0, 4.0) == 0.25
    assert stats.ratio(None, 4.0) is None
    assert stats.ratio(1.0, None) is None
    assert stats.ratio(1.0, 0.0) is None


def test_formatting():
    assert stats.fmt_ms(None) == "-"
    assert stats.fmt_ms(0.0123) == "12 µs"
    assert stats.fmt_ms(1.5) == "1.50 ms"
    assert stats.fmt_ms(25.04) == "25.0 ms"
    assert stats.fmt_ms(715.2) == "715 ms"
    assert stats.fmt_ms(1350) == "1.35 s"
    assert stats.fmt_ratio(0.5031) == "0.503"
    assert stats.fmt_ratio(27.08) == "27.1"
    assert stats.fmt_count(549946) == "549,946"
    assert stats.fmt_met(True) == "yes" and stats.fmt_met(False) == "NO" and stats.fmt_met(None) == "-"


def test_table_text_and_markdown():
    text = stats.format_table(["a", "bb"], [["1", "x|y"], ["22", None]])
    lines = text.splitlines()
    assert lines[0].split() == ["a", "bb"]
    assert lines[3].split() == ["22", "-"]
    md = stats.format_table(["a", "bb"], [["1", "x|y"]], markdown=True)
    assert md.splitlines()[0] == "| a | bb |"
    assert md.splitlines()[2] == "| 1 | x\\|y |"
    with pytest.raises(ValueError):
        stats.format_table(["a"], [["1", "2"]])


def test_report_rows_render_with_notes_and_serialise():
    rows = [report.make_row("w", "ours alone", peer="P (missing)", ours_ms=12.0, goal="ratio <= 0.5",
                            note="peer missing"),
            report.make_row("w", "pair", peer="P", ours_ms=1.0, peer_ms=4.0, ratio=0.25, ours_nodes=10,
                            peer_nodes=12, goal="ratio <= 0.5", met=True)]
    out = report.render(rows)
    assert "0.25" in out and "10 / 12" in out and "[1] w / ours alone: peer missing" in out
    assert "yes" in out
    md = report.render(rows, markdown=True)
    assert md.startswith("| # | workload |")
    json.dumps(rows)


def test_the_markdown_page_says_when_and_on_what():
    rows = [report.make_row("w", "pair", ours_ms=1.0, peer_ms=4.0, ratio=0.25, goal="ratio <= 0.5", met=True),
            report.make_row("w", "alone", ours_ms=9.0, goal="<= 2 ms", met=False)]
    machine = {"cpu_model": "Some CPU", "cores": 2, "usable_cores": 2, "platform": "Linux-x86_64",
               "implementation": "CPython", "python": "3.11.7", "peers": {"open_spiel": "2.0.2"},
               "git_commit": "abc1234", "load_average": [0.5, 0.25, 0.1], "load_average_end": [1.0, 0.5, 0.2]}
    page = report.markdown_document({"date": "2026-11-21T23:00:00+00:00", "mode": "full", "repeat": 5,
                                     "seconds": 1234.5, "machine": machine, "rows": rows})
    for expected in ("2026-11-21T23:00:00+00:00", "Some CPU, 2 cores", "CPython 3.11.7", "open_spiel 2.0.2",
                     "abc1234", "0.50 / 0.25 / 0.10", "goals met: 1/2", "`python -m bench`",
                     "| # | workload |"):
        assert expected in page, expected


def test_alternate_rotates_order_and_reports_errors():
    calls = []

    def a():
        calls.append("a")
        return 1

    def b():
        calls.append("b")
        raise RuntimeError("boom")

    def c():
        calls.append("c")
        return 3

    samples, last, errors = alternate([("a", a), ("b", b), ("c", c)], 3, min_sample_s=0)
    # one untimed call each, then rounds a b c / b c a / c a b with the failing b dropped
    assert calls == ["a", "b", "c", "a", "c", "c", "a", "c", "a"]
    assert len(samples["a"]) == 3 and len(samples["c"]) == 3 and samples["b"] == []
    assert last == {"a": 1, "c": 3}
    assert errors == {"b": "RuntimeError: boom"}


def test_alternate_batches_fast_calls():
    n = {"x": 0}

    def x():
        n["x"] += 1

    samples, _, _ = alternate([("x", x)], 2, min_sample_s=0.01)
    assert len(samples["x"]) == 2
    assert n["x"] > 3  # the calibration call, then batches of several calls per sample


@pytest.mark.parametrize("moves,score,want", [
    ("2252576253462244111563365343671351441", -1, ("loss", 4)),
    ("7422341735647741166133573473242566", 1, ("win", 7)),
    ("23163416124767223154467471272416755633", 0, ("draw", 4)),
    ("67152117737262713366376314254", 6, ("win", 3)),
])
def test_expected_outcome_and_plies_from_score(moves, score, want):
    # these were checked against an exhaustive mate-distance search (see bench/README.md)
    assert c4sets.expected(moves, score) == want


def test_parse_line_and_load_set(tmp_path):
    assert c4sets.parse_line("4453 -2\n") == ("4453", -2)
    with pytest.raises(ValueError):
        c4sets.parse_line("4458 0")
    (tmp_path / "Test_X").write_text("11 0\n22 1\n33 -1\n")
    assert c4sets.load_set("Test_X", 2, directory=tmp_path) == [("11", 0), ("22", 1)]
    assert c4sets.load_set("missing", directory=tmp_path) is None


def test_random_positions_are_legal_unfinished_and_reproducible():
    a = c4sets.random_positions(20, 12, seed=3)
    assert a == c4sets.random_positions(20, 12, seed=3)
    assert len(set(a)) == 20
    for moves in a:
        assert len(moves) == 12
        assert all(moves.count(str(c)) <= 6 for c in range(1, 8))


def test_cli_options():
    args = parse_args(["--quick", "--only", "mcts", "--only", "http-overhead", "--repeat", "3",
                       "--json", "/tmp/x.json"])
    assert args.quick and args.only == ["mcts", "http-overhead"] and args.repeat == 3
    assert args.json == "/tmp/x.json"
    assert "connect4-solve" in ALL and "deadline-overshoot" in ALL
    with pytest.raises(SystemExit):
        parse_args(["--only", "nope"])
    with pytest.raises(SystemExit):
        parse_args(["--repeat", "0"])
