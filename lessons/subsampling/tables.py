"""Written by `python -m lessons.subsampling.make_tables` (see there): do not edit by
hand.

CHAIN_NOISE: σ of the DP-SGD run at the chain's ε (RDP)."""

CHAIN_NOISE: dict[float, float] = {
    1.0: 1.171829977266474,
}
