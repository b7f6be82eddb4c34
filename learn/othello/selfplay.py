"""Positions from the compiled core's self-play, labelled exactly where the endgame solver reaches.

A game opens with a few uniformly random moves (a different game every time), then the compiled core plays
both sides by a shallow alpha-beta search, now and then a random move instead, for variety, until at most
``labeller.empties`` squares are empty. There the solver gives the position's value with perfect play and
its principal variation, which the game then follows to the end: every position from there on is labelled
exactly (the same value, for the side to move), and every position before it with that value too, the
result its game reached with perfect play from there (as a game's result labels positions in Monte Carlo
evaluation). A sample says which of the two its label is.
"""
from dataclasses import dataclass
import random

from engine.deadline import Deadline
from engine.games.othello import GAME, PASS, initial_state
from engine.limits import Limits
from engine.search import alphabeta
from engine.search.native import search

SEARCH_DEPTH = 6
RANDOM_OPENING = (2, 12)      # plies of uniformly random moves at the start
RANDOM_SHARE = 0.05           # a random move instead of the search's, before the solver's reach


@dataclass(frozen=True)
class Sample:
    me: int            # the side to move's discs
    them: int
    label: int         # the final disc difference with perfect play from the solved position, for the mover
    exact: bool        # the position is on the solver's line: its label is its own value


@dataclass(frozen=True)
class Game:
    samples: list


def empties(state) -> int:
    return 64 - (state[0] | state[1]).bit_count()


def searched_move(state) -> int:
    result = search(GAME, state, alphabeta.NAME, alphabeta.Settings(depth=SEARCH_DEPTH), Deadline(10.0), Limits())
    return result.move


def solved_line(state, labeller) -> tuple:
    """``(value for the mover, states to the end)``: the solver's line from ``state``, solved again where a
    line comes back short of the end (a table cut-off ends it early)."""
    value, line, mover = None, [state], state[2]
    while not GAME.is_terminal(line[-1]):
        v, pv = labeller(GAME.native_state(line[-1]))
        if value is None:
            value = v
        for move in pv:
            if GAME.is_terminal(line[-1]):
                break
            line.append(GAME.result(line[-1], move))
    return value, line, mover


def play(rng: random.Random, labeller) -> Game:
    state, opening, before = initial_state(), rng.randint(*RANDOM_OPENING), []
    plies = 0
    while empties(state) > labeller.empties and not GAME.is_terminal(state):
        before.append(state)
        moves = GAME.actions(state)
        random_move = plies < opening or rng.random() < RANDOM_SHARE
        move = rng.choice(moves) if random_move or moves == [PASS] else searched_move(state)
        state, plies = GAME.result(state, move), plies + 1
    if GAME.is_terminal(state):
        return Game([])                     # over before the solver's reach: no label
    value, line, mover = solved_line(state, labeller)

    def sample(s, exact):
        return Sample(s[0], s[1], value if s[2] == mover else -value, exact)
    return Game([sample(s, False) for s in before] + [sample(s, True) for s in line if not GAME.is_terminal(s)])
