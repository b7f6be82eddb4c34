"""The backgammon match's arithmetic (bench/backgammon_score.py): the share of the points and its interval
over pairs of games, the points a game, the gammons and backgammons."""
import math

import pytest

from bench.backgammon_score import per_game_interval, share_interval, summary, units
from bench.elo import Z95


def test_units_are_consecutive_pairs_and_a_short_last_one():
    assert units([1, -1, 2, -3, 1]) == [[1, -1], [2, -3], [1]]


def test_share_and_its_interval_by_hand():
    points = [2, -1, 1, -1, -1, 3]            # pairs: (won 2, stake 3), (1, 2), (3, 4)
    share, low, high = share_interval(points)
    assert share == pytest.approx(6 / 9)
    residuals = [2 - 6 / 9 * 3, 1 - 6 / 9 * 2, 3 - 6 / 9 * 4]
    half = Z95 * math.sqrt(sum(r * r for r in residuals) / (3 * 2 * 3 ** 2))
    assert (low, high) == pytest.approx((6 / 9 - half, 6 / 9 + half))


def test_an_even_split_of_every_pair_has_a_zero_width_interval():
    share, low, high = share_interval([1, -1] * 10)
    assert share == low == high == 0.5


def test_interval_clipped_and_absent_without_two_units():
    share, low, high = share_interval([3, 3, 3, -1])    # pairs (won 6, stake 6), (3, 4): 0.9 +- 0.235
    assert share == pytest.approx(0.9) and low == pytest.approx(0.9 - Z95 * 0.12) and high == 1.0
    assert share_interval([1, 1, 1, 1])[1:] == (1.0, 1.0)
    assert share_interval([2, -1]) == (pytest.approx(2 / 3), None, None)
    assert share_interval([]) == (None, None, None)


def test_points_a_game_interval_over_pairs():
    mean, half = per_game_interval([1, 1, -1, -1])   # pair means 1 and -1
    assert mean == 0 and half == pytest.approx(Z95 * math.sqrt(2 / 2))
    assert per_game_interval([3]) == (3, None)


def test_summary_counts_points_gammons_and_backgammons():
    s = summary([1, -2, 3, -1, 2, -3])
    assert (s["games"], s["wins"], s["points_won"], s["points_lost"]) == (6, 3, 6, 6)
    assert s["share_of_points"] == 0.5 and s["points_per_game"] == 0
    assert s["gammons"] == [1, 1] and s["backgammons"] == [1, 1]
    assert summary([]) == {"games": 0}


def test_a_match_file_is_summed_with_its_searches(tmp_path, capsys):
    import json
    from bench.backgammon_score import main
    record = [{"kind": "contact", "depth": 2, "nodes": 300, "time_ms": 100},
              {"kind": "contact", "depth": 3, "nodes": 500, "time_ms": 100},
              {"kind": "race", "depth": 4, "nodes": 100, "time_ms": 50}]
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(json.dumps({"points": p, "searches": record[:k]})
                              for p, k in ((2, 3), (-1, 1), (1, 0))) + "\n")
    main([str(path)])
    out = json.loads(capsys.readouterr().out)
    assert (out["games"], out["points_won"], out["points_lost"]) == (3, 3, 1)
    assert out["searches"]["contact"] == {"searches": 3, "depths": {"2": 0.667, "3": 0.333},
                                          "nodes_per_s": 3667, "max_ms": 100}
    assert out["searches"]["race"]["nodes_per_s"] == 2000


def test_several_match_files_keep_their_pairs(tmp_path, capsys):
    """Two processes' files make one match: each file's games stay in pairs, and a file's last game whose
    pair was not finished is left out (one file alone is taken whole)."""
    import json
    from bench.backgammon_score import main
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text("".join(json.dumps({"points": p, "searches": []}) + "\n" for p in (1, -1, 2)))
    second.write_text("".join(json.dumps({"points": p, "searches": []}) + "\n" for p in (-3, 1)))
    main([str(first), str(second)])
    out = json.loads(capsys.readouterr().out)
    assert (out["games"], out["points_won"], out["points_lost"], out["unpaired_left_out"]) == (4, 2, 4, 1)
    assert out["share_of_points"] == pytest.approx(summary([1, -1, -3, 1])["share_of_points"])
    main([str(first)])
    assert json.loads(capsys.readouterr().out)["games"] == 3
