"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui import controls
from ui.snippets import Snippet

REPEATED_SURVEYS = Snippet(
    "rr_repeated_surveys",
    "The same randomized-response survey repeated many times: the debiased estimates",
    """
        import pandas as pd

        import dp

        true_yes, n, p, q = $true_yes, $n, $p, $q
        # Reported "yes" counts of many independent surveys, drawn exactly without
        # simulating each respondent.
        yes_counts = dp.sample_rr_counts(true_yes, n, p, q, size=$surveys, rng=$seed)
        estimates = pd.DataFrame({
            "reported_yes": yes_counts,
            "estimated_count": n * dp.estimate_proportion_from_counts(yes_counts, n, p, q),
        })
        estimates["error"] = estimates["estimated_count"] - true_yes
        """,
    {
        "true_yes": 3_650,
        "n": 32_561,
        "p": 0.75,
        "q": 0.75,
        "surveys": 1_000,
        "seed": controls.DEFAULT_SEED,
    },
    "estimates",
)
