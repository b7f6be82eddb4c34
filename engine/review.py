"""A game's review: every decision of a game played, judged against a search of its position.

:class:`Review` replays the moves, then judges each decision (a ply whose mover is a player; a chance
outcome, a dice roll or a 2048 tile, is not judged, and a decision after one is judged given that roll, as
gnubg does). For a decision it needs the value of the position before the move (a search of it: its best
move, value and principal variation) and the value of the move played, both from the mover's side, in
the game's units:

- the played move is the best move: its value is the position's;
- the search scored the played move exactly (expectimax, and any search with multi-PV): that score;
- else the position after the move: its value as the next ply's search finds it (the same search serves
  as that ply's "before"), turned to the mover's side; a finished game's utility; at a chance node (the
  roll to come), the expectation over its outcomes, each searched.

Each position is valued by its own search with the same settings, as Lichess's analysis evaluates each
position of a game: with a fixed ``depth``, the value after a move is then a search one ply deeper from the
position before than the one that chose the best move, so a played move may come out a little better than
the best (its drop is then 0: ``best``). So one search per position played, and a few more where a move
was not scored exactly before a chance node. The budget of the whole review is spread over the searches still to run, each getting an equal share
of the time left. The searches are run by a function the caller gives (the service runs each in its turn
of the worker's admission).

Judging (:class:`Judge`, per game): the drop a move caused is measured in win probability where the game
has one (chess: Lichess's logistic on centipawns; the win/draw/loss games: from proven results, else
``(1 + v) / 2``), else in value, and classed by the game's thresholds: ``best`` (the search's best move, or no
drop), ``good`` (below the first threshold), ``inaccuracy``, ``mistake``, ``blunder``. Each move's accuracy
is Lichess's formula on the drop in win-percentage points, ``103.1668 exp(-0.04354 d) - 3.1669`` plus
Lichess's bonus of 1 for an imperfect analysis, clamped to [0, 100]; a side's accuracy is the mean over its
moves (Lichess also weighs moves by the position's volatility and averages with the harmonic mean: not done
here).
"""
from collections.abc import Callable, Iterator
from dataclasses import dataclass
import math
import time
from typing import Any

from engine import scale
from engine.game import ENDGAME_SOLVER, JSON, Game, State
from engine.registry import game_type
from engine.replay import replayed
from engine.result import EXACT, SearchResult, finite

BEST, GOOD, INACCURACY, MISTAKE, BLUNDER = "best", "good", "inaccuracy", "mistake", "blunder"
CLASSES = (BEST, GOOD, INACCURACY, MISTAKE, BLUNDER)
WIN_PROBABILITY, VALUE, RELATIVE_VALUE = "win_probability", "value", "relative_value"
FLIPPED = {scale.WIN: scale.LOSS, scale.LOSS: scale.WIN, scale.DRAW: scale.DRAW, None: None}

# Lichess's per-move accuracy from the drop in win percentage (lila, AccuracyPercent.scala).
ACCURACY_A, ACCURACY_K, ACCURACY_B, ACCURACY_BONUS = 103.1668100711649, 0.04354415386753951, -3.166924740191411, 1.0


@dataclass(frozen=True)
class Judge:
    """How a game's moves are judged: ``measure`` (``win_probability``: the drop in the mover's win
    probability, 0..1; ``value``: the loss in the game's units; ``relative_value``: the loss over the
    magnitude of the position's value, at least 1), the thresholds of inaccuracy, mistake and blunder on that
    measure, how many win-percentage points a unit of it counts for in the accuracy, and where the
    thresholds come from."""

    measure: str
    inaccuracy: float
    mistake: float
    blunder: float
    points_per_unit: float
    source: str

    def drop(self, before: "Side", after: "Side") -> float:
        """The drop from the position's value to the played move's, on the judge's measure (0 at least)."""
        if self.measure == WIN_PROBABILITY:
            if before.win_probability is None or after.win_probability is None:
                raise ValueError("a win-probability judge for a game without win probabilities")
            loss = before.win_probability - after.win_probability
        elif self.measure == VALUE:
            loss = before.value - after.value
        else:
            loss = (before.value - after.value) / max(1.0, abs(before.value))
        return max(0.0, loss)

    def classify(self, drop: float, best: bool) -> str:
        if best or drop <= 0.0:
            return BEST
        for name, threshold in ((BLUNDER, self.blunder), (MISTAKE, self.mistake), (INACCURACY, self.inaccuracy)):
            if drop >= threshold:
                return name
        return GOOD

    def accuracy(self, drop: float) -> float:
        """Lichess's accuracy of a move from its drop, counted in win-percentage points."""
        points = drop * self.points_per_unit
        return min(100.0, max(0.0, ACCURACY_A * math.exp(-ACCURACY_K * points) + ACCURACY_B + ACCURACY_BONUS))

    def to_json(self) -> dict:
        return {"measure": self.measure, "inaccuracy": self.inaccuracy, "mistake": self.mistake,
                "blunder": self.blunder, "source": self.source}


# Lichess's judgements (lila, Advice.scala) are drops of 0.1, 0.2, 0.3 in winning chances (-1..1): 0.05,
# 0.10, 0.15 in win probability. The win/draw/loss games use the same on their win probability.
LICHESS = Judge(WIN_PROBABILITY, 0.05, 0.10, 0.15, 100.0,
                "Lichess's drops in winning chances 0.1/0.2/0.3 (lila Advice.scala), as win probability")
# gnubg's default thresholds of a doubtful, bad and very bad move, in equity (expected points); a loss of e
# points counts as a drop of 50e win-percentage points (equity ~ 2p - 1, gammons aside).
GNUBG = Judge(VALUE, 0.04, 0.08, 0.16, 50.0, "gnubg's doubtful/bad/very bad equity losses 0.04/0.08/0.16")
# Games with neither a win probability nor a published standard (2048, Pacman, trees): this service's own.
RELATIVE = Judge(RELATIVE_VALUE, 0.05, 0.10, 0.20, 100.0,
                 "this service's: losses of 5/10/20 % of the position's value (at least 1 unit)")
JUDGES = {"backgammon": GNUBG}


def judge_for(game_id: str) -> Judge:
    """The game's judge: its own (backgammon), else by its value scale."""
    if game_id in JUDGES:
        return JUDGES[game_id]
    return RELATIVE if game_type(game_id).value_scale == scale.VALUE else LICHESS


@dataclass
class Side:
    """A value from one player's side: in the game's units, its proven outcome and win probability."""

    value: float
    outcome: str | None
    win_probability: float | None


@dataclass
class Position:
    """One state of the game played: ``mover`` (a player's index, or negative at a chance node or at the
    end), the move played from it (None for the last), in JSON and in the game's notation."""

    state: State
    mover: int
    move: Any = None
    move_json: JSON = None
    notation: str | None = None


def from_pgn(pgn: str) -> tuple[JSON, list[str]]:
    """A PGN's start position (its FEN header, else the initial one) and its moves in UCI, read as a chess
    state's PGN is (engine/games/chess/notation.py); an error on ``pgn`` if it is not wholly a legal game."""
    from engine.games.chess.notation import parse_pgn
    board, moves = parse_pgn(pgn, field="pgn")
    return {"fen": board.fen(), "moves": []}, [move.uci() for move in moves]


def replay(game: Game, state: State, moves_json: list[JSON]) -> list[Position]:
    """Every position of the game played: the start, then one after each move (errors name ``moves[i]``)."""
    positions = []
    for before, move, state in replayed(game, state, moves_json):
        positions.append(Position(before, game.to_move(before), move, game.move_to_json(move),
                                  game.move_notation(before, move)))
    return positions + [Position(state, -1 if game.is_terminal(state) else game.to_move(state))]


# Runs a search: (state JSON, time limit in ms) -> its result (moves in JSON form). The state is sent in the
# game's own form (Game.state_to_json: chess, the FEN where its history starts and the moves since), not
# the whole game's: a long game's positions load as fast as a short one's.
Searcher = Callable[[JSON, float], SearchResult]


class Review:
    """The review of ``moves_json`` played from ``state``: :meth:`plies` judges each decision in
    turn (searches run by ``search`` within ``time_limit_ms`` for the whole review), :meth:`summary`
    sums them up per side. Errors in the moves are raised by the constructor, before any search."""

    def __init__(self, game_id: str, game: Game, state: State, moves_json: list[JSON], search: Searcher,
                 time_limit_ms: float):
        self.end = time.perf_counter() + time_limit_ms / 1000.0  # replaying the moves counts too
        self.game, self.judge, self.search = game, judge_for(game_id), search
        self.value_scale = game_type(game_id).value_scale
        self.outcomes = game_type(game_id).outcomes
        self.scored_proofs = ENDGAME_SOLVER in game.capabilities   # a proven value is a score (Othello's discs)
        self.positions = replay(game, state, moves_json)
        self.decisions = [i for i, p in enumerate(self.positions[:-1]) if p.mover >= 0]
        self.results: dict[int, SearchResult] = {}
        self.complete = True  # every decision judged (False once the time ran out first)
        self.judged: list[dict] = []

    def searches_left(self) -> int:
        """The searches the review plans still: one per decision position not searched yet."""
        return sum(1 for i in self.decisions if i not in self.results)

    def share_ms(self, parts: int = 1) -> float:
        """An equal share of the time left, for one of ``parts`` searches of one planned search's share."""
        left = max(0.0, (self.end - time.perf_counter()) * 1000.0)
        return max(1.0, left / max(1, self.searches_left()) / parts)

    def searched(self, index: int) -> SearchResult:
        """The search of position ``index`` (a decision), run once."""
        if index not in self.results:
            self.results[index] = self.search(self.game.state_to_json(self.positions[index].state), self.share_ms())
        return self.results[index]

    def side(self, value: float, outcome: str | None, value_scale: str | None = None) -> Side:
        """A value from one side, with its win probability on ``value_scale`` (default: the game's)."""
        return Side(value, outcome, scale.win_probability(value_scale or self.value_scale, value, outcome))

    def seen_by(self, result: SearchResult, player: int, value: float | None = None,
                values: list | None = None) -> Side | None:
        """A search's value (or ``value`` / ``values`` of one of its root moves) from ``player``'s side;
        None when the search has no value (its share of the time ran out before it valued a move)."""
        outcome = result.outcome if value is None else None  # a root move's proof is not reported
        value = result.value if value is None else value
        if value is None:
            return None
        on = result.value_scale    # MCTS's utilities, whose win probability is not the game's in chess
        if result.perspective == self.game.players[player]:
            return self.side(value, outcome, on)
        values = result.values if values is None else values
        if values is not None:
            return self.side(values[player], None, on)
        return self.side(-value, FLIPPED[outcome], on)  # two players, zero-sum

    def state_value(self, state: State, player: int, index: int | None, parts: int = 1) -> Side | None:
        """The value of a state after a move, from ``player``'s side: a finished game's utility, a
        decision's search (``index``: a position of the game played, searched once), a chance node's
        expectation over its outcomes; None where a search found no value."""
        game = self.game
        if game.is_terminal(state):
            utilities = game.utilities(state)
            mine = utilities[player]
            outcome = None
            if self.outcomes:
                rest = max(u for p, u in enumerate(utilities) if p != player)
                outcome = scale.WIN if mine > rest else scale.LOSS if mine < rest else scale.DRAW
            return self.side(game.value_to_json(mine), outcome)
        if game.to_move(state) >= 0:
            result = (self.searched(index) if index is not None
                      else self.search(game.state_to_json(state), self.share_ms(parts)))
            return self.seen_by(result, player)
        outcomes = game.chance_outcomes(state)
        value = 0.0
        for outcome, probability in outcomes:
            child = self.state_value(game.result(state, outcome), player, None, parts * len(outcomes))
            if child is None:
                return None
            value += probability * child.value
        return self.side(value, None)

    def played(self, index: int, result: SearchResult, before: Side) -> Side | None:
        """The value of the move played from position ``index``, from its mover's side."""
        position = self.positions[index]
        if position.move_json == result.move:
            return before
        for mv in result.moves:
            if mv.move == position.move_json and mv.bound == EXACT:
                return self.seen_by(result, position.mover, mv.value, mv.values)
        after = self.positions[index + 1]
        child_index = index + 1 if after.mover >= 0 else None
        return self.state_value(after.state, position.mover, child_index)

    def plies(self) -> Iterator[dict]:
        """Each decision's judgement, in the order played, until the review's time runs out: the decisions
        left then are not judged (:attr:`complete` False), so that the review ends by its time limit (and at
        most one search's overhead past it)."""
        for index in self.decisions:
            judged = None if time.perf_counter() >= self.end else self.judge_ply(index)
            if judged is None:  # out of time, or a search's share of it found no value: not judged
                self.complete = False
                return
            yield judged

    def judge_ply(self, index: int) -> dict | None:
        """The judgement of decision ``index``; None when a search it needs found no value."""
        position, game = self.positions[index], self.game
        result = self.searched(index)
        before = self.seen_by(result, position.mover)
        after = None if before is None else self.played(index, result, before)
        if before is None or after is None:
            return None
        best = position.move_json == result.move
        drop = self.judge.drop(before, after)
        judged = {
            "ply": index, "player": game.players[position.mover], "move": position.move_json,
            "value_before": finite(before.value), "value_after": finite(after.value),
            "outcome_before": before.outcome, "outcome_after": after.outcome,
            "win_probability_before": before.win_probability, "win_probability_after": after.win_probability,
            "best_move": result.move, "pv": list(result.pv),
            "loss": self.loss(before, after), "drop": drop,
            "class": self.judge.classify(drop, best), "accuracy": self.judge.accuracy(drop),
        }
        if game.notation is not None:
            judged[game.notation] = position.notation
            judged["best_" + game.notation] = result.move_notation
            judged["pv_" + game.notation] = list(result.pv_notation or [])
        self.judged.append(judged)
        return judged

    def loss(self, before: Side, after: Side) -> float | None:
        """What the move gave up in the game's units, or None when the two values are in different units:
        in a game whose proven values are final scores (Othello's disc difference) and whose other values
        are heuristic estimates in (-1, 1), one side proven and the other not (the drop, in win
        probability, still compares them)."""
        if self.scored_proofs and (before.outcome is None) != (after.outcome is None):
            return None
        return finite(max(0.0, before.value - after.value))

    def summary(self) -> dict:
        """Per player who moved (by id): the moves judged, their mean accuracy, and the count of each
        class."""
        sides: dict[str, dict] = {}
        for judged in self.judged:
            side = sides.setdefault(judged["player"], {"moves": 0, "accuracy": 0.0,
                                                       "classes": {name: 0 for name in CLASSES}})
            side["moves"] += 1
            side["accuracy"] += judged["accuracy"]
            side["classes"][judged["class"]] += 1
        for side in sides.values():
            side["accuracy"] = round(side["accuracy"] / side["moves"], 1)
        return sides
