"""The code behind the charts of this lesson: `dp/` calls that rebuild a chart's data in a
notebook, filled with the page's current values (see ui/snippets.py)."""

from data.quasi_identifiers import quasi_identifiers
from ui import controls
from ui.snippets import Snippet, source_of

UNIQUENESS = Snippet(
    "anonymisation_uniqueness",
    "How many people the chosen quasi-identifiers single out",
    """
        import numpy as np
        import pandas as pd

        import dp
        from data.census import load_census


"""
    # the lesson's own function (data/quasi_identifiers.py), printed as it is
    + source_of(quasi_identifiers)
    + """

        census = load_census()
        attributes = quasi_identifiers(census)  # the page's attributes
        columns = $columns
        codes = np.column_stack(
            [pd.factorize(attributes[c])[0] for c in columns] or [np.zeros(len(census), int)]
        )
        class_of_person, class_sizes = dp.equivalence_classes(codes)
        per_person = class_sizes[class_of_person]  # how many share each person's values
        print("share unique:", dp.share_unique(per_person), "k =", dp.k_anonymity(per_person))
        people = dp.people_by_class_size(per_person)  # classes of 1, 2, 3–5, 6–10, 11–50, 51+
        frame = pd.DataFrame({
            "bucket": ["1 (unique)", "2", "3–5", "6–10", "11–50", "51+"],
            "people": people,
            "share": people / len(census),
        })
        """,
    {"columns": ["ZIP code", "Date of birth", "Sex"]},
    "frame",
)


DIFFERENCING = Snippet(
    "anonymisation_differencing",
    "The differencing attack against noisy counts: how often the attacker guesses right",
    """
        import numpy as np
        import pandas as pd

        import dp

        count_all, count_without, epsilon, tries = $count_all, $count_without, $epsilon, $tries
        exact = dp.differencing_success_probability(epsilon)  # 1 − (2 + ε/2)·e^(−ε/2) / 4
        successes = dp.differencing_attack_successes(
            count_all, count_without, epsilon, tries=tries, rng=$seed
        )
        print(f"exact {exact:.1%}, simulated {successes / tries:.1%}")
        epsilons = np.geomspace(0.01, 10, 121)
        frame = pd.DataFrame({
            "epsilon": epsilons,
            "success": [dp.differencing_success_probability(e) for e in epsilons],
        })
        """,
    {
        "count_all": 7_841,
        "count_without": 7_840,
        "epsilon": 1.0,
        "tries": 1_000,
        "seed": controls.DEFAULT_SEED + 33,
    },
    "frame",
)
