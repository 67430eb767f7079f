"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

ERROR_CURVE = Snippet(
    "clamping_error_curve",
    "Bias, noise and total error of a clamped noisy sum, for every upper bound U",
    """
        import numpy as np
        import pandas as pd

        import dp
        from data.census import load_census

        values = load_census()[$column].dropna().to_numpy(dtype=float)
        lower, epsilon = $lower, $epsilon
        uppers = np.linspace(lower + $step, $high, 200)
        bias = dp.clamping_bias_curve(values, lower, uppers)  # Σ clamp(v) − Σ v, per U
        noise_sd = np.sqrt(2) * np.maximum(abs(lower), uppers) / epsilon  # √2·Δ/ε
        total = np.sqrt(dp.clamped_sum_squared_error(values, lower, uppers, epsilon))
        frame = pd.DataFrame({"upper": uppers, "bias": bias, "noise_sd": noise_sd, "total": total})
        best = dp.best_clamp_upper(values, lower, epsilon, uppers)  # computed from the data!
        print(f"lowest total error at U = {best:,.0f}")
        """,
    {"column": "CapitalGain", "lower": 0.0, "epsilon": 1.0, "step": 500.0, "high": 100_000.0},
    "frame",
)

CONTRIBUTIONS = Snippet(
    "clamping_contributions",
    "A count of rows when each person keeps at most m rows: bias against noise",
    """
        import numpy as np
        import pandas as pd

        import dp

        # the lesson's simulated visits table: rows per person, skewed
        rows = np.clip(np.ceil(np.random.default_rng($seed).lognormal(0.3, 1.1, 32_561)), 1, 400)
        epsilon = $epsilon
        m = np.arange(1, 101)
        bias = dp.contribution_bias(rows, m)  # rows dropped: −Σ max(r − m, 0)
        noise_sd = np.sqrt(2) * m / epsilon  # a person changes the count by up to m
        frame = pd.DataFrame({"m": m, "bias": bias, "noise_sd": noise_sd})
        frame["total"] = np.sqrt(frame["bias"] ** 2 + frame["noise_sd"] ** 2)
        """,
    {"seed": 20_261, "epsilon": 1.0},
    "frame",
)
