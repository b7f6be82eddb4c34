"""Pacman, rule for rule as in UC Berkeley's CS188 ``multiagent`` project (``pacman.py``, ``game.py``).

Pacman is player 0 and MAX; the ghosts are players 1..k, in CS188's agent order: by their number in the
layout (``G`` counts as 1, ``1``-``4`` as written), then by their start positions' ``(x, y)`` (x counts
columns from the left, y rows from the bottom line); a maze may have no ghost. The ghosts play for the other
side: each ghost's utility is the negated score. Agents move in turn, one ply each: Pacman, ghost 1, ...,
ghost k, Pacman...

The rules (CS188's ``PacmanRules`` and ``GhostRules``):

- Pacman's legal moves, in this order: West, Stop, East, North, South, without those into a wall. Stop
  keeps his direction.
- A ghost never stops, and reverses only when nothing else is legal; with direction Stop (at its start)
  every way out is legal. A ghost between cells keeps going straight.
- Pacman moves one cell a move, a ghost one cell, a scared ghost half a cell.
- A Pacman move: he eats the food (+10) or the capsule under him (every ghost is scared for 40 of its own
  moves); the last food wins (+500); -1 for the move. A ghost move: its scared timer counts down after it
  moves, and a ghost whose timer runs out snaps to the nearest cell (``int(x + 0.5)``).
- After every move, each ghost that moved (after a Pacman move: every ghost) within 0.7 of Pacman: a
  scared ghost is eaten (+200, back to its start with direction Stop, no longer scared); one that is not
  scared kills Pacman (-500, lost), unless that same move won.

Positions are kept in half cells, so that a scared ghost may stand half-way: a ghost is ``(hx, hy,
direction, scared)`` with ``hx = 2x``, ``hy = 2y``; Pacman, always on a cell, is the cell's index ``y *
width + x``. A state is the tuple ``(agent, pacman, direction, ghosts, food, capsules, score, result)``
(read by the index constants ``AGENT_TO_MOVE`` .. ``RESULT``): the agent to move, Pacman's cell and
direction, the ghosts, food and capsules as bitmasks of cell indices, the score, and ONGOING, WIN or LOSS. A
``Pacman`` game holds the maze (walls, starts, move tables and the maze distances of the ``better``
evaluation); states hold everything that changes.
"""
from array import array
from collections import deque
from functools import lru_cache

from engine.bits import cells_of
from engine.errors import InvalidState
from engine.game import EVALUATION, Game
from engine.registry import NO_CHANCE, GameOption, GameType, Player, player_ids

GAME_ID = "pacman"
WEST, STOP, EAST, NORTH, SOUTH = "West", "Stop", "East", "North", "South"
DIRECTIONS = (WEST, STOP, EAST, NORTH, SOUTH)           # CS188's order of legal moves: ties go to the first
VECTORS = {WEST: (-1, 0), STOP: (0, 0), EAST: (1, 0), NORTH: (0, 1), SOUTH: (0, -1)}
REVERSE = {WEST: EAST, EAST: WEST, NORTH: SOUTH, SOUTH: NORTH, STOP: STOP}
SCARED_TIME = 40
FOOD_POINTS, WIN_POINTS, GHOST_POINTS, DEATH_POINTS, TIME_PENALTY = 10, 500, 200, 500, 1
ONGOING, WIN, LOSS = 0, 1, 2
# A state's fields, by index. A plain tuple rather than a named one: a named tuple's constructor made the
# rules 20-50% slower (bench/RESULTS.md).
AGENT_TO_MOVE, PACMAN_CELL, PACMAN_DIRECTION, GHOSTS, FOOD, CAPSULES, STATE_SCORE, RESULT = range(8)
RESULTS = {WIN: "win", LOSS: "loss"}
MAX_SIDE = 32                                           # rows and columns of a maze, at most
MAX_GHOSTS = 8
GHOST_NUMBERS = {"G": 1, "1": 1, "2": 2, "3": 3, "4": 4}   # CS188's layout.py: a ghost's agent index
LAYOUT_CHARS = "%.oP" + "".join(GHOST_NUMBERS)
EMPTY = " "  # a cell with nothing in it; any character not in LAYOUT_CHARS or EMPTY is refused
SCORE, BETTER = "score", "better"
GHOST_COLOURS = ("#e60000", "#004de6", "#fa6912", "#1abfb3", "#ff9900", "#6621e8", "#ffb8ff", "#2ecc40")
PLAYER_INFO = (Player("Pacman", "Pacman", "#ffeb3b"),) + tuple(
    Player(f"Ghost{i}", f"Ghost {i}", colour) for i, colour in enumerate(GHOST_COLOURS, start=1))
PLAYERS = player_ids(PLAYER_INFO)

EVALUATION_OPTION = GameOption(
    name="evaluation",
    schema={"type": "string", "enum": [SCORE, BETTER], "default": SCORE},
    description="the value of a state where a depth limit cuts the search: \"score\" (default, as CS188's "
                "scoreEvaluationFunction) or \"better\": the score plus terms for the nearest food, scared "
                "ghosts within reach, dangerous ghosts nearby and capsules left, by maze distance")

SMALL_MAZE = ["%%%%%%%%", "%G.o..G%", "%.%%%%.%", "%..P...%", "%%%%%%%%"]

GAME_TYPE = GameType(
    id=GAME_ID,
    name="Pacman (CS188 multi-agent)",
    description="UC Berkeley CS188's Pacman: Pacman (player 0, MAX) against 0 to 8 ghosts (players 1..k, "
                "one side: each gets the negated score), moving in turn. -1 a Pacman move, +10 a food, "
                "+500 and the game is won with the last food, a capsule scares every ghost for 40 of its "
                "moves, eating a scared ghost +200 (it goes home), touching any other ghost -500 and the "
                "game is lost. Depth counts plies: CS188's depth 2 with two ghosts is depth 6, or "
                "depth_rounds 2.",
    state_format="{\"layout\": [rows, top row first: '%' wall, '.' food, 'o' capsule, 'P' Pacman, 'G' a "
                 "ghost, '1'..'4' a numbered ghost, ' ' empty; any other character is a 422 naming its row]} is the start of a game (score 0, "
                 "nobody scared); read as CS188's layout.py reads a .lay file: the layout may be one string "
                 "of lines, each row loses its trailing whitespace, the first row's width is the maze's "
                 "(longer rows are cut to it), and the ghosts' order is by number ('G' is 1), then start "
                 "(x, y); the maze is surrounded by walls. Answers give the layout so read. Optional fields "
                 "describe a game in progress and replace what the layout says: \"pacman\": {\"position\": "
                 "[x, y], \"direction\"}, \"ghosts\": [{\"position\": [x, y], \"direction\", \"scared\": "
                 "moves left, \"start\"?: [x, y]}, one per ghost of the layout, in its order], \"food\": "
                 "[[x, y], ...], \"capsules\": [[x, y], ...], \"score\", \"to_move\": \"Pacman\" | "
                 "\"Ghost1\" | ... (null once the game is over), \"result\": \"win\" | \"loss\" (a finished "
                 "game). x counts columns from the left, y "
                 "rows from the bottom; a scared ghost may stand half-way (x or y ending in .5).",
    initial_state={"layout": SMALL_MAZE},
    move_format="\"West\" | \"Stop\" | \"East\" | \"North\" | \"South\", for the agent to move (Pacman's "
                "legal moves come in that order; a ghost never stops)",
    example_request={"game": GAME_ID, "state": {"layout": SMALL_MAZE},
                     "algorithm": {"name": "alphabeta", "depth": 6, "move_ordering": False,
                                   "transposition_table": False}, "time_limit_ms": 1000},
    players=PLAYERS,
    player_info=PLAYER_INFO,
    conventions="Pacman is player 0 (MAX), the ghosts Ghost1..Ghostk players 1..k in CS188's agent order (a "
                "layout's G is ghost 1, its digits 1-4 the numbered ghosts); a maze with k ghosts has the "
                "first 1 + k of the players declared. x counts columns from the left, y rows from the bottom, "
                "as in CS188.",
    chance=NO_CHANCE,
    zero_sum=True,
    alternating=False,
    outcomes=False,
    utility_bounds=None,
    max_length=None,
    key_fixes_ply=False,
    value_unit="Pacman's game score (CS188's: +10 a dot, +200 a scared ghost eaten, +500 a win, -500 a loss, -1 a move), or at a depth cut-off the evaluation option's estimate of it; the ghosts' value is its negation",
    value_scale="value",
    move_schema={"type": "string", "enum": list(DIRECTIONS)},
    min_players=1,
    max_players=1 + MAX_GHOSTS,
    options=(EVALUATION_OPTION,),
    sample_states=({"layout": ["%%%%%%%", "%o...G%", "%.%%%.%", "%P...G%", "%%%%%%%"]},),
)


class Pacman(Game):
    """One maze's rules. Utilities and evaluations are Pacman's score (the ``better`` evaluation: see
    :meth:`better`) for player 0 and its negation for every ghost."""

    id = GAME_ID
    game_type = GAME_TYPE
    capabilities = frozenset({EVALUATION})

    def __init__(self, layout: tuple, evaluation: str):
        self.layout = layout
        self.height, self.width = len(layout), len(layout[0])
        width = self.width
        self.walls = bytearray(self.width * self.height)
        food = capsules = 0
        pacman, ghosts = None, []
        for row, line in enumerate(layout):
            y = self.height - 1 - row
            for x, ch in enumerate(line):
                cell = y * width + x
                if ch == "%":
                    self.walls[cell] = 1
                elif ch == ".":
                    food |= 1 << cell
                elif ch == "o":
                    capsules |= 1 << cell
                elif ch == "P":
                    pacman = cell
                elif ch in GHOST_NUMBERS:
                    ghosts.append((GHOST_NUMBERS[ch], x, y))
        assert pacman is not None  # parse_layout checked that the maze has one Pacman
        ghosts.sort()                                   # CS188's agentPositions.sort()
        self.starts = tuple((2 * x, 2 * y, STOP, 0) for _, x, y in ghosts)
        self.k = len(ghosts)
        self.players = PLAYERS[:1 + self.k]
        self.sides = (0,) + (1,) * self.k
        self.start_state = (0, pacman, STOP, self.starts, food, capsules, 0, ONGOING)
        # Pacman's legal moves from each cell, in CS188's order; a ghost's, by cell and direction.
        self.pacman_moves = [tuple(d for d in DIRECTIONS if self.is_open(cell, d)) for cell in range(len(self.walls))]
        self.ghost_moves = [{d: ghost_choices(self.pacman_moves[cell], d) for d in DIRECTIONS}
                            for cell in range(len(self.walls))]
        self.step = {d: dx + dy * width for d, (dx, dy) in VECTORS.items()}
        self.better_evaluation = evaluation == BETTER
        self.distances: dict[int, tuple[array[int], array[int]]] = {}  # source cell -> (distances, cells by distance)
        if evaluation == BETTER:
            distance, by_distance = self.distances_from(pacman)
            eccentricity = distance[by_distance[-1]]
            # Eating a food must beat standing beside it: the jump in the nearest food's distance is at
            # most the maze's diameter, at most twice any cell's eccentricity.
            self.food_weight = 0.9 * FOOD_POINTS / max(1, 2 * eccentricity)

    def is_open(self, cell: int, direction: str) -> bool:
        """Whether the neighbour of ``cell`` that way is inside the maze and not a wall."""
        x, y = cell % self.width + VECTORS[direction][0], cell // self.width + VECTORS[direction][1]
        return 0 <= x < self.width and 0 <= y < self.height and not self.walls[y * self.width + x]

    # --- the rules -------------------------------------------------------------------------------

    def to_move(self, state):
        return state[AGENT_TO_MOVE]

    def actions(self, state):
        if state[RESULT]:
            return ()
        agent = state[AGENT_TO_MOVE]
        if agent == 0:
            return self.pacman_moves[state[PACMAN_CELL]]
        hx, hy, direction, _ = state[GHOSTS][agent - 1]
        if hx & 1 or hy & 1:                            # between cells: keep going straight
            return (direction,)
        return self.ghost_moves[(hy >> 1) * self.width + (hx >> 1)][direction]

    def result(self, state, move):
        agent, pacman, direction, ghosts, food, capsules, score, result = state
        following = agent + 1 if agent < self.k else 0
        if agent == 0:
            pacman += self.step[move]
            if move != STOP:
                direction = move
            bit = 1 << pacman
            change = -TIME_PENALTY
            if food & bit:
                food ^= bit
                change += FOOD_POINTS
                if not food:
                    change += WIN_POINTS
                    result = WIN
            if capsules & bit:
                capsules ^= bit
                ghosts = tuple((hx, hy, d, SCARED_TIME) for hx, hy, d, _ in ghosts)
            px, py = 2 * (pacman % self.width), 2 * (pacman // self.width)
            touched = [i for i, (hx, hy, _, _) in enumerate(ghosts) if abs(hx - px) + abs(hy - py) <= 1]
            if touched:
                ghosts = list(ghosts)
                for i in touched:
                    if ghosts[i][3] > 0:
                        change += GHOST_POINTS
                        ghosts[i] = self.starts[i]
                    elif result != WIN:
                        change -= DEATH_POINTS
                        result = LOSS
                ghosts = tuple(ghosts)
            return (following, pacman, direction, ghosts, food, capsules, score + change, result)
        i = agent - 1
        hx, hy, _, scared = ghosts[i]
        dx, dy = VECTORS[move]
        speed = 1 if scared > 0 else 2                  # in half cells
        hx, hy = hx + dx * speed, hy + dy * speed
        if scared == 1:                                 # CS188's nearestPoint: int(x + 0.5)
            hx, hy = (hx + 1) >> 1 << 1, (hy + 1) >> 1 << 1
        scared = scared - 1 if scared > 0 else 0
        ghost = (hx, hy, move, scared)
        px, py = 2 * (pacman % self.width), 2 * (pacman // self.width)
        if abs(hx - px) + abs(hy - py) <= 1:
            if scared > 0:
                score += GHOST_POINTS
                ghost = self.starts[i]
            else:
                score -= DEATH_POINTS
                result = LOSS
        return (following, pacman, direction, ghosts[:i] + (ghost,) + ghosts[i + 1:], food, capsules,
                score, result)

    def is_terminal(self, state):
        return state[RESULT] != ONGOING

    def utility(self, state, player):
        return float(state[STATE_SCORE] if player == 0 else -state[STATE_SCORE])

    def winner(self, state):
        """Pacman, who ate the last food; None when the ghosts caught him (they win as one side)."""
        return self.players[0] if state[RESULT] == WIN else None

    def end_reason(self, state):
        return "Pacman ate all the food" if state[RESULT] == WIN else "a ghost caught Pacman"

    # --- evaluation ------------------------------------------------------------------------------

    def evaluate(self, state, player):
        """CS188's ``scoreEvaluationFunction``, the current score, or with ``evaluation: "better"``
        :meth:`better`; Pacman's, and negated for every ghost."""
        value = self.better(state) if self.better_evaluation else float(state[STATE_SCORE])
        return value if player == 0 else -value

    def better(self, state) -> float:
        """Pacman's score plus what the position promises, by maze distance from Pacman: minus
        ``food_weight`` a step to the nearest food (small enough that eating it always pays); for each
        scared ghost that its timer leaves within reach, ``100 - 2 d`` (less than the 200 of eating it,
        so eating it pays too); for a ghost that is not scared and less than 2 away, up to 100 off; and
        25 off for every capsule left (eating one pays before the ghosts it scares are counted).
        Exact on finished games."""
        _, pacman, _, ghosts, food, capsules, score, result = state
        if result:
            return float(score)
        distance, by_distance = self.distances_from(pacman)
        value = float(score) - 25.0 * capsules.bit_count()
        if food:
            for cell in by_distance:
                if food >> cell & 1:
                    value -= self.food_weight * distance[cell]
                    break
        width = self.width
        for hx, hy, _, scared in ghosts:
            if hx & 1:
                d = 0.5 + min(distance[(hy >> 1) * width + (hx >> 1)], distance[(hy >> 1) * width + (hx >> 1) + 1])
            elif hy & 1:
                d = 0.5 + min(distance[(hy >> 1) * width + (hx >> 1)], distance[((hy >> 1) + 1) * width + (hx >> 1)])
            else:
                d = distance[(hy >> 1) * width + (hx >> 1)]
            if scared > d:
                value += 100.0 - 2.0 * d
            elif not scared and d < 2:
                value -= 50.0 * (2 - d)
        return value

    def distances_from(self, source: int) -> tuple:
        """``(distances, cells)``: the maze distance from ``source`` to every cell (a large number for
        walls and cells out of reach), and the reachable cells nearest first, both compact arrays (at most
        4 MB for a 32 x 32 maze's every source). Breadth-first search, once per source cell and maze
        (games are cached per layout)."""
        known = self.distances.get(source)
        if known is not None:
            return known
        far = 2 * len(self.walls)
        distance = array("H", [far]) * len(self.walls)
        distance[source] = 0
        order, queue = array("H"), deque([source])
        while queue:
            cell = queue.popleft()
            order.append(cell)
            for move in self.pacman_moves[cell]:
                nxt = cell + self.step[move]
                if distance[nxt] == far:
                    distance[nxt] = distance[cell] + 1
                    queue.append(nxt)
        self.distances[source] = (distance, order)
        return distance, order

    # --- JSON ------------------------------------------------------------------------------------

    def state_to_json(self, state):
        agent, pacman, direction, ghosts, food, capsules, score, result = state
        out = {
            "layout": list(self.layout),
            "pacman": {"position": self.xy(pacman), "direction": direction},
            "ghosts": [{"position": [half(hx), half(hy)], "direction": d, "scared": scared,
                        "start": [start[0] // 2, start[1] // 2]}
                       for (hx, hy, d, scared), start in zip(ghosts, self.starts)],
            "food": [self.xy(cell) for cell in cells_of(food)],
            "capsules": [self.xy(cell) for cell in cells_of(capsules)],
            "score": score,
            "to_move": None if result else self.players[agent],
        }
        if result:
            out["result"] = RESULTS[result]
        return out

    def xy(self, cell: int) -> list:
        return [cell % self.width, cell // self.width]


def ghost_choices(pacman_moves: tuple, direction: str) -> tuple:
    """CS188's ``GhostRules.getLegalActions`` on a cell: Pacman's moves there without Stop, and without
    reversing unless nothing else is legal."""
    moves = [d for d in pacman_moves if d != STOP]
    if REVERSE[direction] in moves and len(moves) > 1:
        moves.remove(REVERSE[direction])
    return tuple(moves)


def half(h: int):
    """A coordinate in half cells as JSON: an int on a cell, x.5 half-way."""
    return h // 2 if h % 2 == 0 else h / 2


@lru_cache(maxsize=16)
def game_for(layout: tuple, evaluation: str) -> Pacman:
    """Games are immutable rule books: build each maze's tables (and distances) once per process."""
    return Pacman(layout, evaluation)


# --- loading a JSON state ------------------------------------------------------------------------

STATE_KEYS = {"layout", "pacman", "ghosts", "food", "capsules", "score", "to_move", "result"}


def load(state_json, limits=None, evaluation=None, **_):
    """``(game, state)`` for a JSON state (see ``GAME_TYPE.state_format``); :class:`InvalidState` names
    the field at fault."""
    unknown = set(state_json) - STATE_KEYS
    if unknown:
        raise InvalidState(f"unknown keys {sorted(unknown)}; a pacman state has {sorted(STATE_KEYS)}")
    if evaluation is None:
        evaluation = SCORE
    if evaluation not in (SCORE, BETTER):
        raise InvalidState(f"evaluation is {SCORE!r} or {BETTER!r}", field="options.evaluation")
    game = game_for(parse_layout(state_json.get("layout")), evaluation)
    agent, pacman, direction, ghosts, food, capsules, score, result = game.start_state
    if "pacman" in state_json:
        pacman, direction = parse_pacman(game, state_json["pacman"])
    if "ghosts" in state_json:
        ghosts = parse_ghosts(game, state_json["ghosts"])
    if "food" in state_json:
        food = parse_cells(game, state_json["food"], "state.food")
    if "capsules" in state_json:
        capsules = parse_cells(game, state_json["capsules"], "state.capsules")
        if capsules & food:
            raise InvalidState("a cell holds food or a capsule, not both", field="state.capsules")
    if "score" in state_json:
        sent = state_json["score"]
        if isinstance(sent, float) and sent.is_integer() and abs(sent) < 2 ** 53:
            sent = int(sent)
        if not isinstance(sent, int) or isinstance(sent, bool) or abs(sent) >= 2 ** 53:
            raise InvalidState("score is an integer", field="state.score")
        score = sent
    if state_json.get("to_move") is not None:
        if state_json["to_move"] not in game.players:
            raise InvalidState(f"to_move is one of {list(game.players)}", field="state.to_move")
        agent = game.players.index(state_json["to_move"])
    if "result" in state_json:
        named = {name: code for code, name in RESULTS.items()}
        if not isinstance(state_json["result"], str) or state_json["result"] not in named:
            raise InvalidState("result is \"win\" or \"loss\" (absent while the game goes on)",
                               field="state.result")
        result = named[state_json["result"]]
        if result == WIN and food:
            raise InvalidState("a game is won when the last food is eaten; food is left", field="state.result")
    if "to_move" in state_json and (state_json["to_move"] is None) != (result != ONGOING):
        raise InvalidState("to_move is null exactly when the game is over (result win or loss)",
                           field="state.to_move")
    return game, (agent, pacman, direction, ghosts, food, capsules, score, result)


def parse_layout(layout) -> tuple:
    """The maze of a ``layout`` as CS188's ``layout.py`` reads it (:func:`layout_rows`), with exactly one
    Pacman and at most ``MAX_GHOSTS`` ghosts, none walled in; :class:`InvalidState` names the row at fault."""
    rows = layout_rows(layout)
    check_walled(rows)
    text = "".join(rows)
    if text.count("P") != 1:
        raise InvalidState(f"the maze needs exactly one Pacman 'P'; it has {text.count('P')}",
                           field="state.layout")
    ghosts = sum(text.count(ch) for ch in GHOST_NUMBERS)
    if ghosts > MAX_GHOSTS:
        raise InvalidState(f"the maze has at most {MAX_GHOSTS} ghosts ('G' or '1'..'4'); it has {ghosts}",
                           field="state.layout")
    height, width = len(rows), len(rows[0])
    for row, line in enumerate(rows):
        for column, ch in enumerate(line):
            if ch in GHOST_NUMBERS and not any(0 <= row + dr < height and 0 <= column + dc < width
                                               and rows[row + dr][column + dc] != "%"
                                               for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))):
                raise InvalidState(f"the ghost in column {column} is walled in: a ghost must be able to move",
                                   field=f"state.layout[{row}]")
    return rows


def layout_rows(layout) -> tuple:
    """The rows of ``layout`` (a list of rows, or one string of lines) as CS188's ``tryToLoad`` and
    ``Layout`` read a .lay file: each row without its trailing whitespace (a newline included), blank
    rows at the end dropped (a file's last newline), the maze as wide as its first row (longer rows cut to
    it; a shorter row is an error, as in CS188). A character that is no cell (CS188 would read ``X`` as an
    empty one, hiding a typo) is an error naming its row."""
    field = "state.layout"
    if isinstance(layout, str):
        name = layout.strip()
        if name and "%" not in name and "\n" not in name:  # one line, no wall: a layout's name (-l smallClassic)
            raise InvalidState(f"the layout is the maze itself, not the name of one ({name!r}): its rows as in "
                               "a CS188 .lay file, a list of strings top row first or one string of lines",
                               field=field)
        layout = layout.splitlines()
    if not isinstance(layout, list) or not all(isinstance(row, str) for row in layout):
        raise InvalidState("the layout is a list of rows, top row first, or one string of lines", field=field)
    rows = [row.rstrip() for row in layout]
    while rows and not rows[-1]:
        rows.pop()
    if not 1 <= len(rows) <= MAX_SIDE or not 1 <= len(rows[0]) <= MAX_SIDE:
        raise InvalidState(f"a maze has 1 to {MAX_SIDE} rows of 1 to {MAX_SIDE} cells", field=field)
    width = len(rows[0])
    for r, row in enumerate(rows):
        if len(row) < width:
            raise InvalidState(f"row {r} has {len(row)} cells without its trailing spaces; the maze is as wide "
                               f"as its first row, {width}", field=f"{field}[{r}]")
        unknown = next((ch for ch in row[:width] if ch not in LAYOUT_CHARS and ch != EMPTY), None)
        if unknown is not None:
            raise InvalidState(f"row {r} has {unknown!r} in column {row.index(unknown)}: a cell is '%' wall, "
                               "'.' food, 'o' capsule, 'P' Pacman, 'G' or '1'..'4' a ghost, or ' ' empty",
                               field=f"{field}[{r}]")
    return tuple(row[:width] for row in rows)


def check_walled(layout) -> None:
    """The maze is surrounded by walls, as every CS188 layout is: the first and last rows all ``%``, and
    every row beginning and ending with one (CS188's game looks up the walls around an agent without a
    bounds check, so a layout with an opening on its border breaks it; here it would let an agent walk
    off the grid). An error on ``state.layout`` otherwise."""
    last = len(layout) - 1
    for row, line in enumerate(layout):
        border = line if row in (0, last) else line[0] + line[-1]
        if set(border) != {"%"}:
            raise InvalidState(f"the maze must be surrounded by walls '%': row {row} has an opening on the "
                               "border", field="state.layout")


def parse_xy(game, value, field: str, halves: bool = False) -> tuple:
    """``[x, y]`` -> ``(hx, hy)`` in half cells, inside the maze; with ``halves`` a coordinate may end in .5."""
    if not (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
        raise InvalidState("a position is [x, y], two numbers", field=field)
    doubled = [2 * v for v in value]
    if not all(float(h).is_integer() and (halves or h % 2 == 0) for h in doubled):
        raise InvalidState("a position is [x, y] in whole cells" + (" or half-way (.5)" if halves else ""),
                           field=field)
    hx, hy = int(doubled[0]), int(doubled[1])
    if not (0 <= hx <= 2 * (game.width - 1) and 0 <= hy <= 2 * (game.height - 1)):
        raise InvalidState(f"x is 0..{game.width - 1} (columns from the left), y 0..{game.height - 1} (rows "
                           f"from the bottom)", field=field)
    return hx, hy


def parse_cell(game, value, field: str) -> int:
    hx, hy = parse_xy(game, value, field)
    cell = (hy // 2) * game.width + hx // 2
    if game.walls[cell]:
        raise InvalidState(f"{value} is a wall", field=field)
    return cell


def parse_direction(value, field: str) -> str:
    if value not in DIRECTIONS:
        raise InvalidState(f"a direction is one of {list(DIRECTIONS)}", field=field)
    return value


def parse_pacman(game, value) -> tuple:
    if not isinstance(value, dict) or set(value) - {"position", "direction"} or "position" not in value:
        raise InvalidState("pacman is {\"position\": [x, y], \"direction\"?}", field="state.pacman")
    return (parse_cell(game, value["position"], "state.pacman.position"),
            parse_direction(value.get("direction", STOP), "state.pacman.direction"))


def parse_ghosts(game, value) -> tuple:
    if not isinstance(value, list) or len(value) != game.k:
        raise InvalidState(f"ghosts is a list of {game.k} ghosts, one per ghost of the layout, in CS188's order "
                           f"(by number, 'G' being 1, then start (x, y))", field="state.ghosts")
    return tuple(parse_ghost(game, i, ghost) for i, ghost in enumerate(value))


def parse_ghost(game, i: int, value) -> tuple:
    field = f"state.ghosts[{i}]"
    keys = {"position", "direction", "scared", "start"}
    if not isinstance(value, dict) or set(value) - keys or "position" not in value:
        raise InvalidState("a ghost is {\"position\": [x, y], \"direction\"?, \"scared\"?, \"start\"?}",
                           field=field)
    start = game.starts[i]
    if "start" in value and parse_xy(game, value["start"], f"{field}.start") != start[:2]:
        raise InvalidState(f"ghost {i + 1} starts at {[start[0] // 2, start[1] // 2]}: the ghosts are the "
                           f"layout's, by number ('G' being 1), then (x, y)", field=f"{field}.start")
    direction = parse_direction(value.get("direction", STOP), f"{field}.direction")
    scared = value.get("scared", 0)
    if isinstance(scared, float) and scared.is_integer():
        scared = int(scared)
    if not isinstance(scared, int) or isinstance(scared, bool) or not 0 <= scared <= SCARED_TIME:
        raise InvalidState(f"scared is the ghost's scared moves left, an integer 0..{SCARED_TIME}",
                           field=f"{field}.scared")
    hx, hy = parse_xy(game, value["position"], f"{field}.position", halves=True)
    position = f"{field}.position"
    if hx & 1 and hy & 1:
        raise InvalidState("a ghost is half-way along one axis at most", field=position)
    if hx & 1 or hy & 1:
        if not scared:
            raise InvalidState("only a scared ghost moves half a cell, so only a scared ghost stands half-way",
                               field=position)
        along = (EAST, WEST) if hx & 1 else (NORTH, SOUTH)
        if direction not in along:
            raise InvalidState(f"a ghost half-way between cells is going {' or '.join(along)}",
                               field=f"{field}.direction")
        ends = ((hx - 1, hy), (hx + 1, hy)) if hx & 1 else ((hx, hy - 1), (hx, hy + 1))
        if any(game.walls[(y // 2) * game.width + x // 2] for x, y in ends):
            raise InvalidState("a ghost half-way stands between two open cells, not beside a wall", field=position)
    elif game.walls[(hy // 2) * game.width + hx // 2]:
        raise InvalidState(f"{value['position']} is a wall", field=position)
    return hx, hy, direction, scared


def parse_cells(game, value, field: str) -> int:
    if not isinstance(value, list):
        raise InvalidState("a list of [x, y] cells", field=field)
    bits = 0
    for i, xy in enumerate(value):
        bit = 1 << parse_cell(game, xy, f"{field}[{i}]")
        if bits & bit:
            raise InvalidState(f"{xy} is listed twice", field=f"{field}[{i}]")
        bits |= bit
    return bits
