"""The code behind the heist's noisy attack: the differencing pair asked many times through
the discrete Laplace mechanism, and the attacker's exact 95% interval (see ui/snippets.py)."""

from ui.snippets import Snippet

ATTACK = Snippet(
    "heist_attack",
    "The differencing attack through noise: what averaging the pairs tells the attacker",
    """
    import numpy as np
    import pandas as pd

    import dp

    rng = np.random.default_rng(0)
    epsilon, pairs = $epsilon, $pairs  # ε of each query; pairs asked
    secrets = rng.integers(1, 11, size=30)  # a room's made-up secrets, 1 to 10
    target = secrets[0]
    everyone, all_but = secrets.sum(), secrets[1:].sum()
    # a sum of secrets changes by at most 10 when one student is added or removed: Δ = 10
    noisy_everyone = dp.discrete_laplace_mechanism(everyone, epsilon / 10, size=pairs, rng=rng)
    noisy_all_but = dp.discrete_laplace_mechanism(all_but, epsilon / 10, size=pairs, rng=rng)
    estimate = (noisy_everyone - noisy_all_but).mean()
    # the mean's noise is a sum of 2·pairs discrete Laplace noises, divided by pairs
    half = dp.discrete_laplace_sum_half_width(epsilon / 10, 2 * pairs) / pairs
    spent = 2 * pairs * epsilon  # basic composition
    frame = pd.DataFrame({
        "secret": [target], "estimate": [estimate], "low": [estimate - half],
        "high": [estimate + half], "ε spent": [spent],
    })
    """,
    {"epsilon": 0.5, "pairs": 10},
)
