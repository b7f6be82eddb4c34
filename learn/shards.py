"""Labelled positions on disk: one tab-separated shard a generating process, appended game by game, so that
a run stopped at any moment keeps every whole game it played and a later run adds to them. A line is
``fen, cp, points, game``: the reference score and the game's result (1, 0.5, 0), both for the side to move,
and the game's id, by which training and validation are split, so that no game is on both sides.

Data sets live under ``learn/data/`` (ignored by git): they are made afresh by each run, never committed.
"""
from dataclasses import dataclass
import hashlib
from pathlib import Path
import time

import numpy as np

DATA = Path(__file__).resolve().parent / "data"


@dataclass
class Positions:
    fens: list
    cp: np.ndarray        # int32, the side to move's reference score
    points: np.ndarray    # float32, the side to move's result
    games: np.ndarray     # int64, a game's id hashed


def write_game(out, game, game_id: str) -> int:
    """Append one :class:`learn.selfplay.Game`'s samples; the number written."""
    for s in game.samples:
        mover_points = game.result if s.white else 1.0 - game.result
        out.write(f"{s.fen}\t{s.cp}\t{mover_points:g}\t{game_id}\n")
    out.flush()
    return len(game.samples)


def position_key(fen: str) -> str:
    """The position without its move counters: the same placement, mover, castling and en passant."""
    return " ".join(fen.split(" ")[:4])


def read(directory: Path, max_abs_cp: int = 3000) -> Positions:
    """Every shard under ``directory``, each position once (its first labelling), scores past
    ``max_abs_cp`` dropped (decided positions teach the net little and stretch its scale)."""
    seen, fens, cps, points, games = set(), [], [], [], []
    for fen, cp, pts, game in rows(directory, 4):
        key = position_key(fen)
        if key in seen or abs(int(cp)) > max_abs_cp:
            continue
        seen.add(key)
        fens.append(fen), cps.append(int(cp)), points.append(float(pts))
        games.append(game_hash(game))
    return Positions(fens, np.array(cps, np.int32), np.array(points, np.float32), np.array(games, np.int64))


def rows(directory: Path, fields: int):
    """The lines of every shard under ``directory`` split at their tabs, those of ``fields`` fields: a line
    cut short by a stop mid-write is left out."""
    for path in sorted(directory.glob("*.tsv")):
        with path.open() as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) == fields:
                    yield parts


def game_hash(game_id: str) -> int:
    """A game's id as the non-negative int64 by which :func:`split` sends its positions one way."""
    return int.from_bytes(hashlib.blake2b(game_id.encode(), digest_size=8).digest(), "little") >> 1


def split(positions, validation_share: float = 0.05) -> tuple:
    """Boolean masks (train, validation) of any game's positions (their ``games``, :func:`game_hash` of
    each position's game): a game's positions all go one way, by its id."""
    validation = (positions.games % 1000) < int(validation_share * 1000)
    return ~validation, validation


def shard_path(directory: Path, worker: int) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    return directory / f"shard-{worker}-{time.strftime('%Y%m%dT%H%M%S')}.tsv"
