"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

COUNTS = Snippet(
    "who_pays_counts",
    "Each group's count of people with income > 50K, and its relative typical error",
    """
        import math

        import dp
        from data.census import load_census

        epsilon = $epsilon
        census = load_census()
        rich = census[census["Income"].astype("string") == ">50K"]
        frame = rich.groupby(["Race", "Sex"], observed=True).size().rename("count").reset_index()
        typical = math.sqrt(dp.laplace_variance(1.0, epsilon))  # Lap(1/ε): sd √2/ε
        frame["relative"] = typical / frame["count"]
        frame["noisy"] = dp.laplace_mechanism(frame["count"].to_numpy(), 1.0, epsilon, rng=0)
        frame = frame.sort_values("count")
        """,
    {"epsilon": 0.1},
)
