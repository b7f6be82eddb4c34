"""Settings come from the environment once, at start-up, and a bad value stops it (README, "Settings")."""
import pytest

from service.config import Settings
from tests.service.support import FIGURE_5_2, make_app


@pytest.mark.parametrize("value", ["abc", "-1", "20", "2.5"])
def test_a_bad_search_nice_stops_start_up(value):
    """Read per search instead, a bad SEARCH_NICE made every search a 500."""
    with pytest.raises(ValueError, match="SEARCH_NICE"):
        Settings.from_env({"SEARCH_NICE": value})


@pytest.mark.parametrize("value, nice", [(None, 5), ("0", 0), ("19", 19)])
def test_search_nice_is_0_to_19_and_5_by_default(value, nice):
    environ = {} if value is None else {"SEARCH_NICE": value}
    assert Settings.from_env(environ).search_nice == nice


def test_a_search_runs_with_search_nice_0():
    """0: the search runs at the worker's own priority, through the same search thread."""
    client = make_app(SEARCH_NICE=0).test_client()
    answer = client.post("/v1/search", json={"game": "tree", "state": FIGURE_5_2, "algorithm": {"name": "minimax"}})
    assert answer.status_code == 200 and (answer.get_json()["move"], answer.get_json()["value"]) == ("B", 3)


def test_max_tree_depth_is_at_most_2000():
    """A deeper tree could not be sent to a search process (service/body.py: SENT_NESTING)."""
    assert Settings(max_tree_depth=2_000).max_tree_depth == 2_000
    with pytest.raises(ValueError, match="MAX_TREE_DEPTH must be at most 2000"):
        Settings(max_tree_depth=2_001)
