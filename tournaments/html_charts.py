"""SVG charts of the HTML tournament report, drawn in Python (no script, no external assets):
Elo over time, ratings with their intervals, bars. Split out of :mod:`standoff.tournaments.html`,
which re-exports them."""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["PALETTE", "bar_chart", "elo_chart", "interval_chart"]

PALETTE = (
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
)
_MAX_POINTS = 1500  # points per polyline in the Elo chart (longer series are thinned)


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _num(value: Any, spec: str = ".1f") -> str:
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    if isinstance(value, float) and math.isinf(value):
        return "inf"
    return format(value, spec)


def _ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    if hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(lo / step) * step
    ticks, value = [], first
    while value <= hi + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    return ticks


def _fmt_tick(value: float) -> str:
    return f"{value:g}" if abs(value) < 1e6 else f"{value:.3g}"


def _thin(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    if len(points) <= _MAX_POINTS:
        return points
    stride = math.ceil(len(points) / _MAX_POINTS)
    kept = points[::stride]
    if kept[-1] != points[-1]:
        kept.append(points[-1])
    return kept


def _size(width: int, height: int) -> str:
    return f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" style="width:100%;height:auto"'


def elo_chart(lines: Sequence[Mapping[str, Any]], names: Sequence[str], start: float) -> str:
    """An SVG line chart: each entrant's Elo after every pairwise game of the log."""
    series: dict[str, list[tuple[float, float]]] = {}
    for i, line in enumerate(lines, 1):
        for who, after in ((line["a"], line["a_after"]), (line["b"], line["b_after"])):
            series.setdefault(who, [(0, float(start))]).append((i, float(after)))
    order = [n for n in names if n in series] + sorted(n for n in series if n not in names)
    if not order:
        return '<p class="muted">No games played yet.</p>'
    width, height = 820, 340
    left, right, top, bottom = 56, 170, 14, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    values = [y for pts in series.values() for _, y in pts]
    lo, hi = min(values), max(values)
    pad = max(10.0, (hi - lo) * 0.08)
    lo, hi = lo - pad, hi + pad
    games = max(1, len(lines))

    def sx(x: float) -> float:
        return left + plot_w * x / games

    def sy(y: float) -> float:
        return top + plot_h * (1 - (y - lo) / (hi - lo))

    parts = [
        f'<svg class="chart" {_size(width, height)} role="img" '
        'aria-label="Elo rating after each game">'
    ]
    for tick in _ticks(lo, hi):
        y = sy(tick)
        parts.append(f'<line class="grid" x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}"/>')
        parts.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{_fmt_tick(tick)}</text>')
    for tick in _ticks(0, games, 8):
        if tick != int(tick):
            continue
        x = sx(tick)
        parts.append(f'<line class="axis" x1="{x:.1f}" x2="{x:.1f}" y1="{top + plot_h}" y2="{top + plot_h + 4}"/>')
        parts.append(f'<text x="{x:.1f}" y="{top + plot_h + 16}" text-anchor="middle">{int(tick)}</text>')
    parts.append(f'<line class="axis" x1="{left}" x2="{left + plot_w}" y1="{top + plot_h}" y2="{top + plot_h}"/>')
    parts.append(f'<line class="axis" x1="{left}" x2="{left}" y1="{top}" y2="{top + plot_h}"/>')
    parts.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{height - 6}" text-anchor="middle">pairwise games played</text>'
    )
    parts.append(
        f'<text x="14" y="{top + plot_h / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 14 {top + plot_h / 2:.1f})">Elo</text>'
    )
    for i, name in enumerate(order):
        colour = PALETTE[i % len(PALETTE)]
        dash = "" if i < len(PALETTE) else ' stroke-dasharray="5 3"'
        points = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in _thin(series[name]))
        final = series[name][-1][1]
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="{points}">'
            f"<title>{esc(name)}: {final:.1f}</title></polyline>"
        )
        ly = top + 12 + 18 * i
        if ly < height - 8:
            lx = left + plot_w + 14
            parts.append(f'<line x1="{lx}" x2="{lx + 18}" y1="{ly - 4}" y2="{ly - 4}" stroke="{colour}" stroke-width="3"{dash}/>')
            label = name if len(name) <= 16 else name[:15] + "\u2026"
            parts.append(f'<text x="{lx + 24}" y="{ly}">{esc(label)} {final:.0f}</text>')
    parts.append("</svg>")
    return "".join(parts)


def interval_chart(players: Sequence[Mapping[str, Any]]) -> str:
    """An SVG forest plot: each rated player's rating with its 95% interval."""
    rated = [p for p in players if p.get("games")]
    if not rated:
        return ""
    finite = []
    for p in rated:
        r, m = float(p["rating"]), p.get("margin")
        finite.append(r)
        if isinstance(m, (int, float)):
            finite += [r - m, r + m]
    lo, hi = min(finite), max(finite)
    pad = max(20.0, (hi - lo) * 0.05)
    lo, hi = lo - pad, hi + pad
    row, left, right, top = 22, 160, 20, 10
    width = 820
    plot_w = width - left - right
    height = top + row * len(rated) + 30

    def sx(x: float) -> float:
        return left + plot_w * (min(max(x, lo), hi) - lo) / (hi - lo)

    parts = [
        f'<svg class="chart" {_size(width, height)} role="img" '
        'aria-label="ratings with 95% intervals">'
    ]
    axis_y = top + row * len(rated) + 4
    for tick in _ticks(lo, hi, 8):
        x = sx(tick)
        parts.append(f'<line class="grid" x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{axis_y}"/>')
        parts.append(f'<text x="{x:.1f}" y="{axis_y + 14}" text-anchor="middle">{_fmt_tick(tick)}</text>')
    for i, p in enumerate(rated):
        y = top + row * i + row / 2
        r, m = float(p["rating"]), p.get("margin")
        name = p["name"] if len(p["name"]) <= 22 else p["name"][:21] + "\u2026"
        parts.append(f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">{esc(name)}</text>')
        colour = PALETTE[i % len(PALETTE)]
        if isinstance(m, (int, float)):
            a, b, dash = sx(r - m), sx(r + m), ""
        else:  # an infinite interval: drawn to both edges, dashed
            a, b, dash = sx(lo), sx(hi), ' stroke-dasharray="4 3"'
        parts.append(
            f'<line x1="{a:.1f}" x2="{b:.1f}" y1="{y:.1f}" y2="{y:.1f}" stroke="{colour}" stroke-width="3"{dash}>'
            f"<title>{esc(p['name'])}: {r:+.1f} \u00b1 {_num(m)}</title></line>"
        )
        parts.append(f'<circle cx="{sx(r):.1f}" cy="{y:.1f}" r="4.5" fill="{colour}"/>')
    parts.append("</svg>")
    return "".join(parts)


def bar_chart(items: Sequence[tuple[str, int]], *, label: str) -> str:
    """Horizontal SVG bars with counts and shares."""
    if not items:
        return '<p class="muted">None.</p>'
    total = sum(count for _, count in items) or 1
    biggest = max(count for _, count in items) or 1
    row, left, width = 22, 150, 540
    plot_w = width - left - 90
    height = row * len(items) + 8
    parts = [
        f'<svg class="chart" {_size(width, height)} role="img" '
        f'aria-label="{esc(label)}">'
    ]
    for i, (name, count) in enumerate(items):
        y = 4 + row * i
        w = plot_w * count / biggest
        parts.append(f'<text x="{left - 8}" y="{y + 14}" text-anchor="end">{esc(name)}</text>')
        parts.append(
            f'<rect x="{left}" y="{y + 3}" width="{max(w, 1):.1f}" height="{row - 8}" fill="{PALETTE[i % len(PALETTE)]}">'
            f"<title>{esc(name)}: {count}</title></rect>"
        )
        parts.append(f'<text x="{left + w + 6:.1f}" y="{y + 14}">{count} ({100.0 * count / total:.0f}%)</text>')
    parts.append("</svg>")
    return "".join(parts)
