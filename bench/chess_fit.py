"""``python -m bench.chess_fit [--games 400] [--workers 2] [--positions FILE]``: how far the chess
evaluation's hand-set weights are from Stockfish's judgement, and where a least-squares fit would move them.

- **Positions:** Stockfish plays itself at random skill levels (0-12, depth 6) from the bench's openings
  after 2-6 random plies; about a third of the positions from ply 14 on, not in check, are labelled by a
  second Stockfish at depth 10: the side to move's centipawns (mates are left out), and whether its best
  move is quiet. ``--positions FILE`` keeps them (JSON lines, appended) and a run with an existing FILE
  and ``--games 0`` only fits.
- **Features:** only quiet positions, where the static evaluation is what quiescence returns. Each weight of
  :data:`WEIGHTS` (in engine/games/chess/activity.py, evaluation.py and threats.py) is raised by one and the
  evaluation's middle-game and endgame sums read again: the terms are linear in their weights, so that is the
  weight's feature, blended by the phase as the evaluation blends (and scaled as it is scaled where the
  material is drawish: engine/games/chess/drawish.py).
- **Fit:** our evaluation is scaled to Stockfish's by the least-squares ratio ``c`` (fixed: a free scale
  would shrink every term at once); the weights' changes minimise ``|eval + X dw - c cp|^2 + RIDGE
  |dw|^2`` over four fifths of the positions with ``|cp| <= 500``. Prints the held-out fifth's error and
  correlation before and after, and each weight's fitted value, for bench/STRENGTH.md.
"""
import argparse
import importlib
import json
import random
from concurrent.futures import ProcessPoolExecutor

import chess
import chess.engine
import numpy as np

from bench.openings import CHESS_OPENINGS
from bench.stockfish import stockfish_path
from engine.games.chess import drawish, load, positional_terms
from engine.games.chess.evaluation import blend
from engine.games.chess.position import BOARD, EG, MG, PHASE

ACTIVITY = importlib.import_module("engine.games.chess.activity")      # (the package exports its function)
STRUCTURE = importlib.import_module("engine.games.chess.evaluation")
THREATS = importlib.import_module("engine.games.chess.threats")
# (module, constant, where in it: None for a number, an index into a tuple, or (key, index) into a dict of
# tuples or a dict of numbers)
WEIGHTS = ([(ACTIVITY, "MOBILITY", (p, i)) for p in "NBRQ" for i in (0, 1)]
           + [(ACTIVITY, name, i) for name in ("BISHOP_PAIR", "ROOK_CLOSED_FILE", "ROOK_SEMI_OPEN_FILE",
                                               "ROOK_OPEN_FILE") for i in (0, 1)]
           + [(ACTIVITY, "ROOK_NEAR_KING_FILE", None), (ACTIVITY, "ROOK_ON_KING_FILE", None)]
           + [(ACTIVITY, "SEVENTH", (p, i)) for p in "RQ" for i in (0, 1)]
           + [(ACTIVITY, "KING_ATTACK", None), (ACTIVITY, "WEAK_BACK_RANK", None)]
           + [(ACTIVITY, "STORM", (rank, None)) for rank in (4, 5, 6)]
           + [(STRUCTURE, name, i) for name in ("DOUBLED", "ISOLATED") for i in (0, 1)]
           + [(STRUCTURE, name, rank) for name in ("PASSED_MG", "PASSED_EG") for rank in range(2, 8)]
           + [(THREATS, name, i) for name in ("MINOR_BY_PAWN", "MINOR_BY_MINOR", "WEAK_MINOR_BY_MAJOR", "ROOK_BY_LESSER",
                                             "QUEEN_ATTACKED", "WEAK_PAWN") for i in (0, 1)])
MAX_CP = 500
RIDGE = 50.0
LABEL_DEPTH, PLAY_DEPTH, FIRST_PLY, SHARE = 10, 6, 14, 0.3


def label(where) -> str:
    module, name, at = where
    return name + ("" if at is None else "[" + ",".join(str(a) for a in (at if isinstance(at, tuple) else (at,))
                                                          if a is not None) + "]")


def weight(where):
    module, name, at = where
    value = getattr(module, name)
    if at is None:
        return value
    if isinstance(at, int):
        return value[at]
    key, index = at
    return value[key] if index is None else value[key][index]


def raised(where, by: int):
    """The constant of ``where`` with its weight raised by ``by``."""
    module, name, at = where
    value = getattr(module, name)
    if at is None:
        return value + by
    if isinstance(at, int):
        return value[:at] + (value[at] + by,) + value[at + 1:]
    key, index = at
    if index is None:
        return {**value, key: value[key] + by}
    entry = value[key]
    return {**value, key: entry[:index] + (entry[index] + by,) + entry[index + 1:]}


def sums(state) -> tuple:
    """The evaluation's middle-game and endgame sums of the terms that :data:`WEIGHTS` weigh."""
    STRUCTURE.STRUCTURE_CACHE.clear()
    return positional_terms(state)


def features(fen: str) -> tuple:
    """``(evaluation, features)`` of a position in centipawns from the side to move: each weight's
    feature is how much the blended evaluation grows when the weight grows by one."""
    _, state = load(fen)
    base_mg, base_eg = sums(state)
    row = []
    for where in WEIGHTS:
        module, name, _ = where
        kept = getattr(module, name)
        setattr(module, name, raised(where, 1))
        try:
            mg, eg = sums(state)
        finally:
            setattr(module, name, kept)
        row.append(blend(mg - base_mg, eg - base_eg, state[PHASE]))
    score = blend(state[MG] + base_mg, state[EG] + base_eg, state[PHASE])
    share = drawish.scaled(score, state[BOARD]) / score if score else 1.0     # drawish material's multiplier
    return score * share, [x * share for x in row]


def play_and_label(seed: int, games: int) -> list:
    """Labelled positions of ``games`` Stockfish self-play games (see the module's docstring)."""
    rng, found = random.Random(seed), []
    with chess.engine.SimpleEngine.popen_uci(stockfish_path()) as player, \
            chess.engine.SimpleEngine.popen_uci(stockfish_path()) as judge:
        for _ in range(games):
            board = chess.Board()
            for move in rng.choice(CHESS_OPENINGS):
                board.push_uci(move)
            for _ in range(rng.randint(2, 6)):
                if not board.is_game_over():
                    board.push(rng.choice(list(board.legal_moves)))
            skills = (rng.randint(0, 12), rng.randint(0, 12))
            while not board.is_game_over(claim_draw=True) and board.ply() < 200:
                player.configure({"Skill Level": skills[board.ply() & 1]})
                board.push(player.play(board, chess.engine.Limit(depth=PLAY_DEPTH)).move)
                if board.ply() >= FIRST_PLY and rng.random() < SHARE and not board.is_check():
                    found += labelled(judge, board)
    return found


def labelled(judge, board: chess.Board) -> list:
    info = judge.analyse(board, chess.engine.Limit(depth=LABEL_DEPTH))
    score, pv = info["score"].relative, info.get("pv", [])
    if score.is_mate() or not pv:
        return []
    quiet = not board.is_capture(pv[0]) and pv[0].promotion is None
    return [{"fen": board.fen(), "cp": score.score(), "quiet": quiet}]


def fit(cp: np.ndarray, evaluation: np.ndarray, x: np.ndarray, seed: int = 0) -> dict:
    """The fit of the module's docstring: ``{"scale", "before", "after", "changes"}``, the errors as
    ``(rmse, correlation)`` on the held-out fifth."""
    keep = np.abs(cp) <= MAX_CP
    cp, evaluation, x = cp[keep], evaluation[keep], x[keep]
    order = np.random.default_rng(seed).permutation(len(cp))
    train, test = order[: len(cp) * 4 // 5], order[len(cp) * 4 // 5:]
    scale = float(np.dot(evaluation[train], cp[train]) / np.dot(cp[train], cp[train]))
    ridge = np.sqrt(RIDGE) * np.eye(x.shape[1])
    changes = np.linalg.lstsq(np.vstack([x[train], ridge]),
                              np.concatenate([scale * cp[train] - evaluation[train], np.zeros(x.shape[1])]),
                              rcond=None)[0]
    fitted = evaluation + x @ changes

    def judged(values):
        return (float(np.sqrt(np.mean((values[test] - scale * cp[test]) ** 2))),
                float(np.corrcoef(values[test], cp[test])[0, 1]))
    return {"scale": scale, "before": judged(evaluation), "after": judged(fitted), "changes": changes,
            "positions": len(cp)}


def report(result: dict) -> str:
    (rmse0, corr0), (rmse1, corr1) = result["before"], result["after"]
    lines = [f"{result['positions']} quiet positions with |cp| <= {MAX_CP}; our evaluation is "
             f"{result['scale']:.3f} of Stockfish's centipawns. Held-out fifth: RMSE {rmse0:.1f} -> "
             f"{rmse1:.1f} cp, correlation {corr0:.3f} -> {corr1:.3f}.", "",
             "| weight | ours | fitted |", "|---|---|---|"]
    lines += [f"| {label(where)} | {weight(where)} | {weight(where) + change:.1f} |"
              for where, change in zip(WEIGHTS, result["changes"])]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="self-play games a worker")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--positions", default=None, help="JSON lines to keep the labelled positions in")
    args = parser.parse_args(argv)
    positions = []
    if args.positions:
        try:
            with open(args.positions) as f:
                positions = [json.loads(line) for line in f]
        except FileNotFoundError:
            pass
    if args.games:
        with ProcessPoolExecutor(args.workers) as pool:
            for found in pool.map(play_and_label, range(args.seed, args.seed + args.workers),
                                  [args.games] * args.workers):
                positions += found
                if args.positions:
                    with open(args.positions, "a") as f:
                        f.writelines(json.dumps(p) + "\n" for p in found)
    quiet = [p for p in positions if p["quiet"]]
    with ProcessPoolExecutor(args.workers) as pool:
        rows = list(pool.map(features, [p["fen"] for p in quiet], chunksize=64))
    print(report(fit(np.array([p["cp"] for p in quiet], dtype=float), np.array([r[0] for r in rows]),
                     np.array([r[1] for r in rows]))))


if __name__ == "__main__":
    main()
