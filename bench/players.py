"""The players a match can pit against each other, each built from a short text spec.

``KIND[:ALGORITHM][,key=value...][@URL]``, values read as JSON when they parse (``depth=8``,
``pruning=false``), else as strings:

- ``ours:alphabeta,depth=8``, ``ours:auto,level=3``: our engine in process, through ``engine.api.search``
  with the match's time a move (``time_ms=N`` overrides it for this player; ``time_ms=none``: no limit,
  for a fixed depth or number of iterations); ``structure=false`` (chess only, a bench-only switch): the
  evaluation without its pawn-structure terms, PeSTO's tables alone, to measure them;
- ``http:mcts,seed=1@http://127.0.0.1:8000``: the same through ``POST /v1/search`` of a running server;
- ``openspiel:mcts``: OpenSpiel's C++ ``MCTSBot`` (random rollouts, ``rollouts=1``, ``uct_c`` sqrt 2,
  its solver on) stopped by its own wall clock at the time a move, or after ``simulations=N``; OpenSpiel
  refuses it for games with intermediate rewards (2048);
- ``openspiel:alphabeta``: OpenSpiel's ``alpha_beta_search`` (``expectiminimax`` in games with chance),
  leaf value 0 (the score so far in 2048), deepened one ply at a time until the time a move runs out
  (``depth=N``: that depth, no clock);
- ``sunfish``: sunfish (chess only, PyPI ``sunfish``), its iterative deepening stopped at the time a move
  (:func:`bench.peers.sunfish_move`), shown the game's earlier positions (its repetition draws); a move
  it answers that python-chess finds illegal (sunfish captures kings: when every move loses, it may leave
  its king in check) is replaced by the first legal move, and said on stderr;
- ``random``: a uniformly random legal move; ``greedy``: the move whose result our game's evaluation rates
  best for the mover one ply ahead (a win at once first), ties broken at random.

A player answers :meth:`Player.choose` with a JSON move; the referee times it.
"""
import contextlib
import json
import math
import random
import sys

import chess
import requests

from bench import os_games, ours, peers
from engine import api
from engine.game import EVALUATION

UNLIMITED = object()


class Position:
    """What a player sees: the game, the match's starting state and the moves since (chance outcomes
    included, JSON), the current state both as JSON and loaded, and the time it has."""

    __slots__ = ("game_id", "initial", "history", "state_json", "game", "state", "time_ms", "seed")

    def __init__(self, game_id, initial, history, state_json, game, state, time_ms, seed):
        self.game_id, self.initial, self.history = game_id, initial, history
        self.state_json, self.game, self.state = state_json, game, state
        self.time_ms, self.seed = time_ms, seed


def parse(spec: str) -> tuple:
    """``(kind, algorithm name or None, {settings}, url or None)`` of a player spec."""
    url = None
    if "@" in spec:
        spec, url = spec.split("@", 1)
    head, *pairs = spec.split(",")
    kind, _, name = head.partition(":")
    settings = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"a player setting is key=value, not {pair!r} (in {spec!r})")
        try:
            settings[key] = json.loads(text)
        except json.JSONDecodeError:
            settings[key] = text
    if kind not in PLAYER_KINDS:
        raise ValueError(f"unknown player kind {kind!r} in {spec!r}; known: {sorted(PLAYER_KINDS)}")
    if kind == "http" and not url:
        raise ValueError(f"an http player needs @URL: {spec!r}")
    return kind, name or None, settings, url


def build(spec: str):
    kind, name, settings, url = parse(spec)
    return PLAYER_KINDS[kind](spec, name, settings, url)


class Player:
    def __init__(self, spec, name, settings, url):
        self.spec, self.name, self.url = spec, name, url
        self.settings = dict(settings)
        self.time_override = self.settings.pop("time_ms", UNLIMITED)

    def time_ms(self, position) -> float | None:
        """The time a move: the match's, unless the spec overrides it (None: no limit)."""
        return position.time_ms if self.time_override is UNLIMITED else self.time_override

    def choose(self, position):
        raise NotImplementedError


class Ours(Player):
    def __init__(self, spec, name, settings, url):
        super().__init__(spec, name, settings, url)
        if not name:
            raise ValueError(f"say which algorithm: ours:alphabeta, ours:auto,level=5 ({spec!r})")
        self.structure = self.settings.pop("structure", True)
        self.algorithm = {"name": name, **self.settings}

    def choose(self, position):
        with contextlib.nullcontext() if self.structure else ours.chess_without_structure():
            result = api.search(position.game_id, position.state_json, dict(self.algorithm),
                                time_limit_ms=self.time_ms(position))
        return result.move


class Http(Ours):
    """Ours through a running server: the same algorithm object, sent as a request."""

    def __init__(self, spec, name, settings, url):
        super().__init__(spec, name, settings, url)
        if not self.structure:
            raise ValueError(f"structure=false switches the evaluation in process only ({spec!r})")
        self.session = requests.Session()

    def choose(self, position):
        body = {"game": position.game_id, "state": position.state_json, "algorithm": self.algorithm}
        limit = self.time_ms(position)
        if limit is not None:
            body["time_limit_ms"] = max(1, int(limit))
        reply = self.session.post(f"{self.url.rstrip('/')}/v1/search", json=body,
                                  timeout=(limit or 60_000) / 1000 + 30)
        reply.raise_for_status()
        return reply.json()["move"]


class UniformRandom(Player):
    def choose(self, position):
        rng = random.Random(f"{position.seed}:{len(position.history)}")
        game = position.game
        return game.move_to_json(rng.choice(game.actions(position.state)))


class Greedy(Player):
    def choose(self, position):
        game, state = position.game, position.state
        me = game.to_move(state)
        rng = random.Random(f"{position.seed}:{len(position.history)}")
        best, best_value = [], -math.inf
        for move in game.actions(state):
            child = game.result(state, move)
            if game.is_terminal(child):
                value = game.utility(child, me) * 2            # a win (or a loss) outranks any evaluation
            elif EVALUATION in game.capabilities:
                value = game.evaluate(child, me)
            else:
                value = 0.0
            if value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return game.move_to_json(rng.choice(best))


class OpenSpielPlayer(Player):
    """Replays the match into a pyspiel state, kept between moves and extended by the new ones."""

    def __init__(self, spec, name, settings, url):
        super().__init__(spec, name, settings, url)
        import pyspiel
        self.pyspiel = pyspiel
        self.replayed = None    # (game id, starting state, moves replayed, pyspiel game, pyspiel state)

    def os_state(self, position):
        t = os_games.translation(position.game_id)
        kept = self.replayed
        if kept is None or kept[:2] != (position.game_id, position.initial) \
                or kept[2] != position.history[:len(kept[2])]:
            game = self.pyspiel.load_game(t.name(position.initial))
            state = game.new_initial_state()
            for action in t.setup(position.initial):
                state.apply_action(action)
            kept = (position.game_id, position.initial, [], game, state)
        done, game, state = kept[2], kept[3], kept[4]
        for move in position.history[len(done):]:
            state.apply_action(t.to_action(move))
        self.replayed = (position.game_id, position.initial, list(position.history), game, state)
        return t, game, state


class OpenSpielMCTS(OpenSpielPlayer):
    def choose(self, position):
        t, game, state = self.os_state(position)
        limit = self.time_ms(position)
        simulations = self.settings.get("simulations", 10**9 if limit is not None else 1000)
        evaluator = self.pyspiel.RandomRolloutEvaluator(self.settings.get("rollouts", 1), position.seed)
        bot = self.pyspiel.MCTSBot(game, evaluator, self.settings.get("uct_c", math.sqrt(2)), simulations,
                                   1000, True, position.seed % 2**31, False,
                                   self.pyspiel.ChildSelectionPolicy.UCT,
                                   -1.0 if limit is None else limit / 1000.0)
        return t.to_move(bot.step(state))


class OpenSpielAlphaBeta(OpenSpielPlayer):
    def choose(self, position):
        from open_spiel.python.algorithms import minimax
        t, game, state = self.os_state(position)
        chance = game.get_type().chance_mode != self.pyspiel.GameType.ChanceMode.DETERMINISTIC
        me = state.current_player()

        def search(depth):
            if chance:
                return minimax.expectiminimax(state, depth, lambda s: s.returns()[me], me)[1]
            return minimax.alpha_beta_search(game, state.clone(), lambda s: 0.0, depth, me)[1]

        depth = self.settings.get("depth")
        if depth is not None or self.time_ms(position) is None:
            return t.to_move(search(depth or 4))
        move = state.legal_actions()[0]
        try:
            with peers.time_box(self.time_ms(position) / 1000.0):
                for d in range(1, game.max_game_length() + 1):
                    move = search(d)
        except peers.PeerTimeout:
            pass
        return t.to_move(move)


class Sunfish(Player):
    def choose(self, position):
        if position.game_id != "chess":
            raise ValueError(f"sunfish plays chess, not {position.game_id}")
        limit = self.time_ms(position)
        if limit is None:
            raise ValueError("sunfish needs a time a move")
        game, state = position.game, position.state
        fen = position.initial.get("fen", chess.STARTING_FEN)
        history = peers.sunfish_history(fen, list(position.initial.get("moves", [])) + position.history)
        move = peers.sunfish_move(history, game.to_move(state) == 1, limit / 1000.0)[0]
        legal = [game.move_to_json(m) for m in game.actions(state)]
        if move not in legal:
            print(f"sunfish answered {move!r}, not legal in {position.state_json}; playing {legal[0]}",
                  file=sys.stderr, flush=True)
            move = legal[0]
        return move


def openspiel_bot(spec, name, settings, url):
    if name not in OPENSPIEL_BOTS:
        raise ValueError(f"openspiel:{name} is not a bot here; known: {sorted(OPENSPIEL_BOTS)} ({spec!r})")
    return OPENSPIEL_BOTS[name](spec, name, settings, url)


PLAYER_KINDS = {
    "ours": Ours,
    "http": Http,
    "openspiel": openspiel_bot,
    "random": UniformRandom,
    "greedy": Greedy,
    "sunfish": Sunfish,
}
OPENSPIEL_BOTS = {"mcts": OpenSpielMCTS, "alphabeta": OpenSpielAlphaBeta}
