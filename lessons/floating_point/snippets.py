"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

ATTACK = Snippet(
    "floating_point_attack",
    "The textbook sampler's outputs from a count of 0 and of 1, and which only one can give",
    """
        import numpy as np
        import pandas as pd

        import dp

        epsilon, seed, samples = $epsilon, $seed, 20_000
        b = 1 / epsilon
        rng = np.random.default_rng(seed)
        rows = []
        for count in (0.0, 1.0):
            outputs = dp.float_laplace(count, b, size=samples, rng=rng)  # the textbook sampler
            from_0 = dp.possible_outputs(outputs, 0.0, b)  # exact: inverts the sampler
            from_1 = dp.possible_outputs(outputs, 1.0, b)
            rows.append(
                {
                    "drawn from": count,
                    "possible from both": np.mean(from_0 & from_1),
                    "only from 0": np.mean(from_0 & ~from_1),
                    "only from 1": np.mean(~from_0 & from_1),
                }
            )
        frame = pd.DataFrame(rows)
        """,
    {"epsilon": 1.0, "seed": 2036},
    "frame",
)
