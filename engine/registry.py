"""The one registry of games, after OpenSpiel's ``GameType``: each game declares what it is as data.

A game is one module under :mod:`engine.games` that defines

- ``GAME_TYPE``: a :class:`GameType`, everything a search or a client may rely on;
- ``load(state_json, limits, **options)``: ``(game, state)`` for a JSON state (an
  :class:`~engine.errors.InvalidState` naming the field at fault otherwise);

and one line in :data:`GAME_MODULES`. Everything else is derived from the declarations: the algorithms
that fit a game (each search module's ``requires``), ``GET /v1/games``, the game options a request may
carry, and the enums of ``openapi.yaml`` (a test checks the spec against this registry).
"""
from dataclasses import dataclass, field
import importlib
from types import ModuleType
from typing import Any, TypeVar

from engine.errors import EngineError, InvalidState

# One line per game: its id and the module that implements it.
GAME_MODULES = {
    "tree": "engine.games.tree",
    "tictactoe": "engine.games.tictactoe",
    "connect4": "engine.games.connect4",
    "2048": "engine.games.twenty48",
    "chess": "engine.games.chess",
    "checkers": "engine.games.checkers",
    "othello": "engine.games.othello",
    "pacman": "engine.games.pacman",
    "backgammon": "engine.games.backgammon",
    "go": "engine.games.go",
}

# How chance enters a game (OpenSpiel's ChanceMode, plus "optional" for explicit trees, whose
# instances decide).
NO_CHANCE, EXPLICIT_CHANCE, OPTIONAL_CHANCE = "none", "explicit", "optional"


@dataclass(frozen=True)
class GameOption:
    """A setting that belongs to the game's rules, not to the search, sent in a request's ``options``
    (``options.tile_probabilities``) on every route, or, as before ``options`` existed, among a search's
    algorithm settings. ``schema`` is its JSON Schema; the game's ``load`` validates it and names
    ``options.<name>`` when it is wrong."""

    name: str
    schema: dict[str, Any]
    description: str


_G = TypeVar("_G")


def chosen_evaluation(games: dict[str, _G], default: str, evaluation: str | None) -> _G:
    """The game of ``games`` (evaluation name -> game) that the ``evaluation`` option names, ``default``
    without one; :class:`InvalidState` on ``options.evaluation`` for a name ``games`` lacks."""
    game = games.get(default if evaluation is None else evaluation)
    if game is None:
        raise InvalidState(f"evaluation is {' or '.join(map(repr, games))}", field="options.evaluation")
    return game


@dataclass(frozen=True)
class Player:
    """One player as the API names it: ``id`` as it appears in states and answers (``to_move``,
    ``perspective``, the keys of ``utilities``, an answer's ``players``), ``name`` to show a person, and
    ``colour``, a CSS colour ``#rrggbb`` a front end may draw the player in."""

    id: str
    name: str
    colour: str


def player_ids(players: tuple[Player, ...]) -> tuple[str, ...]:
    """The ids of ``players`` (:class:`Player`), in player order: a ``GameType``'s ``players``."""
    return tuple(player.id for player in players)


@dataclass(frozen=True)
class GameType:
    """What a game is, declared once. Searches rely only on what is declared here (and on the
    capabilities the game object lists, :attr:`engine.game.Game.capabilities`); a search that needs an
    assumption a game does not declare takes a path that does not need it, or refuses the game.

    - ``players``: the players' ids in player order (``player_ids(player_info)``).
    - ``player_info``: each player's :class:`Player` (id, display name, colour), in player order.
      ``player_prefix``: instances with players beyond those declared (n-player trees) name player ``i``
      prefix + ``i`` (``"P0"``); None: every instance's players are a prefix of the declared ones. ``min_players``/``max_players`` give the range
      when instances differ (an n-player tree, a maze with 1..k ghosts; ``max_players`` None: no bound);
      by default both are ``len(players)``.
    - ``chance``: :data:`NO_CHANCE`, :data:`EXPLICIT_CHANCE` (chance nodes with listed probabilities),
      or :data:`OPTIONAL_CHANCE` (some instances have them).
    - ``zero_sum``: two players whose utilities sum to zero in every instance, so one number describes
      a state. ``general_sum_instances``: some instances are n-player or general-sum (trees).
    - ``alternating``: the players strictly alternate, one move each (no passes counted as moves of the
      same player, no player moving twice): mate-distance windows and the exact solver's per-ply
      tables rely on it.
    - ``outcomes``: terminal utilities are +1 (win), 0 (draw), -1 (loss) for the player asked about,
      so a search may prove win/draw/loss and score wins by their distance.
    - ``utility_bounds``: ``(lo, hi)`` bounding utilities and evaluations of every player, or None when
      an instance decides (trees) or nothing is known.
    - ``max_length``: an upper bound on the plies of a whole game, or None.
    - ``key_fixes_ply``: a state's key determines how many moves were played (every move adds a
      stone), so a proven score may be stored as it is rather than relative to the node.
    - ``options``: the game's rule options.
    - ``auto_algorithm``: the algorithm object (``{"name": ..., settings}``) that algorithm ``auto`` plays at
      full strength, the strongest ``python -m bench.strength`` found; None: derived from the declarations
      (:mod:`engine.search.auto`).
    - ``depth_step``: the plies from one search depth to the next that can find more: 2 in backgammon,
      where every second ply is the roll and the evaluation does not read the dice, so a search that ends
      on the roll finds what one ply less finds. ``auto``'s levels count their depth caps in these steps.
    - ``native_core``: the game has a compiled core (``native/``), which runs its searches by default
      where it is built (:mod:`engine.search.native`).
    - ``move_schema``: the JSON Schema of a move in the API.
    - ``sample_states``: states (JSON) the contract suite starts random playouts from, beside
      ``initial_state``.
    - ``value_unit``: what a search's ``value`` means in this game, in words (its unit).
    - ``answers_forced_moves``: a position with a single legal move is answered without a search
      (:func:`engine.api.forced`); False for trees, whose answer is the textbook's number at the root.
    - ``history_field``: the field of a state that holds the moves played (connect4 and chess ``moves``,
      checkers ``history``), or None when states keep no history.
    - ``conventions``: in words, the game's own numbering and letters that the API keeps as the game's
      players know them (PDN squares, backgammon points), and how they map to the API's moves and ids.
    - ``value_scale``: :mod:`engine.scale`'s scale of those values (``pawns``, ``outcome`` or ``value``),
      which gives a search's ``score`` and ``win_probability``.
    - ``starts``: the game has a start position, ``initial_state``, which the empty state ``{}`` stands
      for on every route; False for trees, whose ``initial_state`` is only an example.
    """

    id: str
    name: str
    description: str
    players: tuple[str, ...]
    chance: str
    zero_sum: bool
    alternating: bool
    outcomes: bool
    utility_bounds: tuple[float, float] | None
    max_length: int | None
    key_fixes_ply: bool
    move_schema: dict[str, Any]
    state_format: str
    move_format: str
    initial_state: dict[str, Any]
    example_request: dict[str, Any]
    min_players: int | None = None
    max_players: int | None = None
    general_sum_instances: bool = False
    options: tuple[GameOption, ...] = ()
    auto_algorithm: dict[str, Any] | None = None
    depth_step: int = 1
    native_core: bool = False
    sample_states: tuple[dict[str, Any], ...] = field(default=())
    value_unit: str = ""
    answers_forced_moves: bool = True
    value_scale: str = "value"
    player_info: tuple[Player, ...] = ()
    player_prefix: str | None = None
    history_field: str | None = None
    conventions: str = ""
    starts: bool = True

    def __post_init__(self) -> None:
        if player_ids(self.player_info) != tuple(self.players):
            raise ValueError(f"{self.id}: player_info declares {player_ids(self.player_info)}, players {self.players}")
        if self.min_players is None:              # a fixed number of players
            object.__setattr__(self, "min_players", len(self.players))
            object.__setattr__(self, "max_players", len(self.players))

    @property
    def option_names(self) -> tuple[str, ...]:
        return tuple(option.name for option in self.options)


def game_module(game_id: str) -> ModuleType:
    """The module that implements ``game_id``; an :class:`EngineError` on ``game`` if there is none."""
    if game_id not in GAME_MODULES:
        raise EngineError("game", f"unknown game {game_id!r}; known: {sorted(GAME_MODULES)}")
    return importlib.import_module(GAME_MODULES[game_id])


def game_type(game_id: str) -> GameType:
    declared: GameType = game_module(game_id).GAME_TYPE
    return declared


def game_types() -> list[GameType]:
    """Every registered game's type, in registry order."""
    return [game_type(game_id) for game_id in GAME_MODULES]


def all_option_names() -> set[str]:
    """Every game option any game declares (the service's schema carries a field for each)."""
    return {name for t in game_types() for name in t.option_names}
