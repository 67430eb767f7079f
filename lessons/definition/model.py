"""Cached computations and chart builders for the lesson "The definition"."""

from __future__ import annotations

import numpy as np
import pandas as pd

import dp
from ui import datasets, text
from ui.datasets import census

HALF_WINDOW = 8.0  # outputs y shown: f(D) ± 8 (fixed: it does not move with ε or Y)
EVENT_STEP = 0.5  # the event's ends move in half steps over the same window


def event_edges(truth: int) -> tuple[float, ...]:
    """Where the event Y = [lo, hi] may start and end: f(D) ± HALF_WINDOW in half steps."""
    steps = int(round(2 * HALF_WINDOW / EVENT_STEP))
    return tuple(float(truth - HALF_WINDOW + EVENT_STEP * i) for i in range(steps + 1))


GRID_STEP = 0.05
DENSITY_DOMAIN = (1e-3, 10.0)  # log axis: fits Lap(100) (0.005) and Lap(0.1) (peak 5)
LOSS_DOMAIN = (-12.0, 12.0)
POSTERIOR_EPSILONS = np.geomspace(0.01, 20.0, 121)
PEOPLE_PER_GROUP = 6


@datasets.cached(census_only=True)
def rich_count() -> int:
    """f(D): how many people in the census earn >50K."""
    return int((census()["Income"] == ">50K").sum())


@datasets.cached(census_only=True)
def people_to_remove() -> dict[str, str]:
    """A few named people, name -> income band, alternating >50K and <=50K in a fixed
    order: the person the student removes from D."""
    people = census()[["Name", "Income"]]
    rich = people[people["Income"] == ">50K"].head(PEOPLE_PER_GROUP)
    poor = people[people["Income"] == "<=50K"].head(PEOPLE_PER_GROUP)
    return {
        str(frame["Name"].iloc[i]): str(frame["Income"].iloc[i])
        for i in range(PEOPLE_PER_GROUP)
        for frame in (rich, poor)
    }


def output_grid(truth: int) -> np.ndarray:
    """The fixed grid of outputs y on which the densities are drawn."""
    steps = int(round(2 * HALF_WINDOW / GRID_STEP))
    return truth - HALF_WINDOW + GRID_STEP * np.arange(steps + 1)


@datasets.cached(census_only=True)
def density_frame(truth: int, truth_neighbour: int, epsilon: float) -> pd.DataFrame:
    """pdf of F(D) = f(D) + Lap(1/ε) and of F(D') on the fixed grid (long format)."""
    y = output_grid(truth)
    scale = dp.laplace_scale(1, epsilon)
    frames = []
    for name, loc in ((LABEL_D, truth), (LABEL_D_PRIME, truth_neighbour)):
        frames.append(
            pd.DataFrame(
                {"y": y, "density": dp.laplace_pdf(y, loc=loc, scale=scale), "dataset": name}
            )
        )
    return pd.concat(frames, ignore_index=True)


@datasets.cached(census_only=True)
def loss_frame(truth: int, truth_neighbour: int, epsilon: float) -> pd.DataFrame:
    """Privacy loss ln(pdf_D(y) / pdf_D'(y)) on the fixed grid."""
    y = output_grid(truth)
    loss = dp.laplace_privacy_loss(
        y, loc=truth, loc_neighbour=truth_neighbour, scale=dp.laplace_scale(1, epsilon)
    )
    return pd.DataFrame({"y": y, "loss": loss})


@datasets.cached(census_only=True)
def posterior_frame(prior: float) -> pd.DataFrame:
    """Worst-case posterior e^ε p / (e^ε p + 1 - p) over a log grid of ε."""
    return pd.DataFrame(
        {
            "epsilon": POSTERIOR_EPSILONS,
            "posterior": [dp.posterior_bound(prior, float(e)) for e in POSTERIOR_EPSILONS],
        }
    )


LABEL_D = "F(D): with the person"
LABEL_D_PRIME = "F(D'): without the person"


@datasets.cached(census_only=True)
def event_frame(lo: float, hi: float) -> pd.DataFrame:
    """The event Y = [lo, hi], shaded on the density chart."""
    return pd.DataFrame({"lo": [lo], "hi": [hi], "label": ["event Y"]})


@datasets.cached(census_only=True)
def band_frames(truth: int, epsilon: float) -> dict[str, pd.DataFrame]:
    """The band ±ε the privacy loss stays in, and its labelled edges."""
    return {
        "band": pd.DataFrame(
            {
                "x": [truth - HALF_WINDOW],
                "x2": [truth + HALF_WINDOW],
                "lo": [-epsilon],
                "hi": [epsilon],
            }
        ),
        "edges": pd.DataFrame({"value": [-epsilon, epsilon], "label": ["−ε", "+ε"]}),
    }


@datasets.cached(census_only=True)
def posterior_frames(
    prior: float, epsilon: float, posterior: float
) -> dict[str, pd.DataFrame | list[str]]:
    """The prior as a reference line, the current ε on the posterior curve, and the title
    that says its value."""
    return {
        "prior": pd.DataFrame({"p": [prior], "label": [f"prior {text.percent(prior, 2)}"]}),
        "point": pd.DataFrame({"epsilon": [epsilon], "posterior": [posterior]}),
        "title": [
            "Worst-case belief after one output",
            f"◆ your ε = {text.number(epsilon)}: {text.percent(posterior)}",
        ],
    }


@datasets.cached(census_only=True)
def download_frame(truth: int, truth_neighbour: int, epsilon: float) -> pd.DataFrame:
    """The density and privacy-loss charts' data as one table (the columns of the
    "definition_densities" snippet): output, both densities, the privacy loss."""
    y = output_grid(truth)
    scale = dp.laplace_scale(1, epsilon)
    return pd.DataFrame(
        {
            "output": y,
            "density_D": dp.laplace_pdf(y, loc=truth, scale=scale),
            "density_D_neighbour": dp.laplace_pdf(y, loc=truth_neighbour, scale=scale),
            "privacy_loss": dp.laplace_privacy_loss(
                y, loc=truth, loc_neighbour=truth_neighbour, scale=scale
            ),
        }
    )
