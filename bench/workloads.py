"""The engine workloads: each runs our engine and the peer in the same process, alternating (the order
rotates every round), ``repeat`` times, and returns report rows (:func:`bench.report.make_row`)."""
import math
import time

from bench import c4sets, ours, peers
from bench.report import make_row
from bench.stats import fmt_ms, mean, median, percentile, ratio, summary
from engine.games import backgammon, backgammon_net, othello


class Context:
    def __init__(self, quick=False, repeat=None, log=print):
        self.quick = quick
        self.repeat = repeat if repeat is not None else (2 if quick else 5)
        self.log = log
        self.details = {}


def alternate(contenders, repeat, min_sample_s=0.05, max_inner=1000):
    """Run every ``(key, fn)`` ``repeat`` times, rotating the order each round. Returns
    ``({key: [ms per call, ...]}, {key: last result}, {key: error text})``; a contender that raises is
    dropped. One untimed call of each comes first (imports, lazy tables, caches); it also calibrates: when
    the slowest contender takes under ``min_sample_s``, every sample times the same number of back-to-back
    calls (at least ``min_sample_s`` worth) and records the mean per call."""
    samples = {k: [] for k, _ in contenders}
    last, errors = {}, {}
    slowest = 0.0
    for key, fn in contenders:
        t0 = time.perf_counter()
        try:
            last[key] = fn()
        except Exception as exc:  # report, never hide: the row says what failed
            errors[key] = f"{type(exc).__name__}: {exc}"
            continue
        slowest = max(slowest, time.perf_counter() - t0)
    inner = 1 if slowest >= min_sample_s else min(max_inner, math.ceil(min_sample_s / max(slowest, 1e-6)))
    for i in range(repeat):
        shift = i % len(contenders)
        for key, fn in contenders[shift:] + contenders[:shift]:
            if key in errors:
                continue
            t0 = time.perf_counter()
            try:
                for _ in range(inner):
                    result = fn()
            except Exception as exc:
                errors[key] = f"{type(exc).__name__}: {exc}"
                continue
            samples[key].append((time.perf_counter() - t0) * 1000.0 / inner)
            last[key] = result
    return samples, last, errors


def _med(xs):
    return median(xs) if xs else None


def _ours_nodes(result):
    return getattr(getattr(result, "stats", None), "nodes", None)


def _goal_ratio(r, limit):
    return None if r is None else r <= limit


def _peer_or_missing(peer):
    ok, info = peers.available(peer)
    return ok, info


def compare(ctx, workload, label, ours_fn, peer_name, peer_label, peer_fn, peer_nodes_fn=None, goal=None,
            goal_limit=None, expect_nodes=None, note=""):
    """One ours-vs-peer row: alternate, take medians, the ratio ours/peer, and node counts (the peer's
    from a separate, untimed counting run)."""
    ok, info = _peer_or_missing(peer_name)
    contenders = [("ours", ours_fn)] + ([("peer", peer_fn)] if ok else [])
    samples, last, errors = alternate(contenders, ctx.repeat)
    notes = [note] if note else []
    if not ok:
        notes.append(f"peer missing: {info}")
    ours_ms, peer_ms = _med(samples["ours"]), _med(samples.get("peer", []))
    if "ours" in errors:
        notes.append(f"ours failed: {errors['ours']}")
    if "peer" in errors:
        notes.append(f"peer failed: {errors['peer']}")
    ours_nodes = _ours_nodes(last.get("ours"))
    if expect_nodes is not None and ours_nodes is not None and ours_nodes != expect_nodes:
        notes.append(f"ours visited {ours_nodes} nodes, expected {expect_nodes}")
    peer_nodes = None
    if ok and peer_nodes_fn is not None and "peer" not in errors:
        try:
            peer_nodes = peer_nodes_fn().get("nodes")
        except Exception as exc:
            notes.append(f"peer node count failed: {type(exc).__name__}: {exc}")
    r = ratio(ours_ms, peer_ms)
    extra = {}
    if ours_nodes and ours_ms:
        extra["ours_nodes_per_s"] = ours_nodes / (ours_ms / 1000)
    if peer_nodes and peer_ms:
        extra["peer_nodes_per_s"] = peer_nodes / (peer_ms / 1000)
    if extra:
        notes.append("nodes/s ours " + (f"{extra['ours_nodes_per_s']:,.0f}" if "ours_nodes_per_s" in extra else "-")
                     + ", peer " + (f"{extra['peer_nodes_per_s']:,.0f}" if "peer_nodes_per_s" in extra else "-"))
    ours_result = last.get("ours")
    if ours_result is not None:
        extra["ours_move"] = ours_result.move
        extra["ours_value"] = ours_result.value
        extra["ours_stats"] = ours_result.stats.to_dict()
    if "peer" in last:
        extra["peer_result"] = {k: v for k, v in last["peer"].items() if isinstance(v, (int, float, str))}
    met = None
    if goal_limit is not None:
        met = _goal_ratio(r, goal_limit) if "ours" not in errors else False
    return make_row(workload, label, peer=peer_label if ok else f"{peer_label} (missing)", ours_ms=ours_ms,
                    peer_ms=peer_ms, ratio=r, ours_nodes=ours_nodes, peer_nodes=peer_nodes, goal=goal, met=met,
                    note="; ".join(notes) or None, ours_samples_ms=samples["ours"],
                    peer_samples_ms=samples.get("peer", []), **extra)


# --- tic-tac-toe ---------------------------------------------------------------------------------------

EMPTY_TTT = {"board": ["...", "...", "..."], "k": 3}
MID_2048 = {"board": [[0, 0, 2, 2], [4, 16, 8, 4], [64, 32, 16, 4], [256, 128, 64, 8]]}


def tictactoe_minimax(ctx):
    return [compare(
        ctx, "tictactoe-minimax", "minimax, empty board, full depth",
        lambda: ours.search("tictactoe", EMPTY_TTT, {"name": "minimax"}),
        "open_spiel", "OpenSpiel expectiminimax (depth 9)",
        lambda: peers.os_tictactoe_expectiminimax(),
        lambda: peers.os_tictactoe_expectiminimax(count_nodes=True),
        goal="ratio <= 0.1", goal_limit=0.1, expect_nodes=549_946)]


def tictactoe_alphabeta(ctx):
    return [compare(
        ctx, "tictactoe-alphabeta", "textbook alpha-beta (ordering, TT off)",
        lambda: ours.search("tictactoe", EMPTY_TTT,
                            {"name": "alphabeta", "move_ordering": False, "transposition_table": False}),
        "open_spiel", "OpenSpiel alpha_beta_search",
        lambda: peers.os_alpha_beta("tic_tac_toe"),
        lambda: peers.os_alpha_beta("tic_tac_toe", count_nodes=True),
        goal="ratio <= 0.1", goal_limit=0.1, expect_nodes=18_297)]


# --- Connect Four, depth 8 -----------------------------------------------------------------------------

def connect4_depth8(ctx):
    start, depth = "", 8
    state = {"moves": start}
    textbook = {"name": "alphabeta", "depth": depth, "move_ordering": False, "transposition_table": False}
    defaults = {"name": "alphabeta", "depth": depth}
    variants = [
        ("textbook, zero eval (internals)", lambda: ours.zero_eval_depth_search("connect4", state, depth),
         "like for like: engine.api.load + the alphabeta module with ordering/TT off on a copy of our game "
         "whose evaluate is 0 (the API has no zero-evaluation option)"),
        ("textbook, our heuristic eval", lambda: ours.search("connect4", state, textbook),
         "through the API: ordering/TT off, but our evaluation is the game's heuristic, so the tree differs "
         "from the peers' zero-evaluation tree; compare nodes/s"),
        ("defaults (PVS, ordering, TT, ID)", lambda: ours.search("connect4", state, defaults),
         "through the API with the default enhancements and our heuristic evaluation"),
    ]
    peer_specs = [
        ("open_spiel", "OpenSpiel alpha_beta_search, value 0",
         lambda: peers.os_connect4_depth(start, depth), lambda: peers.os_connect4_depth(start, depth, True)),
        ("easyAI", "easyAI Negamax, scoring 0",
         lambda: peers.easyai_connect4_depth(start, depth),
         lambda: peers.easyai_connect4_depth(start, depth, True)),
    ]
    rows = []
    for label, fn, note in variants:
        for peer_name, peer_label, pfn, pcount in peer_specs:
            if peer_name == "easyAI" and label.startswith("defaults"):
                continue  # one defaults row (vs OpenSpiel) is enough; easyAI takes seconds per run
            reps = ctx.repeat if peer_name != "easyAI" else max(1, min(ctx.repeat, 3))
            sub = Context(ctx.quick, reps, ctx.log)
            rows.append(compare(sub, "connect4-depth8", label, fn, peer_name, peer_label, pfn, pcount,
                                goal="report nodes/s, ratio", note=note))
    return rows


# --- Connect Four solving ------------------------------------------------------------------------------

# name -> (positions in a full run, in a quick run, total time budget (s) full / quick, OpenSpiel included).
# The budgets of the two sets with goals are 3x (L2_R2) and 1.1x (L1_R2) the total time the goal allows,
# so a set cut short by its budget cannot have met its goal.
SOLVE_PLAN = {
    "Test_L3_R1": (1000, 50, 120, 20),
    "Test_L2_R1": (1000, 50, 180, 30),
    "Test_L2_R2": (1000, 30, 300, 60),
    "Test_L1_R1": (1000, 30, 240, 30),
    "Test_L1_R2": (100, 5, 330, 60),
}
OURS_POSITION_CAP_MS = {True: 5_000, False: 20_000}  # per position (quick, full); past it, not exact
OS_POSITION_CAP_S = 2.0                # OpenSpiel plain alpha-beta, per position
OS_SET_BUDGET_S = {True: 10.0, False: 60.0}  # OpenSpiel, per set (quick, full)
OS_GIVE_UP_AFTER = 5                   # consecutive OpenSpiel time-outs before we stop trying on a set
SOLVE_GOALS = {"Test_L2_R2": ("all exact, mean <= 15 ms", 15.0),
               "Test_L1_R2": ("mean <= 0.5 s (first 100)", 500.0)}


def connect4_solve(ctx):
    rows = []
    have_os, os_info = peers.available("open_spiel")
    for name, (full_n, quick_n, budget_full, budget_quick) in SOLVE_PLAN.items():
        n = quick_n if ctx.quick else full_n
        budget = budget_quick if ctx.quick else budget_full
        positions = c4sets.load_set(name, n)
        labelled = positions is not None
        if not labelled:
            plies = {"Test_L3_R1": 28, "Test_L2_R1": 18, "Test_L2_R2": 14, "Test_L1_R1": 10, "Test_L1_R2": 8}[name]
            positions = [(m, None) for m in c4sets.random_positions(min(n, 50), plies, seed=plies)]
        rows += _solve_set(ctx, name, positions, labelled, n, budget, have_os, os_info)
    return rows


def _solve_set(ctx, name, positions, labelled, planned, budget, have_os, os_info):
    bench_name, cpp_ms, cpp_nodes = c4sets.SETS[name]
    ctx.log(f"  {name}: {len(positions)} positions{'' if labelled else ' (random, unlabelled)'}, "
            f"budget {budget} s")
    cap_ms = OURS_POSITION_CAP_MS[ctx.quick]
    ours_ms, ours_nodes, wrong, unproven, errors = [], [], [], [], []
    os_ms, os_pairs, os_wrong, os_timeouts, os_spent, os_streak = [], [], 0, 0, 0.0, 0
    os_budget = OS_SET_BUDGET_S[ctx.quick]
    started = time.perf_counter()
    done = 0
    for i, (moves, score) in enumerate(positions):
        if time.perf_counter() - started > budget:
            break
        # ours (alternating with OpenSpiel: even positions ours first, odd ones OpenSpiel first)
        def run_ours():
            t0 = time.perf_counter()
            try:
                res = ours.search("connect4", {"moves": moves}, {"name": "alphabeta"}, time_limit_ms=cap_ms)
            except Exception as exc:
                errors.append(f"{moves}: {type(exc).__name__}: {exc}")
                return None, None
            return res, (time.perf_counter() - t0) * 1000

        def run_os():
            nonlocal os_spent, os_streak, os_timeouts
            if not have_os or os_spent > os_budget or os_streak >= OS_GIVE_UP_AFTER:
                return None
            t0 = time.perf_counter()
            r = peers.os_connect4_solve(moves, OS_POSITION_CAP_S)
            dt = time.perf_counter() - t0
            os_spent += dt
            if r["timed_out"]:
                os_timeouts += 1
                os_streak += 1
                return None
            os_streak = 0
            return r, dt * 1000

        if i % 2 == 0:
            res, ms = run_ours()
            os_r = run_os()
        else:
            os_r = run_os()
            res, ms = run_ours()
        done += 1
        if res is None:
            unproven.append(moves)
            continue
        ours_ms.append(ms)
        ours_nodes.append(res.stats.nodes)
        got = (res.outcome, res.plies_to_end)
        if res.outcome is None or res.stats.timed_out:
            unproven.append(moves)
        elif labelled:
            want = c4sets.expected(moves, score)
            if got != want:
                wrong.append({"moves": moves, "score": score, "expected": list(want), "got": list(got)})
        if os_r is not None:
            r, oms = os_r
            os_ms.append(oms)
            os_pairs.append((ms, oms))
            os_outcome = c4sets.outcome_of_value(r["value"])
            reference = c4sets.expected(moves, score)[0] if labelled else res.outcome
            if reference is not None and os_outcome != reference:
                os_wrong += 1
    exact = done - len(wrong) - len(unproven) if labelled else None
    notes = [f"{bench_name}; {done}/{planned} positions run"
             + ("" if labelled else " (random positions, data set not found: only agreement is checked)")]
    if done < len(positions):
        notes.append(f"stopped by the {budget} s budget")
    if labelled:
        notes.append(f"exact (outcome and plies_to_end match the file): {exact}/{done}")
    if unproven:
        notes.append(f"{len(unproven)} without a proven result (per-position cap {cap_ms} ms, or an error), "
                     f"e.g. {unproven[:3]}")
    if errors:
        notes.append(f"errors: {errors[:3]}")
    if wrong:
        notes.append(f"wrong: {len(wrong)}, e.g. {wrong[:2]}")
    if ours_ms:
        notes.append(f"ours median {median(ours_ms):.2f} ms, p90 {percentile(ours_ms, 90):.1f} ms, max "
                     f"{max(ours_ms):.1f} ms, mean nodes {mean(ours_nodes):,.0f}"
                     + (f"; C++ reference mean {cpp_ms} ms, {cpp_nodes:,} nodes" if labelled else ""))
    peer_ms = None
    r = None
    if not have_os:
        notes.append(f"OpenSpiel missing: {os_info}")
    else:
        if os_pairs:
            ours_same = mean([a for a, _ in os_pairs])
            peer_ms = mean([b for _, b in os_pairs])
            r = ratio(ours_same, peer_ms)
            notes.append(f"OpenSpiel plain alpha-beta finished {len(os_pairs)} positions (cap "
                         f"{OS_POSITION_CAP_S} s each, {os_budget:.0f} s per set), {os_timeouts} timed out"
                         f"{', then skipped' if os_streak >= OS_GIVE_UP_AFTER or os_spent > os_budget else ''}; "
                         f"on those, ours mean {ours_same:.2f} ms vs OpenSpiel {peer_ms:.2f} ms; "
                         + (f"OpenSpiel outcome wrong: {os_wrong}" if labelled
                            else f"OpenSpiel and ours disagree on {os_wrong}"))
        else:
            notes.append(f"OpenSpiel plain alpha-beta finished none ({os_timeouts} timed out at "
                         f"{OS_POSITION_CAP_S} s)")
    mean_ms = mean(ours_ms) if ours_ms else None
    goal, met = None, None
    if name in SOLVE_GOALS:
        goal, limit = SOLVE_GOALS[name]
        complete = done == planned and labelled
        met = (mean_ms is not None and mean_ms <= limit and complete and not wrong
               and (name != "Test_L2_R2" or exact == planned))
    ctx.details[f"connect4-solve/{name}"] = {
        "positions": done, "planned": planned, "labelled": labelled, "exact": exact, "wrong": wrong[:20],
        "ours_ms": summary(ours_ms), "ours_nodes": summary(ours_nodes), "unproven": unproven[:20],
        "openspiel_ms": summary(os_ms), "openspiel_timeouts": os_timeouts,
        "cpp_reference_mean_ms": cpp_ms, "cpp_reference_mean_nodes": cpp_nodes}
    label = (f"{name} mean per position" if labelled
             else f"random {len(positions[0][0]) if positions else '?'}-ply positions (no {name})")
    rows = [make_row("connect4-solve", label, peer="OpenSpiel alpha-beta (finished ones)"
                     if have_os else "OpenSpiel (missing)", ours_ms=mean_ms, peer_ms=peer_ms, ratio=r,
                     ours_nodes=round(mean(ours_nodes)) if ours_nodes else None, goal=goal, met=met,
                     note="; ".join(notes), ours_text=None if mean_ms is None else "mean " + fmt_ms(mean_ms),
                     peer_text=None if peer_ms is None else "mean " + fmt_ms(peer_ms), exact=exact,
                     positions=done)]
    if labelled:
        rows.append(make_row("connect4-solve", f"{name} vs the published C++ mean",
                             peer="C++ solver (data README)", ours_ms=mean_ms, peer_ms=cpp_ms,
                             ratio=ratio(mean_ms, cpp_ms),
                             ours_nodes=round(mean(ours_nodes)) if ours_nodes else None, peer_nodes=cpp_nodes,
                             ours_text=None if mean_ms is None else "mean " + fmt_ms(mean_ms),
                             peer_text="mean " + fmt_ms(cpp_ms),
                             note="not run here: the mean time and nodes the data README gives for a strong "
                                  "C++ solver" + (" (first 100 positions)" if name == "Test_L1_R2" else "")))
    return rows


# --- MCTS ----------------------------------------------------------------------------------------------

def mcts(ctx):
    moves, iterations, seed = "4453", 2000, 12345
    ours_fn = lambda: ours.search("connect4", {"moves": moves},
                                  {"name": "mcts", "iterations": iterations, "seed": seed},
                                  time_limit_ms=600_000)
    note = (f"from \"{moves}\", {iterations} iterations, one random rollout per leaf on every side, "
            f"UCT c = sqrt 2, MCTS-Solver on (ours always; OpenSpiel solve=True), same seed")
    rows = [
        compare(ctx, "mcts", f"{iterations} iterations vs C++", ours_fn, "open_spiel",
                "OpenSpiel C++ MCTSBot + RandomRolloutEvaluator",
                lambda: peers.os_mcts_cpp(moves, iterations, seed), goal="ratio <= 1", goal_limit=1.0,
                note=note),
        compare(ctx, "mcts", f"{iterations} iterations vs Python", ours_fn, "open_spiel",
                "OpenSpiel Python MCTSBot", lambda: peers.os_mcts_python(moves, iterations, seed),
                goal="ratio <= 0.33", goal_limit=0.33, note=note),
    ]
    for row in rows:
        it = (row.get("ours_stats") or {}).get("iterations")
        if it is not None and it != iterations:
            row["note"] = (row["note"] or "") + f"; ours ran {it} iterations, not {iterations}"
            row["met"] = False
    return rows


# --- 2048 ----------------------------------------------------------------------------------------------

# A mid-game position: OpenSpiel's 2048 after this action history (30 random moves, tiles drawn from its
# chance distribution, seed 7 of bench.peers.os_2048_playout). Our side gets the same board as JSON.
OS_2048_HISTORY = [10, 4, 0, 6, 3, 6, 3, 4, 3, 10, 0, 16, 0, 12, 3, 4, 1, 30, 3, 21, 0, 22, 3, 6, 1, 0, 2, 4,
                   1, 12, 3, 12, 2, 2, 1, 8, 0, 24, 1, 18, 3, 27, 1, 18, 3, 14, 1, 24, 1, 0, 2, 8, 2, 10, 1,
                   8, 0, 16, 2, 2, 2, 1]
BOARD_2048 = [[4, 0, 0, 0], [2, 2, 0, 16], [4, 4, 0, 4], [2, 16, 8, 8]]


def expectimax_2048(ctx):
    have_os, _ = peers.available("open_spiel")
    note = ("same board; ours: expectimax depth 3 (player, chance, player) with our heuristic evaluation; "
            "OpenSpiel: expectiminimax depth 2 (its depth counts player moves only, so the same tree shape) "
            "with the score so far as leaf value; both enumerate every spawn (2 p .9, 4 p .1, each empty cell)")
    if have_os:
        board = peers.os_2048_board(peers.os_2048_state(OS_2048_HISTORY))
        if board != BOARD_2048:
            note += f"; WARNING: OpenSpiel replay gives {board}, not the expected board"
    return [compare(ctx, "2048-expectimax", "depth 3 (player, chance, player)",
                    lambda: ours.search("2048", {"board": BOARD_2048}, {"name": "expectimax", "depth": 3}),
                    "open_spiel", "OpenSpiel expectiminimax on \"2048\"",
                    lambda: peers.os_2048_expectiminimax(OS_2048_HISTORY, 2),
                    lambda: peers.os_2048_expectiminimax(OS_2048_HISTORY, 2, count_nodes=True),
                    goal="report ratio", note=note)]


# --- the two cores -------------------------------------------------------------------------------------

# The same searches on the compiled core and on the Python reference, through the API ("core"): a fixed
# depth or a fixed number of seeded iterations, so that both visit the same nodes.
# An Othello endgame with 12 empty squares (the game type's sample): both cores' endgame solvers visit the
# same nodes.
OTHELLO_12_EMPTY = othello.GAME_TYPE.sample_states[2]
# Backgammon: the opening roll 3-1, and the game type's sample with a checker of each side on the bar, rolled
# 2-2 (26 plays; the sample's own 6-6 is a forced pass, which the API answers without a real search).
BACKGAMMON_OPENING = {**backgammon.START_JSON, "dice": [3, 1]}
BACKGAMMON_BARS = {**backgammon.GAME_TYPE.sample_states[1], "dice": [2, 2]}
CORE_SEARCHES = [
    ("connect4", {"moves": "4453"}, {"name": "alphabeta", "depth": 8}, "alpha-beta depth 8, defaults"),
    ("connect4", {"moves": ""}, {"name": "alphabeta", "depth": 8, "move_ordering": False,
                                 "transposition_table": False}, "textbook alpha-beta depth 8"),
    ("connect4", {"moves": "4453"}, {"name": "mcts", "iterations": 2000, "seed": 12345}, "MCTS 2000 iterations"),
    ("tictactoe", EMPTY_TTT, {"name": "minimax"}, "minimax, empty 3x3"),
    ("tictactoe", EMPTY_TTT, {"name": "alphabeta", "move_ordering": False, "transposition_table": False},
     "textbook alpha-beta, empty 3x3"),
    ("tictactoe", {"board": ["......."] * 7, "k": 4}, {"name": "alphabeta", "depth": 4},
     "alpha-beta depth 4, defaults, empty 7x7 k=4"),
    ("tictactoe", EMPTY_TTT, {"name": "mcts", "iterations": 2000, "seed": 12345}, "MCTS 2000 iterations, 3x3"),
    ("othello", othello.GAME_TYPE.sample_states[0], {"name": "alphabeta", "depth": 7},
     "alpha-beta depth 7, defaults, the middle game (40 empty squares)"),
    ("othello", {"to_move": "B"}, {"name": "mcts", "iterations": 1000, "seed": 12345},
     "MCTS 1000 iterations, the start"),
    ("othello", OTHELLO_12_EMPTY, {"name": "alphabeta"}, "endgame solver, 12 empty squares"),
    ("chess", {}, {"name": "alphabeta", "depth": 6}, "alpha-beta depth 6, defaults, the start"),
    ("checkers", {}, {"name": "alphabeta", "depth": 8}, "alpha-beta depth 8, defaults, the start"),
    ("checkers", {}, {"name": "mcts", "iterations": 300, "seed": 12345}, "MCTS 300 iterations, the start"),
    ("2048", MID_2048, {"name": "expectimax", "depth": 9}, "expectimax depth 9, mid-game board"),
    ("2048", MID_2048, {"name": "expectimax", "depth": 11, "probability_cutoff": 0.001},
     "expectimax depth 11, probability_cutoff 0.001, mid-game board"),
    ("backgammon", BACKGAMMON_OPENING, {"name": "expectimax", "depth": 4}, "expectimax depth 4, the opening 3-1"),
    ("backgammon", BACKGAMMON_BARS, {"name": "expectimax", "depth": 5, "probability_cutoff": 0.01},
     "expectimax depth 5, probability_cutoff 0.01, both sides on the bar, 2-2"),
]
NATIVE_SPEEDUP_GOAL = 20
# The Python games' caches by board, emptied before every timed search of that game, so that a repeated
# search pays what a new position does (backgammon's plays and evaluation: warm, its repeats ran 3-4x faster).
PYTHON_CACHES = {"backgammon": (backgammon.plays, backgammon.equity, backgammon_net.CONTACT.part)}


def cores(ctx):
    """One row per search of :data:`CORE_SEARCHES`: the compiled core against the Python core, side by
    side; the goal is nodes/s at least ``NATIVE_SPEEDUP_GOAL`` times the Python core's."""
    rows = []
    for game_id, state, algorithm, label in CORE_SEARCHES:
        def on(core, game_id=game_id, state=state, algorithm=algorithm):
            def run():
                for cached in PYTHON_CACHES.get(game_id, ()):
                    cached.cache_clear()
                return ours.search(game_id, state, {**algorithm, "core": core}, time_limit_ms=600_000)
            return run
        samples, last, errors = alternate([("native", on("native")), ("python", on("python"))], ctx.repeat)
        native_ms, python_ms = _med(samples["native"]), _med(samples["python"])
        notes = [f"{core} failed: {error}" for core, error in errors.items()]
        native_nodes, python_nodes = _ours_nodes(last.get("native")), _ours_nodes(last.get("python"))
        speedup = None
        if native_ms and python_ms and native_nodes and python_nodes:
            speedup = (native_nodes / native_ms) / (python_nodes / python_ms)
            notes.append(f"nodes/s native {native_nodes / native_ms * 1000:,.0f}, python "
                         f"{python_nodes / python_ms * 1000:,.0f}: {speedup:.1f}x")
            same = (last["native"].move, last["native"].value) == (last["python"].move, last["python"].value)
            notes.append("same move and value" if same else
                         f"DIFFERENT answers: native {last['native'].move} {last['native'].value}, "
                         f"python {last['python'].move} {last['python'].value}")
        rows.append(make_row("cores", f"{game_id}: {label}", peer="python core", ours_ms=native_ms,
                             peer_ms=python_ms, ratio=ratio(native_ms, python_ms), ours_nodes=native_nodes,
                             peer_nodes=python_nodes, goal=f"nodes/s >= {NATIVE_SPEEDUP_GOAL}x python",
                             met=None if speedup is None else speedup >= NATIVE_SPEEDUP_GOAL,
                             note="; ".join(notes) or None, ours_samples_ms=samples["native"],
                             peer_samples_ms=samples["python"], speedup=speedup))
    return rows
