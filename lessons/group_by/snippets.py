"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

BOUNDING = Snippet(
    "group_by_bounding",
    "Bounding each person to L0 clinics and L∞ visits in each, and the error it leaves",
    """
        import numpy as np
        import pandas as pd

        import dp
        from data.census import load_census
        from data.visits import PLACE_NAMES, PLACES, clinic_visits, rows_per_person

        l0, linf, epsilon = $l0, $linf, $epsilon
        # a simulated year of clinic visits, one row per visit (data/visits.py)
        visits = clinic_visits(rows_per_person(len(load_census())))
        users, clinics = visits["user"].to_numpy(), visits["place"].to_numpy()
        kept = dp.bound_partitions(users, clinics, l0, linf, rng=1)
        truth = np.bincount(clinics, minlength=PLACES)
        bounded = np.bincount(clinics[kept], minlength=PLACES)
        noisy = dp.laplace_mechanism(bounded.astype(float), l0 * linf, epsilon, rng=2)
        frame = pd.DataFrame(
            {"clinic": PLACE_NAMES, "true": truth, "bounded": bounded, "noisy": noisy}
        )
        dropped = len(visits) - kept.sum()
        noise_sd = dp.laplace_std(l0 * linf, epsilon)
        """,
    {"l0": 2, "linf": 5, "epsilon": 1.0},
    "frame",
)

PIPELINE = Snippet(
    "group_by_pipeline",
    "The whole pipeline: bound, select with half the budget, count with the other half",
    """
        import numpy as np
        import pandas as pd

        import dp
        from data.census import load_census
        from data.visits import PLACE_NAMES, PLACES, clinic_visits, rows_per_person

        l0, linf, epsilon, delta = $l0, $linf, $epsilon, $delta
        # a simulated year of clinic visits, one row per visit (data/visits.py)
        visits = clinic_visits(rows_per_person(len(load_census())))
        users, clinics = visits["user"].to_numpy(), visits["place"].to_numpy()
        rng = np.random.default_rng($seed)
        kept = dp.bound_partitions(users, clinics, l0, linf, rng=rng)
        kept_visits = np.bincount(clinics[kept], minlength=PLACES)
        pairs = np.unique(users[kept] * PLACES + clinics[kept])
        kept_users = np.bincount(pairs % PLACES, minlength=PLACES)
        chance = dp.partition_selection_probability(kept_users, epsilon / 2, delta, l0)
        released = rng.random(PLACES) < chance
        noisy = dp.laplace_mechanism(kept_visits.astype(float), l0 * linf, epsilon / 2, rng=rng)
        release = pd.DataFrame(
            {"clinic": np.array(PLACE_NAMES)[released], "visits": np.round(noisy[released])}
        )
        """,
    {"l0": 3, "linf": 13, "epsilon": 1.0, "delta": 1e-5, "seed": 2028},
    "release",
)
