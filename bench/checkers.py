"""``python -m bench.checkers [--perft DEPTH] [--games N] [--seconds S] [--seed N]``: English checkers.

- Perft from the start against the published counts (different capture paths to the same result count
  separately), with the time each depth took.
- A match against OpenSpiel's C++ MCTS bot (``pyspiel.MCTSBot``, one random rollout per leaf, its solver
  on) at ``S`` seconds a move, colours alternating. The bot counts simulations, not time: it gets the
  number it runs in ``F * S`` seconds from the start position (``--bot-factor F``), measured once before
  the match, or a number given (``--bot-simulations N``: the same bot whatever the machine's load, so that
  games may run ``--workers`` at a time, and a loaded machine only slows our side). OpenSpiel is
  the referee (its rules: a draw after 40 plies without a capture, a man's move not restarting the
  count, or 1000 plies); our side searches with ``alphabeta`` (the defaults) through
  ``engine.api.search`` under the referee's draw rule (the game options ``no_progress_plies`` 40 and
  ``man_move_resets`` false, :data:`REFEREE_RULES`), plus threefold repetition, which OpenSpiel does not
  have: a game that repetition ends first is scored a draw.

The published figures go in ``bench/STRENGTH.md`` ("Checkers").
"""
import argparse
import multiprocessing
import random
import sys
import time

from engine.api import search
from engine.games.checkers import fen_of
from engine.games.checkers import load as load_checkers
from engine.games.checkers.board import SQUARES, row_col

# OpenSpiel's draw rule as our game options: 40 plies without a capture, whatever the men do.
REFEREE_RULES = {"no_progress_plies": 40, "man_move_resets": False}
PUBLISHED_PERFT = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564]


def perft(game, state, depth: int) -> int:
    """Leaf nodes ``depth`` plies below ``state`` (the moves of the last ply counted, not played)."""
    moves = game.actions(state)
    if depth == 1:
        return len(moves)
    result = game.result
    return sum(perft(game, result(state, m), depth - 1) for m in moves)


def run_perft(depth: int) -> list:
    """``[(depth, count, published, seconds)]`` from the start."""
    game, state = load_checkers({})
    rows = []
    for d in range(1, depth + 1):
        start = time.perf_counter()
        count = perft(game, state, d)
        rows.append((d, count, PUBLISHED_PERFT[d - 1], time.perf_counter() - start))
        print(f"perft {d}: {count} (published {PUBLISHED_PERFT[d - 1]}) {rows[-1][3]:.1f} s", file=sys.stderr)
    return rows


# --- OpenSpiel's checkers, the peer ---------------------------------------------------------------

def openspiel_square(text: str) -> int:
    """OpenSpiel's ``a3`` as a PDN square: its first player (our Black) starts on ranks 1-3, so its board
    is ours turned half round."""
    file, rank = ord(text[0]) - ord("a"), int(text[1:])
    return next(n for n in SQUARES if row_col(n) == (rank - 1, 7 - file))


def openspiel_pdn(strings: list) -> str:
    """The PDN of one move made of OpenSpiel's actions (a multi-jump is one action per jump)."""
    squares = [openspiel_square(strings[0][:2])] + [openspiel_square(s[2:]) for s in strings]
    jump = abs(row_col(squares[0])[0] - row_col(squares[1])[0]) == 2
    return "x".join(map(str, squares)) if jump else f"{squares[0]}-{squares[1]}"


def openspiel_moves(state) -> dict:
    """OpenSpiel's legal moves in PDN, each with the actions that make it."""
    found = {}
    player = state.current_player()
    for action in state.legal_actions():
        child = state.child(action)
        text = state.action_to_string(action)
        if not child.is_terminal() and child.current_player() == player:   # the jump goes on
            for rest, actions in openspiel_moves(child).items():
                found[f"{openspiel_square(text[:2])}x{rest}"] = [action] + actions
        else:
            found[openspiel_pdn([text])] = [action]
    return found


def calibrate(pyspiel, seconds: float, seed: int) -> int:
    """The simulations OpenSpiel's MCTS bot runs in ``seconds`` from the start position."""
    game = pyspiel.load_game("checkers")
    trial = 2000
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), 2 ** 0.5, trial, 1000, True, seed, False)
    start = time.perf_counter()
    bot.step(game.new_initial_state())
    return max(1, int(trial * seconds / (time.perf_counter() - start)))


def play_game(pyspiel, ours_black: bool, seconds: float, simulations: int, seed: int,
              algorithm: str = "alphabeta") -> tuple:
    """One game, our side searching with ``algorithm``; ``(result for us: 1, 0, -1, plies, how it ended)``."""
    os_game = pyspiel.load_game("checkers")
    referee = os_game.new_initial_state()
    bot = pyspiel.MCTSBot(os_game, pyspiel.RandomRolloutEvaluator(1, seed), 2 ** 0.5, simulations, 1000, True,
                          seed, False)
    game, state = load_checkers({}, **REFEREE_RULES)
    us = 0 if ours_black else 1
    plies = 0
    while not referee.is_terminal():
        if game.is_terminal(state):
            return 0, plies, f"draw by our rules ({game.end_reason(state)}) at {fen_of(*state[:4])}"
        if referee.current_player() == us:
            move = search("checkers", game.state_to_json(state), {"name": algorithm, **REFEREE_RULES},
                          time_limit_ms=int(seconds * 1000)).move
            for action in openspiel_moves(referee)[move]:
                referee.apply_action(action)
        else:
            texts = []
            while not referee.is_terminal() and referee.current_player() == 1 - us:
                action = bot.step(referee)
                texts.append(referee.action_to_string(action))
                referee.apply_action(action)
            move = openspiel_pdn(texts)
        state = game.result(state, game.move_from_json(move, state))
        plies += 1
    returns = referee.returns()[us]
    ending = "OpenSpiel's end (a draw)" if returns == 0 else ("won" if returns > 0 else "lost")
    return int(returns), plies, f"{ending} at {fen_of(*state[:4])}, {len(state[4])} plies since the last capture"


def match_game(task: tuple) -> tuple:
    """Game ``i`` of a match (our colour by its parity): ``play_game``'s answer, for a pool's worker."""
    import pyspiel
    i, seconds, simulations, seed, algorithm = task
    return play_game(pyspiel, i % 2 == 0, seconds, simulations, seed, algorithm)


def run_match(games: int, seconds: float, seed: int, algorithm: str = "alphabeta", bot_factor: float = 1.0,
              simulations: int | None = None, workers: int = 1) -> dict:
    """``games`` games, our ``algorithm`` at ``seconds`` a move against the bot given ``simulations`` a move
    (None: those it runs in ``bot_factor`` times our seconds), ``workers`` games at a time."""
    import pyspiel
    if simulations is None:
        simulations = calibrate(pyspiel, seconds * bot_factor, seed)
        print(f"OpenSpiel MCTS: {simulations} simulations a move ({seconds * bot_factor} s)", file=sys.stderr)
    else:
        print(f"OpenSpiel MCTS: {simulations} simulations a move (given)", file=sys.stderr)
    rng = random.Random(seed)
    tasks = [(i, seconds, simulations, rng.randrange(2 ** 31), algorithm) for i in range(games)]
    pool = multiprocessing.get_context("fork").Pool(workers) if workers > 1 else None
    try:
        answers = pool.imap(match_game, tasks) if pool else map(match_game, tasks)
        results = []
        for i, result in enumerate(answers):
            results.append(result)
            print(f"game {i + 1} ({'Black' if i % 2 == 0 else 'White'}): {result}", file=sys.stderr)
    finally:
        if pool:
            pool.terminate()
            pool.join()
    wins = sum(r == 1 for r, _, _ in results)
    draws = sum(r == 0 for r, _, _ in results)
    return {"games": games, "wins": wins, "draws": draws, "losses": games - wins - draws,
            "score": (wins + draws / 2) / games if games else None, "simulations": simulations}


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.checkers", description=__doc__.split("\n\n")[0])
    p.add_argument("--perft", type=int, default=9, metavar="DEPTH", help="perft to this depth (<= 10; 0: none)")
    p.add_argument("--games", type=int, default=0, help="games against OpenSpiel's MCTS bot")
    p.add_argument("--seconds", type=float, default=1.0, help="seconds a move in the match")
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--algorithm", default="alphabeta", help="our side's algorithm in the match (auto: the default player)")
    p.add_argument("--bot-factor", type=float, default=1.0, metavar="F",
                   help="the bot's simulations: those it runs in F times our seconds a move")
    p.add_argument("--bot-simulations", type=int, default=None, metavar="N",
                   help="the bot's simulations a move, given rather than measured (overrides --bot-factor)")
    p.add_argument("--workers", type=int, default=1, help="games played at a time, each in a process of its own")
    args = p.parse_args(argv)
    ok = True
    if args.perft:
        rows = run_perft(min(args.perft, len(PUBLISHED_PERFT)))
        for d, count, published, seconds in rows:
            print(f"| {d} | {count:,} | {published:,} | {'yes' if count == published else 'NO'} | {seconds:.2f} |")
        ok = all(count == published for _, count, published, _ in rows)
    if args.games:
        print(run_match(args.games, args.seconds, args.seed, args.algorithm, args.bot_factor, args.bot_simulations,
                        args.workers))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
