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

- ``wdl``, the win, draw and loss probabilities per mille for the perspective player (Stockfish's
  ``UCI_ShowWDL``, lichess's WDL), integers summing to 1000, where the game's scale has them
  (:func:`wdl`): a proven result is exactly 1000/0/0, 0/1000/0 or 0/0/1000; chess (:data:`PAWNS`) maps
  centipawns and the game's ply by Stockfish 15.1's win-rate model (:func:`win_rate`: a logistic in the
  evaluation whose midpoint and slope are cubics in the ply, fitted to fishtest's games), reading our
  centipawns as Stockfish's; the win/draw/loss games (:data:`OUTCOME`) read a heuristic v in [-1, 1] as
  a win share max(v, 0), a loss share max(-v, 0) and the rest a draw, so that win + draw / 2 is the
  ``win_probability`` (1 + v) / 2: an estimate, not calibrated. :data:`VALUE` has none: null.

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


# Stockfish 15.1's win-rate model (src/uci.cpp, win_rate_model): the cubics in m = min(ply, 240) / 64 of the
# logistic's midpoint a and slope b, in Stockfish's internal units (SF_PAWN to a pawn: NormalizeToPawnValue,
# where a is at ply 64), and the range of evaluations it reads.
SF_AS = (0.38036525, -2.82015070, 23.17882135, 307.36768407)
SF_BS = (-2.29434733, 13.27689788, -14.26828904, 63.45318330)
SF_PAWN, SF_RANGE, SF_PLIES = 328, 4000.0, 240
PER_MILLE = 1000


def win_rate(centipawns: float, ply: int) -> int:
    """The win rate per mille of the side whose evaluation is ``centipawns`` at game ply ``ply``, by
    Stockfish 15.1's model: ``1000 / (1 + exp((a - x) / b))`` with ``x`` the evaluation in its units."""
    m = min(SF_PLIES, max(0, ply)) / 64.0
    a = ((SF_AS[0] * m + SF_AS[1]) * m + SF_AS[2]) * m + SF_AS[3]
    b = ((SF_BS[0] * m + SF_BS[1]) * m + SF_BS[2]) * m + SF_BS[3]
    x = min(SF_RANGE, max(-SF_RANGE, centipawns * SF_PAWN / 100.0))
    return int(0.5 + PER_MILLE / (1.0 + math.exp((a - x) / b)))


def wdl(value_scale: str, value: float, outcome: str | None = None, ply: int = 0) -> dict | None:
    """``{"win", "draw", "loss"}`` per mille for the perspective player, summing to 1000, of a value (and
    its proven ``outcome``) at game ply ``ply`` (chess's model reads it), or None where the game's scale
    has none (see the module docstring)."""
    if outcome is not None:
        return {key: PER_MILLE if key == outcome else 0 for key in (WIN, DRAW, LOSS)}
    if value_scale == PAWNS:
        if abs(value) >= WON_PAWNS:
            return wdl(value_scale, value, WIN if value > 0 else LOSS)
        win, loss = win_rate(value * 100, ply), win_rate(-value * 100, ply)
    elif value_scale == OUTCOME:
        v = min(1.0, max(-1.0, value))
        win, loss = round(PER_MILLE * max(v, 0.0)), round(PER_MILLE * max(-v, 0.0))
    else:
        return None
    loss = min(loss, PER_MILLE - win)
    return {WIN: win, DRAW: PER_MILLE - win - loss, LOSS: loss}


def clamp(p: float) -> float:
    return min(1.0, max(0.0, p))
