"""The k-cell windows of an m,n,k board read off bitboards all at once: which windows hold how many of one
player's marks and none of the other's (the open lines whose counts an evaluation weighs and whose empty
cells are threats), for every window of a direction in a few shifts and bitwise operations.

Cell ``r * n + c`` is bit ``r * n + c``. A window is named by its first cell ``p`` and its direction's
``shift`` (1 along a row, ``n`` down a column, ``n + 1`` and ``n - 1`` along the diagonals): its cells are
``p + i * shift`` for ``i < k``. A direction's ``starts`` mask holds the cells from which a window fits on
the board, so the bits that a shift carries across a row's end never count. A set of windows of every
direction is one int: direction ``j``'s starts shifted up by ``j * m * n`` bits, so that counting,
updating and comparing them takes one operation for the four directions.
"""
from engine.bits import cells_of

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


class Windows:
    """The windows of a ``rows`` x ``cols`` board with ``k`` in a row."""

    def __init__(self, rows: int, cols: int, k: int):
        self.k = k
        self.span = span = rows * cols
        self.full = (1 << span) - 1
        self.directions = []            # (shift, starts mask) for each direction a window fits in
        for dr, dc in DIRECTIONS:
            starts = sum(1 << (r * cols + c) for r in range(rows) for c in range(cols)
                         if 0 <= r + dr * (k - 1) < rows and 0 <= c + dc * (k - 1) < cols)
            if starts:
                self.directions.append((dr * cols + dc, starts))
        # The cells of every window, by its bit in a set of windows (0 where none fits).
        self.cells = [sum(1 << (p + i * shift) for i in range(k)) if starts >> p & 1 else 0
                      for shift, starts in self.directions for p in range(span)]
        # The windows through every cell (a set of windows).
        self.through = [sum(1 << (j * span + cell - i * shift)
                            for j, (shift, starts) in enumerate(self.directions) for i in range(k)
                            if cell - i * shift >= 0 and starts >> (cell - i * shift) & 1)
                        for cell in range(span)]

    def by_count(self, mine: int, theirs: int, counts=None) -> tuple:
        """A tuple ``masks`` with ``masks[m]`` the set of windows holding exactly ``m`` of ``mine`` and none of
        ``theirs``, for m in ``counts`` (default 1 .. k; the other entries are 0). ``masks[0]``, when asked
        for, holds the empty windows."""
        k, span = self.k, self.span
        counts = range(1, k + 1) if counts is None else counts
        out = [0] * (k + 1)
        for j, (shift, starts) in enumerate(self.directions):
            open_ = starts
            for i in range(k):
                open_ &= ~(theirs >> (i * shift))
            planes: list[int] = []                        # bit-sliced counters of mine in each open window
            for i in range(k):
                carry = (mine >> (i * shift)) & open_
                b = 0
                while carry:
                    if b == len(planes):
                        planes.append(carry)
                        break
                    plane = planes[b]
                    planes[b], carry = plane ^ carry, plane & carry
                    b += 1
            held = len(planes)
            for m in counts:
                if m >> held:
                    continue                              # a count beyond what the planes can hold
                mask = open_
                for b, plane in enumerate(planes):
                    mask &= plane if m >> b & 1 else ~plane
                out[m] |= mask << (j * span)
        return tuple(out)

    def after_move(self, movers: tuple, others: tuple, cell: int) -> tuple:
        """``(movers, others)``, both :meth:`by_count` results with every count 0 .. k (the player about to
        move's and the opponent's), after that player marks the empty ``cell``: the mover's windows through
        it hold one mark more, the opponent's through it are no longer open."""
        w = self.through[cell]
        keep = ~w
        moved = [count & keep for count in movers]
        for m, count in enumerate(movers[:-1]):
            moved[m + 1] |= count & w
        return tuple(moved), tuple([count & keep for count in others])

    def covered(self, masks: tuple, m: int, empty: int) -> int:
        """The empty cells of the windows with ``m`` marks (``masks`` from :meth:`by_count`)."""
        windows = masks[m]
        if not windows:
            return 0
        cells, span, full = 0, self.span, self.full
        for j, (shift, _) in enumerate(self.directions):
            starts = windows >> (j * span) & full
            if starts:
                for i in range(self.k):
                    cells |= starts << (i * shift)
        return cells & empty

    def windows(self, masks: tuple, m: int):
        """The cells (a bitmask) of every window with ``m`` marks, one by one."""
        cells = self.cells
        for p in cells_of(masks[m]):
            yield cells[p]
