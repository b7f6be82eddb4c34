"""The reference engine's judgement of a position: Stockfish at a fixed depth through python-chess's UCI
client, one engine process (one thread, a small hash) per labelling process, so that labels cost the same on
any machine and as many run at once as there are cores.

Depth trades quality against volume. On the 2-core development machine (2026-12-02, one process, random
positions) Stockfish 15.1 labelled about 560 positions a second at depth 6, 370 at depth 7 and 260 at depth 8
through python-chess (1,217 / s at depth 6 over raw UCI: the client costs about a millisecond a call);
bench/STRENGTH.md keeps the figures of each run.
"""
from dataclasses import dataclass
import chess
import chess.engine

from bench.load.cluster import program

MATE_CP = 10_000          # a mate score's centipawns (the trainer drops such positions)


@dataclass(frozen=True)
class Label:
    cp: int                   # the side to move's score in centipawns (MATE_CP for a mate in any number)
    mate: bool
    best: chess.Move | None   # the reference engine's best move


def stockfish_path() -> str:
    """Debian's stockfish (/usr/games) or one on PATH."""
    found = program("stockfish")
    if not found:
        raise FileNotFoundError("stockfish is not installed (Debian: apt-get install stockfish)")
    return found


class Labeller:
    """One Stockfish process; ``label(board)`` searches the board to ``depth`` plies."""

    def __init__(self, depth: int, hash_mb: int = 16):
        self.depth = depth
        self.engine = chess.engine.SimpleEngine.popen_uci(stockfish_path())
        self.engine.configure({"Threads": 1, "Hash": hash_mb})

    def label(self, board: chess.Board) -> Label:
        info = self.engine.analyse(board, chess.engine.Limit(depth=self.depth))
        score = info["score"].pov(board.turn)
        pv = info.get("pv") or [None]
        return Label(cp=score.score(mate_score=MATE_CP), mate=score.is_mate(), best=pv[0])

    def close(self) -> None:
        self.engine.quit()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
