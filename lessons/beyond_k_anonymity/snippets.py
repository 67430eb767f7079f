"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

RELEASE = Snippet(
    "beyond_k_anonymity_release",
    "Generalise, withhold the small classes, and measure k, l and t",
    """
        import numpy as np
        import pandas as pd

        import dp
        from data.census import load_census

        age_band, zip_digits, keep_sex, min_class = $age_band, $zip_digits, $keep_sex, $min_class
        sensitive = $sensitive
        census = load_census()
        codes = np.column_stack(
            [
                census["Age"] // age_band,  # ages in bands
                pd.factorize(census["Zip"].astype(str).str.zfill(5).str[:zip_digits])[0],
                pd.factorize(census["Sex"] if keep_sex else np.zeros(len(census)))[0],
            ]
        )
        classes, sizes = dp.equivalence_classes(codes)
        published = sizes[classes] >= min_class  # withhold the classes under k
        kept = np.unique(classes[published], return_inverse=True)[1]
        values = pd.factorize(census[sensitive].astype(str)[published])[0]
        frame = pd.DataFrame(
            {
                "k": [dp.k_anonymity(sizes[sizes >= min_class])],
                "l": [dp.l_diversity(kept, values)],
                "t": [dp.t_closeness(kept, values)],
                "withheld": [int((~published).sum())],
            }
        )
        """,
    {"age_band": 10, "zip_digits": 3, "keep_sex": True, "min_class": 5, "sensitive": "Income"},
    "frame",
)
