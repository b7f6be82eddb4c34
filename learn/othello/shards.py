"""Othello's labelled positions on disk, in the shared shards' folders and files (learn/shards.py: one file a
generating process, appended game by game, split by game). A line is ``me, them, label, exact, game``: the
side to move's discs and the other's (hexadecimal bitboards), the label (the final disc difference with
perfect play for the side to move, learn/othello/selfplay.py), 1 when it is the position's own value, and
the game's id.
"""
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from learn.shards import game_hash, rows


@dataclass
class Positions:
    me: np.ndarray        # uint64
    them: np.ndarray      # uint64
    label: np.ndarray     # int8, the disc difference for the side to move
    exact: np.ndarray     # bool
    games: np.ndarray     # int64, a game's id hashed


def write_game(out, game, game_id: str) -> int:
    """Append one :class:`learn.othello.selfplay.Game`'s samples; the number written."""
    for s in game.samples:
        out.write(f"{s.me:x}\t{s.them:x}\t{s.label}\t{int(s.exact)}\t{game_id}\n")
    out.flush()
    return len(game.samples)


def read(directory: Path) -> Positions:
    """Every position in the shards under ``directory``, each once: an exact label before an estimated one,
    else its first labelling."""
    found: dict = {}
    for me, them, label, exact_flag, game in rows(directory, 5):
        key, exact = (int(me, 16), int(them, 16)), exact_flag == "1"
        if key not in found or (exact and not found[key][1]):
            found[key] = (int(label), exact, game_hash(game))
    keys = list(found)
    values = list(found.values())
    return Positions(np.array([k[0] for k in keys], np.uint64), np.array([k[1] for k in keys], np.uint64),
                     np.array([v[0] for v in values], np.int8), np.array([v[1] for v in values], bool),
                     np.array([v[2] for v in values], np.int64))
