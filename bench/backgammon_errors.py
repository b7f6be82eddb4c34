"""``python -m bench.backgammon_errors --mode 1ply|1s|auto [--ms MS] --games N [--seed S]``: how much equity
our plays give up by gnubg's judgement, a measure of our play that needs no long match (and, at 1-ply, no
quiet machine).

The positions are those of games gnubg plays against itself (its 0-ply play, bench/gnubg_player.py; random
dice, the usual opening, each side starting in turn); at each turn with two or more legal plays our player
(bench/backgammon.py's ``our_play``) chooses too, and its loss is gnubg's 0-ply cubeless money equity of
gnubg's best play less that of ours (0 when we agree). Reported by kind of position (contact, race): the
turns, the mean loss a turn, the share of turns where we chose another play, and the share of blunders (a
loss above 0.08).
"""
import argparse
import json
import random

from bench.backgammon import OPENING_ROLLS, our_play
from bench.gnubg_player import gnubg_play, play_key, ranked
from engine.games.backgammon import GAME, ROLLS, START, State, contact

BLUNDER = 0.08


def losses(rng, mode, games, ms=1000.0) -> dict:
    """``{kind: [loss, ...]}`` over the turns of ``games`` games of gnubg against itself."""
    found = {}
    for number in range(games):
        state = State(START, START, number % 2, rng.choice(OPENING_ROLLS))
        while not GAME.is_terminal(state):
            if state[3] is None:
                state = GAME.result(state, rng.choices(ROLLS, [p for _, p in GAME.chance_outcomes(state)])[0])
                continue
            if len(GAME.actions(state)) > 1:
                x, o, turn, dice = state
                me, op = (x, o) if turn == 0 else (o, x)
                values = dict(ranked(me, op, dice))
                ours = our_play(state, mode, [], ms)
                kind = "contact" if contact(x, o) else "race"
                found.setdefault(kind, []).append(max(values.values()) - values[play_key(ours)])
            state = GAME.result(state, gnubg_play(GAME, state))
    return found


def report(found: dict) -> dict:
    """The turns, mean loss, share of other plays and share of blunders of each kind."""
    return {kind: {"turns": len(xs), "mean_loss": round(sum(xs) / len(xs), 4),
                   "other_play": round(sum(1 for x in xs if x > 1e-9) / len(xs), 3),
                   "blunders": round(sum(1 for x in xs if x > BLUNDER) / len(xs), 3)}
            for kind, xs in sorted(found.items())}


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.backgammon_errors")
    p.add_argument("--mode", choices=["1ply", "1s", "auto"], required=True)
    p.add_argument("--ms", type=float, default=1000.0, help="auto's time a move, in milliseconds")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    print(json.dumps(report(losses(random.Random(args.seed), args.mode, args.games, args.ms))))


if __name__ == "__main__":
    main()
