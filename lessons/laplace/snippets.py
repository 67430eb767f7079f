"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui import controls
from ui.snippets import Snippet

HISTOGRAM = Snippet(
    "laplace_histogram",
    "Many noisy answers to one count (Laplace mechanism), binned on a fixed window",
    """
        import numpy as np
        import pandas as pd

        import dp

        truth, epsilon, answers, half_width = $truth, $epsilon, $answers, $half_width
        if $discrete:  # integer noise, as real libraries add to a count
            noisy = dp.discrete_laplace_mechanism(truth, epsilon, size=answers, rng=$seed)
        else:
            noisy = dp.laplace_mechanism(truth, 1, epsilon, size=answers, rng=$seed)
        # Answers outside the window are counted in its edge bins, as on the page.
        window = (truth - half_width, truth + half_width)
        counts, edges = np.histogram(np.clip(noisy, *window), bins=$bins, range=window)
        bins = pd.DataFrame({"start": edges[:-1], "end": edges[1:], "count": counts})
        bins["share"] = bins["count"] / answers
        """,
    {
        "truth": 14_237,
        "epsilon": 1.0,
        "answers": 2_000,
        "half_width": 50.0,
        "bins": 100,
        "seed": controls.DEFAULT_SEED,
        "discrete": False,
    },
    "bins",
)


GUESS_ACCURACY = Snippet(
    "laplace_guess_accuracy",
    "The malicious query: how often the attacker's best guess is right, for each ε",
    """
        import numpy as np
        import pandas as pd

        import dp

        epsilon = $epsilon  # the page's ε, marked on the curve
        grid = np.geomspace(0.01, 10.0, 121)  # ε on a log scale
        # Best rule: guess 1 when the noisy answer is above ½; right with 1 − ½ e^(−ε/2).
        curve = pd.DataFrame({"epsilon": grid, "accuracy": dp.best_guess_accuracy(grid)})
        print(f"at ε = {epsilon:g}: right {dp.best_guess_accuracy(epsilon):.1%} of the time")
        """,
    {"epsilon": 1.0},
    "curve",
)
