"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

ODDS = Snippet(
    "epsilon_meaning_odds",
    "The most an attacker can believe, and the most any test can tell, at each ε",
    """
        import numpy as np
        import pandas as pd

        import dp

        prior = $prior
        epsilons = np.geomspace(0.05, 20, 121)
        frame = pd.DataFrame(
            {
                "epsilon": epsilons,
                "belief at most": [dp.posterior_bound(prior, e) for e in epsilons],
                "advantage at most": [dp.advantage_bound(e) for e in epsilons],
            }
        )
        """,
    {"prior": 0.1},
    "frame",
)

SPLIT = Snippet(
    "epsilon_meaning_split",
    "The best split of ε = 1 over five counts, with Laplace noise and with Gaussian noise",
    """
        import numpy as np
        import pandas as pd
        from scipy import optimize

        import dp

        weights = np.array($weights)
        laplace = weights ** (1 / 3) / np.sum(weights ** (1 / 3))  # ε_i, adding up to 1
        rho = optimize.brentq(lambda r: dp.zcdp_to_approx_dp(r, 1e-5) - 1.0, 1e-9, 1.0)
        rhos = rho * np.sqrt(weights) / np.sum(np.sqrt(weights))  # ρ_i, adding up to ρ
        frame = pd.DataFrame(
            {
                "weight": weights,
                "Laplace ε_i": laplace,
                "Laplace SD": [dp.laplace_std(1, e) for e in laplace],
                "Gaussian ρ_i": rhos,
                "Gaussian SD": [dp.gaussian_sigma_for_rho(1, r) for r in rhos],
            }
        )
        """,
    {"weights": (1.0, 1.0, 1.0, 1.0, 1.0)},
    "frame",
)
