"""Positions from the compiled core's self-play: each turn the core's best play by its evaluation of the
position after it (``backgammon_ordered``, the 0-ply choice the search orders its moves by), now and then a
uniformly random play instead, the first few turns all random, the dice from the game's generator: a
different game every time. Every position with a side on roll (before its dice) is a sample; contact and
race positions are told apart (engine.games.backgammon.contact), since each has its own net.
"""
from dataclasses import dataclass
import random

import tactician_native as native

from engine.games.backgammon import CHECKERS, OFF, ROLLS, START, contact

MAX_TURNS = 400


@dataclass(frozen=True)
class Sample:
    on_roll: tuple     # 26 counts from the side on roll's side (0 off, 25 its bar)
    other: tuple
    race: bool         # no contact left (the race net's position)
    labels: tuple      # the labeller's outputs for the side on roll


@dataclass(frozen=True)
class Game:
    samples: list
    turns: int


def roll(rng: random.Random) -> tuple:
    a, b = rng.randint(1, 6), rng.randint(1, 6)
    return (max(a, b), min(a, b))


def play(rng: random.Random, labeller, random_turns: tuple = (0, 6), random_share: float = 0.1) -> Game:
    """One game, every position on roll labelled by ``labeller(on_roll, other)``."""
    x, o, turn = START, START, rng.randint(0, 1)
    dice = rng.choice([r for r in ROLLS if r[0] != r[1]])       # the opening roll is a non-double
    opening = rng.randint(*random_turns)
    samples = []
    for turns in range(MAX_TURNS):
        if x[OFF] == CHECKERS or o[OFF] == CHECKERS:
            return Game(samples, turns)
        if turns:
            on_roll, other = (x, o) if turn == 0 else (o, x)
            samples.append(Sample(on_roll, other, not contact(x, o), labeller(on_roll, other)))
            dice = roll(rng)
        state = (x, o, turn, dice)
        children = native.backgammon_children(state)
        if turns < opening or rng.random() < random_share:
            x, o, turn, _ = rng.choice(children)
        else:
            x, o, turn, _ = children[native.backgammon_ordered(state)[0]]
    return Game(samples, MAX_TURNS)
