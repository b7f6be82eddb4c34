"""Explicit game trees, as textbooks and homework draw them.

A tree is typed (``max``/``min``/``chance`` nodes, leaves valued with MAX's utility) or n-player
(``player: i`` nodes, leaves valued with one utility per player, chance nodes allowed). The tree is parsed
once, iteratively (a pathological tree cannot blow the Python stack), into flat arrays; a state is a node's
index, a move is a child's index, and ``move_to_json`` gives the child's label (its ``move``, else its
``id``, else its position among its siblings).
"""
import math
from typing import Any

from engine.deadline import ReadTimeout, reading_deadline
from engine.errors import EngineError, IllegalMove, InvalidState
from engine.registry import OPTIONAL_CHANCE, GameType, Player, player_ids
from engine.game import CHANCE, EVALUATION, PLIES_BOUND, Game

GAME_ID = "tree"

NODE_KEYS = {"id", "type", "player", "children", "value", "eval", "move", "p"}
TYPE_PLAYER = {"max": 0, "min": 1, "chance": CHANCE}
LEAF = -2  # to_move of a leaf: nobody moves
READ_CHECK_MASK = 255  # reading polls the deadline every 256 nodes (about a millisecond)
MAX_PLAYERS = 64       # the widest n-player utility vector: every node's search copies vectors this wide

FIGURE_5_2 = {"root": {"id": "A", "type": "max", "children": [
    {"id": "B", "type": "min", "children": [{"value": 3}, {"value": 12}, {"value": 8}]},
    {"id": "C", "type": "min", "children": [{"value": 2}, {"value": 4}, {"value": 6}]},
    {"id": "D", "type": "min", "children": [{"value": 14}, {"value": 5}, {"value": 2}]}]}}

PLAYER_INFO = (Player("MAX", "MAX", "#1f6feb"), Player("MIN", "MIN", "#b42318"))

GAME_TYPE = GameType(
    id=GAME_ID,
    name="Explicit game tree",
    description="A game tree written out node by node: textbook figures and homework trees. Typed trees "
                "have max, min and chance nodes and leaves valued with MAX's utility; n-player trees have "
                "player nodes and leaves valued with one utility per player.",
    state_format="{\"root\": NODE}. Inner NODE: {\"id\"?, \"type\": \"max\"|\"min\"|\"chance\", "
                 "\"children\": [NODE, ...], \"eval\"?: number} or {\"id\"?, \"player\": i, \"children\": "
                 "[...], \"eval\"?: [numbers]}. Leaf: {\"id\"?, \"value\": number} or {\"id\"?, \"value\": "
                 "[u0, u1, ...]}. A child may carry \"move\" (its edge label; default its id, else its "
                 "index) and, under a chance node, \"p\" (default: uniform).",
    initial_state=FIGURE_5_2,
    starts=False,
    move_format="the chosen child's label: its \"move\", else its \"id\", else its 0-based index",
    example_request={"game": "tree", "state": FIGURE_5_2, "algorithm": {"name": "alphabeta"}},
    players=player_ids(PLAYER_INFO),
    player_info=PLAYER_INFO,
    player_prefix="P",
    conventions="MAX and MIN are the players of a tree of max and min nodes (a node's type); an n-player "
                "tree's player i (a node's \"player\": i) is \"P\" + i: P0, P1, ..., and its values, utilities "
                "and leaf vectors are in that order. A move is the child's label: its \"move\", else its \"id\", "
                "else its 0-based index.",
    chance=OPTIONAL_CHANCE,
    zero_sum=True,
    alternating=False,
    outcomes=False,
    utility_bounds=None,
    max_length=None,
    key_fixes_ply=False,
    value_unit="the tree's own numbers: MAX's utility at the root (n-player trees: values, one per player)",
    value_scale="value",
    answers_forced_moves=False,
    move_schema={"type": ["string", "integer", "number", "boolean"]},
    min_players=1,
    sample_states=(
        {"root": {"type": "max", "children": [
            {"move": "safe", "value": 500},
            {"move": "gamble", "type": "chance", "children": [{"p": 0.5, "value": 0}, {"p": 0.5, "value": 1000}]}]}},
        {"root": {"player": 0, "children": [
            {"player": 1, "eval": [1, 2, 3], "children": [{"value": [1, 2, 3]}, {"value": [4, 0, 1]}]},
            {"player": 2, "eval": [0, 1, 5], "children": [{"value": [6, 1, 2]}, {"value": [0, 0, 7]}]}]}},
        {"root": {"type": "min", "eval": 1, "children": [
            {"type": "max", "eval": 2, "children": [{"value": -1}, {"value": 4}]},
            {"type": "chance", "eval": 0, "children": [{"p": 0.25, "value": 8}, {"p": 0.75, "value": -8}]}]}},
    ),
    general_sum_instances=True,
)


NUMBER_TYPES = (int, float)  # the types of a JSON number (bool is not one)


def is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


class Tree(Game):
    """A parsed tree. Node ``i`` has ``mover[i]`` (a player, CHANCE or LEAF), ``children[i]`` (child
    indices), ``probs[i]`` (chance nodes), ``leaf_value[i]`` (MAX's utility, or a utility vector),
    ``eval_value[i]`` and ``label[i]``, the JSON of the edge into it."""

    id = GAME_ID
    game_type = GAME_TYPE
    capabilities = frozenset({PLIES_BOUND})  # and EVALUATION when every inner node has an eval

    def __init__(self, players, n_player: bool):
        self.players = players
        self.zero_sum = not n_player
        self.n_player = n_player
        self.mover: list[int] = []
        self.children: list[list[int]] = []
        self.probs: list[tuple[float, ...] | None] = []
        self.leaf_value: list[Any] = []  # a float (typed trees) or a tuple of floats (n-player); None inside
        self.eval_value: list[Any] = []  # likewise, None where a node has no eval
        self.label: list[str | int] = []
        self.node_id: list[str | int | None] = []
        self.parent: list[int | None] = []
        self.height: list[int] = []
        self.has_chance = False
        self.utility_bounds = None

    # --- rules ---

    def to_move(self, state):
        return self.mover[state]

    def actions(self, state):
        return self.children[state]

    def result(self, state, move):
        return move

    def is_terminal(self, state):
        return self.mover[state] == LEAF

    def utility(self, state, player):
        v = self.leaf_value[state]
        if self.n_player:
            return v[player]
        return v if player == 0 else -v

    def utilities(self, state):
        v = self.leaf_value[state]
        return v if self.n_player else (v, -v)

    def chance_outcomes(self, state):
        return list(zip(self.children[state], self.probs[state]))

    def evaluate(self, state, player):
        if self.mover[state] == LEAF:
            return self.utility(state, player)
        e = self.eval_value[state]
        if e is None:
            raise EngineError(self.path(state) + ".eval",
                              "the depth limit cuts the search at this node, which has no eval")
        if self.n_player:
            return e[player]
        return e if player == 0 else -e

    def evaluations(self, state):
        if self.n_player:
            return tuple(self.evaluate(state, p) for p in range(self.n_players))
        e = self.evaluate(state, 0)
        return (e, -e)

    def perspective(self, state):
        """Typed trees are valued as the textbook writes them, from MAX's point of view; n-player trees
        from the root player's (player 0 under a chance root)."""
        return max(self.mover[state], 0) if self.n_player else 0

    def plies_bound(self, state):
        return self.height[state]

    def states_bound(self, state):
        """The nodes of the tree (every node, whichever ``state`` is: a bound, not a count)."""
        return len(self.mover)

    # --- JSON ---

    def move_to_json(self, move):
        return self.label[move]

    def move_from_json(self, value, state):
        for child in self.children[state]:
            if self.label[child] == value and type(self.label[child]) is type(value):
                return child
        raise IllegalMove(f"{value!r} is not a child of this node; children: "
                          f"{[self.label[c] for c in self.children[state]]}")

    def state_to_json(self, state):
        """The subtree at ``state`` as a tree state of its own."""
        def node(i):
            out = {}
            if self.node_id[i] is not None:
                out["id"] = self.node_id[i]
            if self.mover[i] == LEAF:
                v = self.leaf_value[i]
                out["value"] = list(v) if self.n_player else v
                return out
            if self.mover[i] == CHANCE:
                out["type"] = "chance"
            elif self.n_player:
                out["player"] = self.mover[i]
            else:
                out["type"] = "max" if self.mover[i] == 0 else "min"
            if self.eval_value[i] is not None:
                e = self.eval_value[i]
                out["eval"] = list(e) if self.n_player else e
            kids = []
            for k, c in enumerate(self.children[i]):
                kid = node(c)
                kid["move"] = self.label[c]
                if self.mover[i] == CHANCE:
                    kid["p"] = self.probs[i][k]
                kids.append(kid)
            out["children"] = kids
            return out
        return {"root": node(state)}

    def path(self, i) -> str:
        """The JSON path of node ``i`` in the request, for error messages."""
        steps = []
        while self.parent[i] is not None:
            parent = self.parent[i]
            steps.append(f".children[{self.children[parent].index(i)}]")
            i = parent
        return "state.root" + "".join(reversed(steps))


def load(state_json, limits=None, **_):
    if set(state_json) != {"root"}:
        raise InvalidState("a tree state is {\"root\": NODE} and nothing else")
    return parse(state_json["root"], limits.max_tree_nodes if limits else 100_000,
                 limits.max_tree_depth if limits else 1_000), 0


def parse(root, max_nodes: int, max_depth: int) -> Tree:
    """Flatten the JSON tree in depth-first pre-order, validating every node (iteratively). A request's
    tree is read on its time limit, and the smallest ones are most of the requests, so each node costs
    as few steps as its checks allow: one loop walks a list of siblings, left only to open a node's
    children (and taken up again where it stopped once they are read), and a node's fields are worked out
    first and appended once; a leaf of a typed tree with a finite number, most of a big tree's nodes, is
    checked in place."""
    n_player = detect_n_player(root, max_nodes)
    tree = Tree(None, n_player)
    movers, children, parents, heights = tree.mover, tree.children, tree.parent, tree.height
    width = None  # n-player: the length of the utility vectors
    max_player = 0
    lo, hi = math.inf, -math.inf
    evaluated = True  # every inner node so far has an eval
    deadline = reading_deadline()
    # One frame per open list of siblings: its (position, node) iterator, the parent's index, the depth;
    # a node of 80,000 children costs no more to open than one of two.
    frames: list[tuple[enumerate[Any], int | None, int]] = [(enumerate([root]), None, 0)]
    while frames:
        siblings, parent, depth = frames[-1]
        for position, node in siblings:
            i = len(movers)
            if i >= max_nodes:
                raise InvalidState(f"the tree has more than {max_nodes} nodes", field="state.root")
            if not i & READ_CHECK_MASK and i and deadline.expired():
                raise out_of_time(tree)
            parents.append(parent)
            if parent is not None:
                children[parent].append(i)
            children.append([])
            if depth > max_depth:
                raise too_deep(root, max_depth)
            try:
                if not isinstance(node, dict):
                    raise InvalidState("a node must be an object", field="")
                if not NODE_KEYS.issuperset(node):
                    unknown = sorted(set(node) - NODE_KEYS)
                    raise InvalidState(f"unknown keys {unknown}; a node has {sorted(NODE_KEYS)}", field="")
                node_id, label = None, position
                if "id" in node:
                    node_id = label = node["id"]
                    if not isinstance(node_id, (str, int)) or isinstance(node_id, bool):
                        raise InvalidState("an id is a string or an integer", field=".id")
                if "move" in node:
                    label = node["move"]
                    if not isinstance(label, (str, int)) or isinstance(label, bool):
                        raise InvalidState("a move label is a string or an integer", field=".move")
                    if parent is None:
                        raise InvalidState("the root has no incoming move", field=".move")
                if "p" in node and (parent is None or movers[parent] != CHANCE):
                    raise InvalidState("only a chance node's children carry p", field=".p")

                mover, probs, evaluation, value, kids = LEAF, None, None, None, None
                if "children" in node:
                    kids = node["children"]
                    if "value" in node:
                        raise InvalidState("a node has children or a value, not both", field="")
                    if not isinstance(kids, list) or not kids:
                        raise InvalidState("children must be a non-empty list", field=".children")
                    mover = node_mover(node, n_player)
                    if mover > max_player:
                        max_player = mover
                    if mover == CHANCE:
                        tree.has_chance = True
                        probs = chance_probabilities(kids)
                    if "eval" in node:
                        evaluation = payoff(node["eval"], n_player, width, ".eval")
                        width, lo, hi = widened(evaluation, n_player, lo, hi)
                    else:
                        evaluated = False
                elif "value" in node:
                    for key in ("type", "player", "eval"):
                        if key in node:
                            raise InvalidState(f"a leaf has no {key}", field=f".{key}")
                    value = node["value"]
                    if not n_player and type(value) in NUMBER_TYPES and math.isfinite(value):  # payoff's, in place
                        value = float(value)
                        if value < lo:
                            lo = value
                        if value > hi:
                            hi = value
                    else:
                        value = payoff(value, n_player, width, ".value")
                        width, lo, hi = widened(value, n_player, lo, hi)
                else:
                    raise InvalidState("a node needs children or a value", field="")
            except InvalidState as error:  # fields are relative to the node: anchor them at its path
                (suffix, messages), = error.errors.items()
                raise InvalidState(messages[0], field=tree.path(i) + suffix) from None
            movers.append(mover)
            tree.probs.append(probs)
            tree.node_id.append(node_id)
            tree.label.append(label)
            tree.eval_value.append(evaluation)
            tree.leaf_value.append(value)
            heights.append(0 if mover == LEAF else 1)
            if kids is not None:  # its children are read next; then this list is taken up again
                frames.append((enumerate(kids), i, depth + 1))
                break
        else:  # every sibling is read: their parent's height is final, and bounds its own parent's
            frames.pop()
            grandparent = None if parent is None else parents[parent]
            if parent is not None and grandparent is not None and heights[parent] >= heights[grandparent]:
                heights[grandparent] = heights[parent] + 1

    if n_player:
        assert width is not None  # every tree has a leaf, and an n-player leaf's value is a vector
        if max_player >= width:
            raise InvalidState(f"a node names player {max_player} but utility vectors have {width} entries",
                               field="state.root")
        tree.players = tuple(f"P{p}" for p in range(width))
    else:
        tree.players = ("MAX", "MIN")
    check_labels(tree)
    tree.utility_bounds = (lo, hi)
    if evaluated:
        tree.capabilities = tree.capabilities | {EVALUATION}
    return tree


def widened(payoff_value, n_player: bool, lo: float, hi: float) -> tuple:
    """``(width, lo, hi)`` once ``payoff_value`` (a node's value or eval) is seen: the utility vectors'
    length (None in a typed tree) and the bounds on every number so far."""
    if n_player:
        return len(payoff_value), min(lo, *payoff_value), max(hi, *payoff_value)
    return None, min(lo, payoff_value), max(hi, payoff_value)


def too_deep(root, max_depth: int) -> InvalidState:
    """The error for a tree deeper than ``max_depth`` plies: on ``state.root`` (the path of its deepest
    node would be ``.children[0]`` a thousand times over), with the depth found and the limit."""
    return InvalidState(f"the tree is {height(root)} plies deep; the limit is {max_depth} (MAX_TREE_DEPTH)",
                        field="state.root")


def height(root) -> int:
    """The plies from ``root`` (JSON, not yet read) to its deepest node, counting every list of children
    (iteratively: the tree is too deep for recursion)."""
    deepest, stack = 0, [(root, 0)]
    while stack:
        node, depth = stack.pop()
        kids = node.get("children") if isinstance(node, dict) else None
        if isinstance(kids, list):
            stack.extend((kid, depth + 1) for kid in kids)
        deepest = max(deepest, depth)
    return deepest


def out_of_time(tree: Tree) -> ReadTimeout:
    """The deadline passed while the tree was being read (the root and its first child are): the anytime
    answer is the root's first move, as a search that had no time would give."""
    if tree.mover[0] == CHANCE:
        raise InvalidState("the root is a chance node: no player moves here", field="state")
    return ReadTimeout(tree.label[1], f"P{tree.mover[0]}" if tree.n_player else "MAX")


def detect_n_player(root, max_nodes: int) -> bool:
    """A tree is n-player when its first leaf holds a vector or its first inner node names a player."""
    node = root
    for _ in range(max_nodes):
        if not isinstance(node, dict):
            return False
        if "player" in node:
            return True
        if "value" in node:
            return isinstance(node["value"], list)
        if node.get("type") in ("max", "min"):
            return False
        children = node.get("children")
        if not isinstance(children, list) or not children:
            return False
        node = children[0]
    return False


def node_mover(node, n_player: bool) -> int:
    kind, player = node.get("type"), node.get("player")
    if kind == "chance":
        if player is not None:
            raise InvalidState("a chance node has no player", field=".player")
        return CHANCE
    if n_player:
        if kind is not None:
            raise InvalidState("an n-player tree's decision nodes name a player, not a type",
                               field=".type")
        if not isinstance(player, int) or isinstance(player, bool) or player < 0:
            raise InvalidState("player must be an integer >= 0", field=".player")
        return player
    if player is not None:
        raise InvalidState("a typed tree's nodes have a type, not a player", field=".player")
    if kind not in TYPE_PLAYER:
        raise InvalidState("type must be \"max\", \"min\" or \"chance\"", field=".type")
    return TYPE_PLAYER[kind]


def chance_probabilities(children) -> tuple:
    """The children's ``p`` (all given, in [0, 1], summing to 1 within 1e-9), or uniform if none is."""
    given = [isinstance(c, dict) and "p" in c for c in children]
    if not any(given):
        return tuple(1.0 / len(children) for _ in children)
    probs = []
    for k, child in enumerate(children):
        field = f".children[{k}].p"
        if not given[k]:
            raise InvalidState("under a chance node either every child carries p or none does", field=field)
        p = child["p"]
        if not is_number(p) or not 0.0 <= p <= 1.0:
            raise InvalidState("p must be a number in [0, 1]", field=field)
        probs.append(float(p))
    if abs(sum(probs) - 1.0) > 1e-9:
        raise InvalidState(f"the children's probabilities sum to {sum(probs)!r}, not 1",
                           field=".children")
    return tuple(probs)


def payoff(x, n_player: bool, width, field: str):
    """A finite number (typed trees) or a vector of finite numbers of the tree's width (n-player)."""
    if n_player:
        if not isinstance(x, list) or not 2 <= len(x) <= MAX_PLAYERS \
                or not all(is_number(u) and math.isfinite(u) for u in x):
            raise InvalidState(f"an n-player utility is a list of 2 to {MAX_PLAYERS} finite numbers (one per "
                               "player)", field=field)
        if width is not None and len(x) != width:
            raise InvalidState(f"every utility vector has {width} entries", field=field)
        return tuple(float(u) for u in x)
    if not is_number(x) or not math.isfinite(x):
        raise InvalidState("must be a finite number (MAX's utility)", field=field)
    return float(x)


def check_labels(tree: Tree) -> None:
    """Sibling labels are distinct as the API shows them, written out: ``"1"`` and ``1`` are one label to
    a client that reads or types moves (a playground's buttons, a shell), so they are refused together."""
    label = tree.label
    for i, kids in enumerate(tree.children):
        if len(kids) > 1 and len({str(label[c]) for c in kids}) != len(kids):
            raise InvalidState(f"sibling moves must be distinct; got {[label[c] for c in kids]}",
                               field=tree.path(i) + ".children")
