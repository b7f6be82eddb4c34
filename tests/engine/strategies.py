"""Hypothesis strategies: random explicit game trees in the JSON form of API.md."""
import sys

from hypothesis import strategies as st

values = st.integers(min_value=-20, max_value=20)

# Finite JSON numbers at the edges of the float range: any sum, difference or scaling of two of them may
# overflow, and the smallest lose their precision when divided.
BIGGEST = sys.float_info.max
EXTREMES = (BIGGEST, -BIGGEST, 1.7e308, -1.7e308, 1e308, -1e308, 5e-324, -5e-324, 1e-308, 0.0)
extreme_values = st.one_of(st.sampled_from(EXTREMES), values)


def game_trees(kinds=("max", "min"), max_leaves=60, with_eval=False, n_players=None, values=values):
    """Random trees whose inner nodes are of the given ``kinds`` (consecutive layers of one kind allowed),
    with integer leaves (ties are likely, which exercises tie-breaking and cut-off edges), or leaves drawn
    from ``values`` (``extreme_values``: the edges of the float range too).
    ``n_players``: vector-valued leaves and ``player`` nodes instead of typed ones."""
    leaf_value = values if n_players is None else st.lists(values, min_size=n_players, max_size=n_players)
    leaf = st.builds(lambda v: {"value": v}, leaf_value)

    def inner(children):
        def make(kind, kids, probs, ev):
            node = {"children": kids}
            if n_players is None:
                node["type"] = kind
            elif kind == "chance":
                node["type"] = "chance"
            else:
                node["player"] = kind
            if kind == "chance":
                total = sum(probs[:len(kids)])
                for kid, w in zip(kids, probs):
                    kid["p"] = w / total
                # make the probabilities sum to exactly 1 within 1e-9 despite rounding
                kids[-1]["p"] = 1.0 - sum(k["p"] for k in kids[:-1])
            if with_eval:
                node["eval"] = ev
            return node
        kind = st.sampled_from(kinds) if n_players is None else st.one_of(
            st.integers(0, n_players - 1), *([st.just("chance")] if "chance" in kinds else []))
        return st.builds(make, kind, st.lists(children, min_size=1, max_size=4),
                         st.lists(st.integers(1, 5), min_size=4, max_size=4),
                         values if n_players is None else st.lists(values, min_size=n_players,
                                                                    max_size=n_players))

    return st.builds(lambda root: {"root": root}, inner(st.recursive(leaf, inner, max_leaves=max_leaves)))
