"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

SMOOTH = Snippet(
    "beyond_global_smooth",
    "Local and smooth sensitivity of the median age of a census group, and the smooth "
    "median's noise",
    """
        import numpy as np
        import pandas as pd

        import dp
        from data.census import load_census

        everyone = load_census()["Age"].to_numpy(dtype=float)
        size = $size  # 0: everyone
        ages = everyone if size == 0 else np.random.default_rng(29).choice(
            everyone, size=size, replace=False
        )
        epsilon, delta = $epsilon, 1e-6
        beta = dp.smooth_beta(epsilon, delta)  # ε / (2 ln(2/δ))
        curve = dp.median_sensitivity_curve(ages, 0.0, 100.0, 60)  # A^(k), k = 0..60
        frame = pd.DataFrame(
            {"k": np.arange(curve.size), "A_k": curve,
             "weighted": np.exp(-beta * np.arange(curve.size)) * curve}
        )
        local = dp.median_local_sensitivity(ages, 0.0, 100.0)
        smooth = dp.median_smooth_sensitivity(ages, 0.0, 100.0, beta)
        release = dp.smooth_median(ages, 0.0, 100.0, epsilon, delta, rng=0)  # + Lap(2S/ε)
        """,
    {"size": 101, "epsilon": 1.0},
    "frame",
)

PTR = Snippet(
    "beyond_global_ptr",
    "Propose-test-release for the median: the distance to instability and the chance of "
    "refusing at every proposed bound",
    """
        import numpy as np
        import pandas as pd

        import dp
        from data.census import load_census

        everyone = load_census()["Age"].to_numpy(dtype=float)
        size = $size  # 0: everyone
        ages = everyone if size == 0 else np.random.default_rng(29).choice(
            everyone, size=size, replace=False
        )
        epsilon, delta = $epsilon, 1e-6
        rows = []
        for bound in (0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0):
            distance = dp.median_distance_to_instability(ages, 0.0, 100.0, bound)
            rows.append((bound, distance, dp.ptr_refusal_probability(distance, epsilon, delta)))
        frame = pd.DataFrame(rows, columns=["bound", "distance", "refusal"])
        median = dp.clamped_median(ages, 0.0, 100.0)
        distance = dp.median_distance_to_instability(ages, 0.0, 100.0, $bound)
        release = dp.propose_test_release(median, distance, $bound, epsilon, delta, rng=0)
        """,
    {"size": 101, "epsilon": 1.0, "bound": 2.0},
    "frame",
)
