"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from ui.snippets import Snippet

TRACING = Snippet(
    "membership_tracing",
    "The tracing attack on a study's published means: every member's and non-member's score",
    """
        import numpy as np
        import pandas as pd

        import dp
        from data.census import load_census
        from data.tracing_pool import tracing_pool  # census people and yes/no questions

        n, d = $n, $d
        pool = tracing_pool(load_census())
        questions = pool.questions[:, :d]  # one row per person, one 0/1 column per question
        members = pool.rows(questions, "members")[:n]
        released = members.mean(axis=0)  # what the study publishes
        reference = pool.rows(questions, "reference").mean(axis=0)  # people not in the study
        inside = dp.tracing_score(members, released, reference)
        outside = dp.tracing_score(pool.rows(questions, "non-members"), released, reference)
        flag = np.quantile(outside, 0.99, method="higher")  # flags 1% of non-members
        frame = pd.DataFrame(
            {"group": ["members"] * n + ["non-members"] * outside.size,
             "score": np.concatenate([inside, outside])}
        )
        tpr_at_1_percent = np.mean(inside > flag)
        """,
    {"n": 50, "d": 200},
    "frame",
)

AUDIT = Snippet(
    "membership_audit",
    "An audit of a Laplace count from an attack's successes: ε is at least …",
    """
        import numpy as np
        import pandas as pd

        import dp

        epsilon, trials = $epsilon, $trials
        rng = np.random.default_rng(0)
        rows = []
        for name, sensitivity in (("honest", 1.0), ("buggy", 0.5)):  # the bug: Δ = ½
            scale = dp.laplace_scale(sensitivity, epsilon)
            on_d = 1.0 + rng.laplace(0.0, scale, size=trials)  # the count is 1 on D ...
            on_d_prime = rng.laplace(0.0, scale, size=trials)  # ... and 0 on D′
            # the attack says "D" when the output exceeds 1, a rule fixed before the runs
            bound = dp.epsilon_lower_bound(
                int(np.sum(on_d > 1.0)), trials, int(np.sum(on_d_prime > 1.0)), trials,
                confidence=0.95,
            )
            rows.append((name, bound))
        frame = pd.DataFrame(rows, columns=["mechanism", "ε is at least"])
        """,
    {"epsilon": 1.0, "trials": 10_000},
    "frame",
)
