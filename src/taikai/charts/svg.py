"""Small SVG building blocks: escaping, nice axis ticks, the document wrapper, a palette."""

from __future__ import annotations

import math
from html import escape

FONT = "'Noto Sans CJK JP','Hiragino Sans','Yu Gothic',system-ui,sans-serif"
PALETTE = (
    "#2b6cb0",
    "#c05621",
    "#2f855a",
    "#b83280",
    "#6b46c1",
    "#b7791f",
    "#2c7a7b",
    "#c53030",
    "#4a5568",
    "#975a16",
)
MUTED = "#a0aec0"
INK = "#1a202c"
GRID = "#e2e8f0"


def color(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


_CONTROL = dict.fromkeys([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F, *range(0x80, 0xA0)])


def esc(text: object) -> str:
    # XML refuses most control characters even escaped: one in a name would break the whole chart.
    return escape(str(text).translate(_CONTROL), quote=True)


def num(x: float) -> str:
    """Coordinates with at most one decimal, so the SVG stays small and diff-stable."""
    return f"{x:.1f}".rstrip("0").rstrip(".")


def nice_ticks(top: float, count: int = 5) -> list[float]:
    """Round tick values from 0 up to at least ``top`` (1, 2, 5 × 10^n steps)."""
    if top <= 0:
        return [0.0, 1.0]
    raw = top / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    ticks = [0.0]
    while ticks[-1] < top:
        ticks.append(ticks[-1] + step)
    return ticks


def scale(value: float, lo: float, hi: float, out_lo: float, out_hi: float) -> float:
    if hi == lo:
        return (out_lo + out_hi) / 2
    return out_lo + (value - lo) * (out_hi - out_lo) / (hi - lo)


def text(
    x: float,
    y: float,
    body: object,
    size: int = 13,
    anchor: str = "start",
    weight: str = "normal",
    fill: str = INK,
    extra: str = "",
) -> str:
    return (
        f'<text x="{num(x)}" y="{num(y)}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
        f'fill="{fill}"{extra}>{esc(body)}</text>'
    )


def document(width: float, height: float, title: str, body: list[str], desc: str = "") -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {num(width)} {num(height)}" '
        f'width="{num(width)}" height="{num(height)}" role="img" font-family="{esc(FONT)}">'
        f"<title>{esc(title)}</title>" + (f"<desc>{esc(desc)}</desc>" if desc else "") + "".join(body) + "</svg>"
    )


def text_width(label: str, size: int) -> float:
    """A rough width for layout: CJK and other wide characters count double."""
    return sum(size if ord(c) > 0x2E80 else size * 0.6 for c in label)


def fit(label: str, size: int, room: float) -> str:
    """The label, cut with an ellipsis to fit ``room`` units (a long Japanese name takes twice a Latin one's)."""
    if text_width(label, size) <= room:
        return label
    while label and text_width(label + "…", size) > room:
        label = label[:-1]
    return label + "…"


def every(slot: float, label_width: float) -> int:
    """Label every n-th of evenly spaced slots so that neighbouring labels never touch."""
    return max(1, math.ceil((label_width + 6) / slot)) if slot > 0 else 1


def spread(ys: list[float], gap: float, lo: float, hi: float) -> list[float]:
    """Move label positions apart by at least ``gap``, within [lo, hi], keeping their order (ys sorted)."""
    out: list[float] = []
    for y in ys:
        out.append(max(y, out[-1] + gap) if out else max(y, lo))
    for i in range(len(out) - 1, -1, -1):
        out[i] = min(out[i], hi if i == len(out) - 1 else out[i + 1] - gap)
    return out
