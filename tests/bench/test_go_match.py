"""bench.go_match: Go games of the compiled core against itself and GNU Go, logged and resumed."""
import json
import os
import shutil

import pytest

from tests.native.conftest import needs_native

pytest.importorskip("tactician_native")

from bench import go_match  # noqa: E402  (it imports the compiled core)


@pytest.fixture(autouse=True)
def _native():
    needs_native("go")


def records(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_game_of_two_settings_ends_by_the_rules_and_scores_by_them():
    seats = (go_match.Ours(60, "light", False), go_match.Ours(60, "guided", False))
    g = go_match.play_game(seats, 5, 7.0, 200, seed=1)
    assert g["end"] == "two passes" and g["moves"][-2:] == ["pass", "pass"] and g["plies"] == len(g["moves"])
    assert float(g["margin"]).is_integer() and abs(g["margin"]) <= 25 + 7   # komi 7: a whole number


def test_a_match_appends_its_games_and_resumes_where_it_stopped(tmp_path):
    log = tmp_path / "go.jsonl"
    common = ["--log", str(log), "--size", "5", "--iterations", "40", "--opponent", "self", "--playout", "guided"]
    go_match.main(common + ["--games", "1"])
    first = records(log)
    go_match.main(common + ["--games", "2"])
    lines = records(log)
    assert lines[:2] == first and len(lines) == 3 and [g["ours"] for g in lines[1:]] == ["B", "W"]
    assert lines[0]["run"]["settings"]["playout"] == "guided" and "commit" in lines[0]["run"]
    with pytest.raises(SystemExit):
        go_match.main(common[:-1] + ["light", "--games", "3"])


def test_tally_counts_our_points_by_colour():
    games = [{"ours": "B", "points": 1.0}, {"ours": "W", "points": 0.5}, {"ours": "W", "points": 0.0}]
    total, by_colour = go_match.tally(games)
    assert (total.wins, total.draws, total.losses) == (1, 1, 1)
    assert by_colour["B"].games == 1 and by_colour["W"].draws == 1


@pytest.mark.skipif(not (shutil.which("gnugo") or os.path.exists(go_match.DEBIAN_GNUGO)),
                    reason="GNU Go is not installed")
def test_a_game_against_gnu_go_is_played_to_its_end(tmp_path):
    log = tmp_path / "gnugo.jsonl"
    go_match.main(["--log", str(log), "--games", "1", "--size", "5", "--iterations", "40", "--level", "1"])
    game = records(log)[1]
    assert game["ours"] == "B" and game["points"] in (0.0, 0.5, 1.0) and game["end"] in ("two passes", "resigned")
