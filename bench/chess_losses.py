"""``python -m bench.chess_losses PGN... [--depth 14] [--player Tactician] [--worst 10]``: what our moves in
played games lose by Stockfish's judgement, and where in the game.

A match's score says how far we are from an opponent; this says where the points go. For every move of the
player whose name starts with ``--player`` (from ply 8 on, out of the openings' book moves), Stockfish
(:func:`bench.stockfish.stockfish_path`, full strength, one thread) scores the position before the move at
``--depth`` (its best move's score) and the position after it a ply less deep, both in centipawns for our
side (a mate as 3000 less its length). The move's loss is the difference. Prints a Markdown section for
bench/STRENGTH.md: by phase (plies 8-29, 30-59, 60-99, 100 on), the moves of balanced positions (Stockfish's
best within 150 centipawns of equality: where a game is still open), their mean loss and the moves losing
more than 50 and 100; then all moves; then the ``--worst`` largest losses from balanced positions, with the
move played and Stockfish's.
"""
import argparse
from dataclasses import dataclass
import statistics

import chess
import chess.engine
import chess.pgn

from bench.stockfish import stockfish_path

FIRST_PLY = 8
BALANCED = 150
MATE = 3000
PHASES = ((8, 30), (30, 60), (60, 100), (100, None))


@dataclass(frozen=True)
class Loss:
    """One of our moves: the position before it, the move and Stockfish's, its scores before and after it
    for our side, and the ply."""
    fen: str
    played: str
    best: str
    before: int
    after: int
    ply: int

    @property
    def centipawns(self) -> int:
        return max(0, self.before - self.after)


def losses(games: list, engine, depth: int, player: str) -> list:
    """The :class:`Loss` of every move of ``player`` (a name prefix) in ``games`` (python-chess games)."""
    found = []
    for game in games:
        ours = chess.WHITE if game.headers.get("White", "").startswith(player) else chess.BLACK
        board = game.board()
        for move in game.mainline_moves():
            if board.turn == ours and board.ply() >= FIRST_PLY:
                found.append(judge(engine, board, move, depth))
            board.push(move)
    return found


def judge(engine, board: chess.Board, move: chess.Move, depth: int) -> Loss:
    """Stockfish's scores, for the mover of ``board``, before ``move`` (at ``depth``) and after it."""
    us = board.turn
    info = engine.analyse(board, chess.engine.Limit(depth=depth))
    after_board = board.copy()
    after_board.push(move)
    after = engine.analyse(after_board, chess.engine.Limit(depth=depth - 1))
    return Loss(board.fen(), board.san(move), board.san(info["pv"][0]), info["score"].pov(us).score(mate_score=MATE),
                after["score"].pov(us).score(mate_score=MATE), board.ply())


def row(name: str, chosen: list) -> str:
    lost = [loss.centipawns for loss in chosen]
    mean = f"{statistics.mean(lost):.1f}" if lost else "-"
    return (f"| {name} | {len(lost)} | {mean} | {sum(c > 50 for c in lost)} | {sum(c > 100 for c in lost)} |")


def report(found: list, worst: int) -> str:
    balanced = [loss for loss in found if abs(loss.before) <= BALANCED]
    lines = ["| moves | count | mean loss (cp) | losing > 50 | losing > 100 |", "|---|---|---|---|---|"]
    for low, high in PHASES:
        name = f"balanced, plies {low}-{high - 1}" if high else f"balanced, plies {low} on"
        lines.append(row(name, [loss for loss in balanced if low <= loss.ply and (high is None or loss.ply < high)]))
    lines += [row("balanced, all", balanced), row("all", found), "",
              "| loss | ply | position | played | Stockfish | score before -> after |", "|---|---|---|---|---|---|"]
    for loss in sorted(balanced, key=lambda one: -one.centipawns)[:worst]:
        lines.append(f"| {loss.centipawns} | {loss.ply} | `{loss.fen}` | {loss.played} | {loss.best} | "
                     f"{loss.before} -> {loss.after} |")
    return "\n".join(lines)


def read_games(paths: list) -> list:
    games = []
    for path in paths:
        with open(path) as f:
            while (game := chess.pgn.read_game(f)) is not None:
                games.append(game)
    return games


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("pgn", nargs="+", help="PGN files (as bench.stockfish --pgn writes them)")
    p.add_argument("--depth", type=int, default=14, help="Stockfish's depth before our move (default 14)")
    p.add_argument("--player", default="Tactician", help="our side's name, a prefix (default Tactician)")
    p.add_argument("--worst", type=int, default=10, help="how many of the largest losses to list (default 10)")
    args = p.parse_args(argv)
    games = read_games(args.pgn)
    engine = chess.engine.SimpleEngine.popen_uci(stockfish_path())
    try:
        engine.configure({"Threads": 1})
        found = losses(games, engine, args.depth, args.player)
    finally:
        engine.quit()
    print(f"Our moves in {len(games)} games ({', '.join(args.pgn)}), judged by Stockfish at depth {args.depth} "
          f"(`python -m bench.chess_losses --depth {args.depth}`):\n")
    print(report(found, args.worst))


if __name__ == "__main__":
    main()
