"""gnubg (gnubg-nn) as the backgammon bench's opponent: the board mapping between our representation and
gnubg's, checked on the positions of random games (the same legal plays, gnubg's choice among ours), and
its evaluation and play where the answer is known."""
import random

import gnubg_nn

from bench import backgammon
from bench.gnubg_player import board, equity, gnubg_play, play_key, ranked
from engine.games.backgammon import GAME, ROLLS, START, State

OPENING_ROLLS = [r for r in ROLLS if r[0] != r[1]]


def player_nodes(seed: int, games: int):
    """Every player node with dice of ``games`` random games (random dice, random plays)."""
    rng = random.Random(seed)
    for _ in range(games):
        state = State(START, START, rng.randrange(2), rng.choice(OPENING_ROLLS))
        while not GAME.is_terminal(state):
            if state.dice is None:
                state = GAME.result(state, rng.choice(ROLLS))
                continue
            yield state
            state = GAME.result(state, rng.choice(GAME.actions(state)))


def sides(state):
    x, o, turn, dice = state
    return ((x, o) if turn == 0 else (o, x)), dice


def test_gnubg_lists_exactly_our_legal_plays_along_random_games():
    checked = passes = 0
    for state in player_nodes(seed=7, games=12):
        (me, op), dice = sides(state)
        plays = GAME.actions(state)
        theirs = set(gnubg_nn.moves(board(me, op), dice[0], dice[1]))
        if len(plays) == 1 and not plays[0][2]:        # a pass: gnubg has no play
            assert theirs == set() and ranked(me, op, dice) == []
            passes += 1
            continue
        ours = {play_key(play) for play in plays}
        assert theirs == ours, state
        keys, values = zip(*ranked(me, op, dice))
        assert set(keys) == ours and list(values) == sorted(values, reverse=True), state
        checked += 1
    assert checked > 500 and passes > 0


def test_gnubg_play_is_its_best_move_and_one_of_ours():
    for state in list(player_nodes(seed=8, games=3))[::5]:
        plays = GAME.actions(state)
        chosen = gnubg_play(GAME, state)
        assert chosen in plays
        if len(plays) > 1:
            (me, op), dice = sides(state)
            steps = gnubg_nn.best_move(board(me, op), dice[0], dice[1])
            # gnubg's best move, its steps as (from, to) points (0 borne off, 25 the bar), leaves our play's position
            after = [list(side) for side in board(me, op)]
            for src, to in steps:
                after[1][src - 1] -= 1
                if to > 0:
                    after[1][to - 1] += 1
                    if after[0][24 - to] == 1:
                        after[0][24 - to] = 0
                        after[0][24] += 1
            assert gnubg_nn.key_of_board(after) == play_key(chosen), state


def test_gnubg_opening_plays_and_evaluation_are_the_known_ones():
    # 3-1 makes the five point (8/5 6/5); 6-1 the bar point (13/7 8/7), from either side's turn.
    for turn in (0, 1):
        play = gnubg_play(GAME, State(START, START, turn, (3, 1)))
        assert sorted(part[:2] for part in play[2]) == [(6, 5), (8, 5)]
        play = gnubg_play(GAME, State(START, START, turn, (6, 1)))
        assert sorted(part[:2] for part in play[2]) == [(8, 7), (13, 7)]
    win = gnubg_nn.probabilities(board(START, START), 0)[0]
    assert 0.45 < win < 0.55 and abs(equity(START, START)) < 0.15
    # A side with one checker left on its ace point, the other with all 15 far away: a certain win.
    me = (14, 1) + (0,) * 24
    op = (0,) * 19 + (15,) + (0,) * 6
    assert equity(me, op) > 0.99 and equity(op, me) < -0.99


def test_a_short_match_against_gnubg_is_played_and_summed():
    rng = random.Random(3)
    won, record, plies = backgammon.play_game(rng, True, "1ply", gnubg_play)
    assert won in (-3, -2, -1, 1, 2, 3) and plies > 10 and record


def test_our_losses_by_gnubg_are_measured_per_turn():
    from bench import backgammon_errors
    found = backgammon_errors.losses(random.Random(2), "1ply", games=1)
    turns = [x for xs in found.values() for x in xs]
    assert turns and all(x >= 0 for x in turns) and set(found) <= {"contact", "race"}
    report = backgammon_errors.report({"race": [0.0, 0.1, 0.02, 0.0]})
    assert report == {"race": {"turns": 4, "mean_loss": 0.03, "other_play": 0.5, "blunders": 0.25}}
