"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui import controls
from ui.snippets import Snippet

ESTIMATES = Snippet(
    "kary_estimates",
    "k-ary (generalized) randomized response: one survey's estimates, and the projection",
    """
        import numpy as np
        import pandas as pd

        import dp

        values = $values
        true_counts = np.array($true_counts)
        epsilon = $epsilon
        reports = dp.sample_grr_counts(true_counts, epsilon, rng=$seed)  # one survey
        estimates = dp.grr_estimate_from_counts(reports, epsilon)  # unbiased, may be < 0
        frame = pd.DataFrame({
            "value": values,
            "true": true_counts,
            "reported": reports,
            "estimate": estimates,
            # Post-processing: non-negative counts that sum to n (costs no privacy).
            "projected": dp.project_counts(estimates, true_counts.sum()),
        })
        """,
    {
        "values": ["A", "B", "C", "D"],
        "true_counts": [5_000, 3_000, 1_500, 500],
        "epsilon": 1.0,
        "seed": controls.DEFAULT_SEED,
    },
    "frame",
)


VARIANCE = Snippet(
    "kary_variance",
    "k-ary randomized response: the variance of one estimated count for k = 2 to 64",
    """
        import pandas as pd

        import dp

        n, epsilon = $n, $epsilon
        frame = pd.DataFrame({"k": range(2, 65)})
        # n (e^ε + k − 2) / (e^ε − 1)²: the variance for a value nobody holds.
        frame["variance"] = [dp.grr_variance(n, epsilon, k) for k in frame["k"]]
        frame["sd"] = frame["variance"] ** 0.5
        """,
    {"n": 30_718, "epsilon": 0.5},
    "frame",
)
