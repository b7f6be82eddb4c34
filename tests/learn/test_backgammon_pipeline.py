"""Backgammon on the learning pipeline (learn/backgammon/): self-play through the compiled core with every
position on roll labelled and told contact from race, the shards read back with duplicates dropped and
the kinds apart, the shared trainer fitting a backgammon net to its labels, the export read back by the
engine, and the acceptance verdict on the share of the points."""
import random

import numpy as np
import pytest

from engine.games import backgammon as bg
from engine.games import backgammon_net as net
from learn import shards, train
from learn.backgammon import accept, export, model, selfplay
from learn.backgammon import shards as bg_shards

pytest.importorskip("tactician_native")


def fake_labeller(on_roll, other):
    """A label a net can learn: the race formula's win chance, then ten outputs (0-ply and deeper alike)."""
    p = 1 / (1 + np.exp(-(bg.pips(other) - bg.pips(on_roll)) / 20))
    outs = (float(p), 0.1 * float(p), 0.0, 0.1 * float(1 - p), 0.0)
    return outs + outs


def test_selfplay_labels_every_position_on_roll_and_tells_race_from_contact():
    game = selfplay.play(random.Random(2), fake_labeller)
    assert game.samples and len(game.samples) == game.turns - 1 or game.turns == selfplay.MAX_TURNS
    for s in game.samples:
        assert sum(s.on_roll) == sum(s.other) == 15
        assert s.race == (not bg.contact(s.on_roll, s.other))
        assert s.labels == fake_labeller(s.on_roll, s.other)
    assert any(s.race for s in game.samples) and any(not s.race for s in game.samples)


def test_the_shards_read_back_each_position_once_and_each_kind_apart(tmp_path):
    rng = random.Random(4)
    games = [selfplay.play(rng, fake_labeller) for _ in range(3)]
    path = shards.shard_path(tmp_path, 0)
    with path.open("a") as out:
        written = sum(bg_shards.write_game(out, g, f"g{i}") for i, g in enumerate(games))
        bg_shards.write_game(out, games[0], "again")              # the same positions: dropped on reading
        out.write("contact\t0,1,2\t")                              # a line cut short
    contact, race = bg_shards.read(tmp_path, "contact"), bg_shards.read(tmp_path, "race")
    unique = {(s.on_roll, s.other, s.race) for g in games for s in g.samples}
    assert len(contact.games) + len(race.games) == len(unique) <= written
    assert all(bg.contact(tuple(a), tuple(b)) for a, b in contact.sides.tolist())
    assert not any(bg.contact(tuple(a), tuple(b)) for a, b in race.sides.tolist())
    first = games[0].samples[0]
    kind = race if first.race else contact
    assert tuple(kind.sides[0, 0]) == first.on_roll and np.allclose(kind.labels[0], first.labels)
    train_mask, validation_mask = shards.split(contact, validation_share=0.5)
    assert (train_mask ^ validation_mask).all()


def test_the_shared_trainer_fits_a_backgammon_net_and_the_engine_reads_it_back(tmp_path):
    rng = random.Random(6)
    samples = [s for _ in range(12) for s in selfplay.play(rng, fake_labeller).samples]
    sides = np.array([(s.on_roll, s.other) for s in samples], np.int8)
    labels = np.array([s.labels for s in samples], np.float32)
    positions = bg_shards.Positions("contact", sides, labels, np.arange(len(samples)) % 10)
    data = model.dataset(positions, positions.games >= 2)
    validation = model.dataset(positions, positions.games < 2)
    params = model.initial_params(8, seed=1)
    before = train.mean_loss(params, validation, 256, model.loss)
    best, history = train.fit(params, data, validation, seconds=60, batch=64, lr=3e-3, patience=3, max_epochs=30,
                              progress=False, loss_fn=model.loss, clip=model.unclipped)
    assert train.mean_loss(best, validation, 256, model.loss) < 0.5 * before
    assert model.equity_error(best, *validation) < model.equity_error(params, *validation)
    path = tmp_path / "net.txt"
    export.export(best, path, "contact", {"positions": len(samples)})
    header, read = export.read(path)
    assert header["shape"] == [198, 8, 5] and header["data"] == {"positions": len(samples)}
    logits = np.asarray(model.forward(best, model.encode(sides[:5])), np.float64)
    engine_outs = [net.outputs(read, tuple(a), tuple(b)) for a, b in sides[:5].tolist()]
    assert np.allclose(1 / (1 + np.exp(-logits)), engine_outs, atol=1e-5)     # float32 training, double engine


def test_the_verdict_needs_the_interval_above_half_and_the_games():
    games = accept.MIN_GAMES
    assert accept.verdict({"games": games, "share_of_points_95": [0.51, 0.6]}) == "stronger"
    assert accept.verdict({"games": games - 2, "share_of_points_95": [0.51, 0.6]}) == "even"
    assert accept.verdict({"games": 100, "share_of_points_95": [0.3, 0.49]}) == "weaker"
    assert accept.verdict({"games": games, "share_of_points_95": [0.45, 0.55]}) == "even"
    assert accept.verdict({"games": 0}) == "even"


def test_an_unfinished_pair_is_cut_and_played_again(tmp_path):
    path = tmp_path / "match.jsonl"
    path.write_text('{"points": 1}\n{"points": -2}\n{"points": 1}\n')
    assert [line["points"] for line in accept.whole_pairs(path)] == [1, -2]
    assert path.read_text() == '{"points": 1}\n{"points": -2}\n'
