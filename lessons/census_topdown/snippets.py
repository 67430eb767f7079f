"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

MEASURE = Snippet(
    "census_topdown_measure",
    "Each level's share of ρ, its noise and the total's (ε, δ)",
    """
        import numpy as np
        import pandas as pd

        import dp

        rho, weights = $rho, np.array($weights, dtype=float)
        rhos = rho * weights / weights.sum()  # nation, region, ZIP3, ZIP5
        frame = pd.DataFrame(
            {
                "level": ["nation", "region", "ZIP3", "ZIP5"],
                "rho": rhos,
                "sigma": np.sqrt(1 / (2 * rhos)),  # the parameter: σ² = 1/(2ρ) for a count
                # its standard deviation, from the pmf: below σ, far below when σ < 0.8
                "noise SD": [dp.discrete_gaussian_std(1 / (2 * r)) for r in rhos],
            }
        )
        # with the total exact, one record changed: 2ρ-zCDP (L2 sensitivity √2)
        epsilon = dp.zcdp_to_approx_dp(2 * dp.zcdp_compose(rhos), 1e-10)
        """,
    {"rho": 0.5, "weights": (3, 35, 11, 51)},
    "frame",
)

TOPDOWN = Snippet(
    "census_topdown_topdown",
    "One release: discrete Gaussian noise at every level, then TopDown",
    """
        import numpy as np
        import pandas as pd

        import dp
        from data.census import load_census

        rho, weights = $rho, np.array($weights, dtype=float)
        census = load_census()
        zips = census["Zip"].astype(str)
        cell = (census["Sex"] == "Female").astype(int) * 3 + np.digitize(census["Age"], [30, 50])
        units = [zips.str[:0], zips.str[:1], zips.str[:3], zips]  # nation, region, ZIP3, ZIP5
        true, parents, above = [], [], None
        for unit in units:
            counts = pd.crosstab(unit, cell).reindex(columns=range(6), fill_value=0)
            names = counts.index.to_numpy()
            true.append(counts.to_numpy().ravel())
            if above is None:
                parents.append(np.zeros(6, dtype=int))
            else:
                parent = np.searchsorted(above, [name[: len(above[0])] for name in names])
                parents.append((parent[:, None] * 6 + np.arange(6)).ravel())
            above = names
        rng = np.random.default_rng($seed)
        variances = 1 / (2 * rho * weights / weights.sum())
        noisy = [t + dp.discrete_gaussian(v, size=t.size, rng=rng) for t, v in zip(true, variances)]
        released = dp.topdown(noisy, parents, len(census))
        frame = pd.DataFrame(
            {"ZIP5 true": true[3], "ZIP5 noisy": noisy[3], "ZIP5 released": released[3]}
        )
        """,
    {"rho": 0.5, "weights": (3, 35, 11, 51), "seed": 2027},
    "frame",
)
