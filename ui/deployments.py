"""The privacy budgets real deployments published (data/deployments.csv), each at the ε it is
charted at, grouped by unit of privacy; and what a per-day budget adds up to over a year.
What ε means in practice and Counting over time show them."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

import dp
from data.deployments import load_deployments
from ui import datasets, text

DAYS_PER_YEAR = 365
ASSUMED_DELTA = 1e-10  # for a ρ whose source states no δ: the census's δ, said on the page


@dataclass(frozen=True)
class Deployments:
    table: pd.DataFrame  # every row, with "unit" (unit · period) and "ε used" columns
    units: tuple[str, ...]  # unit · period, the largest group first
    sizes: dict[str, int]  # deployments per unit · period


def unit_of(row) -> str:
    return f"per {row['unit_of_privacy']}, {row['period']}"


@datasets.cached(max_entries=1)
def deployments() -> Deployments:
    """data/deployments.csv with, per row, the ε it is charted at: ε as published or, for
    a ρ, dp.zcdp_to_approx_dp(ρ, δ) at the source's δ (ASSUMED_DELTA where it states none),
    and how that ε was reached."""
    table = load_deployments()
    used, how = [], []
    for row in table.to_dict("records"):
        if not math.isnan(row["epsilon"]):
            used.append(row["epsilon"])
            how.append(
                "as published"
                if math.isnan(row["delta"])
                else f"as published, δ = {text.power_of_ten(row['delta'])}"
            )
        else:
            delta = ASSUMED_DELTA if math.isnan(row["delta"]) else row["delta"]
            used.append(dp.zcdp_to_approx_dp(row["rho"], delta))
            stated = "" if not math.isnan(row["delta"]) else " (δ chosen here; none stated)"
            how.append(
                f"from ρ = {text.number(row['rho'])} at δ = {text.power_of_ten(delta)}{stated}"
            )
    table = table.assign(
        unit=[unit_of(row) for row in table.to_dict("records")],
        label=[
            f"{o}: {r.split(' (')[0]}"
            for o, r in zip(table["organisation"], table["release"], strict=True)
        ],
        epsilon_used=used,
        how=how,
    )
    sizes = table["unit"].value_counts(sort=False)
    units = tuple(sorted(sizes.index, key=lambda unit: (-sizes[unit], unit)))
    return Deployments(table, units, {unit: int(sizes[unit]) for unit in units})


@datasets.cached(max_entries=32)
def unit_frame(unit: str) -> pd.DataFrame:
    """The chart's rows for one unit of privacy: deployment, ε as charted, how it was
    reached; the largest ε first."""
    table = deployments().table
    rows = table[table["unit"] == unit].sort_values("epsilon_used", ascending=False)
    return pd.DataFrame(
        {
            "deployment": rows["label"].to_numpy(),
            "epsilon": rows["epsilon_used"].to_numpy(dtype=float),
            "how": rows["how"].to_numpy(),
            "year": rows["year"].to_numpy(),
        }
    )


def per_year(epsilon_per_day: float) -> float:
    """A per-day budget spent every day for a year, by basic composition (the bound the
    stated parameters give; a tighter one needs more than the published ε)."""
    return dp.sequential_composition([epsilon_per_day] * DAYS_PER_YEAR)
