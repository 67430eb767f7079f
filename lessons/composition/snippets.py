"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui import controls
from ui.snippets import Snippet

AVERAGING = Snippet(
    "composition_averaging",
    "The averaging attack: ask the same count again and again, average the answers",
    """
        import numpy as np
        import pandas as pd

        import dp

        truth, epsilon, answers = $truth, $epsilon, $answers
        noisy = dp.laplace_mechanism(truth, 1, epsilon, size=answers, rng=$seed)
        frame = pd.DataFrame({
            "answers": np.arange(1, answers + 1),
            "running_average": dp.running_average(noisy),
            # The budget spent so far (sequential composition: k answers cost k·ε).
            "epsilon_spent": np.arange(1, answers + 1) * epsilon,
        })
        frame["expected_sd"] = dp.averaged_laplace_std(1, epsilon, frame["answers"].to_numpy())
        """,
    {"truth": 7_841, "epsilon": 0.5, "answers": 200, "seed": controls.DEFAULT_SEED},
    "frame",
)


PARALLEL = Snippet(
    "composition_parallel",
    "Parallel composition: one noisy occupation histogram at ε per bar, versus the same "
    "ε split over the bars as separate queries",
    """
        import pandas as pd

        import dp

        census = pd.read_csv($csv_path)  # the bundled census (32,561 people)
        counts = census["Occupation"].value_counts()  # disjoint groups, largest first
        true = counts.to_numpy()
        epsilon, seed = $epsilon, $seed
        split = dp.split_budget(epsilon, true.size)
        frame = pd.DataFrame({
            "occupation": counts.index,
            "true": true,
            # Disjoint bars compose in parallel: ε per bar costs ε in total.
            "parallel": dp.laplace_mechanism(true, 1, epsilon, rng=seed),
            # The same total ε as separate queries: ε / k per bar.
            "split": dp.laplace_mechanism(true, 1, split, rng=seed + 1),
        })
        print("total absolute error:", dp.l1_error(frame["parallel"], true),
              "versus", dp.l1_error(frame["split"], true))
        """,
    {"csv_path": "data/census.csv.gz", "epsilon": 0.1, "seed": controls.DEFAULT_SEED + 2},
    "frame",
)
