"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

OLH = Snippet(
    "large_domains_olh",
    "Every census person reports a ZIP code through optimal local hashing; the server "
    "estimates the 100 most common candidates",
    """
        import numpy as np
        import pandas as pd

        import dp
        from data.census import load_census

        zips = load_census()["Zip"].astype(int).to_numpy()  # a domain of 100,000 codes
        codes, counts = np.unique(zips, return_counts=True)
        order = np.argsort(-counts, kind="stable")[:100]
        candidates, truth = codes[order], counts[order]  # a public list of 100 codes
        epsilon = $epsilon
        seeds, reports = dp.olh_perturb(zips, 100_000, epsilon, rng=$seed)
        estimates = dp.olh_estimate(seeds, reports, 100_000, epsilon, candidates=candidates)
        sd = np.sqrt([dp.olh_variance(zips.size, epsilon, c / zips.size) for c in truth])
        frame = pd.DataFrame(
            {"zip": candidates, "true count": truth, "estimate": estimates,
             "low": estimates - 1.96 * sd, "high": estimates + 1.96 * sd}
        )
        """,
    {"epsilon": 2.0, "seed": 10},
    "frame",
)
