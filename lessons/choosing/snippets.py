"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

WINS = Snippet(
    "choosing_wins",
    "Report noisy max on a column's category counts: the exact chance of each winner and "
    "1,000 simulated releases",
    """
        import numpy as np
        import pandas as pd

        import dp
        from data.census import load_census

        counts = load_census()[$column].value_counts(dropna=True)  # largest first
        epsilon = $epsilon
        exact = dp.report_noisy_max_probabilities(counts.to_numpy(), epsilon)
        wins = dp.report_noisy_max(counts.to_numpy(), epsilon, size=1_000, rng=0)
        frame = pd.DataFrame(
            {
                "category": counts.index.astype(str),
                "true count": counts.to_numpy(),
                "exact probability": exact,
                "share of runs": np.bincount(wins, minlength=counts.size) / 1_000,
            }
        )
        """,
    {"column": "Occupation", "epsilon": 0.01},
    "frame",
)

QUANTILE = Snippet(
    "choosing_quantile",
    "The exponential mechanism for a quantile: every candidate's score and chance",
    """
        import numpy as np
        import pandas as pd

        import dp
        from data.census import load_census

        values = load_census()[$column].dropna().to_numpy(dtype=float)
        alpha, epsilon = $alpha, $epsilon
        grid = np.arange($low, $high + $step, $step)  # public range, fixed in advance
        scores = dp.quantile_scores(values, grid, alpha)  # −|(1−α)·#below − α·#above|
        sensitivity = dp.quantile_sensitivity(alpha)  # max(α, 1 − α) under add/remove
        chance = dp.exponential_mechanism_probabilities(scores, sensitivity, epsilon)
        frame = pd.DataFrame({"candidate": grid, "score": scores, "probability": chance})
        released = dp.private_quantile(values, grid, alpha, epsilon, rng=0)
        """,
    {"column": "Age", "alpha": 0.5, "epsilon": 1.0, "low": 0.0, "high": 100.0, "step": 1.0},
    "frame",
)
