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
import time
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

from engine.registry import EXPLICIT_CHANCE, GameType

if TYPE_CHECKING:
    from engine.deadline import Deadline
    from engine.result import Stats

# A state and a move are values only their game interprets: to the interface, and so to mypy, opaque.
State: TypeAlias = Any
Move: TypeAlias = Any   # a move, or at a chance node an outcome
JSON: TypeAlias = Any   # a value as json.loads gives it

CHANCE = -1

# The optional capabilities a game may list in ``Game.capabilities``; each names the method it provides.
EVALUATION = "evaluate"              # a heuristic at every state (else only terminal states are valued)
MOVE_ORDERING = "ordered_actions"    # the likeliest best moves first
HASHING = "key"                      # a compact key for transposition tables (else the state itself)
IMMEDIATE_WIN = "immediate_win"      # a cheap test for a move that wins at once
SAFE_CHILDREN = "safe_children"      # a cheap threat test: the moves that do not lose at once
OUTCOME_BOUNDS = "outcome_bounds"    # a strategy argument bounding the result
PLIES_BOUND = "plies_bound"          # an upper bound on the plies left
# Forward-pruning and horizon knowledge (alpha-beta's PVS uses each when listed):
QUIESCENCE = "noisy_actions"         # the moves that swing the evaluation (captures): quiescence, reductions
EXTENSIONS = "forcing"               # states searched one ply deeper (in check)
NULL_MOVE = "null_move"              # passing the turn, where that is no likely zugzwang
REPETITION = "repeated"              # a state that occurred before in the game: scored a draw in a search
ASPIRATION = "aspiration_width"      # how far the next iteration's score is likely to move
ENDGAME_SOLVER = "solve_endgame"     # an exact solver of its own for the final score, near the end
CANDIDATES = "candidate_actions"     # forward pruning: the few moves worth searching, threats first
THREATS = "threat_win"               # a threat-space search: forced wins far beyond a search's horizon
CAPABILITIES = frozenset({EVALUATION, MOVE_ORDERING, HASHING, IMMEDIATE_WIN, SAFE_CHILDREN, OUTCOME_BOUNDS,
                          PLIES_BOUND, QUIESCENCE, EXTENSIONS, NULL_MOVE, REPETITION, ASPIRATION,
                          ENDGAME_SOLVER, CANDIDATES, THREATS})


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
      and never clever. The contract suite checks the list against the methods.

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

    def threat_win(self, state: State, deadline: "Deadline", stats: "Stats") -> list[Move] | None:
        """Outcome games whose players alternate, with a threat-space search (five in a row: continuous
        fours and threes): a line that wins by force for the player to move, ``[a1, d1, ..., an]``, its
        moves and the opponent's replies along the longest defence, the win coming within ``len(line)``
        plies whatever the opponent plays; or None when none is found (which proves nothing). Bounded
        by the game's own budget and by ``deadline``, whose ``Timeout`` it lets through. The positions
        the threat search visits are added to ``stats.nodes`` (a :class:`~engine.result.Stats`), however
        it ends."""
        return None

    def threat_defences(self, state: State, deadline: "Deadline", stats: "Stats") -> list[Move] | None:
        """With :meth:`threat_win`: when the opponent, were it to move, would have such a win, the moves
        that may stop it (those after which the game's threat search finds it no longer, else those it
        could not decide), an empty list when none does; None when the opponent has no such win. Bounded
        and counted like :meth:`threat_win`."""
        return None

    def immediate_win(self, state: State) -> Move | None:
        """A move that wins at once for the player to move, or None. Only outcome games with a cheap
        test override this; searches that use it skip generating the winning child."""
        return None

    def safe_children(self, state: State) -> list[tuple[float, Move, State]] | None:
        """Outcome games with a cheap threat test (after Pons' Connect Four solver): for a ``state``
        whose player to move cannot win at once, ``(score, move, child)`` for the moves after which the
        opponent cannot win at once either, the likeliest best first (the game's ordering score, higher
        first, comes along as the sort left it); None when the game has no such test. Every
        other move lets the opponent win on the next ply, so an exact solver may search only these (an
        empty list: the player to move loses in two plies) and need not test their children for an
        immediate win. The children come along because ordering the moves often builds them anyway."""
        return None

    def has_safe_move(self, state: State) -> bool:
        """Whether :meth:`safe_children` would list any move: a solver that only needs to know (a safe
        move puts off any loss by two plies, and that may settle its window) asks this cheaper question."""
        return bool(self.safe_children(state))

    def outcome_bounds(self, state: State) -> tuple[float, float] | None:
        """Outcome games with a cheap strategy argument: ``(lowest, highest)``, utilities between which
        the result of ``state`` for the player to move is known to lie however the game goes on (a win,
        draw or loss bound says nothing of when the game ends), or None when nothing is known. An exact
        solver uses them to narrow its window before searching; they hold for every state, so they are
        checked where they pay."""
        return None

    def noisy_actions(self, state: State) -> list[tuple[float, Move]]:
        """``(gain, move)`` for the legal moves that can swing the evaluation at once (chess: captures and
        promotions), the likeliest best first; ``gain`` bounds how much the move can raise the mover's
        evaluation. A search's horizon goes on through these (quiescence, with delta pruning by
        ``gain``), and only the other, quiet moves are reduced late in a move list."""
        return []

    def forcing(self, state: State) -> bool:
        """Whether ``state`` is forcing (chess: the side to move is in check): a search looks one ply
        deeper there, never reduces its moves and never passes."""
        return False

    def null_move(self, state: State) -> State | None:
        """The state with the turn passed to the opponent, for null-move pruning; None where passing is
        not allowed or likely better than every move (zugzwang)."""
        return None

    def repeated(self, state: State) -> bool:
        """Whether the position occurred earlier in the game: a search may score it as a draw (the side
        that repeated could repeat again), and prefers progress elsewhere."""
        return False

    def aspiration_width(self, state: State) -> float:
        """Half the width of the window around the last iteration's score that the next iteration of a
        deepening search tries first."""
        raise NotImplementedError

    def perspective(self, state: State) -> int:
        """The player whose point of view a search's root value takes: the player to move."""
        return self.to_move(state)

    def plies_bound(self, state: State) -> int | None:
        """An upper bound on the number of plies from ``state`` to the end of the game, if known.
        A depth-limited search that reaches it has seen every terminal state: its value is exact."""
        return None

    def states_bound(self, state: State) -> int | None:
        """An upper bound on the states below ``state``, itself included (an explicit tree: its nodes), if
        known: no depth-first search of ``state`` visits more."""
        return None

    def solve_endgame(self, state: State, deadline: "Deadline", ordering: bool, tt_capacity: int,
                      stats: "Stats") -> "Solution | None":
        """Games whose result is a score (Othello's final disc difference) and that solve their last
        moves with a specialised exact solver: the :class:`Solution` of ``state`` for the player to move,
        or None at once when ``state`` lies beyond the solver's reach. ``ordering`` and ``tt_capacity``
        (0: no table) are the search's settings; the solver adds what it visits to ``stats`` and raises
        :class:`~engine.deadline.Timeout` when ``deadline`` passes."""
        return None

    def end_reason(self, state: State) -> str | None:
        """Why terminal ``state`` ended, in words (``"threefold repetition"``), where the utilities do not
        say it all; None otherwise."""
        return None

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
    """What a game's endgame solver proved (:meth:`Game.solve_endgame`), for the player to move: ``score``,
    the final score with perfect play by both, in the game's own units (positive: a win); ``pv``, a perfect
    line to the end of the game (its length is the plies to the end); ``moves``, ``(move, score, bound)``
    for every root move, ``bound`` ``"exact"`` or ``"upper"`` (the move scores at most that)."""

    score: int
    pv: list[Move]
    moves: list[tuple[Move, int, str]]
