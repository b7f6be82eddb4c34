"""learn.shards: positions written game by game, read back once each, split by game."""
from learn import shards
from learn.selfplay import Game, Sample

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def test_a_game_is_written_and_read_from_the_movers_side(tmp_path):
    game = Game([Sample(START, 30, True), Sample(AFTER_E4, -25, False)], result=1.0, plies=2)
    with (tmp_path / "a.tsv").open("w") as out:
        assert shards.write_game(out, game, "g1") == 2
    positions = shards.read(tmp_path)
    assert positions.fens == [START, AFTER_E4]
    assert positions.cp.tolist() == [30, -25]
    assert positions.points.tolist() == [1.0, 0.0]          # White won: Black to move scores 0
    assert positions.games[0] == positions.games[1]


def test_duplicates_cut_lines_and_decided_scores_are_dropped(tmp_path):
    moved_on = START.replace(" 0 1", " 4 9")                  # the same position, other move counters
    (tmp_path / "a.tsv").write_text(f"{START}\t10\t0.5\tg1\n{moved_on}\t12\t0.5\tg2\n"
                                    f"{AFTER_E4}\t9000\t1\tg2\n{AFTER_E4}\t5\n")
    positions = shards.read(tmp_path)
    assert positions.fens == [START]


def test_the_split_keeps_each_game_on_one_side(tmp_path):
    lines = [f"{START.replace('w KQkq', 'w ' + c)}\t{i}\t0.5\tgame{i % 40}\n"
             for i, c in enumerate(["KQkq", "Qkq", "kq", "q", "-", "Kkq", "Kq", "KQ", "K", "Q", "k", "KQk"])]
    (tmp_path / "a.tsv").write_text("".join(lines))
    positions = shards.read(tmp_path)
    train, validation = shards.split(positions, validation_share=0.5)
    assert (train ^ validation).all()
    for game in set(positions.games.tolist()):
        sides = {bool(v) for v, g in zip(validation, positions.games) if g == game}
        assert len(sides) == 1
