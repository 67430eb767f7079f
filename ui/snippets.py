"""The code behind the chart: a few lines of `dp/` calls that rebuild a lesson's main chart
data in a notebook, with the page's current parameter values filled in.

    from ui.snippets import show_code

    show_code("laplace_histogram", truth=truth, epsilon=epsilon, answers=answers,
              half_width=half_width, seed=widgets.seed() + lesson.SEED_HISTOGRAM)

Every snippet lives in `SNIPPETS` with example parameters; tests/test_snippets.py runs
each one (filled with its examples) in a fresh namespace and checks that it produces its
result variable. Templates use `$name` placeholders (string.Template), filled with
`repr(value)`, so a snippet is plain Python with literal values: copy, paste, run. Run
them from the repository root (or `pip install` nothing: they need numpy, pandas and dp/).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from string import Template
from typing import Any

import streamlit as st

from ui import widgets

EXPANDER_LABEL = "The code behind this chart"


@dataclass(frozen=True)
class Snippet:
    """A code template, the parameters it needs (with example values) and the name of the
    variable it leaves behind (the chart's data)."""

    title: str
    template: str
    example: dict[str, Any] = field(default_factory=dict)
    result: str = "frame"

    def render(self, **params: Any) -> str:
        """The code with `params` (missing ones: the examples) filled in as literals."""
        unknown = set(params) - set(self.example)
        if unknown:
            raise TypeError(f"params: unknown {sorted(unknown)}; expected {sorted(self.example)}")
        values = {**self.example, **params}
        literals = {name: _literal(value) for name, value in values.items()}
        return Template(textwrap.dedent(self.template).strip() + "\n").substitute(literals)


def _literal(value: Any) -> str:
    """A value as a Python literal (numpy scalars and arrays become plain numbers/lists)."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, tuple):
        value = list(value)
    return repr(value)


SNIPPETS: dict[str, Snippet] = {
    "laplace_histogram": Snippet(
        "Many noisy answers to one count (Laplace mechanism), binned on a fixed window",
        """
        import numpy as np
        import pandas as pd

        import dp

        truth, epsilon, answers, half_width = $truth, $epsilon, $answers, $half_width
        noisy = dp.laplace_mechanism(truth, 1, epsilon, size=answers, rng=$seed)
        # Answers outside the window are counted in its edge bins, as on the page.
        window = (truth - half_width, truth + half_width)
        counts, edges = np.histogram(np.clip(noisy, *window), bins=$bins, range=window)
        bins = pd.DataFrame({"start": edges[:-1], "end": edges[1:], "count": counts})
        bins["share"] = bins["count"] / answers
        """,
        {
            "truth": 14_237,
            "epsilon": 1.0,
            "answers": 2_000,
            "half_width": 50.0,
            "bins": 100,
            "seed": widgets.DEFAULT_SEED,
        },
        "bins",
    ),
    "laplace_guess_accuracy": Snippet(
        "The malicious query: how often the attacker's best guess is right, for each ε",
        """
        import numpy as np
        import pandas as pd

        import dp

        epsilon = $epsilon  # the page's ε, marked on the curve
        grid = np.geomspace(0.01, 10.0, 121)  # ε on a log scale
        # Best rule: guess 1 when the noisy answer is above ½; right with 1 − ½ e^(−ε/2).
        curve = pd.DataFrame({"epsilon": grid, "accuracy": dp.best_guess_accuracy(grid)})
        print(f"at ε = {epsilon:g}: right {dp.best_guess_accuracy(epsilon):.1%} of the time")
        """,
        {"epsilon": 1.0},
        "curve",
    ),
    "rr_repeated_surveys": Snippet(
        "The same randomized-response survey repeated many times: the de-biased estimates",
        """
        import pandas as pd

        import dp

        true_yes, n, p, q = $true_yes, $n, $p, $q
        # Reported "yes" counts of many independent surveys, drawn exactly without
        # simulating each respondent.
        yes_counts = dp.sample_rr_counts(true_yes, n, p, q, size=$surveys, rng=$seed)
        estimates = pd.DataFrame({
            "reported_yes": yes_counts,
            "estimated_count": n * dp.estimate_proportion_from_counts(yes_counts, n, p, q),
        })
        estimates["error"] = estimates["estimated_count"] - true_yes
        """,
        {
            "true_yes": 3_650,
            "n": 32_561,
            "p": 0.75,
            "q": 0.75,
            "surveys": 1_000,
            "seed": widgets.DEFAULT_SEED,
        },
        "estimates",
    ),
    "kary_estimates": Snippet(
        "k-ary (generalized) randomized response: one survey's estimates, and the projection",
        """
        import numpy as np
        import pandas as pd

        import dp

        values = $values
        true_counts = np.array($true_counts)
        epsilon = $epsilon
        reports = dp.sample_grr_counts(true_counts, epsilon, rng=$seed)  # one survey
        estimates = dp.grr_estimate_from_counts(reports, epsilon)  # unbiased, may be < 0
        frame = pd.DataFrame({
            "value": values,
            "true": true_counts,
            "reported": reports,
            "estimate": estimates,
            # Post-processing: non-negative counts that sum to n (costs no privacy).
            "projected": dp.project_counts(estimates, true_counts.sum()),
        })
        """,
        {
            "values": ["A", "B", "C", "D"],
            "true_counts": [5_000, 3_000, 1_500, 500],
            "epsilon": 1.0,
            "seed": widgets.DEFAULT_SEED,
        },
        "frame",
    ),
    "ue_estimates": Snippet(
        "Unary encoding: per-bit report counts and the estimated histogram",
        """
        import numpy as np
        import pandas as pd

        import dp

        values = $values
        true_counts = np.array($true_counts)
        n = int(true_counts.sum())
        p, q = $p, $q  # e.g. dp.oue_probabilities(epsilon) or dp.sue_probabilities(epsilon)
        bit_counts = dp.sample_ue_counts(true_counts, p, q, rng=$seed)  # one survey
        frame = pd.DataFrame({
            "value": values,
            "true": true_counts,
            "bits_set": bit_counts,
            "estimate": dp.ue_estimate_from_counts(bit_counts, n, p, q),
        })
        print("ε =", dp.ue_epsilon(p, q))
        """,
        {
            "values": ["A", "B", "C", "D"],
            "true_counts": [5_000, 3_000, 1_500, 500],
            "p": 0.5,
            "q": 0.2689414213699951,
            "seed": widgets.DEFAULT_SEED,
        },
        "frame",
    ),
    "kary_variance": Snippet(
        "k-ary randomized response: the variance of one estimated count for k = 2 to 64",
        """
        import pandas as pd

        import dp

        n, epsilon = $n, $epsilon
        frame = pd.DataFrame({"k": range(2, 65)})
        # n (e^ε + k − 2) / (e^ε − 1)²: the variance for a value nobody holds.
        frame["variance"] = [dp.grr_variance(n, epsilon, k) for k in frame["k"]]
        frame["sd"] = frame["variance"] ** 0.5
        """,
        {"n": 30_718, "epsilon": 0.5},
        "frame",
    ),
    "ue_vs_grr": Snippet(
        "Unary encoding (OUE) or k-ary randomized response (GRR): variance versus k",
        """
        import numpy as np
        import pandas as pd

        import dp

        n, epsilon = $n, $epsilon
        ks = np.unique(np.round(np.geomspace(2, 1024, 90))).astype(int)
        frame = pd.DataFrame({
            "k": ks,
            "GRR": [dp.grr_variance(n, epsilon, int(k)) for k in ks],
            "OUE": dp.oue_variance(n, epsilon),  # the same for every k
        })
        print("crossover k* = 3e^ε + 2 =", dp.grr_oue_crossover_k(epsilon))
        """,
        {"n": 30_718, "epsilon": 1.0},
        "frame",
    ),
    "central_vs_local": Snippet(
        "How far off is one count at the same ε: central (Laplace, exact) versus local "
        "(randomized response, many simulated surveys)",
        """
        import numpy as np
        import pandas as pd

        import dp

        truth, n, epsilon, repetitions = $truth, $n, $epsilon, $repetitions
        edges = np.logspace(-2, 5, 71)  # |error| bins: 10 per factor of 10, 0.01 to 100,000
        lo, hi = edges[:-1].copy(), edges[1:].copy()
        lo[0], hi[-1] = 0.0, np.inf  # the edge bins take everything beyond the axis
        # Central: the exact share of Laplace answers whose |error| falls in each bin.
        central = dp.laplace_abs_error_probability(lo, hi, sensitivity=1, epsilon=epsilon)
        # Local: whole surveys of n people, p = q = e^ε / (1 + e^ε), de-biased.
        p = dp.rr_keep_probability(epsilon)
        yes_counts = dp.sample_rr_counts(truth, n, p, p, size=repetitions, rng=$seed)
        local_errors = np.abs(n * dp.estimate_proportion_from_counts(yes_counts, n, p, p) - truth)
        local_errors = np.clip(local_errors, edges[0], edges[-1] * 0.999)
        local = np.histogram(local_errors, bins=edges)[0] / repetitions
        frame = pd.DataFrame(
            {"error_from": edges[:-1], "error_to": edges[1:], "central": central, "local": local}
        )
        ratio = dp.local_count_std(n, epsilon) / dp.laplace_std(1, epsilon)
        print("typical error local / central:", ratio)
        """,
        {
            "truth": 3_650,
            "n": 32_561,
            "epsilon": 1.0,
            "repetitions": 20_000,
            "seed": widgets.DEFAULT_SEED + 3,
        },
        "frame",
    ),
    "central_vs_local_by_n": Snippet(
        "Typical count error of both models as the number of people grows",
        """
        import numpy as np
        import pandas as pd

        import dp

        epsilon = $epsilon
        n = np.logspace(2, 7, 51)  # 100 to 10,000,000 people
        frame = pd.DataFrame({
            "n": n,
            "central_sd": dp.laplace_std(1, epsilon),  # flat: one noise draw for the total
            "local_sd": dp.local_count_std(n, epsilon),  # grows like the square root of n
        })
        """,
        {"epsilon": 1.0},
        "frame",
    ),
    "composition_averaging": Snippet(
        "The averaging attack: ask the same count again and again, average the answers",
        """
        import numpy as np
        import pandas as pd

        import dp

        truth, epsilon, answers = $truth, $epsilon, $answers
        noisy = dp.laplace_mechanism(truth, 1, epsilon, size=answers, rng=$seed)
        frame = pd.DataFrame({
            "answers": np.arange(1, answers + 1),
            "running_average": dp.running_average(noisy),
            # The budget spent so far (sequential composition: k answers cost k·ε).
            "epsilon_spent": np.arange(1, answers + 1) * epsilon,
        })
        frame["expected_sd"] = dp.averaged_laplace_std(1, epsilon, frame["answers"].to_numpy())
        """,
        {"truth": 7_841, "epsilon": 0.5, "answers": 200, "seed": widgets.DEFAULT_SEED},
        "frame",
    ),
    "composition_parallel": Snippet(
        "Parallel composition: one noisy occupation histogram at ε per bar, versus the same "
        "ε split over the bars as separate queries",
        """
        import pandas as pd

        import dp

        census = pd.read_csv($csv_path)  # the bundled census (32,561 people)
        counts = census["Occupation"].value_counts()  # disjoint groups, largest first
        true = counts.to_numpy()
        epsilon, seed = $epsilon, $seed
        split = dp.split_budget(epsilon, true.size)
        frame = pd.DataFrame({
            "occupation": counts.index,
            "true": true,
            # Disjoint bars compose in parallel: ε per bar costs ε in total.
            "parallel": dp.laplace_mechanism(true, 1, epsilon, rng=seed),
            # The same total ε as separate queries: ε / k per bar.
            "split": dp.laplace_mechanism(true, 1, split, rng=seed + 1),
        })
        print("total absolute error:", dp.l1_error(frame["parallel"], true),
              "versus", dp.l1_error(frame["split"], true))
        """,
        {"csv_path": "data/census.csv.gz", "epsilon": 0.1, "seed": widgets.DEFAULT_SEED + 2},
        "frame",
    ),
    "definition_densities": Snippet(
        "Two neighbouring datasets: the densities of their noisy answers and the privacy loss",
        """
        import numpy as np
        import pandas as pd

        import dp

        truth, truth_neighbour, epsilon = $truth, $truth_neighbour, $epsilon
        scale = dp.laplace_scale(1, epsilon)  # b = Δ/ε with Δ = 1
        y = truth - 8 + 0.05 * np.arange(321)  # the page's outputs: f(D) ± 8 in steps of 0.05
        frame = pd.DataFrame({
            "output": y,
            "density_D": dp.laplace_pdf(y, loc=truth, scale=scale),
            "density_D_neighbour": dp.laplace_pdf(y, loc=truth_neighbour, scale=scale),
            # ln of their ratio: never more than ε in absolute value.
            "privacy_loss": dp.laplace_privacy_loss(
                y, loc=truth, loc_neighbour=truth_neighbour, scale=scale
            ),
        })
        """,
        {"truth": 7_841, "truth_neighbour": 7_840, "epsilon": 1.0},
        "frame",
    ),
    "definition_posterior": Snippet(
        "The attacker's worst-case belief after one output, for every ε",
        """
        import numpy as np
        import pandas as pd

        import dp

        prior, epsilon = $prior, $epsilon
        # Bayes with the likelihood ratio at its bound e^ε: e^ε p / (e^ε p + 1 − p).
        print(f"at ε = {epsilon:g}: {dp.posterior_bound(prior, epsilon):.1%}")
        epsilons = np.geomspace(0.01, 20.0, 121)
        frame = pd.DataFrame({
            "epsilon": epsilons,
            "posterior": [dp.posterior_bound(prior, float(e)) for e in epsilons],
        })
        """,
        {"prior": 0.1, "epsilon": 1.0},
        "frame",
    ),
    "anonymisation_uniqueness": Snippet(
        "How many people the chosen quasi-identifiers single out",
        """
        import numpy as np
        import pandas as pd

        import dp

        census = pd.read_csv($csv_path, dtype={"Zip": str}, keep_default_na=False, na_values=[""])
        dob = pd.to_datetime(census["DOB"])
        # The page's attributes; the coarser ones are derived from the raw columns.
        attributes = {
            "ZIP code": census["Zip"],
            "ZIP3 (first 3 digits)": census["Zip"].str[:3],
            "Date of birth": dob,
            "Birth month": dob.dt.year * 100 + dob.dt.month,
            "Birth year": dob.dt.year,
            "Age": census["Age"],
            "Age band (10 years)": census["Age"] // 10,
            "Sex": census["Sex"],
            "Race": census["Race"],
            "Marital status": census["MaritalStatus"],
            "Education": census["Education"],
            "Occupation": census["Occupation"],  # missing (NaN) is a value of its own
            "Workclass": census["Workclass"],
            "Relationship": census["Relationship"],
            "Native country": census["NativeCountry"],
        }
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
        {"csv_path": "data/census.csv.gz", "columns": ["ZIP code", "Date of birth", "Sex"]},
        "frame",
    ),
    "anonymisation_differencing": Snippet(
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
            "seed": widgets.DEFAULT_SEED + 33,
        },
        "frame",
    ),
}


def code_for(name: str, **params: Any) -> str:
    """The snippet `name` with `params` filled in (KeyError names the known snippets)."""
    if name not in SNIPPETS:
        raise KeyError(f"name: no snippet {name!r}; known: {sorted(SNIPPETS)}")
    return SNIPPETS[name].render(**params)


def show_code(name: str, **params: Any) -> None:
    """An expander "The code behind this chart" with the snippet's code, current values
    filled in. Call it right under the chart."""
    snippet = SNIPPETS[name]
    with st.expander(EXPANDER_LABEL, icon=":material/code:"):
        st.caption(
            f"{snippet.title}. Run it from the repository root; it leaves the chart's data "
            f"in `{snippet.result}`."
        )
        st.code(code_for(name, **params), language="python")
