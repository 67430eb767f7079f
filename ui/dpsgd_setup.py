"""The DP-SGD run the course trains and accounts for: Poisson sampling rate q, epochs, steps,
δ, and the noise multipliers its accountant chart compares. Private training with DP-SGD
trains with it; Subsampling reads its privacy by other accountants (and holds its own table
of σ, written with the same parameters)."""

from __future__ import annotations

DELTA = 1e-5
SAMPLE_RATE = 0.01  # Poisson subsampling: each example joins a step's batch with chance q
EPOCHS = 3
ACCOUNTANT_SIGMAS: tuple[float, ...] = (0.7, 1.1, 2.0)  # the accountant chart's σ
DEFAULT_ACCOUNTANT_SIGMA = 1.1


def steps() -> int:
    """Steps of the run: EPOCHS passes at SAMPLE_RATE (300)."""
    return round(EPOCHS / SAMPLE_RATE)
