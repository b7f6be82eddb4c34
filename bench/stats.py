"""Small, dependency-free statistics and table formatting for the benchmark report."""
import math


def median(xs):
    """The median of a non-empty sequence (the mean of the two middle values for an even count)."""
    s = sorted(xs)
    if not s:
        raise ValueError("median of an empty sequence")
    n = len(s)
    mid = n // 2
    return s[mid] if n % 2 else (s[mid - 1] + s[mid]) / 2


def percentile(xs, p):
    """The ``p``-th percentile (0..100) with linear interpolation between closest ranks (numpy's default)."""
    s = sorted(xs)
    if not s:
        raise ValueError("percentile of an empty sequence")
    if not 0 <= p <= 100:
        raise ValueError("p must be within 0..100")
    pos = (len(s) - 1) * p / 100
    lo = math.floor(pos)
    hi = math.ceil(pos)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def nearest_rank(xs, p):
    """The ``p``-th percentile (0..100) by nearest rank, as locust's tables give it (no interpolation)."""
    ordered = sorted(xs)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def mean(xs):
    xs = list(xs)
    if not xs:
        raise ValueError("mean of an empty sequence")
    return sum(xs) / len(xs)


def summary(xs):
    """n, min, median, mean, p90, p99 and max of a sample (None when the sample is empty)."""
    xs = list(xs)
    if not xs:
        return None
    return {"n": len(xs), "min": min(xs), "median": median(xs), "mean": mean(xs),
            "p90": percentile(xs, 90), "p99": percentile(xs, 99), "max": max(xs)}


def ratio(ours, peer):
    """``ours / peer``, or None when either side is missing or the peer took no time."""
    if ours is None or peer is None or peer <= 0:
        return None
    return ours / peer


def rate(count, seconds):
    """Events per second, or None when nothing was timed."""
    if count is None or not seconds or seconds <= 0:
        return None
    return count / seconds


def fmt_ms(ms):
    """A duration in milliseconds, with a unit that keeps 3 significant figures readable."""
    if ms is None:
        return "-"
    if ms >= 10_000:
        return f"{ms / 1000:.1f} s"
    if ms >= 1000:
        return f"{ms / 1000:.2f} s"
    if ms >= 100:
        return f"{ms:.0f} ms"
    if ms >= 10:
        return f"{ms:.1f} ms"
    if ms >= 1:
        return f"{ms:.2f} ms"
    return f"{ms * 1000:.0f} µs"


def fmt_ratio(r):
    if r is None:
        return "-"
    if r < 10:
        return f"{r:.3f}"
    return f"{r:.1f}" if r < 100 else f"{r:.0f}"


def fmt_count(n):
    """An integer count with thousands separators; rates are rounded."""
    if n is None:
        return "-"
    return f"{int(round(n)):,}"


def fmt_met(met):
    return {True: "yes", False: "NO", None: "-"}[met]


def format_table(header, rows, markdown=False):
    """Render ``rows`` (lists of cell strings) under ``header`` as a fixed-width text table or a Markdown
    table. Cells are converted with ``str``; ``|`` inside a Markdown cell is escaped."""
    cells = [[str(c) for c in header]] + [[("-" if c is None else str(c)) for c in row] for row in rows]
    for row in cells:
        if len(row) != len(header):
            raise ValueError(f"row has {len(row)} cells, the header {len(header)}: {row}")
    if markdown:
        esc = [[c.replace("|", "\\|") for c in row] for row in cells]
        lines = ["| " + " | ".join(esc[0]) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
        lines += ["| " + " | ".join(row) + " |" for row in esc[1:]]
        return "\n".join(lines)
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    out = ["  ".join(c.ljust(w) for c, w in zip(cells[0], widths)).rstrip(),
           "  ".join("-" * w for w in widths)]
    out += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells[1:]]
    return "\n".join(out)
