"""Backgammon's labelled positions on disk, in the shared shards' folders and files (learn/shards.py: one
file a generating process, appended game by game, split by game). A line is ``kind, on_roll, other,
labels, game``: ``contact`` or ``race``, each side's 26 counts (comma-separated, from its own side), the
labeller's ten outputs (0-ply, then its deeper ply; comma-separated, as Python's repr writes them) and the
game's id.
"""
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from learn.shards import game_hash, rows

KINDS = ("contact", "race")


@dataclass
class Positions:
    kind: str
    sides: np.ndarray     # int8 (n, 2, 26): the side on roll, the other side
    labels: np.ndarray    # float32 (n, 10)
    games: np.ndarray     # int64, a game's id hashed


def write_game(out, game, game_id: str) -> int:
    """Append one :class:`learn.backgammon.selfplay.Game`'s samples; the number written."""
    for s in game.samples:
        out.write(f"{KINDS[s.race]}\t{','.join(map(str, s.on_roll))}\t{','.join(map(str, s.other))}\t"
                  f"{','.join(map(repr, s.labels))}\t{game_id}\n")
    out.flush()
    return len(game.samples)


def read(directory: Path, kind: str) -> Positions:
    """Every ``kind`` position in the shards under ``directory``, each once (its first labelling)."""
    seen, sides, labels, games = set(), [], [], []
    for parts in rows(directory, 5):
        key = (parts[1], parts[2])
        values = parts[3].split(",")
        if parts[0] != kind or key in seen or len(values) != 10:
            continue               # the other kind, a position read already, or labels cut short
        seen.add(key)
        sides.append((tuple(map(int, parts[1].split(","))), tuple(map(int, parts[2].split(",")))))
        labels.append(tuple(map(float, values)))
        games.append(game_hash(parts[4]))
    return Positions(kind, np.array(sides, np.int8).reshape(-1, 2, 26), np.array(labels, np.float32).reshape(-1, 10),
                     np.array(games, np.int64))
