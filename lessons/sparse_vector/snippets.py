"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

STOPS = Snippet(
    "sparse_vector_stops",
    "AboveThreshold on the census queries: the exact chance of stopping at each query (or "
    "never) and 1,000 seeded runs",
    """
        import numpy as np
        import pandas as pd

        import dp
        from data.census import load_census

        census = load_census()
        starts = range(17, 90, 5)  # age bands 17–21, 22–26, …, 87–91
        answers = np.array(
            [
                ((census["Age"].between(a, a + 4)) & (census["HoursPerWeek"] > 40)).sum()
                for a in starts
            ],
            dtype=float,
        )  # each count moves by at most Δ = 1 (add/remove one person)
        threshold, epsilon = $threshold, $epsilon
        exact = dp.above_threshold_probabilities(answers, threshold, epsilon)  # then P[never]
        outcomes, _ = dp.sparse_vector_variant(
            answers, threshold, epsilon, 1, "correct", runs=1_000, rng=$seed
        )
        above = outcomes == 1
        stops = np.where(above.any(axis=1), above.argmax(axis=1), answers.size)
        frame = pd.DataFrame(
            {
                "label": [f"aged {a}–{a + 4}" for a in starts] + ["never stops"],
                "exact probability": exact,
                "share of runs": np.bincount(stops, minlength=answers.size + 1) / 1_000,
            }
        )
        """,
    {"threshold": 1000.0, "epsilon": 0.01, "seed": 10},
    "frame",
)

AUDIT = Snippet(
    "sparse_vector_audit",
    "An empirical audit of one variant on a neighbouring pair: run it on both sides, count "
    "each stop index, and bound ε from below",
    """
        import numpy as np
        import pandas as pd

        import dp

        d = [0.0] * 5 + [1.0]  # five queries at 0, then one at 1 ...
        d_prime = [1.0] * 5 + [0.0]  # ... and each moved by Δ = 1: a neighbouring pair
        variant, epsilon, runs = $variant, 2.0, 200_000
        sides = []
        for seed, answers in enumerate((d, d_prime)):
            outcomes, _ = dp.sparse_vector_variant(
                answers, 0.5, epsilon, 1, variant, runs=runs, rng=seed
            )
            above = outcomes == 1
            sides.append(np.where(above.any(axis=1), above.argmax(axis=1), -1))
        measured = dp.audit_epsilon(*sides, alpha=1e-6)  # ε ≥ this, with probability 1 − 1e-6
        frame = pd.DataFrame(
            {"variant": [variant], "claimed ε": [epsilon], "measured ε ≥": [measured]}
        )
        """,
    {"variant": "small_query_noise"},
    "frame",
)
