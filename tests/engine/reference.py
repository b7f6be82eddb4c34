"""Independent, obviously-correct searches over the JSON trees of API.md, for checking the engine.

They walk the JSON directly with plain recursion and share no code with ``engine``.
"""
import math


def minimax(node, depth=None, ply=0):
    """MAX's minimax value of a typed tree (no chance nodes); ``eval`` at the depth cut-off."""
    if "value" in node:
        return node["value"]
    if depth is not None and ply >= depth:
        return node["eval"]
    values = [minimax(child, depth, ply + 1) for child in node["children"]]
    return max(values) if node["type"] == "max" else min(values)


def alphabeta_count(node, alpha=-math.inf, beta=math.inf, depth=None, ply=0):
    """AIMA fig. 5.7 over the JSON tree: ``(value, nodes visited)``, root included."""
    if "value" in node:
        return node["value"], 1
    if depth is not None and ply >= depth:
        return node["eval"], 1
    visited = 1
    if node["type"] == "max":
        v = -math.inf
        for child in node["children"]:
            cv, n = alphabeta_count(child, alpha, beta, depth, ply + 1)
            visited += n
            v = max(v, cv)
            if v >= beta:
                return v, visited
            alpha = max(alpha, v)
    else:
        v = math.inf
        for child in node["children"]:
            cv, n = alphabeta_count(child, alpha, beta, depth, ply + 1)
            visited += n
            v = min(v, cv)
            if v <= alpha:
                return v, visited
            beta = min(beta, v)
    return v, visited


def count_nodes(node, depth=None, ply=0):
    if "value" in node or (depth is not None and ply >= depth):
        return 1
    return 1 + sum(count_nodes(child, depth, ply + 1) for child in node["children"])


SOLVED = {}  # (rows, columns, k) -> {cells: (result, plies)}, shared by calls


def solve_board(rows, k):
    """Tic-tac-toe (m,n,k) solved by brute force over strings: ``(result for the player to move,
    plies to the end)`` with the winner hurrying and the loser delaying; result is +1, 0 or -1."""
    n_rows, n_cols = len(rows), len(rows[0])
    cells = "".join(rows)
    memo = SOLVED.setdefault((n_rows, n_cols, k), {})

    def winner(cells):
        for r in range(n_rows):
            for c in range(n_cols):
                ch = cells[r * n_cols + c]
                if ch == ".":
                    continue
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    if all(0 <= r + dr * i < n_rows and 0 <= c + dc * i < n_cols
                           and cells[(r + dr * i) * n_cols + c + dc * i] == ch for i in range(k)):
                        return ch
        return None

    def solve(cells):
        if cells in memo:
            return memo[cells]
        mover = "X" if cells.count("X") == cells.count("O") else "O"
        best = None
        for i, ch in enumerate(cells):
            if ch != ".":
                continue
            child = cells[:i] + mover + cells[i + 1:]
            if winner(child) == mover:
                outcome = (1, 1)
            elif "." not in child:
                outcome = (0, 1)
            else:
                r, plies = solve(child)
                outcome = (-r, plies + 1)
            # prefer a better result; among wins the shortest, among losses the longest
            if best is None or (outcome[0], -outcome[0] * outcome[1]) > (best[0], -best[0] * best[1]):
                best = outcome
        memo[cells] = best
        return best

    return solve(cells)
