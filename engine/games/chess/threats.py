"""Threats: pieces that stand attacked by lesser ones or that no piece of their own guards, after the threat
terms of Ethereal (Andrew Grant's engine: ``evaluateThreats``), a subset and our own weights (fitted to
Stockfish's judgement by ``python -m bench.chess_fit``, bench/STRENGTH.md). Centipawns, (middle game,
endgame), penalties of the threatened side, added to PeSTO's sums before the blend (:mod:`.evaluation`); all
integers, so that the compiled core (native/src/games/chess_threats.hpp) computes the same number.

The squares each side attacks, by the kind of attacker, are those the pieces' activity found as it counted
their mobility (:func:`.activity.no_attacks`): a pawn's two diagonals forward, a knight's and a king's
steps, a slider's rays up to and including the first piece in the way. For each side, its

- **knights and bishops attacked by an enemy pawn** (:data:`MINOR_BY_PAWN`) or **by an enemy knight or
  bishop** (:data:`MINOR_BY_MINOR`), or **attacked by an enemy rook or queen and unguarded**
  (:data:`WEAK_MINOR_BY_MAJOR`);
- **rooks attacked by an enemy pawn, knight or bishop** (:data:`ROOK_BY_LESSER`);
- **queens attacked** by any enemy piece (:data:`QUEEN_ATTACKED`);
- **pawns attacked and unguarded** (:data:`WEAK_PAWN`).

A term costs a piece once, whatever the number of its attackers; a piece may pay more than one term.
"""
from engine.games.chess.board import SQUARES, turned

MINOR_BY_PAWN = (54, 39)
MINOR_BY_MINOR = (10, 34)
WEAK_MINOR_BY_MAJOR = (13, 27)
ROOK_BY_LESSER = (42, 18)
QUEEN_ATTACKED = (50, 44)
WEAK_PAWN = (3, 15)
THREATENED = frozenset("PNBRQ")


def threats(board: str, ours: dict, theirs: dict) -> tuple:
    """``(mg, eg)``: the threat penalties of the opponent (lower case on ``board``, the mover's view) minus the
    mover's, in centipawns, given the squares the mover attacks (``ours``) and the opponent (``theirs``),
    each in its own view, as :func:`.activity.activity` gives them."""
    their_board = turned(board)
    ours_mg, ours_eg = penalties(board, ours, turned_round(theirs))
    theirs_mg, theirs_eg = penalties(their_board, theirs, turned_round(ours))
    return theirs_mg - ours_mg, theirs_eg - ours_eg


def turned_round(squares: dict) -> dict:
    """A side's attacked squares seen from the other side."""
    return {kind: {119 - s for s in found} for kind, found in squares.items()}


def penalties(board: str, ours: dict, theirs: dict) -> tuple:
    """``(mg, eg)``: the threat penalties of the upper-case side of ``board``, whose squares attacked by
    itself are ``ours`` and by the enemy ``theirs`` (both in this view)."""
    mg = eg = 0
    for s in SQUARES:
        if board[s] in THREATENED and s in theirs["all"]:
            by = {kind for kind, found in theirs.items() if s in found}
            for term_mg, term_eg in threatened(board[s], s in ours["all"], by):
                mg, eg = mg + term_mg, eg + term_eg
    return mg, eg


def threatened(p: str, guarded: bool, by: set) -> list:
    """The terms that cost the upper-case piece ``p`` (not a king), ``guarded`` or not by its side, that the
    enemy attacks with the kinds ``by`` (of :func:`.activity.no_attacks`, ``"all"`` among them)."""
    if p in "NB":
        return [term for term, hit in ((MINOR_BY_PAWN, "P" in by), (MINOR_BY_MINOR, "minor" in by),
                                       (WEAK_MINOR_BY_MAJOR, "major" in by and not guarded)) if hit]
    if p == "R":
        return [ROOK_BY_LESSER] if "P" in by or "minor" in by else []
    if p == "Q":
        return [QUEEN_ATTACKED]
    return [] if guarded else [WEAK_PAWN]
