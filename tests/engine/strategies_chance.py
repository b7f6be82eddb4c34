"""Hypothesis strategies for chance searches: random explicit trees with max, min and chance layers, and
n-player trees with chance nodes, in the JSON form of API.md. Roots are decision nodes (a search chooses a
move for the player to move there); chance children may have probability 0."""
from hypothesis import strategies as st

from tests.engine.strategies import values

weights = st.lists(st.integers(0, 4), min_size=4, max_size=4)


def make_node(kind, children, ws, ev, n_players):
    node = {"children": children}
    if kind == "chance" or n_players is None:
        node["type"] = kind
    else:
        node["player"] = kind
    if kind == "chance":
        ws = [ws[0] + 1] + ws[1:len(children)]  # at least one outcome is possible
        total = sum(ws)
        for child, w in zip(children, ws):
            child["p"] = w / total
    if ev is not None:
        node["eval"] = ev
    return node


def chance_trees(kinds=("max", "min", "chance"), max_leaves=40, with_eval=False, n_players=None, values=values,
                 weights=weights):
    """Typed trees whose inner nodes are of the given kinds (n_players None), or n-player trees whose
    inner nodes are players 0..n-1 and, if "chance" is among the kinds, chance nodes. Leaves and evals
    are drawn from ``values``, chance weights from ``weights`` (four at a time)."""
    vector = values if n_players is None else st.lists(values, min_size=n_players, max_size=n_players)
    evals = vector if with_eval else st.none()
    leaf = st.builds(lambda v: {"value": v}, vector)
    players = st.sampled_from([k for k in kinds if k != "chance"]) if n_players is None \
        else st.integers(0, n_players - 1)
    kind = players if "chance" not in kinds else st.one_of(players, st.just("chance"))

    def inner(children, kind=kind):
        return st.builds(make_node, kind, st.lists(children, min_size=1, max_size=4), weights, evals,
                         st.just(n_players))

    subtrees = st.recursive(leaf, inner, max_leaves=max_leaves)
    return st.builds(lambda root: {"root": root}, inner(subtrees, kind=players))
