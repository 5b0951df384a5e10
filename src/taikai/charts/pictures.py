"""The four pictures: metagame bars, standings paths, attendance per round, the top-cut bracket.

Inputs are plain dataclasses; labels arrive already translated. Output is an SVG string laid out for the width
asked: WIDE for the projector, the report and the SVG file; NARROW for a phone, where a chart is drawn again
with its labels above or below the plot rather than shrunk until its type cannot be read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from taikai.charts.svg import (
    GRID,
    INK,
    MUTED,
    color,
    document,
    esc,
    every,
    fit,
    nice_ticks,
    num,
    scale,
    spread,
    text,
    text_width,
)

WIDE, NARROW = 720, 350  # SVG units; a phone shows about 350 CSS pixels of a chart, so NARROW draws 1:1 there
_BESIDE = 560  # from this width labels fit beside a plot; below it they go above or under it


def _title(title: str, width: float) -> str:
    return text(16, 26, fit(title, 17, width - 32), size=17, weight="bold")


@dataclass(frozen=True)
class ArchetypeBar:
    name: str
    players: int
    share: Fraction  # of the field
    win_rate: Fraction | None  # match-win rate; None when no match was played
    top_cut: int  # players of this archetype in the top cut


def metagame(
    bars: list[ArchetypeBar], *, title: str, players_label: str, win_label: str, cut_label: str, width: int = WIDE
) -> str:
    beside = width >= _BESIDE  # the name left of its bar, or above it
    pad = 16
    # The two number columns are right-aligned, each as wide as its header.
    cut_x = width - pad
    win_x = cut_x - max(text_width(cut_label, 11), text_width("99", 12)) - 16
    numbers_left = win_x - max(text_width(win_label, 11), text_width("100.0%", 12)) - 16
    counts = [f"{b.players} ({float(b.share) * 100:.1f}%)" for b in bars]
    count_w = max((text_width(c, 12) for c in counts), default=0) + 6
    names_w = min(220, max((text_width(b.name, 13) for b in bars), default=0))
    left = pad + names_w + 8 if beside else pad
    bar_w = (numbers_left if beside else width - pad) - count_w - left
    row, head_y = (30, 46) if beside else (44, 46)
    body = [_title(title, width)]
    if left + text_width(players_label, 11) > numbers_left:  # no room beside the number headers: a line of its own
        body.append(text(left, head_y, fit(players_label, 11, width - left - pad), size=11, fill=MUTED))
        head_y += 17
    else:
        body.append(text(left, head_y, players_label, size=11, fill=MUTED))
    body.append(text(win_x, head_y, win_label, size=11, anchor="end", fill=MUTED))
    body.append(text(cut_x, head_y, cut_label, size=11, anchor="end", fill=MUTED))
    top = head_y + 6
    biggest = max((b.share for b in bars), default=Fraction(1)) or Fraction(1)
    for i, (b, count) in enumerate(zip(bars, counts, strict=True)):
        y = top + i * row
        w = float(b.share / biggest) * bar_w
        name_y, bar_y, bar_h = (y + 19, y + 6, 18) if beside else (y + 16, y + 24, 14)
        if beside:
            body.append(text(left - 8, name_y, fit(b.name, 13, names_w), anchor="end"))
        else:
            body.append(text(pad, name_y, fit(b.name, 13, numbers_left - pad)))
        body.append(
            f'<rect x="{left}" y="{num(bar_y)}" width="{num(max(w, 1))}" height="{bar_h}" rx="3" fill="{color(i)}">'
            f"<title>{esc(b.name)}: {b.players}</title></rect>"
        )
        body.append(text(left + w + 6, name_y if beside else bar_y + bar_h - 2, count, size=12))
        rate = "—" if b.win_rate is None else f"{float(b.win_rate) * 100:.1f}%"
        body.append(text(win_x, name_y, rate, size=12, anchor="end"))
        body.append(text(cut_x, name_y, str(b.top_cut) if b.top_cut else "—", size=12, anchor="end"))
    return document(width, top + row * max(1, len(bars)) + 16, title, body)


@dataclass(frozen=True)
class PathSeries:
    name: str
    ranks: tuple[int | None, ...]  # rank after each round; None where not yet ranked


def _rank_ticks(worst: int, top: float, bottom: float) -> list[int]:
    """Rank 1, round steps, and the last rank; a step too close to the last rank for its label is left out."""
    step = max(1, int(nice_ticks(worst, count=max(2, int((bottom - top) // 40)))[1]))
    ticks = [1, *range(max(step, 2), worst, step)]
    while len(ticks) > 1 and scale(worst, 1, worst, top, bottom) - scale(ticks[-1], 1, worst, top, bottom) < 18:
        ticks.pop()
    return [*ticks, worst]


def standings_paths(
    series: list[PathSeries], *, rounds: int, players: int, title: str, round_label: str, width: int = WIDE
) -> str:
    beside = width >= _BESIDE  # the names at the ends of their lines, or a legend under the plot
    left, top, bottom = 46, 44, 40
    right, plot_h = (170, 296) if beside else (16, 220)
    plot_w = width - left - right
    legend_rows = 0 if beside else math.ceil(len(series) / 2)
    height = top + plot_h + bottom + legend_rows * 20
    body = [_title(title, width)]
    worst = max(players, 2)
    for rank in _rank_ticks(worst, top, top + plot_h):
        y = scale(rank, 1, worst, top, top + plot_h)
        body.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{num(y)}" y2="{num(y)}" stroke="{GRID}"/>')
        body.append(text(left - 6, y + 4, rank, size=11, anchor="end", fill=MUTED))
    spacing = plot_w / (max(rounds, 2) - 1)
    nth = every(spacing, text_width(f"{round_label}{rounds}", 11))
    for r in range(1, rounds + 1, nth):
        x = scale(r, 1, max(rounds, 2), left, left + plot_w)
        body.append(text(x, top + plot_h + 20, f"{round_label}{r}", size=11, anchor="middle", fill=MUTED))
    ends: list[tuple[float, int]] = []
    for i, s in enumerate(series):
        points = [
            (scale(r + 1, 1, max(rounds, 2), left, left + plot_w), scale(rank, 1, worst, top, top + plot_h))
            for r, rank in enumerate(s.ranks)
            if rank is not None
        ]
        if not points:
            continue
        path = " ".join(f"{num(x)},{num(y)}" for x, y in points)
        body.append(f'<polyline points="{path}" fill="none" stroke="{color(i)}" stroke-width="2.5"/>')
        for x, y in points:
            body.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="3.5" fill="{color(i)}"/>')
        ends.append((points[-1][1] + 4, i))
    if beside:  # players who end on neighbouring ranks of a big field: their names move apart
        ends.sort()
        for (_y, i), y in zip(ends, spread([y for y, _ in ends], 18, top + 4, top + plot_h + 4), strict=True):
            name = fit(series[i].name, 12, right - 14)
            body.append(text(left + plot_w + 10, y, name, size=12, fill=color(i)))
    else:
        column = (width - 32) / 2
        for k, (_y, i) in enumerate(ends):
            x, y = 16 + (k % 2) * column, top + plot_h + bottom + 12 + (k // 2) * 20
            body.append(f'<rect x="{num(x)}" y="{num(y - 8)}" width="14" height="4" fill="{color(i)}"/>')
            body.append(text(x + 20, y, fit(series[i].name, 12, column - 26), size=12, fill=color(i)))
    return document(width, height, title, body)


@dataclass(frozen=True)
class RoundAttendance:
    number: int
    playing: int
    dropped: int  # dropped after this round
    late: int  # entered late in this round


def attendance(
    rows: list[RoundAttendance], *, title: str, labels: tuple[str, str, str], round_label: str, width: int = WIDE
) -> str:
    left, bottom, plot_h = 46, 40, 204
    body = [_title(title, width)]
    x, y = 16.0, 36
    for label, fill in zip(labels, ("#2b6cb0", "#e53e3e", "#38a169"), strict=True):
        entry = 16 + text_width(label, 12)
        if x > 16 and x + entry > width - 16:  # the legend wraps on a narrow picture
            x, y = 16.0, y + 20
        body.append(f'<rect x="{num(x)}" y="{y}" width="12" height="12" fill="{fill}"/>')
        body.append(text(x + 16, y + 11, fit(label, 12, width - 32 - x), size=12))
        x += entry + 20
    top = y + 24
    plot_w = width - left - 20
    ticks = nice_ticks(max((r.playing for r in rows), default=1) * 1.2)  # room for the labels on top
    for t in ticks:
        ty = scale(t, 0, ticks[-1], top + plot_h, top)
        body.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{num(ty)}" y2="{num(ty)}" stroke="{GRID}"/>')
        body.append(text(left - 6, ty + 4, int(t), size=11, anchor="end", fill=MUTED))
    slot = plot_w / max(1, len(rows))
    bar = min(44.0, slot * 0.6)
    widest = max((text_width(f"{round_label}{r.number}", 11) for r in rows), default=0)
    nth = every(slot, max([widest, *(text_width(str(r.playing), 11) for r in rows)]))
    for i, r in enumerate(rows):
        x = left + slot * i + (slot - bar) / 2
        # The bar is everyone who played; its red top is those who leave after this round.
        y_drop = scale(r.playing, 0, ticks[-1], top + plot_h, top)
        y_stay = scale(max(0, r.playing - r.dropped), 0, ticks[-1], top + plot_h, top)
        body.append(
            f'<rect x="{num(x)}" y="{num(y_stay)}" width="{num(bar)}" height="{num(top + plot_h - y_stay)}" '
            f'fill="#2b6cb0"><title>{r.playing - r.dropped}</title></rect>'
        )
        if r.dropped:
            body.append(
                f'<rect x="{num(x)}" y="{num(y_drop)}" width="{num(bar)}" height="{num(y_stay - y_drop)}" '
                f'fill="#e53e3e"><title>{r.dropped}</title></rect>'
            )
        if i % nth:  # too many rounds for a label on each: the bar's own tooltip still says it
            continue
        if r.late:
            body.append(text(x + bar / 2, y_drop - 21, f"+{r.late}", size=11, anchor="middle", fill="#38a169"))
        body.append(text(x + bar / 2, y_drop - 4, r.playing, size=11, anchor="middle"))
        body.append(
            text(x + bar / 2, top + plot_h + 18, f"{round_label}{r.number}", size=11, anchor="middle", fill=MUTED)
        )
    return document(width, top + plot_h + bottom, title, body)


@dataclass(frozen=True)
class BracketMatch:
    a: str
    b: str | None  # None for a bye
    winner: str  # "a", "b" or "" while playing


def _match_box(x: float, y: float, box_w: float, m: BracketMatch, bye_label: str) -> list[str]:
    box_h = 44
    out = [
        f'<rect x="{num(x)}" y="{num(y)}" width="{num(box_w)}" height="{box_h}" rx="4" fill="#fff" stroke="{INK}"/>',
        f'<line x1="{num(x)}" x2="{num(x + box_w)}" y1="{num(y + box_h / 2)}" y2="{num(y + box_h / 2)}" '
        f'stroke="{GRID}"/>',
    ]
    for side, name, dy in (("a", m.a, 16), ("b", m.b, 38)):
        label = fit(name or bye_label, 12, box_w - 16)
        weight = "bold" if m.winner == side else "normal"
        out.append(text(x + 8, y + dy, label, size=12, weight=weight, fill=INK if name else MUTED))
    return out


def bracket(columns: list[tuple[str, list[BracketMatch]]], *, title: str, bye_label: str, width: int = WIDE) -> str:
    if width < _BESIDE:
        return _bracket_stacked(columns, title=title, bye_label=bye_label, width=width)
    col_w, box_w, box_h, gap, top = 210, 180, 44, 16, 64
    first = max((len(m) for _, m in columns), default=1)
    height = top + first * (box_h + gap) + 10
    width = max(width, 20 + col_w * max(1, len(columns)))  # a small bracket at the same scale as the other charts
    body = [_title(title, width)]
    centers: list[float] = []
    for c, (label, matches) in enumerate(columns):
        x = 16 + c * col_w
        body.append(text(x, top - 8, fit(label, 12, box_w), size=12, fill=MUTED))
        new_centers = []
        for i, m in enumerate(matches):
            y: float
            if c == 0 or len(centers) < 2 * i + 2:
                y = top + i * (box_h + gap)
            else:
                y = (centers[2 * i] + centers[2 * i + 1]) / 2 - box_h / 2
            new_centers.append(y + box_h / 2)
            body += _match_box(x, y, box_w, m, bye_label)
            if c > 0 and len(centers) >= 2 * i + 2:
                for prev in (centers[2 * i], centers[2 * i + 1]):
                    px = x - col_w + box_w
                    body.append(
                        f'<path d="M{num(px)},{num(prev)} H{num(px + 15)} V{num(y + box_h / 2)} H{x}" '
                        f'fill="none" stroke="{MUTED}"/>'
                    )
        centers = new_centers
    return document(width, height, title, body)


def _bracket_stacked(columns: list[tuple[str, list[BracketMatch]]], *, title: str, bye_label: str, width: int) -> str:
    """The phone's bracket: one round under the other, its matches in a column, read top to bottom."""
    box_w, y = width - 32, 58.0
    body = [_title(title, width)]
    for label, matches in columns:
        body.append(text(16, y, fit(label, 12, box_w), size=12, fill=MUTED))
        y += 8
        for m in matches:
            body += _match_box(16, y, box_w, m, bye_label)
            y += 44 + 10
        y += 20
    return document(width, y - 20, title, body)
