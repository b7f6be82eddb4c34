"""The one interface every search uses, after AIMA's ``Game`` (aima-python ``games.py``).

A game object holds the rules (and, for an explicit tree, the tree itself); states are immutable, hashable
values that only the game interprets. Searches never look inside a state: they ask the game.

Players are numbered 0..n-1; ``players`` gives their ids, as states and answers write them (``"X"``, ``"O"``;
``"MAX"``, ``"MIN"``), among those the game's ``GameType`` declares. At a chance
node ``to_move`` returns :data:`CHANCE`, and ``chance_outcomes`` lists ``(outcome, probability)`` pairs
whose outcomes ``result`` applies like moves.

The interface has three parts: the rules (every game implements them), optional capabilities (a game
lists those it implements in :attr:`Game.capabilities`, and searches use a capability only when it is
listed: nothing is detected by looking for overridden methods), and JSON conversion. A hook that one
search alone uses is no part of this interface: that search declares it as a ``typing.Protocol``
(:class:`engine.search.expectimax.KernelGame`, :class:`engine.search.mcts.PlayoutGame`), and a game has it
by defining its method. What a game *is*
(players, chance, alternation, bounds...) is declared once in its :class:`~engine.registry.GameType`.
"""
from collections.abc import Hashable, Iterable
import hashlib
import json
import time
from typing import Any, NamedTuple, TypeAlias

from engine.registry import EXPLICIT_CHANCE, GameType

# A state and a move are values only their game interprets: to the interface, and so to mypy, opaque.
State: TypeAlias = Any
Move: TypeAlias = Any   # a move, or at a chance node an outcome
JSON: TypeAlias = Any   # a value as json.loads gives it

CHANCE = -1

# The optional capabilities a game may list in ``Game.capabilities``; each names the method it provides.
# Methods every game has, whose defaults below are always correct and never clever:
EVALUATION = "evaluate"              # a heuristic at every state (else only terminal states are valued)
MOVE_ORDERING = "ordered_actions"    # the likeliest best moves first
HASHING = "key"                      # a compact key for transposition tables (else the state itself)
PLIES_BOUND = "plies_bound"          # an upper bound on the plies left
CANDIDATES = "candidate_actions"     # forward pruning: the few moves worth searching, threats first
# Hooks a game adds for particular searches, which Game does not have: each is a ``typing.Protocol`` in the
# module of the search that uses it, which states its contract.
IMMEDIATE_WIN = "immediate_win"      # a cheap test for a move that wins at once (search.solver.ImmediateWin)
SAFE_CHILDREN = "safe_children"      # the moves that do not lose at once (search.solver.SafeChildren)
OUTCOME_BOUNDS = "outcome_bounds"    # a strategy argument bounding the result (search.solver.OutcomeBounds)
QUIESCENCE = "noisy_actions"         # the moves that swing the evaluation (search.negamax.Quiescence)
EXTENSIONS = "forcing"               # states searched one ply deeper, in check (search.negamax.Extensions)
NULL_MOVE = "null_move"              # passing the turn, where no likely zugzwang (search.negamax.NullMove)
REPETITION = "repeated"              # a state that occurred before in the game (search.negamax.Repetition)
ASPIRATION = "aspiration_width"      # how far the next iteration's score may move (search.pvs.Aspiration)
EXCHANGE = "exchange"                # what a capture wins when both sides go on taking (search.negamax.Exchange)
FUTILITY = "futility_margin"         # how far a shallow search may move the evaluation (search.negamax.Futility)
THREATS = "threat_win"               # a threat-space search for forced wins (search.pvs.ThreatSpace)
ENDGAME_SOLVER = "solve_endgame"     # an exact solver of the final score (search.endgame.EndgameSolver)
CAPABILITIES = frozenset({EVALUATION, MOVE_ORDERING, HASHING, IMMEDIATE_WIN, SAFE_CHILDREN, OUTCOME_BOUNDS,
                          PLIES_BOUND, QUIESCENCE, EXTENSIONS, NULL_MOVE, REPETITION, ASPIRATION,
                          ENDGAME_SOLVER, CANDIDATES, THREATS, EXCHANGE, FUTILITY})


class Game:
    """Base class: override what the game has. Defaults describe a deterministic game without shortcuts.

    Class attributes:

    - ``id``: the game's id in the API (``"tictactoe"``).
    - ``players``: the players' ids, indexed by player number (their display names and colours are the
      ``GameType``'s ``player_info``).
    - ``has_chance``: some states are chance nodes.
    - ``zero_sum``: two sides whose utilities always sum to zero, so one number describes a state.
    - ``sides``: in a zero-sum game, the side (0 or 1) of each player, in player order; the players of a
      side share one utility (Pacman's ghosts). None: two players, each a side of its own.
    - ``outcome_game``: terminal utilities are +1 (win), 0 (draw), -1 (loss) for the player asked about,
      so a search may prove win/draw/loss and score wins by their distance.
    - ``utility_bounds``: ``(lo, hi)`` bounding both ``utility`` and ``evaluate``, or None when unknown.
      Star1 pruning needs them.
    - ``game_type``: the game's :class:`~engine.registry.GameType`, the declarations searches rely on.
    - ``notation``: None, or the name of a notation people read (``"san"``) that :meth:`move_notation`
      writes; responses then carry each move in it too.
    - ``capabilities``: the optional capabilities (see :data:`CAPABILITIES`) this game implements. A
      method of a capability the game does not list keeps the default below, which is always correct
      and never clever; a hook for one search (``safe_children``, ``forcing``...) is not a method of
      ``Game``, and the game defines it only to list it. The contract suite checks the list against the
      methods and the hooks' protocols.

    A game's class that sets ``game_type`` takes ``players``, ``has_chance``, ``zero_sum``,
    ``outcome_game`` and ``utility_bounds`` from it (its ``players``, ``chance``, ``zero_sum``,
    ``outcomes`` and ``utility_bounds``): they are declared once. Instance attributes may refine the
    class's (a tree knows its players and whether it has chance nodes only once it is loaded), within
    what the game's ``GameType`` declares.
    """

    id = "game"
    players: tuple[str, ...] = ("MAX", "MIN")
    has_chance = False
    zero_sum = True
    sides: tuple[int, ...] | None = None
    outcome_game = False
    utility_bounds: tuple[float, float] | None = None
    capabilities: frozenset[str] = frozenset()
    game_type: GameType | None = None  # the game's declarations; None declares nothing
    notation: str | None = None  # the name of the game's own move notation (chess: "san"), see move_notation

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared = cls.__dict__.get("game_type")
        if declared is not None:
            cls.players, cls.zero_sum = declared.players, declared.zero_sum
            cls.has_chance = declared.chance == EXPLICIT_CHANCE
            cls.outcome_game, cls.utility_bounds = declared.outcomes, declared.utility_bounds

    @property
    def n_players(self) -> int:
        return len(self.players)

    # --- the rules -------------------------------------------------------------------------------

    def to_move(self, state: State) -> int:
        """The player to move in ``state``, or :data:`CHANCE`."""
        raise NotImplementedError

    def actions(self, state: State) -> list[Move]:
        """The legal moves (or, at a chance node, the outcomes) in the game's natural order."""
        raise NotImplementedError

    def result(self, state: State, move: Move) -> State:
        """The state after ``move`` (or chance outcome). ``state`` itself is left unchanged."""
        raise NotImplementedError

    def is_terminal(self, state: State) -> bool:
        raise NotImplementedError

    def utility(self, state: State, player: int) -> float:
        """The final payoff of terminal ``state`` for ``player``."""
        raise NotImplementedError

    def utilities(self, state: State) -> tuple[float, ...]:
        """The payoff of terminal ``state`` for every player, in player order."""
        return tuple(self.utility(state, p) for p in range(self.n_players))

    def chance_outcomes(self, state: State) -> list[tuple[Move, float]]:
        """At a chance node: ``[(outcome, probability), ...]``, probabilities summing to 1."""
        raise NotImplementedError

    # --- knowledge that searches may use ---------------------------------------------------------

    def evaluate(self, state: State, player: int) -> float:
        """A heuristic estimate of ``state`` for ``player``, used where a depth limit cuts the search.
        Exact (the utility) on terminal states; strictly inside the win/loss utilities elsewhere in an
        outcome game."""
        return self.utility(state, player) if self.is_terminal(state) else 0.0

    def evaluations(self, state: State) -> tuple[float, ...]:
        """``evaluate`` for every player, in player order (n-player searches)."""
        return tuple(self.evaluate(state, p) for p in range(self.n_players))

    def key(self, state: State) -> Hashable:
        """A hashable key that identifies ``state`` for a transposition table. In an outcome game it also
        determines how many moves were played (as it does when every move adds a stone): the exact
        solver stores proven scores, counted in plies from its root, as they are."""
        key: Hashable = state
        return key

    def table_key(self, state: State) -> Hashable:
        """The key under which the enhanced alpha-beta's transposition table keeps ``state``'s score: the
        state's ``key`` unless the game says otherwise. A game whose key holds the history (for repetition
        draws) may leave it out here, so that the same position reached by other moves shares the entry:
        the transpositions it buys are worth more than the rare repetition whose draw then crosses from
        one line into another (the graph-history interaction, which chess engines accept)."""
        return self.key(state)

    def ordered_actions(self, state: State) -> list[Move]:
        """The legal moves, the likeliest best first (move ordering). Same set as ``actions``."""
        return self.actions(state)

    def candidate_actions(self, state: State) -> tuple[list[Move], bool]:
        """Forward pruning, for games too wide to search every move (five in a row on 15 x 15):
        ``(moves, complete)``, the moves worth searching, the likeliest best first, a subset of the legal
        moves that always holds a move winning at once if there is one, and otherwise every move that stops
        the opponent winning at once. ``complete`` says that the best of ``moves`` is as good as the best of
        all legal moves (one of them wins at once, or every move left out lets the opponent win at once);
        where it is not, a search can prove no loss nor draw at ``state``, only wins."""
        return self.ordered_actions(state), True

    def perspective(self, state: State) -> int:
        """The player whose point of view a search's root value takes: the player to move."""
        return self.to_move(state)

    def plies_bound(self, state: State) -> int | None:
        """An upper bound on the number of plies from ``state`` to the end of the game, if known.
        A depth-limited search that reaches it has seen every terminal state: its value is exact."""
        return None

    def plies_played(self, state: State) -> int | None:
        """The plies played from the game's start to ``state``, where the state knows them (from them a
        clock guesses the moves left: engine.clock); None where it does not."""
        return None

    def states_bound(self, state: State) -> int | None:
        """An upper bound on the states below ``state``, itself included (an explicit tree: its nodes), if
        known: no depth-first search of ``state`` visits more."""
        return None

    def end_reason(self, state: State) -> str | None:
        """Why terminal ``state`` ended, in words (``"threefold repetition"``), where the utilities do not
        say it all; None otherwise."""
        return None

    def winner(self, state: State) -> str | None:
        """The id of the player who won terminal ``state``: the one whose utility is the greatest, alone;
        None for a draw, a tie at the top, or a game of one player (2048)."""
        utilities = self.utilities(state)
        best = max(utilities)
        if len(utilities) < 2 or utilities.count(best) > 1:
            return None
        return self.players[utilities.index(best)]

    def result_extras(self, state: State) -> dict[str, JSON]:
        """Fields of the game's own that a finished game's ``result`` carries beside ``winner`` and
        ``reason`` (backgammon: the ``kind`` of win and its ``points``). None by default."""
        return {}

    # --- JSON ------------------------------------------------------------------------------------

    def move_to_json(self, move: Move) -> JSON:
        return move

    def move_from_json(self, value: JSON, state: State) -> Move:
        """The move that ``value`` (JSON) names in ``state``; :class:`~engine.errors.IllegalMove` if none."""
        from engine.errors import IllegalMove
        for move in self.actions(state):
            if self.move_to_json(move) == value and type(value) is not bool:
                return move
        raise IllegalMove(f"{value!r} is not a legal move here; legal: "
                          f"{[self.move_to_json(m) for m in self.actions(state)]}")

    def value_to_json(self, value: float) -> float:
        """A value (a utility or an evaluation, in ``utility_bounds``) as the API reports it, in the game's
        customary unit (chess: pawns, a won game 100). The same order, so searches compare as they like."""
        return value

    def move_notation(self, state: State, move: Move) -> str | None:
        """``move`` (legal in ``state``) in the game's :attr:`notation`, or None when it has none."""
        return None

    def line_notation(self, state: State, line: Iterable[Move], until: float | None = None) -> list[str | None]:
        """The moves of ``line``, played one after another from ``state``, in the game's notation: all of
        them, or the first few (at least one) once ``time.perf_counter()`` passes ``until``."""
        out = []
        for move in line:
            out.append(self.move_notation(state, move))
            if until is not None and time.perf_counter() > until:
                break
            state = self.result(state, move)
        return out

    def state_to_json(self, state: State) -> dict[str, JSON]:
        raise NotImplementedError

    def position_key(self, state: State) -> str:
        """A stable key of the position, 16 hex digits, for a client's cache of analyses: the same for the
        same position whatever form a request wrote it in, and across requests, servers and cores. By
        default the first 64 bits of the SHA-256 of ``[id, state]``, the state as :meth:`state_to_json`
        writes it (what decides the legal moves and the result: Go's moves, for superko), in canonical JSON
        (sorted keys, no spaces). Chess: the Polyglot Zobrist key."""
        canonical = json.dumps([self.id, self.state_to_json(state)], sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]

    def move_extras(self, state: State, move: Move) -> dict[str, JSON]:
        """Fields of the game's own about a search's chosen ``move`` in ``state``, where they are cheap
        (backgammon: the play's ``steps``). None by default."""
        return {}

    def position_extras(self, state: State) -> dict[str, JSON]:
        """Fields of the game's own that the rules routes add to a position's answer (chess: ``fen``;
        backgammon: ``plays``, ``result``). None by default."""
        return {}

    def child_to_json(self, state_json: dict[str, JSON], move: Move, child: State) -> dict[str, JSON]:
        """The state ``child``, reached by ``move`` from the state the client sent as ``state_json``, in
        the form of that request (``POST /v1/games/{game}/apply``). By default :meth:`state_to_json`: a
        game with a state format that records the moves played extends it instead."""
        return self.state_to_json(child)


class Solution(NamedTuple):
    """What a game's endgame solver proved (:class:`engine.search.endgame.EndgameSolver`), for the player to move: ``score``,
    the final score with perfect play by both, in the game's own units (positive: a win); ``pv``, a perfect
    line to the end of the game (its length is the plies to the end); ``moves``, ``(move, score, bound)``
    for every root move, ``bound`` ``"exact"`` or ``"upper"`` (the move scores at most that)."""

    score: int
    pv: list[Move]
    moves: list[tuple[Move, int, str]]
