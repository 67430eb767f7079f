"""Lesson: beyond global sensitivity — local and smooth sensitivity, propose-test-release,
sample-and-aggregate."""

import streamlit as st

from lessons.beyond_global import charts, model, snippets
from lessons.catalogue import LESSONS
from ui import controls, downloads, notebook, quiz, text, userdata

controls.lesson_header(
    "Beyond global sensitivity",
    "A median has a huge global sensitivity: replace one person and the median of ages "
    "clamped to 0–100 can, on some dataset, jump by 100 years. On real data it hardly moves. "
    "You see how little it moves on census groups, why scaling the noise to that (the local "
    "sensitivity) gives the data away, and three ways that are private: smooth sensitivity, "
    "propose-test-release, and sample-and-aggregate for a statistic with no useful bound.",
)
userdata.census_only_notice("its groups are census people and their ages.")
st.markdown(
    "Throughout, neighbours **replace one person** (n is public), the relation of Nissim, "
    "Raskhodnikova & Smith (2007). Sorted and clamped, x₁ ≤ … ≤ xₙ, the median is xₘ with "
    "m = ⌈n/2⌉."
)


@st.fragment
def around_median(size: int, sens) -> None:
    """The sorted ages around the median (a fragment: opening its numbers reruns only this
    chart, not the page its slider drives)."""
    charts.around_median().show(
        title=f"The ages around the median, {model.people(size)}",
        alt=(
            f"Points for the sorted ages of {model.people(size)} at ranks up to "
            f"{model.WINDOW} either side of the median, on a fixed 0–100 axis. The median is "
            f"{text.number(sens.median)}; its neighbours in age order differ from it by at most "
            f"{model.years(sens.local)}, the local sensitivity."
        ),
        ages=model.around_median(size),
        median=model.median_rule(size),
    )


# --- 1. Global versus local ----------------------------------------------------------------------
st.header("1. Global versus local sensitivity")
group_column, chart_column = st.columns([2, 3], vertical_alignment="top")
with group_column:
    size = controls.number_slider(
        "People in the group  (more → the median moves less)",
        model.SIZES,
        model.DEFAULT_SIZE,
        format_func=model.people,
        key="bg_n",
        kind=int,
    )
    sens = model.sensitivities(size)
    st.metric("Median age", text.number(sens.median))
    st.metric("Global sensitivity (any dataset)", model.years(sens.global_))
    st.metric("Local sensitivity (this dataset)", model.years(sens.local))
with chart_column:
    around_median(size, sens)
notebook.latex(r"LS(x) = \max\big(x_{m+1} - x_m,\; x_m - x_{m-1}\big)")
st.markdown(
    "Replacing one person can only push the median to the next value up or down: the "
    f"**local sensitivity** here is {model.years(sens.local)}, against a global "
    f"sensitivity of {text.number(sens.global_)} (the dataset with half the people at 0 and "
    "half at 100). The global bound must hold for every dataset; this one is far from that."
)

# --- 2. Why local sensitivity alone leaks --------------------------------------------------------
st.header("2. Why local sensitivity alone leaks")
leak = model.leak()
x_text = ", ".join(text.number(v) for v in model.PAIR_X)
y_text = ", ".join(text.number(v) for v in model.PAIR_Y)
st.markdown(
    f"Two neighbouring datasets of seven ages: **x** = ({x_text}) and **y** = ({y_text}), "
    f"where one 80 was replaced by 30. Both have median {text.number(leak.median)}. Their "
    f"local sensitivities are **{text.number(leak.local_x)}** and "
    f"**{text.number(leak.local_y)}**. Release median + Lap(LS/ε) at ε = "
    f"{text.number(model.LEAK_EPSILON)}."
)


LEAK_OPTIONS = (
    "Never: both have the same median",
    "Often: the noise scale gives it away",
    "Only with many releases",
)


@st.fragment
def why_local_leaks() -> None:
    """The prediction, then both datasets' releases and the audit (a fragment)."""
    guess, revealed = quiz.prediction(
        "someone sees one release. Can they tell whether it came from x or y?",
        LEAK_OPTIONS,
        guess_key="bg_leak_guess",
        button="Show the releases",
        button_key="bg_leak_show",
        revealed_key="bg_leak_revealed",
        what="the releases",
    )
    if not revealed:
        return
    quiz.prediction_verdict(
        guess,
        LEAK_OPTIONS,
        1,
        f"y's local sensitivity is {text.number(leak.local_y)}, so its release carries no "
        f"noise at all, while x's has scale {text.number(leak.local_x / model.LEAK_EPSILON)}: "
        "one release almost always tells them apart (below).",
    )
    charts.leak().show(
        title="Releases of median + Lap(LS/ε): x against y",
        alt=(
            f"The density of x's release: Laplace around {text.number(leak.median)} with "
            f"scale {text.number(leak.local_x / model.LEAK_EPSILON)}, over ages 0 to 100. "
            f"y's local sensitivity is 0, so its release is always exactly "
            f"{text.number(leak.median)} (a dashed line)."
        ),
        density=model.leak_densities(),
        truth=model.leak_spike(),
    )
    st.markdown(
        f"**Often, in fact always.** y's release is exactly {text.number(leak.median)} every "
        f"time; x's almost never is ({text.percent(leak.exact_on_x)} of "
        f"{text.number(model.LEAK_RUNS)} runs). One release tells them apart: an audit of "
        f"{text.number(model.LEAK_RUNS)} runs each proves ε ≥ {text.number(leak.measured)}, "
        "the most that many runs can show; the truth is ε = ∞. The noise scale is computed "
        "from the data, so it is itself a release, and not a private one."
    )


why_local_leaks()

# --- 3. Smooth sensitivity -----------------------------------------------------------------------
st.header("3. Smooth sensitivity")
st.markdown(
    "The fix (Nissim, Raskhodnikova & Smith 2007): look at the local sensitivity of every "
    "dataset k replacements away, A⁽ᵏ⁾(x), and discount it by $e^{−kβ}$. The result, S, "
    "changes by at most a factor $e^β$ between neighbours, so the noise scale no longer "
    "gives the data away:"
)
notebook.latex(
    r"""\begin{aligned}
    A^{(k)}(x) &= \max_{0 \le t \le k+1} \big(x_{m+t} - x_{m+t-k-1}\big), \\
    S_\beta(x) &= \max_{k \ge 0} e^{-k\beta} A^{(k)}(x), \qquad
      \beta = \frac{\varepsilon}{2 \ln(2/\delta)}, \\
    M(x) &= x_m + \mathrm{Lap}\big(2 S_\beta(x) / \varepsilon\big)
      \quad\text{is } (\varepsilon, \delta)\text{-DP.}
    \end{aligned}"""
)


@st.fragment
def smooth_sensitivity(size: int) -> None:
    """ε beside the A^(k) curves and the three medians' errors (a fragment)."""
    control_column, chart_column = st.columns([2, 3], vertical_alignment="top")
    with control_column:
        epsilon = controls.epsilon_slider(
            key="bg_eps", default=model.DEFAULT_EPSILON, options=model.EPSILONS
        )
        result = model.smooth(size, epsilon)
        st.metric("β = ε / (2 ln(2/δ))", text.number(result.beta))
        st.metric("Smooth sensitivity S", model.years(result.smooth))
        st.metric("Noise scale 2S/ε", model.years(result.scale))
        st.caption(
            f"δ = {text.power_of_ten(model.DELTA)}. Group: {model.people(size)} (section 1). Local "
            f"sensitivity {text.number(model.sensitivities(size).local)}, global "
            f"{text.number(model.GLOBAL)}."
        )
    with chart_column:
        charts.smooth_curves().show(
            title=[
                f"A⁽ᵏ⁾ and its discounted version, {model.people(size)}, ε = "
                f"{text.number(epsilon)}",
                f"◆ smooth sensitivity S = {text.number(result.smooth)}",
            ],
            alt=(
                f"Two lines against k from 0 to {int(result.curves['k'].max())}: the local "
                "sensitivity "
                f"k replacements away, A⁽ᵏ⁾, rising from "
                f"{text.number(model.sensitivities(size).local)}, and A⁽ᵏ⁾ discounted by "
                "e to the power −kβ, with β = "
                f"{text.number(result.beta)}; its maximum, the smooth sensitivity, is "
                f"{text.number(result.smooth)}."
            ),
            curves=result.curves,
            peak=model.peak_frame(result),
        )
    snippets.SMOOTH.show(size=size, epsilon=epsilon)
    downloads.download_csv(result.curves, filename="smooth-sensitivity.csv", key="bg_dl_smooth")

    frame = model.errors(epsilon)
    n = model.sensitivities(size).n
    name, best = model.winner(frame, n)
    charts.errors_by_n().show(
        title=f"Typical error of three private medians at ε = {text.number(epsilon)}",
        alt=(
            f"Three lines against the group size from 11 to 32,561 (log axes): the typical "
            f"error of the Laplace median with global sensitivity, the exponential "
            f"mechanism and the smooth median, at ε = {text.number(epsilon)}. At n = "
            f"{text.number(n)} the {name} wins with {model.years(best)}."
        ),
        errors=frame,
        truth=model.n_rule(n, charts.n_label_at_bottom(frame, n, model.n_label(n))),
    )
    st.caption(
        "Typical error: the root-mean-square error, exact for each method (no simulation). "
        "Errors below 0.001 years are drawn at 0.001."
    )
    rows = model.errors_at(frame, n)
    choosing = next(lesson for lesson in LESSONS if lesson.folder == "choosing")
    st.markdown(
        f"**Who wins.** At n = {text.number(n)} and ε = {text.number(epsilon)}: "
        f"global Laplace {text.number(rows[model.METHODS[0]])} years, the exponential "
        f"mechanism {text.number(rows[model.METHODS[1]])}, the smooth median "
        f"{text.number(rows[model.METHODS[2]])}; the **{name}** wins. "
        + model.smooth_against_global(size, epsilon)
        + " Ages are whole years with many ties, which suits the exponential mechanism of "
        f"*{choosing.title}*: its candidates are the 101 whole ages, scored by how many "
        "people lie on each side. Smooth sensitivity earns its keep for statistics with no "
        "such candidate set."
    )
    controls.page_link(choosing.path, label=f"Back to {choosing.title}", icon=choosing.icon)
    downloads.download_csv(frame, filename="median-errors.csv", key="bg_dl_errors")


smooth_sensitivity(size)

# --- 4. Propose-test-release ---------------------------------------------------------------------
st.header("4. Propose-test-release")
st.markdown(
    "Another way (Dwork & Lei 2009; Dwork & Roth §7.3): **propose** a bound b on the local "
    "sensitivity; **test** how many people must be replaced before some dataset's local "
    "sensitivity exceeds b, the distance to instability d (it moves by at most 1 between "
    "neighbours, so a noisy d is ε-DP); **release** the median with Lap(b/ε) only if the "
    "noisy distance is safely above 0:"
)
notebook.latex(
    r"\text{refuse if } d + \mathrm{Lap}(1/\varepsilon) \le \frac{\ln(1/\delta)}{\varepsilon},"
    r"\qquad \text{else release } x_m + \mathrm{Lap}(b/\varepsilon)",
    narrow=r"""\begin{aligned}
    &\text{refuse if } d + \mathrm{Lap}(1/\varepsilon) \le \frac{\ln(1/\delta)}{\varepsilon},\\
    &\text{else release } x_m + \mathrm{Lap}(b/\varepsilon)
    \end{aligned}""",
)


@st.fragment
def propose_test_release(size: int) -> None:
    """The bound and ε beside the chance of refusing (a fragment)."""
    control_column, chart_column = st.columns([2, 3], vertical_alignment="top")
    with control_column:
        bound = controls.number_slider(
            "Proposed bound b  (larger → passes more often, more noise)",
            model.BOUNDS,
            model.DEFAULT_BOUND,
            key="bg_bound",
        )
        epsilon = controls.epsilon_slider(
            key="bg_ptr_eps",
            default=model.DEFAULT_EPSILON,
            options=model.EPSILONS,
            label="ε for each of the test and the release",
        )
        result = model.ptr(size, bound, epsilon, controls.seed() + model.SEED_PTR)
        st.metric("Distance to instability d", text.number(result.distance))
        st.metric("Test threshold ln(1/δ)/ε", text.number(result.threshold))
        st.metric("Chance of refusing", text.percent(result.refusal))
        st.metric(
            "This run's output",
            "⊥ refused" if result.release is None else text.number(result.release),
        )
    with chart_column:
        charts.refusal().show(
            title=f"How often PTR refuses, {model.people(size)}, ε = {text.number(epsilon)}",
            alt=(
                f"The exact chance that propose-test-release refuses, against the proposed "
                f"bound from {text.number(model.BOUNDS[0])} to "
                f"{text.number(model.BOUNDS[-1])} years, for {model.people(size)} at ε = "
                f"{text.number(epsilon)} and δ = {text.power_of_ten(model.DELTA)}. At b = "
                f"{text.number(bound)}: distance {text.number(result.distance)}, refusal "
                f"{text.percent(result.refusal)}."
            ),
            curve=result.curve,
            truth=model.bound_rule(
                bound,
                charts.bound_label_at_bottom(result.curve, bound, model.bound_label(bound)),
            ),
        )
    st.markdown(
        f"The threshold ln(1/δ)/ε = {text.number(result.threshold)} is where a dataset right "
        "at the edge (d = 0) passes with chance only δ/2: the test's noise would have to "
        f"exceed it. Here d = {text.number(result.distance)}. **A refusal is an output "
        "too**: it tells that the data may be unstable, and it is covered by the same "
        "guarantee. In all, PTR is **(2ε, δ)-DP**: ε for the noisy test, ε for the release, "
        "and δ for the chance of passing a test it should have failed (Dwork & Roth, §7.3)."
    )
    snippets.PTR.show(size=size, epsilon=epsilon, bound=bound)
    downloads.download_csv(result.curve, filename="ptr-refusal.csv", key="bg_dl_ptr")


propose_test_release(size)

# --- 5. Sample-and-aggregate ---------------------------------------------------------------------
st.header("5. Sample-and-aggregate")
data, truth = model.hours_on_age()
st.markdown(
    "Some statistics have no useful sensitivity bound at all, like a **least-squares "
    "slope**: how many more hours a week people work per year of age. One person far out "
    "can tilt it arbitrarily. Sample-and-aggregate (NRS §4) splits the people into k "
    "disjoint blocks, computes the slope in each, clamps each to "
    f"[{text.number(model.SLOPE_LOW)}, {text.number(model.SLOPE_HIGH)}] and releases the "
    "noisy mean of the k slopes: one person is in one block, so the mean moves by at most "
    f"{text.number(model.SLOPE_HIGH - model.SLOPE_LOW)}/k. On all {text.number(len(data))} "
    f"census people the slope is {text.number(truth)} hours a week per year."
)


@st.fragment
def sample_and_aggregate() -> None:
    """k and ε beside the error against k (a fragment)."""
    control_column, chart_column = st.columns([2, 3], vertical_alignment="top")
    with control_column:
        k = controls.number_slider(
            "Blocks k  (more → less noise, but each block's slope is worse)",
            model.BLOCKS,
            model.DEFAULT_BLOCKS,
            key="bg_k",
            kind=int,
        )
        epsilon = controls.epsilon_slider(
            key="bg_sa_eps",
            default=model.DEFAULT_EPSILON,
            options=model.EPSILONS,
            label="ε for the slope",
        )
        frame = model.aggregate_errors(epsilon)
        at_k, best_k = model.aggregate_at(epsilon, k)
        release = model.one_release(k, epsilon, controls.seed() + model.SEED_SPLIT)
        st.metric("One private release of the slope", text.number(release))
        st.metric("Typical error at this k", text.number(at_k["total"]))
        st.metric("The best k at this ε", text.number(best_k))
    with chart_column:
        charts.errors_by_k().show(
            title=f"Sample-and-aggregate: error against k at ε = {text.number(epsilon)}",
            alt=(
                f"Three lines against the number of blocks from {model.BLOCKS[0]} to "
                f"{text.number(model.BLOCKS[-1])} (log axes): the noise, the blocks' own "
                f"error and their total, for the slope of hours on age at ε = "
                f"{text.number(epsilon)}. At k = {text.number(k)} the total is "
                f"{text.number(at_k['total'])}; the best k is {text.number(best_k)}."
            ),
            errors=frame,
            truth=model.k_rule(k),
        )
    own = at_k["the blocks' own error"]
    st.markdown(
        f"More blocks divide the noise by k (Lap({text.number(model.SLOPE_HIGH - model.SLOPE_LOW)}"
        f"/(kε))), but each block then has fewer people and a worse slope of its own: at "
        f"k = {text.number(k)} the noise is {text.number(at_k['noise'])} and the blocks' own "
        f"error {text.number(own)}. The best trade-off at ε = "
        f"{text.number(epsilon)} is k = {text.number(best_k)}."
    )
    downloads.download_csv(frame, filename="sample-and-aggregate.csv", key="bg_dl_sa")


sample_and_aggregate()

quiz.check_yourself(
    "beyond_global",
    quiz.bank(__file__, "beyond_global"),
)
