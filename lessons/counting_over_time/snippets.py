"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

STREAM = Snippet(
    "counting_over_time_stream",
    "A running count over 1,000 days, released three ways",
    """
        import numpy as np
        import pandas as pd

        import dp
        from data.census import load_census

        epsilon, horizon, seed = $epsilon, 1_000, $seed
        census = load_census()
        order = np.random.default_rng(41).permutation(len(census))[:horizon]
        stream = (census["Income"].to_numpy()[order] == ">50K").astype(int)  # one person a day
        rng = np.random.default_rng(seed)
        truth = np.cumsum(stream)
        frame = pd.DataFrame(
            {
                "day": np.arange(1, horizon + 1),
                "true count": truth,
                # each day's value + Lap(1/ε), added up: ε-DP, error SD √(2t)/ε
                "noisy increments": np.cumsum(dp.laplace_mechanism(stream, 1, epsilon, rng=rng)),
                # each day's count afresh with ε/T: error SD √2·T/ε
                "recompute each day, ε/T": dp.laplace_mechanism(
                    truth, 1, epsilon / horizon, rng=rng
                ),
                # the binary tree: error SD (L/ε)·√(2 × the 1 bits of t), L = 10
                "binary tree": dp.binary_tree_counts(stream, epsilon, rng=rng),
            }
        )
        """,
    {"epsilon": 1.0, "seed": 2036},
    "frame",
)

TREE = Snippet(
    "counting_over_time_tree",
    "The nodes of a 16-day tree that a day's count adds up, and those that hold one day",
    """
        import pandas as pd

        horizon, t, s = 16, $t, $s
        levels = horizon.bit_length()  # L = 5
        nodes = [
            (k * 2**j + 1, (k + 1) * 2**j)  # [first day, last day]
            for j in range(levels)
            for k in range(horizon >> j)
        ]
        counted, start = [], 0
        for j in reversed(range(t.bit_length())):  # one node per 1 bit of t
            if t >> j & 1:
                counted.append((start + 1, start + 2**j))
                start += 2**j
        frame = pd.DataFrame(
            {
                "node": [f"{a}–{b}" for a, b in nodes],
                "adds up day t's count": [(a, b) in counted for a, b in nodes],
                "holds day s": [a <= s <= b for a, b in nodes],  # one per level: L of them
            }
        )
        """,
    {"t": 11, "s": 6},
    "frame",
)
