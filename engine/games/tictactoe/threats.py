"""Threat-space search for m,n,k games (after Allis' threat-space search for gomoku): wins by continuous
fours (VCF) and by continuous threats (VCT), and the defender's moves that may refute such a win.

Words. A *window* is k cells in a row. A *four* is a window holding k - 1 of a player's marks and none of
the other's: its empty cell, a *completion*, wins at once. A *threat* is a move after which its player,
were it to move again, would win by continuous fours: a four (the threat is to complete it), or a three
(an open three, say: the threat is an open four, or a four-four).

The search is for the *attacker*, who holds ``mine`` and is to move, against the *defender*, who holds
``theirs``. It branches only at the attacker's moves that make a four or a three:

- after a four, the defender's only move that does not lose at once is the completion (the attacker never
  makes a four while the defender has a completion of its own: it must block that first, with a threat);
- after a three, the attacker has a win by fours ``line`` if it moves again, and a defender move off the
  :func:`critical` cells of that line leaves the line a win: so only the critical moves (the line's cells,
  and the cells that could give the defender a four in time: blocks of the line included) are searched,
  and the three wins if the attacker wins after every one of them.

Contract: a line returned is a proof. It is ``[a1, d1, a2, d2, ..., an]``, the attacker's moves and the
defender's replies along the defence that lasts longest among those searched, ending with the move that
completes k in a row; the attacker wins against every defence, in at most ``len(line)`` plies. Lines with
fewer threes are tried first (VCF before VCT). None proves nothing: only threat moves are searched, at most
``depth`` threes in a line. A search that visits ``budget`` positions first raises :class:`Exhausted`; it
polls ``deadline`` every few positions and lets its :class:`~engine.deadline.Timeout` through. Every search
adds the positions it visited to ``stats.nodes`` (the root at least), however it ends.
"""
from engine.bits import cells_of, lowest_cell
from engine.deadline import Deadline
from engine.result import Stats

POLL_MASK = 7           # the deadline is polled every 8 positions (a position costs some 35-100 us)


class Exhausted(Exception):
    """The search visited its budget of positions."""


class Threats:
    """The threat searches of one board. ``windows``: its :class:`~engine.games.tictactoe.windows.Windows`;
    ``lines_through[cell]``: the windows (bitmasks) through each cell; ``full``: every cell."""

    def __init__(self, windows, lines_through: list, full: int):
        self.windows, self.lines_through, self.full, self.k = windows, lines_through, full, windows.k

    def win(self, mine: int, theirs: int, depth: int, budget: int, deadline: Deadline, stats: Stats) -> list | None:
        """A forced win for the attacker by threats, with at most ``depth`` threes (0: by fours alone);
        fewer threes first. See the module's contract."""
        k, windows = self.k, self.windows
        if k < 3:
            return None                                # a four is then a completion: nothing to search
        empty = self.full & ~(mine | theirs)
        search = Search(self, budget, deadline)
        try:
            wins = windows.covered(search.open_windows(mine, theirs), k - 1, empty)
            if wins:
                return [lowest_cell(wins)]
            blocks = windows.covered(windows.by_count(theirs, mine, (k - 1,)), k - 1, empty)
            for threes in range(depth + 1):
                line = search.attack(mine, theirs, threes, blocks)
                if line is not None:
                    return line
            return None
        finally:
            stats.nodes += max(search.visited, 1)      # the root is looked at even when it wins at once

    def completions(self, player: int, other: int, cell: int) -> int:
        """The empty cells that complete a window through ``cell`` for ``player`` (``other``: the opponent)."""
        found, k = 0, self.k
        for line in self.lines_through[cell]:
            if not line & other and (line & player).bit_count() == k - 1:
                found |= line & ~player
        return found

    def critical(self, line: list, mine: int, theirs: int) -> int:
        """The defender moves (a bitmask of empty cells) that may stop the attacker's winning ``line`` if
        the defender plays one of them before it: the line's cells, and the empty cells of the windows
        without attacker marks where the defender's marks and its replies in the line come to k - 2 or
        more (a mark there could give the defender a four during the line). Any other defender move
        leaves every four of the line a four and every reply forced, so the line still wins."""
        cells = replies = 0
        for i, cell in enumerate(line):
            cells |= 1 << cell
            if i & 1:
                replies |= 1 << cell
        k, windows = self.k, self.windows
        counts = windows.by_count(theirs | replies, mine, (k - 2, k - 1))
        empty = self.full & ~(mine | theirs)
        return (cells | windows.covered(counts, k - 2, empty) | windows.covered(counts, k - 1, empty)) & empty


class Search:
    """One search's budget, deadline and memory of the positions it found no win from."""

    def __init__(self, threats: Threats, budget: int, deadline: Deadline):
        self.threats, self.budget, self.deadline = threats, budget, deadline
        self.visited = 0
        self.failed: dict[tuple[int, int], int] = {}                          # (mine, theirs) -> the most threes that failed there
        self.counted: dict[tuple[int, int], list] = {}                          # (mine, theirs) -> the attacker's open windows

    def open_windows(self, mine: int, theirs: int) -> list:
        """The attacker's windows with k - 3, k - 2 and k - 1 marks (iterative deepening and the threes'
        follow-ups meet the same positions again: each is counted once a search)."""
        key = (mine, theirs)
        own = self.counted.get(key)
        if own is None:
            k = self.threats.k
            own = self.counted[key] = self.threats.windows.by_count(mine, theirs, (k - 3, k - 2, k - 1))
        return own

    def attack(self, mine: int, theirs: int, threes: int, blocks: int) -> list | None:
        """A winning line for the attacker (to move) with at most ``threes`` threes, or None. ``blocks``:
        the defender's completions (its fours' empty cells), which the attacker must take first. The
        attacker has no completion here: :meth:`Threats.win` looked first, and no move of the search
        leaves one (a four's single completion is the defender's forced reply; a three makes none)."""
        self.visited += 1
        if self.visited > self.budget:
            raise Exhausted
        if not self.visited & POLL_MASK:
            self.deadline.check()
        key = (mine, theirs)
        if blocks & (blocks - 1) or self.failed.get(key, -1) >= threes:
            return None                                # (two defender completions: one move cannot stop both)
        threats = self.threats
        k, windows, empty = threats.k, threats.windows, threats.full & ~(mine | theirs)
        own = self.open_windows(mine, theirs)
        fours = windows.covered(own, k - 2, empty)
        moves = fours | (windows.covered(own, k - 3, empty) if threes else 0)
        if blocks:
            moves &= blocks                            # the defender's four first
        for a in cells_of(moves):
            after = mine | 1 << a
            line = (self.four(a, after, theirs, threes, blocks) if fours >> a & 1
                    else self.three(a, after, theirs, threes, blocks))
            if line is not None:
                return line
        self.failed[key] = threes
        return None

    def reply(self, mine: int, theirs: int, cell: int, threes: int, blocks: int) -> list | None:
        """The attacker's line after the defender's move at ``cell`` (``theirs`` without it), or None."""
        after = theirs | 1 << cell
        blocks = blocks & ~(1 << cell) | self.threats.completions(after, mine, cell)
        return self.attack(mine, after, threes, blocks)

    def four(self, a: int, after: int, theirs: int, threes: int, blocks: int) -> list | None:
        """The attacker's move ``a`` made a four (``after``: its marks now): the defender's reply is forced."""
        made = self.threats.completions(after, theirs, a)      # the attacker had none: every one is through a
        block = lowest_cell(made)
        if made & (made - 1):                          # two completions: one block cannot stop both
            return [a, block, lowest_cell(made & ~(1 << block))]
        line = self.reply(after, theirs, block, threes, blocks & ~(1 << a))
        return None if line is None else [a, block] + line

    def three(self, a: int, after: int, theirs: int, threes: int, blocks: int) -> list | None:
        """The attacker's move ``a`` made no four: a win if it is a threat and every critical defence
        still loses, the longest defence's line; else None."""
        blocks &= ~(1 << a)
        follow = self.attack(after, theirs, 0, blocks)  # the win by fours the move threatens
        if follow is None:
            return None
        longest, on_line = None, sum(1 << cell for cell in follow)
        others = self.threats.critical(follow, after, theirs) & ~on_line
        for cell in follow + cells_of(others):         # the likeliest refutations first: the line's own cells
            line = self.reply(after, theirs, cell, threes - 1, blocks)
            if line is None:
                return None
            if longest is None or len(line) + 1 > len(longest):
                longest = [cell] + line
        assert longest is not None  # follow, a winning line, is never empty
        return [a] + longest
