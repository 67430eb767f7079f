"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

MWEM = Snippet(
    "synthetic_mwem",
    "MWEM over every two-way marginal of a census contingency table, its workload error, "
    "and synthetic people drawn from it",
    """
        import itertools

        import numpy as np
        import pandas as pd

        import dp
        from data.banded import contingency_table  # the census columns in bands
        from data.census import load_census

        columns = $columns
        table = contingency_table(load_census(), columns)  # counts over the domain, C order
        queries = np.vstack(
            [dp.marginal_queries(table.shape, pair)
             for pair in itertools.combinations(range(len(columns)), 2)]
        )
        epsilon, rounds = $epsilon, $rounds
        release, chosen = dp.mwem_trace(table.counts, queries, epsilon, rounds, rng=$seed)
        gap = np.abs(queries @ release - queries @ table.counts)
        frame = pd.DataFrame({"largest error": [gap.max()], "mean error": [gap.mean()]})
        people = dp.synthetic_rows(release, table.n, table.shape, rng=0)  # codes per column
        """,
    {
        "columns": ("age band", "sex", "marital status", "education", "income"),
        "epsilon": 1.0,
        "rounds": 500,
        "seed": 20,
    },
    "frame",
)
