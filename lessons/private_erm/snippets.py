"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py). The page test checks
that it gives the chart's numbers."""

from ui.snippets import Snippet

ACCURACY = Snippet(
    "private_erm_accuracy",
    "Output and objective perturbation on the census, ten seeded models at each ε",
    """
        import numpy as np
        import pandas as pd

        import dp
        from data.census import load_census
        from data.features import unit_ball_features  # 4 columns + intercept, ‖x‖ ≤ 1

        lam = $lam
        data = unit_ball_features(load_census())  # public ranges: no privacy spent on scaling
        rows = []
        for epsilon in (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0):
            for name, train in (
                ("Objective perturbation", dp.objective_perturbation),
                ("Output perturbation", dp.output_perturbation),
            ):
                right = []
                for seed in range(10):
                    w = train(data.x_train, data.y_train, epsilon, lam, rng=seed)
                    right.append(np.mean(np.where(data.x_test @ w > 0, 1, -1) == data.y_test))
                rows.append({"epsilon": epsilon, "method": name, "accuracy": np.mean(right)})
        frame = pd.DataFrame(rows)
        """,
    {"lam": 0.001},
)
