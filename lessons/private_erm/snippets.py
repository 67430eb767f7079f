"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py). The page test checks
that it gives the chart's numbers."""

from ui.snippets import Snippet

ACCURACY = Snippet(
    "private_erm_accuracy",
    "Output and objective perturbation on the census, ten seeded models at each ε",
    """
        import math

        import numpy as np
        import pandas as pd

        import dp
        from data.census import load_census
        from data.features import LOG_SCALED, NUMERIC, SPLIT_SEED, TEST_SHARE, public_scale

        lam = $lam
        census = load_census()
        columns = []
        for name in ("Age", "EducationNum", "HoursPerWeek", "CapitalGain"):
            low, high = NUMERIC[name]  # public ranges: no privacy spent on scaling
            values = np.clip(census[name].to_numpy(dtype=float), low, high)
            if name in LOG_SCALED:
                values, low, high = np.log1p(values), math.log1p(low), math.log1p(high)
            columns.append(public_scale(values, low, high))
        x = np.column_stack([*columns, np.ones(len(census))]) / math.sqrt(5)  # ‖x‖ ≤ 1
        y = np.where(census["Income"].astype("string") == ">50K", 1.0, -1.0)
        test = np.random.default_rng(SPLIT_SEED).random(len(census)) < TEST_SHARE
        rows = []
        for epsilon in (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0):
            for name, train in (
                ("Objective perturbation", dp.objective_perturbation),
                ("Output perturbation", dp.output_perturbation),
            ):
                right = [
                    np.mean(np.where(x[test] @ w > 0, 1.0, -1.0) == y[test])
                    for w in (train(x[~test], y[~test], epsilon, lam, rng=s) for s in range(10))
                ]
                rows.append({"epsilon": epsilon, "method": name, "accuracy": np.mean(right)})
        frame = pd.DataFrame(rows)
        """,
    {"lam": 0.001},
)
