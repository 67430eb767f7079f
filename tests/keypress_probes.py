"""What each lesson's main control must do when a student moves it one step with the keyboard
(tests/ui/test_browser_sweeps.py presses it once, on a laptop, in real Chromium): the numbers
it changes, as their formulas give them before the press and after it, and the link
parameter that then carries the new value.

These were the lessons' own browser tests, one page load (or two) each for the same press;
the numbers and links they asserted are asserted here, read off the sweep's one visit."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from playwright.sync_api import Page, expect

import dp
from browser_helpers import metric
from ui import text
from ui.controls import EPSILON_GRID

WAIT_MS = 20_000  # a first, uncached run can take seconds on a busy machine
AFTER = EPSILON_GRID[EPSILON_GRID.index(1.0) + 1]  # one step right of ε = 1 on the grid: 1.5


@dataclass(frozen=True)
class Metric:
    """A metric labelled `label`: its value is `before()` and then `after()` (a function that
    returns None is not checked); `exact` compares the whole value, else the metric's text
    (label and value) contains it."""

    label: str
    before: Callable[[], str | None]
    after: Callable[[], str | None]
    exact: bool = True
    whole_label: bool = False  # the label is all of the metric's label, not a part of it

    def check(self, page: Page, which: int) -> list[str]:
        want = (self.before, self.after)[which]()
        if want is None:
            return []
        if self.whole_label:
            found = page.locator('[data-testid="stMetric"]').filter(
                has=page.get_by_text(self.label, exact=True)
            )
        else:
            found = metric(page, self.label)
        shown = found.locator('[data-testid="stMetricValue"]') if self.exact else found
        try:
            if self.exact:
                expect(shown).to_have_text(want, timeout=WAIT_MS)
            else:
                expect(shown).to_contain_text(want, timeout=WAIT_MS)
        except AssertionError:
            return [f"{self.label!r} shows {shown.all_inner_texts()}, not {want!r}"]
        return []


@dataclass(frozen=True)
class Words:
    """Words on the page: shown before the press (which=0) or after it (which=1)."""

    words: str
    when: int

    def check(self, page: Page, which: int) -> list[str]:
        if which != self.when:
            return []
        try:
            expect(page.get_by_text(self.words).first).to_be_attached(timeout=WAIT_MS)
        except AssertionError:
            return [f"{self.words!r} is not on the page"]
        return []


@dataclass(frozen=True)
class Probe:
    shown: tuple[Metric | Words, ...]
    link: tuple[str, str]  # (parameter, its value after the press)


def _following(values, default) -> float:
    return values[list(values).index(default) + 1]


def _anonymisation() -> Probe:
    success = dp.differencing_success_probability
    return Probe(
        (
            Metric(
                "Attacker right (exact)",
                lambda: text.percent(success(1.0)),
                lambda: text.percent(success(AFTER)),
                exact=False,
            ),
            Metric("Budget the two queries spend", lambda: None, lambda: f"{2 * AFTER:g}", False),
            Words("Exactly one match: re-identified.", 0),
        ),
        ("anon_eps", f"{AFTER:g}"),
    )


def _reconstruction() -> Probe:
    return Probe(
        (
            Metric("Datasets that fit the tables", lambda: "1", lambda: None, exact=False),
            Metric("People pinned down exactly", lambda: "10 of 10", lambda: None, exact=False),
            Metric(
                "Noise scale per cell, 6/ε",
                lambda: "6",
                lambda: text.number(6 / AFTER),
                exact=False,
            ),
            Words("Reconstruction against ε", 1),
        ),
        ("recon_eps", f"{AFTER:g}"),
    )


def _definition() -> Probe:
    bound = f"{math.exp(AFTER):,.4g}"  # 4.482
    return Probe(
        (
            Metric("e^ε", lambda: "2.718", lambda: bound),
            Metric("Ratio", lambda: None, lambda: bound),
        ),
        ("def_eps", f"{AFTER:g}"),
    )


def _laplace() -> Probe:
    return Probe(
        (
            Metric("Scale b = 1/ε", lambda: "1", lambda: text.number(1 / AFTER)),
            Metric(
                "95% of answers within ±",
                lambda: text.number(math.log(20)),
                lambda: text.number(math.log(20) / AFTER),
            ),
        ),
        ("lap_eps", f"{AFTER:g}"),
    )


def _clamping() -> Probe:
    import numpy as np

    from ui.columns import SAMPLE_SEED
    from ui.datasets import load_census

    def bias(lower: float) -> str:
        gains = load_census()["CapitalGain"].to_numpy(dtype=float)
        sample = np.random.default_rng(SAMPLE_SEED).choice(gains, size=100, replace=False)
        return text.number(dp.clamping_bias(sample, lower, 5_000.0))

    # The main control is the window's lower thumb: L = 0 -> 500 (a step of 500).
    return Probe(
        (Metric("Bias (clamped − true)", lambda: bias(0.0), lambda: bias(500.0)),),
        ("clamp_window_0", "500..5000"),
    )


def _composition() -> Probe:
    return Probe(
        (
            Metric(
                "ε per query",
                lambda: text.number(dp.split_budget(1.0, 10)),
                lambda: text.number(dp.split_budget(AFTER, 10)),
            ),
        ),
        ("seq_total", f"{AFTER:g}"),
    )


def _approximate_dp() -> Probe:
    from lessons.approximate_dp import model

    following = _following(model.EPSILONS, model.DEFAULT_EPSILON)

    def sigma(epsilon: float) -> str:
        return text.number(dp.analytic_gaussian_sigma(1, epsilon, 1e-5))

    return Probe(
        (Metric("Gaussian σ", lambda: sigma(model.DEFAULT_EPSILON), lambda: sigma(following)),),
        ("ad_eps", text.number(following)),
    )


def _membership() -> Probe:
    from ui import tracing as model

    following = _following(model.EPSILONS, model.DEFAULT_EPSILON)

    def bound(epsilon: float) -> str:
        return text.percent(dp.tpr_bound(model.FPR_TARGET, epsilon))

    return Probe(
        (
            Metric(
                "The most any attack can find at 1%",
                lambda: bound(model.DEFAULT_EPSILON),
                lambda: bound(following),
            ),
        ),
        ("mi_eps", text.number(following)),
    )


def _group_by() -> Probe:
    from lessons.group_by import model

    def total(epsilon: float) -> str:
        return text.number(model.bounding(model.DEFAULT_L0, model.DEFAULT_LINF, epsilon).total)

    noise = dp.laplace_std(model.DEFAULT_L0 * model.DEFAULT_LINF, AFTER)
    return Probe(
        (
            Metric("Total error per clinic count", lambda: total(1.0), lambda: total(AFTER)),
            Metric("Noise SD per clinic, √2·L0·L∞/ε", lambda: "14.14", lambda: text.number(noise)),
        ),
        ("gb_eps", f"{AFTER:g}"),
    )


def _uncertainty() -> Probe:
    from lessons.uncertainty import model

    def noise(epsilon: float) -> str:
        return text.percent(model.noise_sd(model.DEFAULT_SAMPLE, epsilon))

    return Probe(
        (Metric("Noise SD, √2/(nε)", lambda: noise(1.0), lambda: noise(AFTER)),),
        ("unc_eps", f"{AFTER:g}"),
    )


def _epsilon_meaning() -> Probe:
    def advantage(epsilon: float) -> str:
        return text.percent(dp.advantage_bound(epsilon))

    return Probe(
        (
            Metric(
                "Any test's TPR − FPR: at most", lambda: advantage(1.0), lambda: advantage(AFTER)
            ),
        ),
        ("em_eps", f"{AFTER:g}"),
    )


def _census_topdown() -> Probe:
    from lessons.census_topdown import model

    after = model.RHOS[model.RHOS.index(model.DEFAULT_RHO) + 1]

    def epsilon(rho: float) -> str:
        return text.number(dp.zcdp_to_approx_dp(2 * rho, 1e-10))  # the exact total: 2ρ

    return Probe(
        (
            Metric(
                model.EPSILON_LABEL,
                lambda: epsilon(model.DEFAULT_RHO),
                lambda: epsilon(after),
            ),
        ),
        ("ct_rho", f"{after:g}"),
    )


def _counting_over_time() -> Probe:
    from lessons.counting_over_time import model

    def tree(epsilon: float) -> str:
        return text.number(
            math.sqrt(dp.binary_tree_variance(model.DEFAULT_DAY, model.HORIZON, epsilon))
        )

    return Probe(
        (
            Metric(
                f"Error SD on day {model.DEFAULT_DAY}: {model.TREE}",
                lambda: tree(1.0),
                lambda: tree(AFTER),
            ),
        ),
        ("ot_eps", f"{AFTER:g}"),
    )


def _subsampling() -> Probe:
    from lessons.subsampling import model

    def sampled(epsilon: float) -> str:
        return text.number(dp.subsampled_privacy(epsilon, 0.0, model.DEFAULT_RATE)[0])

    return Probe(
        (Metric("ε' on the sample", lambda: sampled(1.0), lambda: sampled(AFTER)),),
        ("ss_eps", f"{AFTER:g}"),
    )


def _renyi() -> Probe:
    from lessons.renyi import model

    def gaussian(alpha: float) -> str:
        return text.number(dp.rdp_gaussian(alpha, model.DEFAULT_SIGMA), 3)

    after = _following(model.ORDERS, model.DEFAULT_ORDER)
    return Probe(
        (Metric("Gaussian: ε(α)", lambda: gaussian(model.DEFAULT_ORDER), lambda: gaussian(after)),),
        ("rd_alpha", f"{after:g}"),
    )


def _holdout() -> Probe:
    from lessons.holdout import model

    def fresh(k: int) -> str:
        run = model.standard(model.BOTH)
        return text.percent(run.fresh[run.at(k)], 3)

    after = _following(model.KS, model.DEFAULT_K)
    return Probe(
        (
            Metric(
                "Fresh data",  # not section 2's "Fresh data, last"
                lambda: fresh(model.DEFAULT_K),
                lambda: fresh(after),
                whole_label=True,
            ),
        ),
        ("ho_k", f"{after:g}"),
    )


def _private_erm() -> Probe:
    from lessons.private_erm import model

    def objective(epsilon: float) -> str:
        point = model.point(model.OBJECTIVE, epsilon, model.DEFAULT_LAMBDA)
        return text.percent(point.mean, 3)

    after = _following(model.EPSILONS, model.DEFAULT_EPSILON)
    return Probe(
        (
            Metric(
                "Objective",
                lambda: objective(model.DEFAULT_EPSILON),
                lambda: objective(after),
                whole_label=True,
            ),
        ),
        ("erm_eps", f"{after:g}"),
    )


def _who_pays() -> Probe:
    from lessons.who_pays import model

    def useless(epsilon: float) -> str:
        return f"{len(model.useless_groups(epsilon))} of {len(model.rich_counts())}"

    after = _following(model.EPSILONS, model.DEFAULT_EPSILON)
    return Probe(
        (
            Metric(
                "Counts at least half noise",
                lambda: useless(model.DEFAULT_EPSILON),
                lambda: useless(after),
            ),
        ),
        ("wp_eps", f"{after:g}"),
    )


def _floating_point() -> Probe:
    from lessons.floating_point import model
    from ui.controls import DEFAULT_SEED

    def named(epsilon: float) -> str:
        return text.percent(
            model.textbook_attack(epsilon, DEFAULT_SEED + model.SEED_TEXTBOOK).named
        )

    return Probe(
        (Metric("Outputs that name their count", lambda: named(1.0), lambda: named(AFTER)),),
        ("fp_eps", f"{AFTER:g}"),
    )


def _beyond_k_anonymity() -> Probe:
    from lessons.beyond_k_anonymity import model

    after = model.AGE_BANDS[model.AGE_BANDS.index(model.DEFAULT_AGE_BAND) + 1]

    def classes(band: int) -> str:
        return model.lost_detail(
            band, model.DEFAULT_ZIP_DIGITS, True, model.DEFAULT_MIN_CLASS, model.DEFAULT_SENSITIVE
        )["classes"]

    return Probe(
        (
            Metric(
                "Classes",
                lambda: classes(model.DEFAULT_AGE_BAND),
                lambda: classes(after),
                whole_label=True,
            ),
        ),
        ("bk_age", f"{after:g}"),
    )


def _choosing() -> Probe:
    from lessons.choosing import model
    from ui.datasets import load_census

    following = _following(model.EPSILONS, model.DEFAULT_EPSILON)

    def chance(epsilon: float) -> str:
        counts = load_census()["Occupation"].value_counts(dropna=True).to_numpy()
        return text.percent(dp.report_noisy_max_probabilities(counts, epsilon)[0])

    return Probe(
        (
            Metric(
                "Chance the true winner",
                lambda: chance(model.DEFAULT_EPSILON),
                lambda: chance(following),
            ),
        ),
        ("choose_eps", text.number(following)),
    )


def _beyond_global() -> Probe:
    from lessons.beyond_global import model

    following = _following(model.EPSILONS, model.DEFAULT_EPSILON)

    def scale(epsilon: float) -> str:
        ages = model.ages(model.DEFAULT_SIZE)
        return model.years(dp.smooth_median_scale(ages, 0, 100, epsilon, model.DELTA))

    return Probe(
        (
            Metric(
                "Noise scale 2S/ε",
                lambda: scale(model.DEFAULT_EPSILON),
                lambda: scale(following),
            ),
        ),
        ("bg_eps", text.number(following)),
    )


def _sparse_vector() -> Probe:
    from lessons.sparse_vector import model

    following = _following(model.EPSILONS, model.DEFAULT_EPSILON)

    def never(epsilon: float) -> str:
        answers = model.queries().answers
        return text.percent(dp.above_threshold_probabilities(answers, 1000.0, epsilon)[-1])

    return Probe(
        (Metric("Never stops", lambda: never(model.DEFAULT_EPSILON), lambda: never(following)),),
        ("svt_eps", text.number(following)),
    )


def _synthetic() -> Probe:
    from lessons.synthetic import model
    from ui import controls

    following = _following(model.EPSILONS, model.DEFAULT_EPSILON)

    def error(epsilon: float) -> str:
        seed = controls.DEFAULT_SEED + model.SEED_MWEM
        release = model.mwem(model.DEFAULT_COLUMNS, epsilon, model.DEFAULT_ROUNDS, seed)
        high, _ = model.workload_error(model.DEFAULT_COLUMNS, release.counts)
        return f"{text.number(high)} people"

    return Probe(
        (
            Metric(
                "MWEM two-way error, largest",
                lambda: error(model.DEFAULT_EPSILON),
                lambda: error(following),
            ),
        ),
        ("syn_eps", text.number(following)),
    )


def _coin_flip() -> Probe:
    def epsilon(honest: float) -> str:
        return text.number(dp.rr_epsilon(*dp.coin_flip_probabilities(honest, 0.5)))

    # h: 0.5 -> 0.55 (the slider's step). ("Privacy loss ε (fair coins)" is another metric.)
    return Probe(
        (Metric("Privacy loss ε", lambda: epsilon(0.5), lambda: epsilon(0.55), whole_label=True),),
        ("cf_honest", "0.55"),
    )


def _binary_rr() -> Probe:
    # p: 0.75 -> 0.76 with q = 0.75.
    return Probe(
        (
            Metric(
                "Privacy loss ε",
                lambda: text.number(math.log(3)),
                lambda: text.number(dp.rr_epsilon(0.76, 0.75)),
                exact=False,
            ),
        ),
        ("brr_p", "0.76"),
    )


def _kary_rr() -> Probe:
    # ε: 0.5 -> 0.7, the next value of the ε grid.
    return Probe(
        (
            Words("30,718", 0),
            Metric(
                "Keep the truth p",
                lambda: text.number(dp.grr_probabilities(0.5, 14)[0]),
                lambda: text.number(dp.grr_probabilities(0.7, 14)[0]),
                exact=False,
            ),
            Words("(ε = 0.7)", 1),
        ),
        ("kary_eps", "0.7"),
    )


def _unary_encoding() -> Probe:
    # p: 0.75 -> 0.76 with q = 0.25; ε = ln 9 = 2.197 before.
    return Probe(
        (
            Metric(
                "Privacy loss ε",
                lambda: text.number(dp.ue_epsilon(0.75, 0.25)),
                lambda: text.number(dp.ue_epsilon(0.76, 0.25)),
                exact=False,
            ),
            Words("(p = 0.76, q = 0.25)", 1),
        ),
        ("ue_p", "0.76"),
    )


def _large_domains() -> Probe:
    from lessons.large_domains import model

    following = _following(model.EPSILONS, model.DEFAULT_EPSILON)

    def k_star(epsilon: float) -> str:
        return text.number(3 * math.exp(epsilon) + 2)

    return Probe(
        (
            Metric(
                "GRR beats OUE below k* =",
                lambda: k_star(model.DEFAULT_EPSILON),
                lambda: k_star(following),
            ),
        ),
        ("ld_eps", text.number(following)),
    )


def _central_vs_local() -> Probe:
    def ratio(epsilon: float) -> str:
        return f"about {dp.local_to_central_error_ratio(32_561, epsilon):,.0f}×"

    return Probe(
        (Metric("Local is worse here by", lambda: ratio(1.0), lambda: ratio(AFTER), False),),
        ("cvl_eps", f"{AFTER:g}"),
    )


def _private_ml() -> Probe:
    from ui import rr_training as model

    def true_accuracy() -> str:
        return text.percent(model.reference_models((), 2026)["true"]["accuracy"])

    def privatized_accuracy() -> str:
        seed = 2026 + model.SEED_PRIVATIZE
        here = model.privatized_model((), model.GRR, AFTER, 2026, seed)
        return text.percent(here["accuracy"])

    return Probe(
        (
            Metric("(a) true table", true_accuracy, lambda: None, exact=False),
            Metric(
                "ε′ per privatized column", lambda: "1", lambda: text.number(AFTER), exact=False
            ),
            Metric("(b) privatized table", lambda: None, privatized_accuracy, exact=False),
            Words("Accuracy gap, women − men", 1),
        ),
        ("pml_eps", f"{AFTER:g}"),
    )


def _dpsgd() -> Probe:
    from lessons.dpsgd import model

    following = _following(model.SIGMAS, model.DEFAULT_SIGMA)
    return Probe(
        (
            Metric(
                "Noise per coordinate, σC",
                lambda: text.number(model.DEFAULT_SIGMA * model.DEFAULT_CLIP),
                lambda: text.number(following * model.DEFAULT_CLIP),
            ),
        ),
        ("dps_step_sigma", text.number(following)),
    )


PROBES: dict[str, Probe] = {
    "renyi": _renyi(),
    "holdout": _holdout(),
    "private_erm": _private_erm(),
    "who_pays": _who_pays(),
    "anonymisation": _anonymisation(),
    "reconstruction": _reconstruction(),
    "definition": _definition(),
    "laplace": _laplace(),
    "clamping": _clamping(),
    "composition": _composition(),
    "approximate_dp": _approximate_dp(),
    "membership": _membership(),
    "choosing": _choosing(),
    "beyond_global": _beyond_global(),
    "sparse_vector": _sparse_vector(),
    "synthetic": _synthetic(),
    "coin_flip": _coin_flip(),
    "binary_rr": _binary_rr(),
    "kary_rr": _kary_rr(),
    "unary_encoding": _unary_encoding(),
    "large_domains": _large_domains(),
    "central_vs_local": _central_vs_local(),
    "private_ml": _private_ml(),
    "dpsgd": _dpsgd(),
    "group_by": _group_by(),
    "uncertainty": _uncertainty(),
    "epsilon_meaning": _epsilon_meaning(),
    "census_topdown": _census_topdown(),
    "counting_over_time": _counting_over_time(),
    "subsampling": _subsampling(),
    "floating_point": _floating_point(),
    "beyond_k_anonymity": _beyond_k_anonymity(),
}
