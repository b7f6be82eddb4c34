"""``python -m bench.othello [--only perft|endgames|match ...] [--positions N] [--games N] [--bot-seconds S]
[--algorithm NAME] [--seed N] [--no-check]
[--markdown]``

Othello's benchmark (issue 13), apart from the main harness because it runs long:

- ``perft``: perft 9 from the start through the game interface (``actions``, ``result``), against the
  published 3,005,288;
- ``endgames``: positions with 14 empty squares from seeded random play, solved through
  ``engine.api.search`` (``alphabeta``, no depth, a limit long enough for the endgame solver's third),
  each value checked by a plain alpha-beta on OpenSpiel's rules (:mod:`bench.othello_reference`)
  searching with the window (v - 1, v + 1): it returns v exactly when v is the position's value. Goal:
  every position solved, right, within 10 s of wall clock (run it through ``/work/wt/bench-run``, which
  gives it a core of its own); the CPU time of the call is reported beside it. ``--no-check`` skips the
  slow reference (run the same seed again without timing to check the values);
- ``match``: games against OpenSpiel's C++ MCTS bot (``pyspiel.MCTSBot``, random rollouts, solver on),
  one second a move each (``--bot-seconds``: the bot's): ours is ``alphabeta`` (``--algorithm``) with
  ``time_limit_ms`` 1000; the bot takes a number of
  simulations, so it is given the number it ran in one second on its previous move (measured at each
  game's start, then adjusted move by move, growing by half at most). Colours alternate. Goal: at least 80% (draws count half) over 40.
  ``--seed`` sets the bots' seeds (and the endgames' random play), so that a match can run in chunks.

With ``--markdown`` the results replace the "Othello" section of ``bench/STRENGTH.md``.
"""
import argparse
import math
import random
import re
import statistics
import sys
import time
from pathlib import Path

from bench.othello_reference import board_of, solve as reference_solve
from engine import api
from engine.games.othello import GAME, initial_state

STRENGTH = Path(__file__).resolve().parent / "STRENGTH.md"
PERFT_9 = 3_005_288
EMPTIES, SOLVE_GOAL_S = 14, 10.0
TIME_LIMIT_MS = 600_000   # the endgame solver gets a third: ample, so that a loaded machine does not cut it


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def perft(state, depth):
    moves = GAME.actions(state)
    if depth == 1:
        return len(moves)
    return sum(perft(GAME.result(state, m), depth - 1) for m in moves)


def run_perft():
    start = time.perf_counter()
    count = perft(initial_state(), 9)
    seconds = time.perf_counter() - start
    log(f"perft 9: {count} in {seconds:.1f} s")
    return {"perft9": count, "expected": PERFT_9, "ok": count == PERFT_9, "seconds": round(seconds, 1)}


def endgame_position(rng, spiel):
    """A position with EMPTIES empty squares, not over, reached by random play in lockstep with OpenSpiel:
    ``(our JSON state, OpenSpiel state)``."""
    while True:
        ours, theirs = initial_state(), spiel.new_initial_state()
        while not GAME.is_terminal(ours) and 64 - (ours[0] | ours[1]).bit_count() > EMPTIES:
            move = rng.choice(GAME.actions(ours))
            ours = GAME.result(ours, move)
            theirs.apply_action(move)
        if not GAME.is_terminal(ours) and 64 - (ours[0] | ours[1]).bit_count() == EMPTIES:
            assert GAME.state_to_json(ours)["board"] == board_of(theirs)
            return GAME.state_to_json(ours), theirs


def run_endgames(count: int, seed: int = 14, check: bool = True):
    import pyspiel
    spiel = pyspiel.load_game("othello")
    rng = random.Random(seed)
    rows = []
    for i in range(count):
        state, theirs = endgame_position(rng, spiel)
        start, cpu_start = time.perf_counter(), time.process_time()
        result = api.search("othello", state, {"name": "alphabeta"}, TIME_LIMIT_MS)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        solved = result.stats.stop_reason == "solved"
        start = time.perf_counter()
        checked = (reference_solve(theirs, result.value - 1, result.value + 1) == result.value if solved and check
                   else None if solved else False)
        reference_s = time.perf_counter() - start
        rows.append({"state": state, "value": result.value, "move": result.move, "solved": solved,
                     "agrees": checked, "seconds": round(seconds, 2), "cpu_seconds": round(cpu, 2),
                     "nodes": result.stats.nodes,
                     "reference_seconds": round(reference_s, 1)})
        log(f"endgame {i + 1}/{count}: value {result.value:+.0f} move {result.move} solved {solved} "
            f"reference agrees {checked} {seconds:.2f} s ({cpu:.2f} s CPU) {result.stats.nodes} nodes "
            f"(reference {reference_s:.0f} s)")
    times, cpu = [r["seconds"] for r in rows], [r["cpu_seconds"] for r in rows]
    return {"positions": rows, "all_solved": all(r["solved"] for r in rows),
            "all_agree": all(r["agrees"] for r in rows) if check else None, "max_seconds": max(times),
            "mean_seconds": round(statistics.mean(times), 2), "max_cpu_seconds": max(cpu),
            "mean_cpu_seconds": round(statistics.mean(cpu), 2),
            "median_nodes": statistics.median(r["nodes"] for r in rows),
            "goal_met": all(r["solved"] and r["agrees"] is not False and r["seconds"] <= SOLVE_GOAL_S
                            for r in rows)}


class TimedMCTSBot:
    """OpenSpiel's C++ MCTS bot held to about ``seconds`` a move: its simulation count follows the rate it
    ran at on its previous move."""

    def __init__(self, spiel, seconds: float, seed: int):
        import pyspiel
        self.pyspiel, self.spiel, self.seconds, self.seed = pyspiel, spiel, seconds, seed
        self.evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        self.simulations = self.calibrate()
        self.times = []

    def bot(self, simulations):
        return self.pyspiel.MCTSBot(self.spiel, self.evaluator, math.sqrt(2), simulations, 1000, True,
                                    self.seed, False)

    def calibrate(self) -> int:
        start = time.perf_counter()
        self.bot(200).step(self.spiel.new_initial_state())
        return max(20, int(200 * self.seconds / (time.perf_counter() - start)))

    def step(self, state) -> int:
        start = time.perf_counter()
        action = self.bot(self.simulations).step(state)
        elapsed = time.perf_counter() - start
        self.times.append(elapsed)
        # A move that ends early (a proven result) overstates the rate: the count grows by half at most.
        rate = self.simulations / max(elapsed, 1e-3)
        self.simulations = max(20, int(min(rate * self.seconds, 1.5 * self.simulations)))
        self.seed += 1
        return action


def play_game(spiel, bot, ours_black: bool, our_times: list, algorithm: str = "alphabeta") -> float:
    """One game, ours searching with ``algorithm`` at 1 s a move; our score (1 win, 0.5 draw, 0 loss)."""
    ours, theirs = initial_state(), spiel.new_initial_state()
    while not theirs.is_terminal():
        our_turn = (GAME.to_move(ours) == 0) == ours_black
        if our_turn:
            start = time.perf_counter()
            result = api.search("othello", GAME.state_to_json(ours), {"name": algorithm}, 1000)
            our_times.append(time.perf_counter() - start)
            move = GAME.move_from_json(result.move, ours)
        else:
            move = bot.step(theirs)
        ours = GAME.result(ours, move)
        theirs.apply_action(move)
    me = 0 if ours_black else 1
    return (GAME.utility(ours, me) + 1) / 2


def run_match(games: int, bot_seconds: float = 1.0, seed: int = 1, algorithm: str = "alphabeta"):
    import pyspiel
    spiel = pyspiel.load_game("othello")
    scores, our_times, bot_times, simulations = [], [], [], []
    for g in range(games):
        bot = TimedMCTSBot(spiel, bot_seconds, seed + 1000 * g)  # calibrated afresh at every game's start
        score = play_game(spiel, bot, ours_black=g % 2 == 0, our_times=our_times, algorithm=algorithm)
        scores.append(score)
        bot_times += bot.times
        simulations.append(bot.simulations)
        log(f"game {g + 1}/{games} ({'Black' if g % 2 == 0 else 'White'}): {score} -> "
            f"{sum(scores)}/{len(scores)}; bot at {bot.simulations} simulations, "
            f"{statistics.mean(bot.times):.2f} s a move")
    wins, draws = scores.count(1.0), scores.count(0.5)
    return {"games": games, "bot_seconds": bot_seconds, "algorithm": algorithm, "wins": wins, "draws": draws, "losses": games - wins - draws,
            "score": sum(scores) / games, "goal_met": games >= 40 and sum(scores) / games >= 0.8,
            "our_mean_move_s": round(statistics.mean(our_times), 3),
            "bot_mean_move_s": round(statistics.mean(bot_times), 3),
            "bot_median_simulations": statistics.median(simulations)}


def markdown(results: dict) -> str:
    from bench import machine
    info = machine.info()
    lines = ["## Othello", "",
             f"`python -m bench.othello` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, commit "
             f"{info.get('git_commit')}, {info.get('cpu_model')} ({info.get('usable_cores')} cores), load average "
             f"{', '.join(f'{x:.1f}' for x in info.get('load_average') or ())} at the end (the machine is "
             "shared: times are upper bounds).", ""]
    if "perft" in results:
        p = results["perft"]
        lines += [f"- Perft 9 from the start through `actions`/`result`: {p['perft9']:,} (published "
                  f"{p['expected']:,}: {'equal' if p['ok'] else 'DIFFERENT'}), {p['seconds']} s.", ""]
    if "endgames" in results:
        e = results["endgames"]
        lines += [f"- {len(e['positions'])} endgames with {EMPTIES} empty squares (seeded random play): all solved "
                  f"{e['all_solved']}, all confirmed by the plain reference {e['all_agree']}; CPU time mean "
                  f"{e['mean_cpu_seconds']} s, max {e['max_cpu_seconds']} s (wall clock on the shared machine: "
                  f"mean {e['mean_seconds']} s, max {e['max_seconds']} s); median {e['median_nodes']:,} nodes. "
                  f"Goal (each within {SOLVE_GOAL_S:.0f} s of wall clock): {'met' if e['goal_met'] else 'NOT met'}.",
                  "", "| # | value (disc difference) | move | CPU s | wall s | nodes | reference wall s |",
                  "| --- | --- | --- | --- | --- | --- | --- |"]
        lines += [f"| {i + 1} | {r['value']:+.0f} | {r['move']} | {r['cpu_seconds']} | {r['seconds']} | "
                  f"{r['nodes']:,} | {r['reference_seconds']} |" for i, r in enumerate(e["positions"])]
        lines.append("")
    if "match" in results:
        m = results["match"]
        lines += [f"- Against OpenSpiel's C++ MCTS bot held to {m['bot_seconds']} s a move (ours: `{m['algorithm']}` at 1 s): "
                  f"{m['games']} "
                  f"games, {m['wins']} won, "
                  f"{m['draws']} drawn, {m['losses']} lost: {100 * m['score']:.1f}% (goal: 80% over 40 games, "
                  f"{'met' if m['goal_met'] else 'NOT met'}). Mean time a move: ours {m['our_mean_move_s']} s, "
                  f"the bot's {m['bot_mean_move_s']} s (about {m['bot_median_simulations']:,.0f} simulations a move at "
                  "the end of a game).", ""]
    return "\n".join(lines)


def write_section(section: str) -> None:
    text = STRENGTH.read_text() if STRENGTH.exists() else "# Strength\n\n"
    pattern = re.compile(r"^## Othello\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _: section + "\n", text)
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    STRENGTH.write_text(text)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.othello", description=__doc__.split("\n\n")[0])
    p.add_argument("--only", action="append", choices=["perft", "endgames", "match"])
    p.add_argument("--positions", type=int, default=10, help="endgames to solve (default 10)")
    p.add_argument("--games", type=int, default=40, help="games against the MCTS bot (default 40)")
    p.add_argument("--bot-seconds", type=float, default=1.0,
                   help="the time the MCTS bot's simulation count aims at, a move (default 1; ours is 1)")
    p.add_argument("--algorithm", default="alphabeta", help="our search in the match (default alphabeta; auto)")
    p.add_argument("--seed", type=int, default=None, help="endgames' random play (default 14), bots' seeds (default 1)")
    p.add_argument("--no-check", action="store_true", help="endgames: skip the reference solver's check")
    p.add_argument("--markdown", action="store_true", help="write the Othello section of bench/STRENGTH.md")
    args = p.parse_args(argv)
    parts = args.only or ["perft", "endgames", "match"]
    results = {}
    if "perft" in parts:
        results["perft"] = run_perft()
    if "endgames" in parts:
        results["endgames"] = run_endgames(args.positions, 14 if args.seed is None else args.seed, not args.no_check)
    if "match" in parts:
        results["match"] = run_match(args.games, args.bot_seconds, 1 if args.seed is None else args.seed,
                                     args.algorithm)
    section = markdown(results)
    print(section)
    if args.markdown:
        write_section(section)


if __name__ == "__main__":
    main()
