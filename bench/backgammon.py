"""``python -m bench.backgammon --opponent pubeval|gnubg|ours|mcts --mode 1ply|1s|auto [--ms MS] --games N
[--seed S] [--out PATH] [--evaluation net|learned] [--opponent-evaluation net|learned] [--first-pair P]``:
our search against a benchmark opponent, game by game (one JSON line per game, so that a run cut short still
counts), with a summary at the end (bench/backgammon_score.py: points won and lost, the points a game and
the share of the points, each with its 95% interval). ``--first-pair`` goes on from a file's last pair.

Games come in pairs with the same dice, each side starting once (the usual opening: the first roll is a
non-double, played by the side that starts). Our player: ``1ply`` is ``expectimax`` at depth 1 (the play
whose position evaluates best), ``1s`` ``expectimax`` with its defaults (iterative deepening, forward
pruning and Star2) and a 1 s deadline a move, ``auto`` the service's ``auto`` (engine.search.auto, on the
compiled core when the game has one) with ``--ms`` milliseconds a move. A turn with one legal play is
played without a search. Our side plays the ``--evaluation`` (engine/games/backgammon.py: ``net``, the
default, or ``learned``). The opponents: ``pubeval`` (bench/pubeval.py), ``gnubg`` (gnubg's 0-ply play
among our legal plays, bench/gnubg_player.py; needs ``gnubg-nn``), ``ours`` (our player as ours, the same
mode and time, with ``--opponent-evaluation``) and OpenSpiel's MCTS bot (``mcts``, 1 s a move, random
rollouts, UCT constant 2; needs ``open_spiel``).
"""
import argparse
import gc
import json
import random
import sys
import time

from engine.deadline import Deadline
from engine.games.backgammon import GAME, NET, ROLLS, START, State, contact, game_for
from engine.search import auto, expectimax
from bench.backgammon_score import summary
from bench.gnubg_player import gnubg_play
from bench.pubeval import pubeval_play

OPPONENTS = {"pubeval": pubeval_play, "gnubg": gnubg_play}

OPENING_ROLLS = [r for r in ROLLS if r[0] != r[1]]


def our_play(state, mode, record, ms=1000, evaluation=NET):
    """Our play in ``state`` by ``mode`` (``auto``: ``ms`` milliseconds) with ``evaluation``, its search
    appended to ``record``."""
    game = game_for(evaluation)
    gc.disable()
    try:
        if mode == "auto":
            r = auto.search(game, state, auto.Settings(), deadline=Deadline(ms / 1000.0))
        elif mode == "1ply":
            r = expectimax.search(game, state, expectimax.Settings(depth=1), deadline=Deadline(None))
        else:
            r = expectimax.search(game, state, expectimax.Settings(), deadline=Deadline(1.0))
    finally:
        gc.enable()
    kind = "contact" if contact(state[0], state[1]) else "race"
    record.append({"kind": kind, "depth": r.stats.depth_completed, "nodes": r.stats.nodes,
                   "time_ms": r.stats.time_ms})
    return r.move


def play_game(rng, ours_first, mode, opponent, ms=1000, evaluation=NET):
    """One game against ``opponent`` (state -> play); the points won by our side (negative: lost), the
    search records and the plies played."""
    us = 0 if ours_first else 1
    state = State(START, START, 0, rng.choice(OPENING_ROLLS))
    record, plies = [], 0
    while not GAME.is_terminal(state):
        if state[3] is None:
            state = GAME.result(state, rng.choices(ROLLS, [p for _, p in GAME.chance_outcomes(state)])[0])
            continue
        moves = GAME.actions(state)
        if len(moves) == 1:
            move = moves[0]
        elif state[2] == us:
            move = our_play(state, mode, record, ms, evaluation)
        else:
            move = opponent(GAME, state)
        state = GAME.result(state, move)
        plies += 1
    return GAME.utility(state, us), record, plies


def play_spiel_game(rng, ours_first, mode, simulations, ms=1000):
    """One game on OpenSpiel's board against its MCTS bot (``simulations`` a decision, random
    rollouts): our plays become OpenSpiel action sequences with the same resulting position. OpenSpiel
    decides the opening (who starts, a non-double); ``ours_first`` says whether that is us."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts
    from bench.spiel_backgammon import spiel_dice, spiel_position, turn_ends
    game = pyspiel.load_game("backgammon")
    seed = rng.randrange(2**31)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=simulations, solve=False,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
                       random_state=np.random.RandomState(seed))
    s = game.new_initial_state()
    us, record, plies = None, [], 0
    while not s.is_terminal():
        if s.is_chance_node():
            actions, probs = zip(*s.chance_outcomes())
            s.apply_action(rng.choices(actions, probs)[0])
            if us is None:
                us = s.current_player() if ours_first else 1 - s.current_player()
            continue
        if s.current_player() == us:
            x, o = spiel_position(s)
            state = State(x, o, us, spiel_dice(s))
            moves = GAME.actions(state)
            move = moves[0] if len(moves) == 1 else our_play(state, mode, record, ms)
            ends = {}
            turn_ends(s, us, ends)
            for a in ends[(move[0], move[1]) if us == 0 else (move[1], move[0])]:
                s.apply_action(a)
        else:
            legal = s.legal_actions()
            s.apply_action(legal[0] if len(legal) == 1 else bot.step(s))
        plies += 1
    x, o = spiel_position(s)
    return GAME.utility(State(x, o, 0, None), us), record, plies


def calibrate(seconds=1.0) -> int:
    """MCTS simulations that take about ``seconds`` on this machine now, from the opening."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts
    game = pyspiel.load_game("backgammon")
    s = game.new_initial_state()
    s.apply_action(s.chance_outcomes()[0][0])
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=100, solve=False,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       random_state=np.random.RandomState(0))
    start = time.perf_counter()
    bot.step(s)
    return max(10, int(100 * seconds / (time.perf_counter() - start)))


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.backgammon")
    p.add_argument("--opponent", choices=[*OPPONENTS, "ours", "mcts"], default="pubeval")
    p.add_argument("--mode", choices=["1ply", "1s", "auto"], required=True)
    p.add_argument("--ms", type=float, default=1000.0, help="auto's time a move, in milliseconds")
    p.add_argument("--games", type=int, default=200, help="games to play (rounded up to pairs)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", help="append one JSON line per game here")
    p.add_argument("--evaluation", choices=["net", "learned"], default=NET, help="our side's evaluation")
    p.add_argument("--opponent-evaluation", choices=["net", "learned"], default=NET,
                   help="the ours opponent's evaluation")
    p.add_argument("--first-pair", type=int, default=0, help="the first pair's number (its dice's seed)")
    args = p.parse_args(argv)
    if args.opponent == "mcts":
        simulations = calibrate()
        print(f"OpenSpiel MCTS: {simulations} simulations a decision (about 1 s here)", file=sys.stderr)
        play = lambda rng, first: play_spiel_game(rng, first, args.mode, simulations, args.ms)   # noqa: E731
    else:
        if args.opponent == "ours":
            opponent = lambda game, state: our_play(state, args.mode, [], args.ms, args.opponent_evaluation)  # noqa: E731
        else:
            opponent = OPPONENTS[args.opponent]
        play = lambda rng, first: play_game(rng, first, args.mode, opponent, args.ms, args.evaluation)  # noqa: E731
    out = open(args.out, "a") if args.out else None
    points = []
    for pair in range(args.first_pair, args.first_pair + (args.games + 1) // 2):
        for ours_first in (True, False):
            rng = random.Random(args.seed * 1_000_003 + pair)   # the same dice for both games of a pair
            start = time.time()
            won, record, plies = play(rng, ours_first)
            points.append(won)
            line = {"pair": pair, "ours_first": ours_first, "points": won, "plies": plies,
                    "seconds": round(time.time() - start, 1), "searches": record}
            if out:
                out.write(json.dumps(line) + "\n")
                out.flush()
            print(f"game {len(points)}: {won:+.0f}  running {sum(points):+.0f} "
                  f"({sum(1 for x in points if x > 0)}/{len(points)} won)", file=sys.stderr)
    print(json.dumps(summary(points)))


if __name__ == "__main__":
    main()
