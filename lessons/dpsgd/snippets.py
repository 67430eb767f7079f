"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

TRAIN = Snippet(
    "dpsgd_train",
    "DP-SGD on the census: σ from the accountant, then per-example gradients, clipping, "
    "noise and Poisson subsampling, and the test accuracy",
    """
        import numpy as np
        import pandas as pd

        import dp
        from data.census import load_census
        from data.features import income_features  # one-hot and public-range-scaled columns

        epsilon, q, epochs, delta = $epsilon, 0.01, 3, 1e-5
        learning_rate = $learning_rate
        steps = round(epochs / q)
        sigma = dp.dpsgd_noise_multiplier(epsilon, q, steps, delta, accountant="rdp")
        data = income_features(load_census())
        x, y = data.x_train, data.y_train
        rng = np.random.default_rng(0)
        n = len(y)
        weights = np.zeros(x.shape[1] + 1)  # the features' weights, then the bias
        for _ in range(steps):
            batch = rng.random(n) < q  # Poisson subsampling
            xb, yb = x[batch], y[batch]
            p = 0.5 * (1 + np.tanh(0.5 * (xb @ weights[:-1] + weights[-1])))  # the sigmoid
            grads = (p - yb)[:, None] * np.column_stack([xb, np.ones(len(yb))])  # one row each
            # clip each to norm 1, sum, add N(0, σ²), divide by the expected batch q·n
            step = dp.dpsgd_step(grads, 1.0, sigma, expected_batch_size=q * n, rng=rng)
            weights = weights - learning_rate * step
        predicted = data.x_test @ weights[:-1] + weights[-1] > 0
        frame = pd.DataFrame(
            {"epsilon": [epsilon], "sigma": [sigma],
             "test accuracy": [np.mean(predicted == (data.y_test == 1))]}
        )
        """,
    {"epsilon": 1.0, "learning_rate": 2.0},
    "frame",
)
