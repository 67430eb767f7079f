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
        from lessons.dpsgd import model  # the census features and the numpy trainer

        epsilon, q, epochs, delta = $epsilon, 0.01, 3, 1e-5
        steps = round(epochs / q)
        sigma = dp.dpsgd_noise_multiplier(epsilon, q, steps, delta, accountant="rdp")
        data = model.data()
        rng = np.random.default_rng(0)
        n = len(data.y_train)
        weights = np.zeros(data.x_train.shape[1] + 1)
        for _ in range(steps):
            batch = rng.random(n) < q  # Poisson subsampling
            grads = model.per_example_gradients(weights, data.x_train[batch], data.y_train[batch])
            # clip each to norm 1, sum, add N(0, σ²), divide by the expected batch q·n
            step = dp.dpsgd_step(grads, 1.0, sigma, expected_batch_size=q * n, rng=rng)
            weights -= model.LEARNING_RATE * step
        frame = pd.DataFrame(
            {"epsilon": [epsilon], "sigma": [sigma],
             "test accuracy": [model.accuracy(weights, data.x_test, data.y_test)]}
        )
        """,
    {"epsilon": 1.0},
    "frame",
)
