"""Issue 34 #5: the summary table at the top of bench/RESULTS.md describes the code it measured, or says
it is stale (bench/summary.py)."""
import pytest

from bench import summary
from bench.__main__ import complete, parse_args

HEAD = summary.git("rev-parse", "--short", "HEAD").stdout.strip()
NOT_A_CHECKOUT = pytest.mark.skipif(not HEAD, reason="not a git checkout: no history to check against")


def page(commit: str, stale: str = "") -> str:
    return (f"# Benchmark results\n\n- date: 2026-11-26T10:00:00+00:00\n- engine: git commit {commit}\n{stale}"
            "- goals met: 7/9\n\n| # | workload |\n| --- | --- |\n| 1 | mcts |\n")


@NOT_A_CHECKOUT
def test_the_summary_table_matches_the_engine_or_says_it_is_stale():
    """Fails once engine/ or native/ changed after the commit the table records: rerun `python -m bench`
    (or mark the table stale: `python -m bench.summary --mark-stale`)."""
    table, _ = summary.split(summary.RESULTS.read_text())
    assert summary.problems(table) == []


@NOT_A_CHECKOUT
@pytest.mark.parametrize("changed, stale, complaint", [
    ([], "", None),
    (["engine/games"], "", "rerun `python -m bench`"),
    (["engine/games"], "- **stale since {head}**: no longer the code; rerun. Changed since: `engine/games`.\n", None),
    (["engine/games", "native/src"],
     "- **stale since {head}**: no longer the code; rerun. Changed since: `engine/games`.\n", "native/src"),
])
def test_a_table_is_fresh_or_marked_stale_with_what_changed(monkeypatch, changed, stale, complaint):
    monkeypatch.setattr(summary, "changed_parts", lambda commit: changed)
    found = summary.problems(page(HEAD, stale.format(head=HEAD)))
    assert (found == []) if complaint is None else (complaint in found[0])


@NOT_A_CHECKOUT
@pytest.mark.parametrize("commit, complaint", [("0123abc", "not an ancestor of HEAD"),
                                               (f"{HEAD}+uncommitted", "uncommitted changes")])
def test_a_table_from_another_history_or_a_dirty_tree_is_refused(commit, complaint):
    assert complaint in summary.problems(page(commit))[0]


@NOT_A_CHECKOUT
def test_marking_stale_lists_what_changed_and_a_complete_run_rewrites_only_the_summary(tmp_path, monkeypatch):
    results = tmp_path / "RESULTS.md"
    sections = "## Goals not met\n\nfigures kept as they are\n"
    results.write_text(page(HEAD) + "\n" + sections)
    monkeypatch.setattr(summary, "changed_parts", lambda commit: ["engine/search"])
    line = summary.mark_stale(results)
    assert line.startswith(f"- **stale since {HEAD}**") and "`engine/search`" in line
    assert summary.mark_stale(results) == line and results.read_text().count("stale since") == 1
    assert summary.problems(summary.split(results.read_text())[0]) == []
    summary.write(page(HEAD), results)                  # what a complete run does
    assert results.read_text() == page(HEAD) + "\n" + sections


def test_only_a_complete_full_run_rewrites_the_summary():
    assert complete(parse_args([]))
    assert not complete(parse_args(["--quick"])) and not complete(parse_args(["--only", "mcts"]))
