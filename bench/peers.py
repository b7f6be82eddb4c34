"""Adapters for the peers, installed from PyPI (``requirements-bench.txt``): OpenSpiel (``open_spiel``,
imported as ``pyspiel`` and ``open_spiel.python``), easyAI and sunfish (chess). Nothing of theirs is copied
here: we load their games and call their public search functions and bots.

Every adapter runs one search and returns a small dict; the caller times it. When a peer is not installed,
:func:`available` says why and the benchmark reports our side alone.

Node counts for the peers come from a separate, untimed run that wraps the peer's recursive function
(looked up by module attribute at each recursive call) with a counter, then restores it.
"""
import contextlib
import importlib
import importlib.metadata
import math
import re
import signal
import sys
import time

_STATUS = {}


def available(peer):
    """``(True, version)`` if the peer imports, else ``(False, reason)``."""
    if peer in _STATUS:
        return _STATUS[peer]
    try:
        if peer == "open_spiel":
            importlib.import_module("pyspiel")
            importlib.import_module("open_spiel.python.algorithms.minimax")
            importlib.import_module("open_spiel.python.algorithms.mcts")
            version = importlib.metadata.version("open_spiel")
        elif peer == "easyAI":
            importlib.import_module("easyAI")
            importlib.import_module("easyAI.games.ConnectFour")
            version = importlib.metadata.version("easyAI")
        else:
            raise ValueError(f"unknown peer {peer}")
        status = (True, version)
    except Exception as exc:  # ImportError, or a broken binary wheel
        status = (False, f"{peer} not installed ({type(exc).__name__}: {exc}); "
                         f"pip install -r requirements-bench.txt")
    _STATUS[peer] = status
    return status


@contextlib.contextmanager
def counting(module, name):
    """Temporarily replace ``module.name`` (a recursive function that calls itself through the module's
    globals) with a wrapper that counts calls; yields a one-element list holding the count."""
    original = getattr(module, name)
    box = [0]

    def wrapper(*args, **kwargs):
        box[0] += 1
        return original(*args, **kwargs)

    setattr(module, name, wrapper)
    try:
        yield box
    finally:
        setattr(module, name, original)


class PeerTimeout(Exception):
    pass


@contextlib.contextmanager
def time_box(seconds):
    """Interrupt pure-Python work after ``seconds`` (SIGALRM; main thread only). Raises PeerTimeout."""
    if seconds is None:
        yield
        return

    def on_alarm(signum, frame):
        raise PeerTimeout()

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# --- OpenSpiel -----------------------------------------------------------------------------------------

def _pyspiel():
    import pyspiel
    return pyspiel


def _os_minimax():
    return importlib.import_module("open_spiel.python.algorithms.minimax")


def os_game(name):
    return _pyspiel().load_game(name)


def os_connect4_state(moves):
    """An OpenSpiel connect_four state after ``moves`` (columns 1..7)."""
    state = os_game("connect_four").new_initial_state()
    for ch in moves:
        state.apply_action(int(ch) - 1)
    return state


def os_tictactoe_expectiminimax(count_nodes=False):
    """Full-depth expectiminimax (depth 9) from the empty tic-tac-toe board."""
    mm = _os_minimax()
    state = os_game("tic_tac_toe").new_initial_state()
    zero = lambda s: 0.0  # never reached: every depth-9 leaf is terminal
    if count_nodes:
        with counting(mm, "expectiminimax") as box:
            value, move = mm.expectiminimax(state, 9, zero, 0)
        return {"value": value, "move": move, "nodes": box[0]}
    value, move = mm.expectiminimax(state, 9, zero, 0)
    return {"value": value, "move": move}


def os_alpha_beta(game_name, state=None, depth=30, value_function=None, count_nodes=False):
    """``open_spiel.python.algorithms.minimax.alpha_beta_search``: plain alpha-beta, natural move order."""
    mm = _os_minimax()
    game = os_game(game_name)
    if count_nodes:
        with counting(mm, "_alpha_beta") as box:
            value, move = mm.alpha_beta_search(game, state=state, value_function=value_function,
                                               maximum_depth=depth)
        return {"value": value, "move": move, "nodes": box[0]}
    value, move = mm.alpha_beta_search(game, state=state, value_function=value_function, maximum_depth=depth)
    return {"value": value, "move": move}


def os_connect4_depth(moves, depth, count_nodes=False):
    """Depth-limited alpha-beta with a zero evaluation (terminal states keep their +-1)."""
    return os_alpha_beta("connect_four", os_connect4_state(moves), depth, lambda s: 0.0, count_nodes)


def os_connect4_solve(moves, timeout_s):
    """Solve a position with plain alpha-beta to the end of the game (maximum_depth 42, no evaluation).
    Returns the value for the player to move, or ``{"timed_out": True}``."""
    state = os_connect4_state(moves)
    try:
        with time_box(timeout_s):
            r = os_alpha_beta("connect_four", state, 42)
    except PeerTimeout:
        return {"timed_out": True}
    return {"value": r["value"], "move": r["move"], "timed_out": False}


def os_mcts_cpp(moves, iterations, seed, uct_c=math.sqrt(2)):
    """OpenSpiel's C++ MCTSBot with one random rollout per leaf, ``iterations`` simulations and its
    MCTS-Solver on (ours always runs MCTS-Solver)."""
    ps = _pyspiel()
    game = os_game("connect_four")
    evaluator = ps.RandomRolloutEvaluator(1, seed)
    bot = ps.MCTSBot(game, evaluator, uct_c, iterations, 1000, True, seed, False)
    return {"move": bot.step(os_connect4_state(moves))}


def os_mcts_python(moves, iterations, seed, uct_c=math.sqrt(2)):
    """OpenSpiel's pure-Python MCTSBot (open_spiel.python.algorithms.mcts), one random rollout per leaf,
    solver on."""
    import numpy as np
    mcts = importlib.import_module("open_spiel.python.algorithms.mcts")
    game = os_game("connect_four")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = mcts.MCTSBot(game, uct_c, iterations, evaluator, solve=True,
                       random_state=np.random.RandomState(seed))
    return {"move": bot.step(os_connect4_state(moves))}


# 2048: OpenSpiel's chance action a places a 2 (a even) or a 4 (a odd) on cell a // 2 (row-major); its
# player actions are 0 up, 1 right, 2 down, 3 left.
OS_2048_MOVES = {0: "up", 1: "right", 2: "down", 3: "left"}


def os_2048_state(history):
    """Replay an OpenSpiel 2048 action history (chance and player actions) from the initial state."""
    state = os_game("2048").new_initial_state()
    for a in history:
        state.apply_action(a)
    return state


def os_2048_board(state):
    """The 4 x 4 board of an OpenSpiel 2048 state, as our JSON ``board`` (rows of ints)."""
    rows = [[int(x) for x in line.split()] for line in str(state).strip().splitlines()]
    if len(rows) != 4 or any(len(r) != 4 for r in rows):
        raise ValueError(f"unexpected 2048 board text: {state}")
    return rows


def os_2048_playout(seed, player_moves):
    """A reproducible mid-game 2048 position: ``player_moves`` random legal moves with random tile spawns
    drawn from OpenSpiel's own chance distribution. Returns (action history, board)."""
    import random
    rng = random.Random(seed)
    state = os_game("2048").new_initial_state()
    history = []
    made = 0
    while made < player_moves or state.is_chance_node():
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            a = rng.choices(outcomes, probs)[0]
        else:
            a = rng.choice(state.legal_actions())
            made += 1
        state.apply_action(a)
        history.append(a)
    return history, os_2048_board(state)


def os_2048_expectiminimax(history, depth, count_nodes=False):
    """OpenSpiel ``expectiminimax`` on game "2048". Its depth counts player moves only, so ``depth`` 2
    searches player, chance, player, like our depth 3. Leaf value: the score so far (``returns()``)."""
    mm = _os_minimax()
    state = os_2048_state(history)
    value_fn = lambda s: s.returns()[0]
    if count_nodes:
        with counting(mm, "expectiminimax") as box:
            value, move = mm.expectiminimax(state, depth, value_fn, 0)
        return {"value": value, "move": OS_2048_MOVES.get(move, move), "nodes": box[0]}
    value, move = mm.expectiminimax(state, depth, value_fn, 0)
    return {"value": value, "move": OS_2048_MOVES.get(move, move)}


# --- easyAI --------------------------------------------------------------------------------------------

def easyai_connect4_depth(moves, depth, count_nodes=False):
    """easyAI's Negamax (alpha-beta, no transposition table) on its ConnectFour, ``depth`` plies, scoring
    -100 for a lost (terminal) position and 0 otherwise, i.e. a zero evaluation."""
    from easyAI import AI_Player, Negamax
    from easyAI.games.ConnectFour import ConnectFour
    scoring = lambda g: -100 if g.lose() else 0
    algo = Negamax(depth, scoring)
    game = ConnectFour([AI_Player(algo), AI_Player(algo)])
    for ch in moves:
        game.play_move(int(ch) - 1)
    if count_nodes:
        negamax_module = sys.modules["easyAI.AI.Negamax"]
        with counting(negamax_module, "negamax") as box:
            move = algo(game)
        return {"move": int(move), "value": algo.alpha, "nodes": box[0]}
    move = algo(game)
    return {"move": int(move), "value": algo.alpha}


# --- sunfish (chess) -----------------------------------------------------------------------------------

def sunfish_position(fen: str):
    """A sunfish position (its 120-character board, from the side to move) for a FEN."""
    import sunfish
    placement, color, castling, ep = fen.split()[:4]
    rows = re.sub(r"\d", lambda m: "." * int(m.group(0)), placement).split("/")
    board = " " * 9 + "\n" + " " * 9 + "\n" + "".join(" " + row + "\n" for row in rows) + (" " * 9 + "\n") * 2
    score = sum(sunfish.pst[c][i] for i, c in enumerate(board) if c.isupper())
    score -= sum(sunfish.pst[c.upper()][119 - i] for i, c in enumerate(board) if c.islower())
    pos = sunfish.Position(board, score, ("Q" in castling, "K" in castling), ("k" in castling, "q" in castling),
                           sunfish.parse(ep) if ep != "-" else 0, 0)
    return pos if color == "w" else pos.rotate()


def sunfish_history(fen: str, moves: list) -> list:
    """The sunfish positions of a game from ``fen`` through the UCI ``moves``, the first and every one
    after (sunfish scores a position that occurred before in its search as a draw)."""
    import sunfish
    black = fen.split()[1] == "b"
    out = [sunfish_position(fen)]
    for ply, move in enumerate(moves):
        i, j = sunfish.parse(move[:2]), sunfish.parse(move[2:4])
        if (ply % 2 == 1) != black:
            i, j = 119 - i, 119 - j
        out.append(out[-1].move(sunfish.Move(i, j, move[4:].upper())))
    return out


def _sunfish_searcher():
    """A ``sunfish.Searcher`` that reads the clock at every node rather than every 2048: at a few thousand
    nodes a second, 2048 nodes overrun a second's budget by half a second, so both engines of a match
    stop at the same time."""
    import sunfish

    class TimedSearcher(sunfish.Searcher):
        def bound(self, pos, gamma, depth, root=False):
            if time.time() > self.deadline:
                raise sunfish.Stop
            return super().bound(pos, gamma, depth, root)

    return TimedSearcher()


def sunfish_move(history: list, black: bool, seconds: float) -> tuple:
    """``(uci or None, nodes, depth completed, seconds used)``: sunfish's move in the last of ``history``
    (sunfish positions, see :func:`sunfish_history`; ``black``: Black is to move there) after
    ``seconds``, picked as its UCI loop picks it: the move of the last completed depth, a fail-high of the
    depth under way only when no depth completed (or its table move). Its iterative deepening stops at the same time (hard
    and soft limit alike)."""
    import sunfish
    searcher = _sunfish_searcher()
    start = time.time()
    searcher.deadline = searcher.soft = start + seconds
    best = candidate = None
    reached = 1
    try:
        for depth, gamma, score, move in searcher.search(history):
            if depth > reached:
                best, reached = candidate or best, depth
            if score >= gamma and move is not None:
                candidate = move
        move, reached = candidate or best, reached + 1     # stopped after completing a depth
    except sunfish.Stop:
        move = best or candidate or searcher.tp_move.get(history[-1])   # stopped inside a depth
    used = time.time() - start
    if move is None:
        return None, searcher.nodes, reached - 1, used
    i, j = (119 - move.i, 119 - move.j) if black else (move.i, move.j)
    return sunfish.render(i) + sunfish.render(j) + move.prom.lower(), searcher.nodes, reached - 1, used
