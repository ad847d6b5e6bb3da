"""How every benchmark prints a figure: beside its baseline measured in the same run, as a ratio."""

from __future__ import annotations

import json
import os
from pathlib import Path

RESULTS = Path(os.environ.get("ATRIUM_BENCH_OUT", "var/bench-results.jsonl"))


def report(
    name: str,
    value: float,
    baseline: float,
    unit: str,
    budget: str = "",
    *,
    baseline_name: str = "baseline",
    higher_is_better: bool = False,
) -> float:
    """Print `name: value unit | baseline: value unit | ratio` and append it to the results file."""
    ratio = value / baseline if baseline else float("inf")
    line = f"{name}: {value:,.3f} {unit} | {baseline_name}: {baseline:,.3f} {unit} | ratio {ratio:.2f}x" + (
        f" | budget {budget}" if budget else ""
    )
    print(line, flush=True)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a") as f:
        f.write(
            json.dumps(
                {
                    "name": name,
                    "value": value,
                    "baseline": baseline,
                    "unit": unit,
                    "ratio": ratio,
                    "budget": budget,
                    "higher_is_better": higher_is_better,
                }
            )
            + "\n"
        )
    return ratio
