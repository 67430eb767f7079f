"""The code behind the quiz's private-mode chart: the debiased share of the class choosing
each option, with its 95% interval, from what the phones sent (see ui/snippets.py)."""

from ui.snippets import Snippet

PRIVATE_ESTIMATE = Snippet(
    "quiz_private_estimate",
    "Private mode: each option's estimated share of the class, from the randomized answers",
    """
    import numpy as np
    import pandas as pd

    import dp

    epsilon = $epsilon  # each phone kept its choice with p = e^ε / (e^ε + k − 1)
    sent = np.array($sent)  # how many phones sent each option (A, B, ...)
    n, k = sent.sum(), len(sent)
    # unbiased, then projected onto shares that are >= 0 and add up to 1 (post-processing)
    estimate = dp.project_counts(dp.grr_estimate_from_counts(sent, epsilon), n) / n
    sd = np.sqrt([dp.grr_variance(int(n), epsilon, k, float(f)) for f in estimate]) / n
    frame = pd.DataFrame({
        "option": list("ABCDEF"[:k]), "sent share": sent / n, "estimate": estimate,
        "low": np.clip(estimate - 1.96 * sd, 0, 1), "high": np.clip(estimate + 1.96 * sd, 0, 1),
    })
    """,
    {"epsilon": 1.0, "sent": [14, 9, 5, 2]},
)
