"""Alternating rounds of a figure and its baseline, the median of each, the spread of the per-round ratios,
and a verdict against the budget that says "not settled" when the spread is wider than the gap to it."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.bench.report import report

ROUNDS = 5


@dataclass
class Rounds:
    """One figure and its baseline, one sample of each per round."""

    values: list[float] = field(default_factory=list)
    baselines: list[float] = field(default_factory=list)

    @property
    def value(self) -> float:
        return statistics.median(self.values)

    @property
    def baseline(self) -> float:
        return statistics.median(self.baselines)

    @property
    def ratio(self) -> float:
        return self.value / self.baseline if self.baseline else float("inf")

    @property
    def ratios(self) -> list[float]:
        return [v / b if b else float("inf") for v, b in zip(self.values, self.baselines, strict=True)]

    @property
    def spread(self) -> float:
        """How far the farthest round's ratio lies from the ratio of the medians."""
        return max(abs(r - self.ratio) for r in self.ratios)


def alternate(value: Callable[[], float], baseline: Callable[[], float], rounds: int = ROUNDS) -> Rounds:
    """`rounds` samples of each, taken in turn, the first of each pair alternating (figure first, then
    baseline first), so a neighbour's burst of load falls on both sides alike."""
    out = Rounds()
    for n in range(rounds):
        if n % 2 == 0:
            out.values.append(value())
            out.baselines.append(baseline())
        else:
            out.baselines.append(baseline())
            out.values.append(value())
    return out


def verdict(figure: float, spread: float, budget: float, *, at_least: bool = False) -> str:
    """Within or over the budget, or "not settled" when the rounds straddle it (spread wider than the gap)."""
    gap = abs(figure - budget)
    if spread > gap:
        return f"not settled (spread ±{spread:.2f} wider than the gap {gap:.2f} to the budget)"
    within = figure >= budget if at_least else figure <= budget
    return "within budget" if within else "OVER BUDGET"


def report_rounds(
    name: str,
    rounds: Rounds,
    unit: str,
    budget: float | None = None,
    *,
    baseline_name: str,
    higher_is_better: bool = False,
) -> str:
    """Print the medians side by side as a ratio (through `report`), then the spread and the verdict;
    answers the verdict ("" without a budget)."""
    sign = ">=" if higher_is_better else "<="
    report(
        name,
        rounds.value,
        rounds.baseline,
        unit,
        f"{sign} {budget:g}x" if budget is not None else "",
        baseline_name=baseline_name,
        higher_is_better=higher_is_better,
    )
    per_round = ", ".join(f"{r:.2f}" for r in rounds.ratios)
    judged = verdict(rounds.ratio, rounds.spread, budget, at_least=higher_is_better) if budget else ""
    print(
        f"  median of {len(rounds.values)} alternating rounds; per-round ratios {per_round}; "
        f"spread ±{rounds.spread:.2f}" + (f"; {judged}" if judged else ""),
        flush=True,
    )
    return judged


def report_limit(name: str, samples: list[float], limit: float, unit: str, *, what: str = "allowed") -> str:
    """An absolute figure (memory growth, failures) against a fixed limit: median and spread of the rounds."""
    figure = statistics.median(samples)
    spread = max(abs(s - figure) for s in samples)
    report(name, figure, limit, unit, f"<= {limit:g} {unit}", baseline_name=what)
    judged = verdict(figure, spread, limit)
    rounds = ", ".join(f"{s:.1f}" for s in samples)
    print(
        f"  median of {len(samples)} rounds ({rounds}; largest {max(samples):.1f}); "
        f"spread ±{spread:.1f} {unit}; {judged}",
        flush=True,
    )
    return judged
