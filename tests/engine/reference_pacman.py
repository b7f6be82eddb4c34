"""CS188's Pacman rules and its multi-agent searches, written again plainly after the project's
``pacman.py``, ``game.py`` and the textbook agents of ``multiAgents.py``, over the JSON states of the
``pacman`` game. Positions are float ``(x, y)`` as in CS188; nothing is shared with ``engine``.

A state is a dict: ``walls`` (set of (x, y)), ``food`` and ``capsules`` (sets), ``agents`` (a list of
``[position, direction, scared, start]``, Pacman first), ``score``, ``turn``, ``win``, ``lose``.
"""
import math

DIRS = {"West": (-1, 0), "Stop": (0, 0), "East": (1, 0), "North": (0, 1), "South": (0, -1)}
REVERSE = {"West": "East", "East": "West", "North": "South", "South": "North", "Stop": "Stop"}


def parse(state_json):
    rows = state_json["layout"]
    h = len(rows)
    walls, food, caps, pac, ghosts = set(), set(), set(), None, []
    for r, line in enumerate(rows):
        for x, ch in enumerate(line):
            y = h - 1 - r
            if ch == "%":
                walls.add((x, y))
            elif ch == ".":
                food.add((x, y))
            elif ch == "o":
                caps.add((x, y))
            elif ch == "P":
                pac = (x, y)
            elif ch == "G":
                ghosts.append((x, y))
    ghosts.sort()
    agents = [[(float(pac[0]), float(pac[1])), "Stop", 0, pac]]
    agents += [[(float(x), float(y)), "Stop", 0, (x, y)] for x, y in ghosts]
    if "pacman" in state_json:
        agents[0][0] = tuple(float(v) for v in state_json["pacman"]["position"])
        agents[0][1] = state_json["pacman"]["direction"]
    for i, g in enumerate(state_json.get("ghosts", [])):
        agents[i + 1][0] = tuple(float(v) for v in g["position"])
        agents[i + 1][1] = g["direction"]
        agents[i + 1][2] = g["scared"]
    if "food" in state_json:
        food = {tuple(c) for c in state_json["food"]}
    if "capsules" in state_json:
        caps = {tuple(c) for c in state_json["capsules"]}
    names = ["Pacman"] + [f"Ghost{i}" for i in range(1, len(ghosts) + 1)]
    return {"walls": walls, "width": len(rows[0]), "height": h, "food": food, "capsules": caps,
            "agents": agents, "score": state_json.get("score", 0),
            "turn": names.index(state_json.get("to_move") or "Pacman"),  # null: the game is over
            "win": state_json.get("result") == "win", "lose": state_json.get("result") == "loss"}


def to_json(s):
    """The fields of the engine's JSON form that describe what changes."""
    half = lambda v: int(v) if v == int(v) else v
    names = ["Pacman"] + [f"Ghost{i}" for i in range(1, len(s["agents"]))]
    out = {"pacman": {"position": [half(v) for v in s["agents"][0][0]], "direction": s["agents"][0][1]},
           "ghosts": [{"position": [half(v) for v in a[0]], "direction": a[1], "scared": a[2], "start": list(a[3])}
                      for a in s["agents"][1:]],
           "food": sorted([list(c) for c in s["food"]], key=lambda c: (c[1], c[0])),
           "capsules": sorted([list(c) for c in s["capsules"]], key=lambda c: (c[1], c[0])),
           "score": s["score"], "to_move": None if s["win"] or s["lose"] else names[s["turn"]]}
    if s["win"] or s["lose"]:
        out["result"] = "win" if s["win"] else "loss"
    return out


def copy(s):
    return {**s, "food": set(s["food"]), "capsules": set(s["capsules"]), "agents": [list(a) for a in s["agents"]]}


def wall(s, x, y):
    return not (0 <= x < s["width"] and 0 <= y < s["height"]) or (x, y) in s["walls"]


def possible_actions(s, i):
    """``Actions.getPossibleActions``."""
    (x, y), direction = s["agents"][i][0], s["agents"][i][1]
    xi, yi = int(x + 0.5), int(y + 0.5)
    if abs(x - xi) + abs(y - yi) > 0.001:
        return [direction]
    return [d for d, (dx, dy) in DIRS.items() if not wall(s, xi + dx, yi + dy)]


def legal(s, i):
    if s["win"] or s["lose"]:
        return []
    moves = possible_actions(s, i)
    if i == 0:
        return moves
    if "Stop" in moves:
        moves.remove("Stop")
    rev = REVERSE[s["agents"][i][1]]
    if rev in moves and len(moves) > 1:
        moves.remove(rev)
    return moves


def successor(s, i, action):
    """``GameState.generateSuccessor``."""
    assert action in legal(s, i)
    s = copy(s)
    change = 0
    agent = s["agents"][i]
    dx, dy = DIRS[action]
    speed = 1.0 if i == 0 else (0.5 if agent[2] > 0 else 1.0)
    agent[0] = (agent[0][0] + dx * speed, agent[0][1] + dy * speed)
    if action != "Stop":
        agent[1] = action
    if i == 0:
        pos = agent[0]
        cell = (int(pos[0] + 0.5), int(pos[1] + 0.5))
        if cell in s["food"]:
            change += 10
            s["food"].discard(cell)
            if not s["food"] and not s["lose"]:
                change += 500
                s["win"] = True
        if cell in s["capsules"]:
            s["capsules"].discard(cell)
            for g in s["agents"][1:]:
                g[2] = 40
        change -= 1
    else:
        if agent[2] == 1:
            agent[0] = (int(agent[0][0] + 0.5), int(agent[0][1] + 0.5))
        agent[2] = max(0, agent[2] - 1)
    pac = s["agents"][0][0]
    for j in (range(1, len(s["agents"])) if i == 0 else [i]):
        g = s["agents"][j]
        if abs(g[0][0] - pac[0]) + abs(g[0][1] - pac[1]) <= 0.7:
            if g[2] > 0:
                change += 200
                g[0], g[1], g[2] = (float(g[3][0]), float(g[3][1])), "Stop", 0
            elif not s["win"]:
                change -= 500
                s["lose"] = True
    s["score"] += change
    s["turn"] = (i + 1) % len(s["agents"])
    return s


# --- the searches of multiAgents.py, depth in rounds, scoreEvaluationFunction -----------------------

class Counter:
    def __init__(self):
        self.generated = 0


def root_values(s, rounds, counter, ghosts_average=False):
    """Each root action's value (Pacman to move at the root), in legal order: minimax, or with
    ``ghosts_average`` expectimax (every ghost picks uniformly among its legal actions)."""
    n = len(s["agents"])

    def value(st, agent, depth):
        if st["win"] or st["lose"] or depth == rounds:
            return st["score"]
        nxt, nd = (agent + 1) % n, depth + (1 if agent + 1 == n else 0)
        vals = []
        for a in legal(st, agent):
            counter.generated += 1
            vals.append(value(successor(st, agent, a), nxt, nd))
        if agent == 0:
            return max(vals)
        return sum(vals) / len(vals) if ghosts_average else min(vals)

    out = []
    for a in legal(s, 0):
        counter.generated += 1
        out.append((a, value(successor(s, 0, a), 1, 0)))
    return out


def alphabeta(s, rounds, counter, strict):
    """CS188's AlphaBetaAgent (``strict``: prune on ``v > beta`` / ``v < alpha``) or AIMA's (``>=``)."""
    n = len(s["agents"])

    def beyond_beta(v, beta):
        return v > beta if strict else v >= beta

    def below_alpha(v, alpha):
        return v < alpha if strict else v <= alpha

    def value(st, agent, depth, alpha, beta):
        if st["win"] or st["lose"] or depth == rounds:
            return st["score"]
        nxt, nd = (agent + 1) % n, depth + (1 if agent + 1 == n else 0)
        if agent == 0:
            v = -math.inf
            for a in legal(st, agent):
                counter.generated += 1
                v = max(v, value(successor(st, agent, a), nxt, nd, alpha, beta))
                if beyond_beta(v, beta):
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in legal(st, agent):
            counter.generated += 1
            v = min(v, value(successor(st, agent, a), nxt, nd, alpha, beta))
            if below_alpha(v, alpha):
                return v
            beta = min(beta, v)
        return v

    best, best_value, alpha = None, -math.inf, -math.inf
    for a in legal(s, 0):
        counter.generated += 1
        v = value(successor(s, 0, a), 1, 0, alpha, math.inf)
        if v > best_value:
            best, best_value = a, v
        alpha = max(alpha, v)
    return best, best_value
