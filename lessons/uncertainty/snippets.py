"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

SURVEY = Snippet(
    "uncertainty_survey",
    "One survey's released share and its three 95% intervals",
    """
        import math

        import numpy as np
        import pandas as pd

        import dp
        from data.census import load_census

        n, epsilon = $n, $epsilon
        income = load_census()["Income"]
        people, earners = len(income), int((income == ">50K").sum())
        rng = np.random.default_rng($seed)
        count = rng.hypergeometric(earners, people - earners, n)  # a simple random sample
        release = dp.laplace_mechanism(float(count), 1, epsilon, rng=rng) / n
        p = min(max(release, 0.0), 1.0)  # the sampling SD, estimated from the release
        sd = math.sqrt(p * (1 - p) / n * (people - n) / (people - 1))
        scale = 1 / (n * epsilon)  # Lap(1/ε) on the count is Lap(1/(nε)) on the share
        frame = pd.DataFrame(
            {
                "interval": ["sampling and noise", "noise only", "sampling only"],
                "ends": [
                    dp.noise_sampling_interval(release, sd, scale),
                    dp.noise_sampling_interval(release, 0.0, scale),
                    dp.noise_sampling_interval(release, sd, 0.0),
                ],
            }
        )
        """,
    {"n": 1_000, "epsilon": 1.0, "seed": 2027},
    "frame",
)

RATIO = Snippet(
    "uncertainty_ratio",
    "A mean as noisy sum ÷ noisy count, and its bias over many releases",
    """
        import numpy as np
        import pandas as pd

        import dp
        from data.census import load_census

        n, epsilon = $n, $epsilon
        ages = load_census()["Age"].to_numpy(dtype=float)
        rng = np.random.default_rng($seed)
        group = np.clip(rng.choice(ages, size=n, replace=False), 0, 100)
        sums = group.sum() + rng.laplace(scale=100 / (epsilon / 2), size=20_000)
        counts = n + rng.laplace(scale=1 / (epsilon / 2), size=20_000)
        ratios = sums / np.maximum(counts, 0.5)
        frame = pd.DataFrame({"true mean": [group.mean()], "average ratio": [ratios.mean()]})
        """,
    {"n": 20, "epsilon": 1.0, "seed": 2029},
    "frame",
)
