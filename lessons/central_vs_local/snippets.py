"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui import controls
from ui.snippets import Snippet

ERRORS = Snippet(
    "central_vs_local",
    "How far off is one count at the same ε: central (Laplace, exact) versus local "
    "(randomized response, many simulated surveys)",
    """
        import numpy as np
        import pandas as pd

        import dp

        truth, n, epsilon, repetitions = $truth, $n, $epsilon, $repetitions
        edges = np.logspace(-2, 5, 71)  # |error| bins: 10 per factor of 10, 0.01 to 100,000
        lo, hi = edges[:-1].copy(), edges[1:].copy()
        lo[0], hi[-1] = 0.0, np.inf  # the edge bins take everything beyond the axis
        # Central: the exact share of Laplace answers whose |error| falls in each bin.
        central = dp.laplace_abs_error_probability(lo, hi, sensitivity=1, epsilon=epsilon)
        # Local: whole surveys of n people, p = q = e^ε / (1 + e^ε), debiased.
        p = dp.rr_keep_probability(epsilon)
        yes_counts = dp.sample_rr_counts(truth, n, p, p, size=repetitions, rng=$seed)
        local_errors = np.abs(n * dp.estimate_proportion_from_counts(yes_counts, n, p, p) - truth)
        local_errors = np.clip(local_errors, edges[0], edges[-1] * 0.999)
        local = np.histogram(local_errors, bins=edges)[0] / repetitions
        frame = pd.DataFrame(
            {"error_from": edges[:-1], "error_to": edges[1:], "central": central, "local": local}
        )
        ratio = dp.local_count_std(n, epsilon) / dp.laplace_std(1, epsilon)
        print("typical error local / central:", ratio)
        """,
    {
        "truth": 3_650,
        "n": 32_561,
        "epsilon": 1.0,
        "repetitions": 20_000,
        "seed": controls.DEFAULT_SEED + 3,
    },
    "frame",
)


BY_N = Snippet(
    "central_vs_local_by_n",
    "Typical count error of both models as the number of people grows",
    """
        import numpy as np
        import pandas as pd

        import dp

        epsilon = $epsilon
        n = np.logspace(2, 7, 51)  # 100 to 10,000,000 people
        frame = pd.DataFrame({
            "n": n,
            "central_sd": dp.laplace_std(1, epsilon),  # flat: one noise draw for the total
            "local_sd": dp.local_count_std(n, epsilon),  # grows like the square root of n
        })
        """,
    {"epsilon": 1.0},
    "frame",
)
