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
        weights = np.zeros(data.x_train.shape[1] + 1)
        for _ in range(steps):
            batch = rng.random(len(data.y_train)) < q  # Poisson subsampling
            grads = model.per_example_gradients(weights, data.x_train[batch], data.y_train[batch])
            noisy = dp.clip_rows(grads, 1.0).sum(axis=0) + rng.normal(0, sigma, weights.size)
            weights -= model.LEARNING_RATE * noisy / (q * len(data.y_train))
        frame = pd.DataFrame(
            {"epsilon": [epsilon], "sigma": [sigma],
             "test accuracy": [model.accuracy(weights, data.x_test, data.y_test)]}
        )
        """,
    {"epsilon": 1.0},
    "frame",
)
