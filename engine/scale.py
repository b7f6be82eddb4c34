"""One value scale across the games: a search's ``value`` beside a ``score`` in UCI's spirit and a
``win_probability``.

``value`` stays in the game's own unit (its :class:`~engine.registry.GameType` ``value_unit`` says which:
chess pawns, a heuristic in (-1, 1), a final disc difference, Pacman's score, 2048's log-tile value,
backgammon's points). Beside it every answer carries

- ``score``, one of: ``{"mate": N}`` (chess, a proven win in N moves; negative: mated in N moves),
  ``{"win_in": plies}`` / ``{"loss_in": plies}`` (any other game, a proven result), ``{"draw": true}``
  (a proven draw, any game), ``{"cp": centipawns}`` (chess, not proven) or ``{"value": v}`` (the game's
  unit, not proven). A proven result whose distance the search did not prove (MCTS's solver, textbook
  alpha-beta) has a null ``mate`` / ``win_in`` / ``loss_in``;
- ``win_probability`` in [0, 1] for the perspective player, where the game has a scale for it (its
  ``value_scale``): a proven result gives 1, 0.5 or 0; chess (:data:`PAWNS`) maps centipawns by Lichess's
  published logistic (winning chances ``2 / (1 + exp(-0.00368208 cp)) - 1``, the probability
  ``(1 + chances) / 2``), a won game (+-100 pawns, a root move's value when its mate distance is not
  known) exactly 1 or 0; the win/draw/loss games (:data:`OUTCOME`: tic-tac-toe, Connect Four, Othello,
  checkers) map a heuristic value v in [-1, 1] to ``(1 + v) / 2``, an estimate, not a calibrated
  probability. The games of :data:`VALUE` (trees, 2048, Pacman, backgammon's expected points) have none:
  null.

The service's serialiser calls :func:`score` and :func:`win_probability` with the game's type; nothing
here is per game but the three scales.
"""
import math

PAWNS = "pawns"      # chess: values in pawns, a won game +-100
OUTCOME = "outcome"  # win/draw/loss utilities +1/0/-1, heuristic values strictly inside
VALUE = "value"      # a game's own unit without a win probability
SCALES = (PAWNS, OUTCOME, VALUE)

LICHESS_K = 0.00368208  # lichess.org's winning-chances logistic (lila, WinPercent.scala)
WON_PAWNS = 100.0       # chess: a won game's value in pawns
WIN, LOSS, DRAW = "win", "loss", "draw"


def score(value_scale: str, value: float, outcome: str | None = None, plies_to_end: int | None = None) -> dict:
    """The ``score`` object of a value (and, at the root, its proven ``outcome`` and ``plies_to_end``)."""
    if outcome == DRAW:
        return {"draw": True}
    if outcome in (WIN, LOSS):
        if value_scale == PAWNS:
            moves = None if plies_to_end is None else (plies_to_end + 1) // 2
            return {"mate": moves if moves is None or outcome == WIN else -moves}
        return {"win_in" if outcome == WIN else "loss_in": plies_to_end}
    if value_scale == PAWNS:
        return {"cp": int(round(value * 100))}
    return {"value": value}


def win_probability(value_scale: str, value: float, outcome: str | None = None) -> float | None:
    """The perspective player's probability of winning (draws counting a half), or None where the game's
    scale has none."""
    if outcome is not None:
        return {WIN: 1.0, DRAW: 0.5, LOSS: 0.0}[outcome]
    if value_scale == PAWNS:
        if abs(value) >= WON_PAWNS:
            return 1.0 if value > 0 else 0.0
        chances = 2.0 / (1.0 + math.exp(-LICHESS_K * value * 100)) - 1.0
        return clamp((1.0 + chances) / 2.0)
    if value_scale == OUTCOME:
        return clamp((1.0 + value) / 2.0)
    return None


def clamp(p: float) -> float:
    return min(1.0, max(0.0, p))
