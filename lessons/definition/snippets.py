"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

DENSITIES = Snippet(
    "definition_densities",
    "Two neighbouring datasets: the densities of their noisy answers and the privacy loss",
    """
        import numpy as np
        import pandas as pd

        import dp

        truth, truth_neighbour, epsilon = $truth, $truth_neighbour, $epsilon
        scale = dp.laplace_scale(1, epsilon)  # b = Δ/ε with Δ = 1
        y = truth - 8 + 0.05 * np.arange(321)  # the page's outputs: f(D) ± 8 in steps of 0.05
        frame = pd.DataFrame({
            "output": y,
            "density_D": dp.laplace_pdf(y, loc=truth, scale=scale),
            "density_D_neighbour": dp.laplace_pdf(y, loc=truth_neighbour, scale=scale),
            # ln of their ratio: never more than ε in absolute value.
            "privacy_loss": dp.laplace_privacy_loss(
                y, loc=truth, loc_neighbour=truth_neighbour, scale=scale
            ),
        })
        """,
    {"truth": 7_841, "truth_neighbour": 7_840, "epsilon": 1.0},
    "frame",
)


POSTERIOR = Snippet(
    "definition_posterior",
    "The attacker's worst-case belief after one output, for every ε",
    """
        import numpy as np
        import pandas as pd

        import dp

        prior, epsilon = $prior, $epsilon
        # Bayes with the likelihood ratio at its bound e^ε: e^ε p / (e^ε p + 1 − p).
        print(f"at ε = {epsilon:g}: {dp.posterior_bound(prior, epsilon):.1%}")
        epsilons = np.geomspace(0.01, 20.0, 121)
        frame = pd.DataFrame({
            "epsilon": epsilons,
            "posterior": [dp.posterior_bound(prior, float(e)) for e in epsilons],
        })
        """,
    {"prior": 0.1, "epsilon": 1.0},
    "frame",
)
