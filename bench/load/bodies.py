"""The request bodies of the scale-out bench (bench/load/nginx.py and its locust users,
bench/load/scale_users.py), in a module without locust: importing locust monkey-patches the process."""

CONNECT4 = {"moves": "4453"}
# Connect Four with the default alpha-beta for one second: a typical search.
SEARCH_1S = {"game": "connect4", "state": CONNECT4, "algorithm": {"name": "alphabeta"}, "time_limit_ms": 1000}
# Tic-tac-toe solved in well under a millisecond: the search route's fixed costs, the per-client limits among them.
SEARCH_TINY = {"game": "tictactoe", "state": {"board": ["XOX", "OX.", "O.."]}, "algorithm": {"name": "alphabeta"},
               "time_limit_ms": 1000}
