"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

BLOCK = Snippet(
    "reconstruction_block",
    "Every dataset a block's two-way tables allow",
    """
        import numpy as np
        import pandas as pd

        import dp

        census = pd.read_csv($csv_path, dtype={"Zip": str}, keep_default_na=False, na_values=[""])
        zip_code, size, seed = $zip_code, $size, $seed
        rows = np.flatnonzero(census["Zip"].to_numpy() == zip_code)
        rng = np.random.default_rng(seed + 51)  # the page's offset for the block
        block = census.iloc[np.sort(rng.choice(rows, size=min(size, rows.size), replace=False))]
        # Four attributes as codes: sex, age band (17-24, 25-34, ..., 65+), race group, income.
        records = np.column_stack([
            (block["Sex"] == "Male").astype(int),
            np.searchsorted([17, 25, 35, 45, 55, 65], block["Age"], side="right") - 1,
            block["Race"].map({"White": 0, "Black": 1}).fillna(2).astype(int),
            (block["Income"] == ">50K").astype(int),
        ])
        levels = (2, 6, 3, 2)
        tables = dp.marginal_tables(records, levels)  # what the agency publishes
        result = dp.reconstruct_from_marginals(tables, levels, max_solutions=10_000)
        print("datasets that fit:", result.count, "complete:", result.complete)
        print("people pinned down:", result.pinned_people, "of", len(block))
        names = (["Female", "Male"], ["17–24", "25–34", "35–44", "45–54", "55–64", "65+"],
                 ["White", "Black", "Other"], ["<=50K", ">50K"])
        first = dp.records_from_counts(result.solutions[0], levels)
        frame = pd.DataFrame({
            column: [names[i][code] for code in first[:, i]]
            for i, column in enumerate(["Sex", "Age band", "Race", "Income"])
        })
        """,
    {"csv_path": "data/census.csv.gz", "zip_code": "05138", "size": 10, "seed": 2026},
    "frame",
)

DINUR_NISSIM = Snippet(
    "reconstruction_dinur_nissim",
    "The Dinur–Nissim attack on n incomes against the noise bound E",
    """
        import numpy as np
        import pandas as pd

        import dp

        census = pd.read_csv($csv_path, dtype={"Zip": str}, keep_default_na=False, na_values=[""])
        n, m, seed = $n, $m, $seed
        rows = np.random.default_rng(seed + 55).choice(len(census), size=n, replace=False)
        secret = (census["Income"].to_numpy()[rows] == ">50K").astype(int)
        ratios = [0.0, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0]  # E in units of √n
        shares = []
        for ratio in ratios:
            rng = np.random.default_rng(seed + 55)
            queries = dp.random_subset_queries(n, m, rng=rng)
            answers = dp.subset_sum_answers(secret, queries, ratio * np.sqrt(n), rng=rng)
            shares.append(np.mean(dp.subset_sum_attack(queries, answers) == secret))
        frame = pd.DataFrame({"ratio": ratios, "share": shares})
        """,
    {"csv_path": "data/census.csv.gz", "n": 200, "m": 1000, "seed": 2026},
    "frame",
)
