"""The k-cell windows of an m,n,k board read off bitboards all at once: which windows hold how many of one
player's marks and none of the other's (the open lines whose counts an evaluation weighs and whose empty
cells are threats), for every window of a direction in a few shifts and bitwise operations.

Cell ``r * n + c`` is bit ``r * n + c``. A window is named by its first cell ``p`` and its direction's
``shift`` (1 along a row, ``n`` down a column, ``n + 1`` and ``n - 1`` along the diagonals): its cells are
``p + i * shift`` for ``i < k``. A direction's ``starts`` mask holds the cells from which a window fits on
the board, so the bits that a shift carries across a row's end never count.
"""
from engine.bits import cells_of

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


class Windows:
    """The windows of a ``rows`` x ``cols`` board with ``k`` in a row."""

    def __init__(self, rows: int, cols: int, k: int):
        self.k = k
        self.directions = []            # (shift, starts mask) for each direction a window fits in
        for dr, dc in DIRECTIONS:
            starts = sum(1 << (r * cols + c) for r in range(rows) for c in range(cols)
                         if 0 <= r + dr * (k - 1) < rows and 0 <= c + dc * (k - 1) < cols)
            if starts:
                self.directions.append((dr * cols + dc, starts))
        # For each direction, the cells of the window starting at every cell (0 where none fits).
        self.cells = [[sum(1 << (p + i * shift) for i in range(k)) if starts >> p & 1 else 0
                       for p in range(rows * cols)] for shift, starts in self.directions]
        # For each direction, the starts of the windows through every cell.
        self.through = [[sum(1 << (cell - i * shift) for i in range(k)
                             if cell - i * shift >= 0 and starts >> (cell - i * shift) & 1)
                         for cell in range(rows * cols)] for shift, starts in self.directions]

    def by_count(self, mine: int, theirs: int, counts=None) -> tuple:
        """For each direction, a tuple ``masks`` with ``masks[m]`` the starts of the windows holding exactly ``m``
        of ``mine`` and none of ``theirs``, for m in ``counts`` (default 1 .. k; the other entries are 0).
        ``masks[0]``, when asked for, holds the empty windows."""
        k, out = self.k, []
        counts = range(1, k + 1) if counts is None else counts
        for shift, starts in self.directions:
            open_ = starts
            for i in range(k):
                open_ &= ~(theirs >> (i * shift))
            planes = []                                   # bit-sliced counters of mine in each open window
            for i in range(k):
                carry = (mine >> (i * shift)) & open_
                j = 0
                while carry:
                    if j == len(planes):
                        planes.append(carry)
                        break
                    plane = planes[j]
                    planes[j], carry = plane ^ carry, plane & carry
                    j += 1
            masks = [0] * (k + 1)
            held = len(planes)
            for m in counts:
                if m >> held:
                    continue                              # a count beyond what the planes can hold
                mask = open_
                for j, plane in enumerate(planes):
                    mask &= plane if m >> j & 1 else ~plane
                masks[m] = mask
            out.append(tuple(masks))
        return tuple(out)

    def after_move(self, movers: tuple, others: tuple, cell: int) -> tuple:
        """``(movers, others)``, both :meth:`by_count` results with every count 0 .. k (the player about to
        move's and the opponent's), after that player marks the empty ``cell``: the mover's windows through
        it hold one mark more, the opponent's through it are no longer open."""
        new_movers, new_others = [], []
        for through, mine, theirs in zip(self.through, movers, others):
            w = through[cell]
            if not w:
                new_movers.append(mine)
                new_others.append(theirs)
                continue
            keep = ~w
            moved = [count & keep for count in mine]
            for m, count in enumerate(mine[:-1]):
                moved[m + 1] |= count & w
            new_movers.append(tuple(moved))
            new_others.append(tuple([count & keep for count in theirs]))
        return tuple(new_movers), tuple(new_others)

    def covered(self, masks: list, m: int, empty: int) -> int:
        """The empty cells of the windows with ``m`` marks (``masks`` from :meth:`by_count`)."""
        cells = 0
        for (shift, _), per_count in zip(self.directions, masks):
            starts = per_count[m]
            if starts:
                for i in range(self.k):
                    cells |= starts << (i * shift)
        return cells & empty

    def windows(self, masks: list, m: int):
        """The cells (a bitmask) of every window with ``m`` marks, one by one."""
        for window_cells, per_count in zip(self.cells, masks):
            for p in cells_of(per_count[m]):
                yield window_cells[p]
