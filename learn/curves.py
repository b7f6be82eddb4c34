"""The training and validation losses by epoch, drawn as a small SVG beside the run's report."""
from pathlib import Path

WIDTH, HEIGHT, MARGIN = 480, 300, 48


def polyline(points: list, colour: str) -> str:
    return f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{" ".join(points)}"/>'


def svg(history, title: str) -> str:
    rows = history.epochs
    values = [v for e in rows for v in (e["train"], e["validation"]) if v is not None]
    low, high = min(values), max(values)
    span, last = (high - low) or 1.0, max(1, rows[-1]["epoch"])
    x = lambda epoch: MARGIN + (WIDTH - 2 * MARGIN) * epoch / last
    y = lambda v: HEIGHT - MARGIN - (HEIGHT - 2 * MARGIN) * (v - low) / span
    lines = []
    for key, colour in (("train", "#1f77b4"), ("validation", "#d62728")):
        pts = [f"{x(e['epoch']):.1f},{y(e[key]):.1f}" for e in rows if e[key] is not None]
        if pts:
            lines.append(polyline(pts, colour))
    labels = (f'<text x="{MARGIN}" y="20" font-size="14">{title}</text>'
              f'<text x="{MARGIN}" y="{HEIGHT - 12}" font-size="11">epoch (0-{last})</text>'
              f'<text x="4" y="{MARGIN - 6}" font-size="11">{high:.5f}</text>'
              f'<text x="4" y="{HEIGHT - MARGIN + 14}" font-size="11">{low:.5f}</text>'
              f'<text x="{WIDTH - 150}" y="20" font-size="11" fill="#1f77b4">training</text>'
              f'<text x="{WIDTH - 80}" y="20" font-size="11" fill="#d62728">validation</text>')
    frame = (f'<rect x="{MARGIN}" y="{MARGIN}" width="{WIDTH - 2 * MARGIN}" height="{HEIGHT - 2 * MARGIN}" '
             'fill="none" stroke="#999"/>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
            f'font-family="sans-serif">{frame}{"".join(lines)}{labels}</svg>\n')


def save(history, path: Path, title: str) -> Path:
    path.write_text(svg(history, title))
    return path
