"""The code behind the charts of this lesson: `dp/` and scikit-learn calls that rebuild a
chart's point in a notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

ONE_POINT = Snippet(
    "private_ml_one_point",
    "Train on privatized data, score on the truth: the three models at one ε",
    """
        import numpy as np
        import pandas as pd
        from sklearn.linear_model import LogisticRegression

        import dp

        census = pd.read_csv($csv_path, dtype={"Zip": str}, keep_default_na=False, na_values=[""])
        columns, mechanism, epsilon, seed = $columns, $mechanism, $epsilon, $seed
        n = len(census)
        # Privatized columns as codes: age band (17-24, ..., 65+) x sex first, then the others.
        band = np.searchsorted([17, 25, 35, 45, 55, 65], census["Age"], side="right") - 1
        codes = [2 * band + (census["Sex"] == "Male").to_numpy().astype(int)]
        for column in columns:
            values = census[column].fillna("(missing)").astype(str)
            codes.append(pd.Categorical(values, categories=sorted(values.unique())).codes)
        sizes = [12] + [len(census[c].fillna("(missing)").unique()) for c in columns]

        order = np.random.default_rng(seed + 61).permutation(n)  # 25% held out
        test, train = np.sort(order[: round(n / 4)]), np.sort(order[round(n / 4) :])
        clear = census[["EducationNum", "HoursPerWeek"]].to_numpy(float)
        clear = (clear - clear[train].mean(axis=0)) / clear[train].std(axis=0)
        label = (census["Income"] == ">50K").to_numpy()

        rng = np.random.default_rng(seed + 62)
        share = epsilon / len(codes)  # sequential composition: ε split over the columns
        true_blocks, sent_blocks = [], []
        for c, k in zip(codes, sizes):
            one_hot = np.eye(k)[c]
            true_blocks.append(one_hot)
            if mechanism == "k-ary randomized response":
                sent_blocks.append(np.eye(k)[dp.grr_perturb(c, k, share, rng=rng)])
            else:
                p, q = dp.oue_probabilities(share)
                sent_blocks.append(dp.ue_perturb(one_hot, p, q, rng=rng).astype(float))
        truth = np.hstack([clear, *true_blocks])
        sent = np.hstack([clear, *sent_blocks])

        def accuracy(features):
            fitted = LogisticRegression(solver="newton-cholesky", max_iter=1000)
            fitted = fitted.fit(features[train], label[train])
            test_features = truth[test] if features.shape[1] == truth.shape[1] else clear[test]
            return (fitted.predict(test_features) == label[test]).mean()

        frame = pd.DataFrame({
            "model": ["(a) true table", "(b) privatized table", "(c) without them"],
            "test accuracy": [accuracy(truth), accuracy(sent), accuracy(clear)],
        })
        """,
    {
        "csv_path": "data/census.csv.gz",
        "columns": (),
        "mechanism": "k-ary randomized response",
        "epsilon": 1.0,
        "seed": 2026,
    },
    "frame",
)
