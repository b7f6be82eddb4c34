"""Othello on the learning pipeline (learn/othello/): self-play through the compiled core, labelled by the
exact endgame solver from its reach on (checked against the Python core's solver) and by that result before
it, the shards read back with an exact label preferred, the shared trainer fitting the pattern tables, the
tables written and read back by the engine, and the match's players."""
import random
import shutil

import numpy as np
import pytest

from engine.deadline import Deadline
from engine.games import othello
from engine.games.othello import endgame, patterns
from engine.result import Stats
from learn import shards
from learn.othello import accept, labels, run, selfplay
from learn.othello import shards as othello_shards

pytest.importorskip("tactician_native")

GAME = othello.GAME


def python_value(me, them) -> int:
    return endgame.solve(me, them, Deadline(None), True, 1 << 16, Stats()).score


def play(seed, empties=10):
    with labels.Labeller(empties) as labeller:
        return selfplay.play(random.Random(seed), labeller)


def test_selfplay_labels_the_solvers_line_exactly_and_the_game_before_it_by_its_result():
    game = play(1)
    exact = [s for s in game.samples if s.exact]
    before = [s for s in game.samples if not s.exact]
    assert exact and before
    assert all(64 - (s.me | s.them).bit_count() <= 10 for s in exact)
    first = exact[0]
    assert first.label == python_value(first.me, first.them)
    for s in exact[1:]:                          # the line is perfect play: every position keeps the value
        assert abs(s.label) == abs(first.label) and s.label == python_value(s.me, s.them)
    assert all(abs(s.label) == abs(first.label) for s in before)


def test_the_shards_read_back_each_position_once_an_exact_label_first(tmp_path):
    games = [play(seed) for seed in (2, 3)]
    path = shards.shard_path(tmp_path, 0)
    with path.open("a") as out:
        for i, g in enumerate(games):
            othello_shards.write_game(out, g, f"g{i}")
        s = games[0].samples[-1]
        out.write(f"{s.me:x}\t{s.them:x}\t{s.label + 2}\t0\tother\n")   # an estimate of an exact position
        out.write(f"{s.me:x}\t{s.them:x}\t")                             # a line cut short
    read = othello_shards.read(tmp_path)
    unique = {(s.me, s.them) for g in games for s in g.samples}
    assert len(read.label) == len(unique)
    row = [i for i, (a, b) in enumerate(zip(read.me.tolist(), read.them.tolist())) if (a, b) == (s.me, s.them)]
    assert read.label[row[0]] == s.label and read.exact[row[0]]


class Games:
    """What shards.split reads of positions: their games' ids, hashed."""

    def __init__(self, ids):
        self.games = np.array([shards.game_hash(i) for i in ids])


def test_training_fits_the_tables_and_writes_a_file_the_engine_reads(tmp_path):
    data = tmp_path / "data"
    ids = [f"g{i}" for i in range(200)]
    held_out = [i for i, out in zip(ids, shards.split(Games(ids))[1]) if out][:2]   # two games to validate on
    with shards.shard_path(data, 0).open("a") as out:
        for seed, game_id in enumerate(ids[:4] + held_out):
            othello_shards.write_game(out, play(seed + 4), game_id)
    tables = tmp_path / "tables.txt"
    shutil.copyfile(patterns.WEIGHTS_FILE, tables)
    trained = run.train_stage(data, 5, 3e-3, 10, out=tables, log=lambda *_: None)
    weights = patterns.parse(tables.read_text())
    assert weights.header["data"] == trained["data"] and weights.header["data"]["started_from"] == "tables.txt"
    assert trained["data"]["validation_disc_error"] <= trained["data"]["validation_disc_error_before"] + 1e-6


def test_the_match_sets_the_same_search_on_both_sides():
    assert accept.players(6) == ("ours:alphabeta,depth=6,evaluation=patterns",
                                 "ours:alphabeta,depth=6,evaluation=classic")
    assert accept.players(None) == ("ours:auto,evaluation=patterns", "ours:auto,evaluation=classic")
