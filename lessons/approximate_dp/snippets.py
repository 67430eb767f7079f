"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

LOSS = Snippet(
    "approximate_loss",
    "Laplace and Gaussian calibrated to the same (ε, δ) for a count: σ, the privacy loss's "
    "tail and the exact δ(ε′) curve",
    """
        import numpy as np
        import pandas as pd

        import dp

        epsilon, delta = $epsilon, $delta
        b = dp.laplace_scale(1, epsilon)  # Laplace: pure ε-DP, loss never beyond ε
        sigma = dp.analytic_gaussian_sigma(1, epsilon, delta)  # smallest σ meeting δ
        tail = dp.gaussian_loss_tail(sigma, 1, epsilon)  # P[loss > ε] >= δ
        eps_grid = np.geomspace(0.01, 10, 121)
        frame = pd.DataFrame(
            {
                "epsilon": eps_grid,
                "exact delta": dp.gaussian_delta(sigma, 1, eps_grid),
                "P[loss > epsilon]": dp.gaussian_loss_tail(sigma, 1, eps_grid),
            }
        )
        """,
    {"epsilon": 1.0, "delta": 1e-5},
    "frame",
)

SIGMA = Snippet(
    "approximate_sigma",
    "The classic and the analytic σ for one count against ε, with Laplace's noise SD",
    """
        import numpy as np
        import pandas as pd

        import dp

        delta = $delta
        rows = []
        for eps in np.geomspace(0.05, 5, 61):
            if eps < 1:  # Dwork & Roth's Thm A.1 holds only there
                rows.append((eps, "classic", dp.gaussian_sigma_classic(1, eps, delta)))
            rows.append((eps, "analytic", dp.analytic_gaussian_sigma(1, eps, delta)))
            rows.append((eps, "laplace sd", dp.laplace_std(1, eps)))
        frame = pd.DataFrame(rows, columns=["epsilon", "method", "sigma"])
        """,
    {"delta": 1e-5},
    "frame",
)

COMPOSITION = Snippet(
    "approximate_composition",
    "Total ε of k counting queries, each with the same noise SD: Laplace with basic and "
    "advanced composition, Gaussian with zCDP",
    """
        import math

        import pandas as pd

        import dp

        noise_sd, delta = $noise_sd, $delta
        eps_each = math.sqrt(2) / noise_sd  # Laplace with b = SD/√2
        rho_each = dp.gaussian_zcdp_rho(1, noise_sd)  # Gaussian with σ = SD
        rows = []
        for k in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000):
            rows.append(
                {
                    "k": k,
                    "basic": dp.sequential_composition([eps_each] * k),
                    "advanced": dp.advanced_composition(eps_each, 0.0, k, delta)[0],
                    "zcdp": dp.zcdp_to_approx_dp(dp.zcdp_compose([rho_each] * k), delta),
                }
            )
        frame = pd.DataFrame(rows)
        """,
    {"noise_sd": 10.0, "delta": 1e-5},
    "frame",
)

CONVERSION = Snippet(
    "approximate_conversion",
    "ρ-zCDP to (ε, δ)-DP: the tight and the simple conversion over δ",
    """
        import numpy as np
        import pandas as pd

        import dp

        rho = $rho
        deltas = np.geomspace(1e-14, 1e-2, 61)
        frame = pd.DataFrame(
            {
                "delta": deltas,
                "tight": [dp.zcdp_to_approx_dp(rho, d) for d in deltas],
                "simple": [dp.zcdp_to_approx_dp_simple(rho, d) for d in deltas],
            }
        )
        """,
    {"rho": 2.56},
    "frame",
)
