"""What a match is played on: variants (a game and its starting state) and their openings.

A variant is a registered game with a starting state (``tictactoe`` on 3 x 3, or 15 x 15 with k = 5). Every
registered game is a variant of its own name, starting from its declared ``initial_state``; the table below
adds the other sizes. Openings are short move sequences from the starting state; a match plays each one
twice, the players swapping sides, so an opening that favours one side favours both players equally.

A game needs nothing here: without a listed set, openings are drawn by seeded random legal play
(:func:`random_openings`). A list is only worth adding where random play would be unbalanced or repetitive.
"""
from dataclasses import dataclass
import itertools
import random

from bench.adjudication import MaterialAdjudication
from engine import api
from engine.game import CHANCE
from engine.registry import GAME_MODULES, game_type


@dataclass(frozen=True)
class Variant:
    name: str
    game: str
    initial_state: dict
    openings: tuple = ()    # move sequences (JSON moves), each played from initial_state
    adjudication: object = None     # ends a game early when its result is clear (bench.adjudication)


def _connect4_openings() -> tuple:
    """Every two-ply opening up to mirror symmetry (25): a position and its mirror image play alike."""
    return tuple((a, b) for a in range(4) for b in range(7) if a < 3 or b >= 3)


def _gomoku_openings(side: int) -> tuple:
    """The 26 standard openings of five in a row (renju's, played in tournaments since 1936): the first
    stone at the centre, the reply next to it, straight (13) or diagonally (13), and the third stone
    anywhere in the central 5 x 5, one of each pair of cells mirrored by the line through the first two
    (so no two openings are the same position). Every stone is in the fight: random openings put one
    side's stone far from it, as good as a move lost (bench/STRENGTH.md, "Five in a row, 15 x 15")."""
    centre = (side // 2) * side + side // 2
    found = []
    for reply, mirror in (((0, 1), lambda r, c: (-r, c)), ((1, 1), lambda r, c: (c, r))):
        for third in sorted({min(cell, mirror(*cell)) for cell in itertools.product(range(-2, 3), repeat=2)}
                            - {(0, 0), reply}):
            found.append(tuple(centre + r * side + c for r, c in ((0, 0), reply, third)))
    return tuple(found)


# Chess: twenty main lines of the openings masters play (both sides' best-known replies, so none is lost
# out of the book), 6-10 plies each; every one is played with both colours.
CHESS_OPENINGS = tuple(tuple(line.split()) for line in (
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",                      # Ruy Lopez
    "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5",                      # Italian
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6",  # Sicilian, Najdorf
    "e2e4 c7c5 g1f3 e7e6 d2d4 c5d4 f3d4 b8c6",            # Sicilian, Taimanov
    "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6",                      # French, Classical
    "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5",            # Caro-Kann, Classical
    "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5",                      # Scandinavian
    "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6",                      # Pirc
    "e2e4 e7e5 g1f3 g8f6 f3e5 d7d6 e5f3 f6e4",            # Petrov
    "e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4 g8f6",            # Scotch
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6",                      # Queen's Gambit Declined
    "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6",                      # Slav
    "d2d4 d7d5 c2c4 d5c4 g1f3 g8f6",                      # Queen's Gambit Accepted
    "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6",            # King's Indian
    "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4",                      # Nimzo-Indian
    "d2d4 g8f6 c2c4 e7e6 g1f3 b7b6",                      # Queen's Indian
    "d2d4 g8f6 c2c4 g7g6 b1c3 d7d5",                      # Grunfeld
    "c2c4 e7e5 b1c3 g8f6 g1f3 b8c6",                      # English, Four Knights
    "g1f3 d7d5 c2c4 e7e6 g2g3 g8f6",                      # Reti
    "d2d4 d7d5 g1f3 g8f6 c1f4 e7e6",                      # London
    "d2d4 f7f5 g2g3 g8f6 f1g2 e7e6",                      # Dutch
    "e2e4 c7c5 b1c3 b8c6 g2g3 g7g6",                      # Sicilian, Closed
))


def _board(side: int) -> list:
    return ["." * side] * side


VARIANTS = {v.name: v for v in (
    Variant("connect4", "connect4", game_type("connect4").initial_state, _connect4_openings()),
    Variant("tictactoe-5x5-k4", "tictactoe", {"board": _board(5), "k": 4}),
    Variant("tictactoe-7x7-k5", "tictactoe", {"board": _board(7), "k": 5}),
    Variant("gomoku-15", "tictactoe", {"board": _board(15), "k": 5}, _gomoku_openings(15)),
    Variant("chess", "chess", game_type("chess").initial_state, CHESS_OPENINGS, MaterialAdjudication()),
)}


def variant(name: str) -> Variant:
    """The variant called ``name``: one of :data:`VARIANTS`, or a registered game from its initial state."""
    if name in VARIANTS:
        return VARIANTS[name]
    if name in GAME_MODULES:
        return Variant(name, name, game_type(name).initial_state)
    raise ValueError(f"unknown variant {name!r}; known: {sorted(set(VARIANTS) | set(GAME_MODULES))}")


def variant_names() -> list:
    return sorted(set(VARIANTS) | set(GAME_MODULES))


def random_openings(v: Variant, count: int, plies: int = 2, seed: int = 0) -> list:
    """``count`` distinct openings of ``plies`` uniformly random legal moves (fewer if the game has fewer),
    none ending the game; seeded, so a rerun plays the same ones. In a game with chance (backgammon) an
    opening also holds the chance outcomes before and between its moves, drawn with their probabilities,
    so that its games do not all start from the same roll."""
    rng = random.Random(seed)
    found, tries = [], 0
    while len(found) < count and tries < 50 * count:
        tries += 1
        game, state = api.load(v.game, v.initial_state)
        line, moves = [], 0
        while moves < plies and not game.is_terminal(state):
            if game.to_move(state) == CHANCE:
                outcomes = game.chance_outcomes(state)
                move = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                move = rng.choice(game.actions(state))
                moves += 1
            line.append(game.move_to_json(move))
            state = game.result(state, move)
        if not game.is_terminal(state) and tuple(line) not in found:
            found.append(tuple(line))
    return found


def openings(v: Variant, count: int, seed: int = 0) -> list:
    """The first ``count`` listed openings, topped up with random ones when the list is shorter."""
    listed = list(v.openings[:count])
    if len(listed) < count:
        extra = random_openings(v, count - len(listed) + len(v.openings), seed=seed)
        listed += [o for o in extra if o not in listed][:count - len(listed)]
    return listed
