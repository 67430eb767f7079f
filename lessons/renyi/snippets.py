"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

DIVERGENCE = Snippet(
    "renyi_divergence",
    "The Rényi divergence of three mechanisms at every order α",
    """
        import numpy as np
        import pandas as pd

        import dp

        epsilon, sigma = $epsilon, $sigma
        alphas = np.geomspace(1.01, 64, 61)
        keep = dp.rr_keep_probability(epsilon)  # randomized response at pure ε
        frame = pd.DataFrame(
            {
                "alpha": alphas,
                "Gaussian": dp.rdp_gaussian(alphas, sigma),  # α/(2σ²)
                "Laplace": dp.rdp_laplace(alphas, dp.laplace_scale(1, epsilon)),
                "Randomized response": dp.rdp_randomized_response(alphas, keep),
            }
        )
        """,
    {"epsilon": 1.0, "sigma": 2.0},
    "frame",
)

COMPOSITION = Snippet(
    "renyi_composition",
    "k Gaussian releases: ε at δ = 10⁻⁵ by four compositions and exactly",
    """
        import math

        import numpy as np
        import pandas as pd

        import dp

        sigma, delta = $sigma, 1e-5
        orders = np.concatenate([1 + np.arange(1, 100) / 10, np.arange(12, 64), [128, 256, 512]])


        def exact_step(d):  # one release's exact ε at δ = d: it is (1/σ)-Gaussian DP
            return dp.gdp_epsilon(1 / sigma, d)


        rows = []
        for k in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000):
            step = exact_step(delta / (2 * k))
            advanced, _ = dp.advanced_composition(step, delta / (2 * k), k, delta / 2)
            rho = k * dp.gaussian_zcdp_rho(1, sigma)
            rdp, best_order = dp.rdp_to_dp(orders, k * dp.rdp_gaussian(orders, sigma), delta)
            rows.append(
                {
                    "k": k,
                    "basic": k * exact_step(delta / k),
                    "advanced": min(advanced, k * step),
                    "zCDP": dp.zcdp_to_approx_dp(rho, delta),
                    "RDP": rdp,
                    "RDP's best order": best_order,
                    "exact": dp.gdp_epsilon(math.sqrt(k) / sigma, delta),
                }
            )
        frame = pd.DataFrame(rows)
        """,
    {"sigma": 10.0},
    "frame",
)

ACCOUNTANTS = Snippet(
    "renyi_accountants",
    "A DP-SGD run's ε at δ = 10⁻⁵: basic and advanced composition, RDP, and PLD",
    """
        import numpy as np
        import pandas as pd

        import dp

        sigma, q, delta = $sigma, $q, 1e-5
        orders = np.concatenate([np.arange(2, 65), [128, 256]])
        curve = dp.rdp_subsampled_gaussian(orders, sigma, q)  # one step's RDP curve


        def step(d):  # one step at δ = d after sampling: the Gaussian's exact ε, amplified
            return dp.subsampled_privacy(dp.gdp_epsilon(1 / sigma, d / q), d / q, q)


        rows = []
        for steps in (10, 30, 100, 300, 1000, 3000, 10000):
            half, half_delta = step(delta / (2 * steps))
            advanced, _ = dp.advanced_composition(half, half_delta, steps, delta / 2)
            rows.append(
                {
                    "T": steps,
                    "basic": steps * step(delta / steps)[0],
                    "advanced": min(advanced, steps * half),
                    "RDP": dp.rdp_to_dp(orders, steps * curve, delta)[0],
                }
            )
        frame = pd.DataFrame(rows)
        # PLD, dp-accounting's accountant (about a second a point): at T = $steps
        pld = dp.dpsgd_epsilon(sigma, q, $steps, delta, accountant="pld")
        """,
    {"sigma": 1.1, "q": 0.01, "steps": 1000},
    "frame",
)
