"""The four pictures: metagame bars, standings paths, attendance per round, the top-cut bracket.

Inputs are plain dataclasses; labels arrive already translated. Output is an SVG string.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from taikai.charts.svg import (
    GRID,
    INK,
    MUTED,
    color,
    document,
    esc,
    nice_ticks,
    num,
    scale,
    text,
    text_width,
    truncate,
)


@dataclass(frozen=True)
class ArchetypeBar:
    name: str
    players: int
    share: Fraction  # of the field
    win_rate: Fraction | None  # match-win rate; None when no match was played
    top_cut: int  # players of this archetype in the top cut


def metagame(bars: list[ArchetypeBar], *, title: str, players_label: str, win_label: str, cut_label: str) -> str:
    row, left, bar_w, width = 30, 170, 300, 720
    top = 48
    height = top + row * max(1, len(bars)) + 20
    body = [text(16, 26, title, size=17, weight="bold")]
    body.append(text(left, 42, players_label, size=11, fill=MUTED))
    body.append(text(left + bar_w + 90, 42, win_label, size=11, fill=MUTED))
    body.append(text(left + bar_w + 190, 42, cut_label, size=11, fill=MUTED))
    biggest = max((b.share for b in bars), default=Fraction(1)) or Fraction(1)
    for i, b in enumerate(bars):
        y = top + i * row
        w = float(b.share / biggest) * bar_w
        body.append(text(left - 8, y + 19, truncate(b.name, 14), anchor="end"))
        body.append(
            f'<rect x="{left}" y="{num(y + 6)}" width="{num(max(w, 1))}" height="18" rx="3" fill="{color(i)}">'
            f"<title>{esc(b.name)}: {b.players}</title></rect>"
        )
        body.append(text(left + w + 6, y + 19, f"{b.players} ({float(b.share) * 100:.1f}%)", size=12))
        rate = "—" if b.win_rate is None else f"{float(b.win_rate) * 100:.1f}%"
        body.append(text(left + bar_w + 90, y + 19, rate, size=12))
        body.append(text(left + bar_w + 190, y + 19, str(b.top_cut) if b.top_cut else "—", size=12))
    return document(width, height, title, body)


@dataclass(frozen=True)
class PathSeries:
    name: str
    ranks: tuple[int | None, ...]  # rank after each round; None where not yet ranked


def standings_paths(series: list[PathSeries], *, rounds: int, players: int, title: str, round_label: str) -> str:
    width, height = 720, 380
    left, right, top, bottom = 46, 170, 44, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    body = [text(16, 26, title, size=17, weight="bold")]
    worst = max(players, 2)
    for rank in sorted({1, *range(5, worst + 1, 5 if worst <= 40 else 10), worst}):
        y = scale(rank, 1, worst, top, top + plot_h)
        body.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{num(y)}" y2="{num(y)}" stroke="{GRID}"/>')
        body.append(text(left - 6, y + 4, rank, size=11, anchor="end", fill=MUTED))
    for r in range(1, rounds + 1):
        x = scale(r, 1, max(rounds, 2), left, left + plot_w)
        body.append(text(x, top + plot_h + 20, f"{round_label}{r}", size=11, anchor="middle", fill=MUTED))
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
        lx, ly = points[-1]
        body.append(text(left + plot_w + 10, ly + 4, truncate(s.name, 12), size=12, fill=color(i)))
    return document(width, height, title, body)


@dataclass(frozen=True)
class RoundAttendance:
    number: int
    playing: int
    dropped: int  # dropped after this round
    late: int  # entered late in this round


def attendance(rows: list[RoundAttendance], *, title: str, labels: tuple[str, str, str], round_label: str) -> str:
    width, height, left, top, bottom = 720, 300, 46, 56, 40
    plot_w, plot_h = width - left - 20, height - top - bottom
    ticks = nice_ticks(max((r.playing for r in rows), default=1) * 1.12)  # room for the labels on top
    body = [text(16, 26, title, size=17, weight="bold")]
    x = 16.0
    for label, fill in zip(labels, ("#2b6cb0", "#e53e3e", "#38a169"), strict=True):
        body.append(f'<rect x="{num(x)}" y="36" width="12" height="12" fill="{fill}"/>')
        body.append(text(x + 16, 47, label, size=12))
        x += 16 + text_width(label, 12) + 20
    for t in ticks:
        y = scale(t, 0, ticks[-1], top + plot_h, top)
        body.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{num(y)}" y2="{num(y)}" stroke="{GRID}"/>')
        body.append(text(left - 6, y + 4, int(t), size=11, anchor="end", fill=MUTED))
    slot = plot_w / max(1, len(rows))
    bar = min(44.0, slot * 0.6)
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
        if r.late:
            body.append(text(x + bar / 2, y_drop - 16, f"+{r.late}", size=11, anchor="middle", fill="#38a169"))
        body.append(text(x + bar / 2, y_drop - 4, r.playing, size=11, anchor="middle"))
        body.append(
            text(x + bar / 2, top + plot_h + 18, f"{round_label}{r.number}", size=11, anchor="middle", fill=MUTED)
        )
    return document(width, height, title, body)


@dataclass(frozen=True)
class BracketMatch:
    a: str
    b: str | None  # None for a bye
    winner: str  # "a", "b" or "" while playing


def bracket(columns: list[tuple[str, list[BracketMatch]]], *, title: str, bye_label: str) -> str:
    col_w, box_w, box_h, gap, top = 210, 180, 44, 16, 64
    first = max((len(m) for _, m in columns), default=1)
    height = top + first * (box_h + gap) + 10
    width = 20 + col_w * max(1, len(columns))
    body = [text(16, 26, title, size=17, weight="bold")]
    centers: list[float] = []
    for c, (label, matches) in enumerate(columns):
        x = 16 + c * col_w
        body.append(text(x, top - 8, label, size=12, fill=MUTED))
        new_centers = []
        for i, m in enumerate(matches):
            if c == 0 or len(centers) < 2 * i + 2:
                y = top + i * (box_h + gap)
            else:
                y = (centers[2 * i] + centers[2 * i + 1]) / 2 - box_h / 2
            new_centers.append(y + box_h / 2)
            body.append(
                f'<rect x="{x}" y="{num(y)}" width="{box_w}" height="{box_h}" rx="4" fill="#fff" stroke="{INK}"/>'
            )
            body.append(
                f'<line x1="{x}" x2="{x + box_w}" y1="{num(y + box_h / 2)}" y2="{num(y + box_h / 2)}" stroke="{GRID}"/>'
            )
            for side, name, dy in (("a", m.a, 16), ("b", m.b, 38)):
                won = m.winner == side
                body.append(
                    text(
                        x + 8,
                        y + dy,
                        truncate(name or bye_label, 16),
                        size=12,
                        weight="bold" if won else "normal",
                        fill=INK if name else MUTED,
                    )
                )
            if c > 0 and len(centers) >= 2 * i + 2:
                for prev in (centers[2 * i], centers[2 * i + 1]):
                    px = x - col_w + box_w
                    body.append(
                        f'<path d="M{num(px)},{num(prev)} H{num(px + 15)} V{num(y + box_h / 2)} H{x}" '
                        f'fill="none" stroke="{MUTED}"/>'
                    )
        centers = new_centers
    return document(width, height, title, body)
