"""The code behind the charts of this lesson: the experiment in plain numpy and `dp/`,
filled with the page's current values (see ui/snippets.py). It draws the same data from the
same seed and asks the same questions as lessons/holdout/model.py: the page test checks that
it gives the chart's numbers."""

from ui.snippets import Snippet

ANALYSIS = """
        import math

        import numpy as np
        import pandas as pd

        import dp

        # "holdout": the holdout answers exactly; "training": features are checked on the
        # training set only; "thresholdout": every question goes through Thresholdout
        through, tolerance, budget = $through, $tolerance, $budget
        n, features, bar = 5000, 10000, 1 / (2 * math.sqrt(5000))
        rng = np.random.default_rng(2015)
        agreement, agrees = [], []
        for _ in ("training", "holdout", "fresh"):  # coin-flip features and labels, 8 rows a byte
            x = np.frombuffer(rng.bytes(features * n // 8), np.uint8).reshape(features, n // 8)
            same = ~(x ^ np.frombuffer(rng.bytes(n // 8), np.uint8))  # feature == label
            agrees.append(same)
            agreement.append(np.bitwise_count(same).sum(axis=1, dtype=np.int64) / n)
        order = np.argsort(-np.abs(agreement[0] - 0.5), kind="stable")  # strongest first
        order = order[np.abs(agreement[0][order] - 0.5) > bar]

        mechanism = dp.Thresholdout(0.04, tolerance, budget, rng=36)


        def ask(train, holdout, feature):
            if through == "thresholdout":
                return float(mechanism.answer([train], [holdout])[0][0])
            return train if through == "training" and feature else holdout


        def side(value):  # +1 or −1 beyond the bar, 0 within it
            return 0 if not abs(value - 0.5) > bar else (1 if value > 0.5 else -1)


        scores, rows, kept = np.zeros((3, n), dtype=np.int32), [], 0
        for j in order:
            answer = ask(agreement[0][j], agreement[1][j], True)
            if math.isnan(answer):
                break  # Thresholdout's budget is spent
            if side(answer) != side(agreement[0][j]):
                continue
            votes = np.unpackbits(np.stack([a[j] for a in agrees]), axis=1).astype(np.int32)
            scores += side(agreement[0][j]) * (2 * votes - 1)
            kept += 1
            if kept % 10:
                continue
            accuracy = ((scores > 0).sum(axis=1) + 0.5 * (scores == 0).sum(axis=1)) / n
            seen = ask(accuracy[0], accuracy[1], False)
            rows.append({"k": kept, "training": accuracy[0], "seen": seen, "fresh": accuracy[2]})
            if math.isnan(seen) or kept == 400:
                break
        frame = pd.DataFrame(rows)
        """

REUSED = Snippet(
    "holdout_reused",
    "An adaptive analyst on data with no signal, and what the holdout tells it",
    ANALYSIS,
    {"through": "holdout", "tolerance": 0.01, "budget": 200},
)
THRESHOLDOUT = Snippet(
    "holdout_thresholdout",
    "The same analyst, every question to the holdout through Thresholdout",
    ANALYSIS,
    {"through": "thresholdout", "tolerance": 0.01, "budget": 200},
)
