"""Positions from the compiled core's self-play, each labelled by the reference engine as it is played.

A game opens with a few uniformly random moves (a different game every time), then the compiled core plays
both sides by a shallow alpha-beta search (``engine.api.search``), now and then a random move instead, for
variety. Every position after the opening is labelled (:mod:`learn.labels`); a position is *quiet*, and kept,
when its side to move is not in check and the reference engine's best move neither captures nor promotes:
the net learns the value of a position, not of an exchange under way, which the search's quiescence resolves.
The game ends by the rules (a claimable draw included), or by adjudication on the labels: a side that the
reference engine scores at ``DECISIVE_CP`` or more for ``DECISIVE_PLIES`` positions in a row has won; after
``MAX_PLIES``, a draw.
"""
from dataclasses import dataclass
import random

import chess

from engine import api
from learn.labels import Labeller

DECISIVE_CP = 1500
DECISIVE_PLIES = 4
MAX_PLIES = 300


@dataclass(frozen=True)
class Sample:
    fen: str
    cp: int           # the reference engine's score for the side to move
    white: bool       # White to move (the game's result is turned to the mover's side with it)


@dataclass(frozen=True)
class Game:
    samples: list
    result: float     # White's points: 1, 0.5 or 0
    plies: int


def quiet(board: chess.Board, label) -> bool:
    best = label.best
    return (not board.is_check() and not label.mate and best is not None
            and not board.is_capture(best) and best.promotion is None)


def our_move(board: chess.Board, depth: int) -> chess.Move:
    result = api.search("chess", board.fen(), {"name": "alphabeta", "depth": depth}, time_limit_ms=10_000)
    return chess.Move.from_uci(result.move)


def adjudicated(streak: list) -> float | None:
    """White's points once the last DECISIVE_PLIES labels (White's scores) all say the same side has won."""
    tail = streak[-DECISIVE_PLIES:]
    if len(tail) < DECISIVE_PLIES:
        return None
    if all(cp >= DECISIVE_CP for cp in tail):
        return 1.0
    if all(cp <= -DECISIVE_CP for cp in tail):
        return 0.0
    return None


def rules_result(board: chess.Board) -> float:
    outcome = board.outcome(claim_draw=True)
    if outcome is None or outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == chess.WHITE else 0.0


def play(rng: random.Random, labeller: Labeller, depth: int = 3, random_plies: tuple = (4, 10),
         random_share: float = 0.03) -> Game | None:
    """One labelled game, or None when the random opening already ended it."""
    board = chess.Board()
    for _ in range(rng.randint(*random_plies)):
        moves = list(board.legal_moves)
        if not moves:
            return None
        board.push(rng.choice(moves))
    samples, white_scores = [], []
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        label = labeller.label(board)
        white_scores.append(label.cp if board.turn == chess.WHITE else -label.cp)
        decided = adjudicated(white_scores)
        if decided is not None:
            return Game(samples, decided, board.ply())
        if quiet(board, label):
            samples.append(Sample(board.fen(), label.cp, board.turn == chess.WHITE))
        moves = list(board.legal_moves)
        board.push(rng.choice(moves) if rng.random() < random_share else our_move(board, depth))
    return Game(samples, rules_result(board), board.ply())
