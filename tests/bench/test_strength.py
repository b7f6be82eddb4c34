"""The match harness's arithmetic and plumbing (fast: no timed search, no peer)."""
import math

import pytest

from bench import elo, match, openings, players, solo_summary, strength
from engine import api
from engine.game import CHANCE


def tally(wins, draws, losses):
    return elo.Tally(wins, draws, losses)


def test_score_counts_a_draw_as_half():
    assert elo.score(tally(3, 2, 5)) == pytest.approx(0.4)
    assert elo.score(tally(0, 4, 0)) == 0.5
    with pytest.raises(ValueError):
        elo.score(tally(0, 0, 0))


def test_tally_add():
    t = elo.Tally().add(1).add(0.5).add(0).add(1)
    assert (t.wins, t.draws, t.losses, t.games) == (2, 1, 1, 4)
    with pytest.raises(ValueError):
        t.add(0.25)


def test_elo_of_known_scores():
    assert elo.elo(0.5) == 0
    assert elo.elo(10 / 11) == pytest.approx(400)        # 10 to 1: 400 points
    assert elo.elo(0.75) == pytest.approx(190.848, abs=1e-3)
    assert elo.elo(0.25) == pytest.approx(-elo.elo(0.75))
    assert elo.elo(1.0) is None and elo.elo(0.0) is None
    with pytest.raises(ValueError):
        elo.elo(1.5)


def test_score_interval_by_hand():
    # 6 wins, 2 draws, 2 losses: s = 0.7; per-game variance (6*.09 + 2*.04 + 2*.49)/10 = 0.16.
    lo, hi = elo.score_interval(tally(6, 2, 2))
    half = elo.Z95 * math.sqrt(0.16 / 10)
    assert (lo, hi) == (pytest.approx(0.7 - half), pytest.approx(0.7 + half))
    assert elo.elo_interval(tally(6, 2, 2)) == (pytest.approx(elo.elo(0.7 - half)),
                                                pytest.approx(elo.elo(0.7 + half)))


def test_all_draws_have_a_point_interval_and_all_wins_an_unbounded_elo():
    assert elo.score_interval(tally(0, 10, 0)) == (0.5, 0.5)
    assert elo.elo_interval(tally(10, 0, 0)) == (None, None)
    s = elo.summary(tally(10, 0, 0))
    assert s["score"] == 1.0 and s["elo"] is None
    assert elo.describe(tally(10, 0, 0)).endswith("Elo +inf [+inf, +inf]")
    assert elo.describe(tally(0, 0, 3)).endswith("Elo -inf [-inf, -inf]")
    assert elo.describe(tally(3, 1, 0)).startswith("+3 =1 -0, score 87.5%, Elo +338 [")


def test_points_by_seat():
    assert match.points([1.0, -1.0], 0) == 1.0
    assert match.points([1.0, -1.0], 1) == 0.0
    assert match.points([0.0, 0.0], 1) == 0.5


def test_player_specs_parse():
    assert players.parse("ours:alphabeta,depth=8,move_ordering=false") == (
        "ours", "alphabeta", {"depth": 8, "move_ordering": False}, None)
    assert players.parse("http:mcts,rollout=heuristic@http://h:1") == (
        "http", "mcts", {"rollout": "heuristic"}, "http://h:1")
    assert players.parse("random") == ("random", None, {}, None)
    for bad in ("nobody", "ours:alphabeta,depth", "http:mcts"):
        with pytest.raises(ValueError):
            players.parse(bad)
    assert players.build("ours:alphabeta,time_ms=null").time_override is None


def test_connect4_openings_are_the_two_ply_ones_up_to_mirror():
    lines = openings.VARIANTS["connect4"].openings
    assert len(lines) == len(set(lines)) == 25
    mirrored = {(6 - a, 6 - b) for a, b in lines}
    assert all(line == (3, 3) or line not in mirrored for line in lines)


def test_gomoku_openings_are_the_26_standard_ones():
    """The first stone at the centre, the reply next to it, the third in the central 5 x 5; no two the same
    position under the board's eight symmetries (each position: the first player's two stones, the other's)."""
    lines = openings.VARIANTS["gomoku-15"].openings
    centre = (7, 7)
    cells = [[divmod(move, 15) for move in line] for line in lines]
    assert len(lines) == 26 and all(first == centre for first, _, _ in cells)
    assert all(max(abs(r - 7), abs(c - 7)) == 1 and max(abs(tr - 7), abs(tc - 7)) <= 2
               for _, (r, c), (tr, tc) in cells)
    symmetries = [lambda r, c: (r, c), lambda r, c: (c, r)]
    symmetries = [lambda r, c, f=f, sr=sr, sc=sc: f(sr * r, sc * c) for f in symmetries for sr in (1, -1)
                  for sc in (1, -1)]

    def canonical(first, reply, third):
        return min((tuple(sorted(s(r - 7, c - 7) for r, c in (first, third))), s(reply[0] - 7, reply[1] - 7))
                   for s in symmetries)

    assert len({canonical(*line) for line in cells}) == 26


def test_random_openings_are_seeded_legal_and_distinct():
    v = openings.variant("tictactoe-5x5-k4")
    first, again = openings.random_openings(v, 6, seed=3), openings.random_openings(v, 6, seed=3)
    assert first == again and len(set(first)) == 6 and all(len(line) == 2 for line in first)


def test_random_openings_of_a_game_with_chance_hold_its_rolls_and_differ():
    """Backgammon starts with a roll: an opening draws its rolls too, so a ladder's openings do not all
    start from the same (empty) line, and each replays through the referee's moves."""
    v = openings.variant("backgammon")
    lines = openings.random_openings(v, 8, seed=5)
    assert len(set(lines)) == 8 and lines == openings.random_openings(v, 8, seed=5)
    for line in lines:
        game, state = api.load(v.game, v.initial_state)
        movers = []
        for move_json in line:
            movers.append(game.to_move(state))
            state = game.result(state, game.move_from_json(move_json, state))
        assert movers[0] == CHANCE and sum(m != CHANCE for m in movers) == 2


def test_a_game_between_rule_players_is_refereed_and_deterministic_by_seed():
    task = match.GameTask("tictactoe", (4,), ("random", "greedy"), None, 7)
    r1, r2 = match.play(task), match.play(task)
    assert r1["history"] == r2["history"] and r1["history"][0] == 4
    assert sorted(r1["utilities"]) in ([-1.0, 1.0], [0.0, 0.0])
    assert len(r1["times"][0]) + len(r1["times"][1]) == r1["plies"] - 1


def test_twenty48_score_from_the_final_board():
    initial = {"board": [[0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 2, 0]]}
    final = {"board": [[8, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]}
    # 8 made from 2s scored 4 + 4 + 8 = 16, the 4 scored 4, but one 4 appeared as a 4: 16 + 4 - 4.
    history = ["left", {"cell": [0, 1], "tile": 4}, "up", {"cell": [3, 3], "tile": 2}]
    assert solo_summary.twenty48_score(final, initial, history) == 16


def test_solo_2048_summary_reports_milestones():
    v = openings.Variant("2048", "2048", {"board": [[0, 2, 0, 0]] + [[0] * 4] * 3})
    results = [{"final": {"board": [[2048, 0, 0, 0]] + [[0] * 4] * 3}, "history": [], "utilities": [0.5],
                "plies": 10},
               {"final": {"board": [[512, 4096, 0, 0]] + [[0] * 4] * 3}, "history": [], "utilities": [0.7],
                "plies": 30}]
    s = solo_summary.summarise(v, results)
    assert s["highest_tile"] == {"2048": 1, "4096": 1}
    assert s["reached"] == {"2048": 1.0, "4096": 0.5, "8192": 0.0}
    assert s["mean_plies"] == 20


def test_a_stopped_2048_run_counts_the_stops_and_leaves_the_rates_above_unmeasured():
    r = match.solo("2048", "ours:expectimax,depth=1", None, 2, 1, seed=3, stop_at=64)
    s = r["summary"]
    assert (s["stop_at"], s["stopped"], s["ended_early"]) == (64, 2, 0)
    assert s["highest_tile"] == {"64": 2}
    assert s["reached"] == {"2048": None, "4096": None, "8192": None}
    assert "stopped at 64: 2, ended early: 0" in strength.line_for(r)


def test_cli_presets_and_ladder():
    args = strength.parse_args(["--preset", "issue10"])
    assert (args.variant, args.time_ms, args.openings) == ("connect4", 300.0, 25)
    assert strength.pairings(args, 2) == [("ours:alphabeta", "ours:alphabeta,depth=8"),
                                          ("ours:alphabeta", "ours:mcts")]
    ladder = strength.pairings(strength.parse_args(["--ladder"]), 2)
    assert len(ladder) == 9 and ladder[0][0].startswith("ours:auto,level=2")
    assert strength.parse_args(["--time-ms", "none"]).time_ms is None
    part = strength.pairings(strength.parse_args(["--ladder", "--rungs", "8-10"]), 2)
    assert part == [(f"ours:auto,level={n},seed={n}", f"ours:auto,level={n - 1},seed={n - 1}") for n in (8, 9, 10)]
    assert strength.pairings(strength.parse_args(["--ladder", "--rungs", "5"]), 2)[0][1].startswith("ours:auto,level=4")


@pytest.mark.parametrize("rungs", ["1-3", "2-11", "6-5", "x"])
def test_cli_refuses_rungs_outside_the_ladder(rungs):
    with pytest.raises(SystemExit):
        strength.parse_args(["--ladder", "--rungs", rungs])


def test_openspiel_connect_four_starts_from_the_declared_empty_board_or_moves():
    from bench import os_games
    t = os_games.translation("connect4")
    assert t.setup({"board": ["......."] * 6}) == []
    assert t.setup({"moves": "4453"}) == [3, 3, 4, 2]
    with pytest.raises(ValueError):
        t.setup({"board": ["......."] * 5 + ["...X..."]})
