"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

AMPLIFICATION = Snippet(
    "subsampling_amplification",
    "ε of a mechanism run on a Poisson sample, against the sampling rate",
    """
        import numpy as np
        import pandas as pd

        import dp

        epsilon = $epsilon
        rates = np.geomspace(0.001, 1, 61)
        frame = pd.DataFrame(
            {
                "q": rates,
                "sampled ε'": [dp.subsampled_privacy(epsilon, 0.0, q)[0] for q in rates],
                "q·ε": rates * epsilon,  # a rule of thumb, below the true ε'
            }
        )
        """,
    {"epsilon": 1.0},
    "frame",
)

TRADEOFF = Snippet(
    "subsampling_tradeoff",
    "Gaussian DP's trade-off curve, and the (ε, δ) line that touches it",
    """
        import numpy as np
        import pandas as pd

        import dp

        mu, epsilon = $mu, $epsilon
        delta = dp.gdp_delta(mu, epsilon)  # the δ at which μ-GDP gives (ε, δ)-DP
        alphas = np.linspace(0, 1, 201)
        frame = pd.DataFrame(
            {
                "alpha": alphas,  # a test's false-positive rate
                "G_mu": dp.gaussian_tradeoff(mu, alphas),  # the fewest misses it can have
                "epsilon-delta edge": dp.approx_dp_tradeoff(epsilon, delta, alphas),
            }
        )
        """,
    {"mu": 1.0, "epsilon": 1.0},
    "frame",
)

COMPOSITION = Snippet(
    "subsampling_composition",
    "DP-SGD's ε by the GDP central limit theorem and by dp-accounting's PLD and RDP",
    """
        import pandas as pd

        import dp

        sigma, q, delta = $sigma, $q, 1e-5
        rows = []
        for steps in $steps:
            mu = dp.gdp_clt_mu(q, steps, sigma)
            rows.append(
                {
                    "steps": steps,
                    "CLT": dp.gdp_epsilon(mu, delta),
                    "PLD": dp.dpsgd_epsilon(sigma, q, steps, delta, accountant="pld"),
                    "RDP": dp.dpsgd_epsilon(sigma, q, steps, delta, accountant="rdp"),
                }
            )
        frame = pd.DataFrame(rows)
        """,
    {"sigma": 1.1, "q": 0.01, "steps": (300,)},
    "frame",
)
