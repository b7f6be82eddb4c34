"""Independent, obviously-correct expectimax and max^n over the JSON trees of API.md, for checking the
engine. Plain recursion over the JSON, no pruning, no code shared with ``engine``."""


def probabilities(node):
    kids = node["children"]
    return [kid.get("p", 1.0 / len(kids)) for kid in kids]


def expectimax(tree, model="minimax", epsilon=0.1, depth=None):
    """MAX's expected value of a typed tree searched for the player at the root. Chance nodes average by
    ``p``; the root player's nodes optimise for it; the other player's nodes minimise or maximise
    (``minimax``), or are chance nodes that pick uniformly (``uniform``) or, with probability 1 - epsilon,
    the move that is best for that player by the value of the child, eval or leaf (``epsilon_greedy``)."""
    searcher = tree["root"]["type"]

    def value(node, ply):
        if "value" in node:
            return node["value"]
        if depth is not None and ply >= depth:
            return node["eval"]
        kids = node["children"]
        vals = [value(kid, ply + 1) for kid in kids]
        kind = node["type"]
        if kind == "chance":
            return weighted(probabilities(node), vals)
        if kind == searcher or model == "minimax":
            return max(vals) if kind == "max" else min(vals)
        share = 1.0 / len(kids)
        if model == "uniform":
            return weighted([share] * len(kids), vals)
        own = [one_ply(kid) if kind == "max" else -one_ply(kid) for kid in kids]
        greedy = own.index(max(own))
        return weighted([epsilon * share + (1.0 - epsilon if i == greedy else 0.0) for i in range(len(kids))],
                        vals)

    return value(tree["root"], 0)


def one_ply(node):
    return node["value"] if "value" in node else node["eval"]


def weighted(probs, vals):
    total = 0.0
    for p, v in zip(probs, vals):
        if p > 0:
            total += p * v
    return total


def maxn(tree, depth=None):
    """The max^n vector of an n-player tree (or of a typed tree, read as (v, -v) with MAX player 0):
    each player takes the first child best for itself; chance nodes average the vectors by ``p``."""
    def vector(node, ply):
        if "value" in node:
            v = node["value"]
            return tuple(v) if isinstance(v, list) else (v, -v)
        if depth is not None and ply >= depth:
            e = node["eval"]
            return tuple(e) if isinstance(e, list) else (e, -e)
        vals = [vector(kid, ply + 1) for kid in node["children"]]
        if node.get("type") == "chance":
            probs = probabilities(node)
            return tuple(weighted(probs, [v[i] for v in vals]) for i in range(len(vals[0])))
        player = node["player"] if "player" in node else {"max": 0, "min": 1}[node["type"]]
        best = vals[0]
        for v in vals[1:]:
            if v[player] > best[player]:
                best = v
        return best

    return vector(tree["root"], 0)
