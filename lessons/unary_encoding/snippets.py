"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui import controls
from ui.snippets import Snippet

ESTIMATES = Snippet(
    "ue_estimates",
    "Unary encoding: per-bit report counts and the estimated histogram",
    """
        import numpy as np
        import pandas as pd

        import dp

        values = $values
        true_counts = np.array($true_counts)
        n = int(true_counts.sum())
        p, q = $p, $q  # e.g. dp.oue_probabilities(epsilon) or dp.sue_probabilities(epsilon)
        bit_counts = dp.sample_ue_counts(true_counts, p, q, rng=$seed)  # one survey
        frame = pd.DataFrame({
            "value": values,
            "true": true_counts,
            "bits_set": bit_counts,
            "estimate": dp.ue_estimate_from_counts(bit_counts, n, p, q),
        })
        print("ε =", dp.ue_epsilon(p, q))
        """,
    {
        "values": ["A", "B", "C", "D"],
        "true_counts": [5_000, 3_000, 1_500, 500],
        "p": 0.5,
        "q": 0.2689414213699951,
        "seed": controls.DEFAULT_SEED,
    },
    "frame",
)


VERSUS_GRR = Snippet(
    "ue_vs_grr",
    "Unary encoding (OUE) or k-ary randomized response (GRR): variance versus k",
    """
        import numpy as np
        import pandas as pd

        import dp

        n, epsilon = $n, $epsilon
        ks = np.unique(np.round(np.geomspace(2, 1024, 90))).astype(int)
        frame = pd.DataFrame({
            "k": ks,
            "GRR": [dp.grr_variance(n, epsilon, int(k)) for k in ks],
            "OUE": dp.oue_variance(n, epsilon),  # the same for every k
        })
        print("crossover k* = 3e^ε + 2 =", dp.grr_oue_crossover_k(epsilon))
        """,
    {"n": 30_718, "epsilon": 1.0},
    "frame",
)
