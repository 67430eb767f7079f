"""Lesson: uncertainty in a DP answer — sampling error and privacy noise together, how often
an interval holds the truth, and the biases no interval shows."""

import streamlit as st

from lessons.uncertainty import charts, model, snippets
from ui import controls, downloads, notebook, quiz, text, userdata

controls.lesson_header(
    "Uncertainty in DP answers",
    "A released number has two errors: the survey only asked some people, and DP added "
    "noise. You release the share of a survey that earns more than \\$50K, see the interval "
    "that covers both errors beside the ones that cover only one, count over 1,000 seeded "
    "surveys how often each really holds the truth, and then meet three biases that no "
    "interval shows: clamping, clipping counts at zero, and a mean computed as a ratio.",
)
userdata.census_only_notice(
    "its population is the census's 32,561 people and its question their income."
)
pop = model.population()

# --- 1. Two sources of error ----------------------------------------------------------------
st.header("1. Two sources of error")
st.markdown(
    f"The population is the census: {pop.people:,} people, of whom {pop.earners:,} "
    f"(**{text.percent(pop.share)}**) earn more than \\$50K. A survey asks a simple random "
    "sample of n of them and releases the sample's share with Laplace noise on its count. "
    "Neighbours differ in one person of the sample, so the count's sensitivity is 1:"
)
notebook.latex(
    r"""\begin{aligned}
    \hat p &= \frac{c + \mathrm{Lap}(1/\varepsilon)}{n}, \qquad
    \sigma_{\text{sampling}} = \sqrt{\frac{p(1-p)}{n} \cdot \frac{N-n}{N-1}}, \qquad
    \sigma_{\text{noise}} = \frac{\sqrt 2}{n\varepsilon}, \\
    \hat p \pm t, &\quad \Pr\big[|Z + L| \le t\big] = 95\%, \quad
    Z \sim \mathcal N(0, \sigma_{\text{sampling}}^2),\
      L \sim \mathrm{Lap}\big(\tfrac{1}{n\varepsilon}\big).
    \end{aligned}""",
    narrow=r"""\begin{aligned}
    \hat p &= \frac{c + \mathrm{Lap}(1/\varepsilon)}{n}, \\
    \sigma_{\text{sampling}} &= \sqrt{\frac{p(1-p)}{n} \cdot \frac{N-n}{N-1}}, \\
    \sigma_{\text{noise}} &= \frac{\sqrt 2}{n\varepsilon}, \\
    \hat p \pm t:&\ \Pr\big[|Z + L| \le t\big] = 95\%.
    \end{aligned}""",
)
st.caption(
    "Z: the sampling error (normal, for a sample this size), L: the privacy noise on the "
    "share; the two are independent. The sampling SD is estimated from the release itself "
    "(post-processing), as an analyst would."
)


@st.fragment
def two_errors() -> None:
    """n and ε beside the three intervals; the prediction above them."""
    predict = st.container()
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        n = controls.number_slider(
            "People in the survey n  (more → less sampling error and less noise per share)",
            model.SAMPLE_SIZES,
            model.DEFAULT_SAMPLE,
            key="unc_n",
            kind=int,
        )
        epsilon = controls.epsilon_slider(key="unc_eps")
        result = model.survey(n, epsilon, controls.seed() + model.SEED_SURVEY)
        low, high = result.intervals[model.COMBINED]
        st.metric("Released share earning >50K", text.percent(result.release))
        st.metric("Sampling SD (estimated)", text.percent(result.sampling_sd))
        st.metric("Noise SD, √2/(nε)", text.percent(model.noise_sd(n, epsilon)))
        st.metric("95% interval, both errors: ±", text.percent((high - low) / 2))
    with chart_column:
        charts.intervals().show(
            title=f"One survey of {n:,} people at ε = {text.number(epsilon)}",
            alt=(
                f"Three 95% intervals around the released share {text.percent(result.release)} "
                f"(a survey of {n:,} at ε = {text.number(epsilon)}): both errors "
                f"{_interval(result, model.COMBINED)}, noise only "
                f"{_interval(result, model.NOISE_ONLY)}, sampling only "
                f"{_interval(result, model.SAMPLING_ONLY)}. The population's share "
                f"{text.percent(pop.share)} is a dashed line."
            ),
            intervals=model.interval_frame(n, epsilon, controls.seed() + model.SEED_SURVEY),
            truth=model.truth_rule(),
        )
    which, factor = model.dominant(n, epsilon)
    st.markdown(
        f"**Which error dominates here.** At n = {n:,} and ε = {text.number(epsilon)} the "
        f"{'sampling error' if which == 'sampling' else 'privacy noise'} is "
        f"{text.number(factor, 3)} times the "
        f"{'privacy noise' if which == 'sampling' else 'sampling error'} (SDs at the "
        f"population's share). The interval for both is never narrower than the larger one "
        "alone, and narrower than the two added together: errors that are independent partly "
        "cancel."
    )
    with predict:
        quiz.predict_first(
            "uncertainty_predict",
            [
                quiz.Question(
                    f"A survey of n = {n:,} at ε = {text.number(epsilon)}. Which error is larger?",
                    model.WHICH_LARGER,
                    correct=model.which_larger(n, epsilon),
                    explanation=(
                        f"Sampling SD {text.percent(model.population_sampling_sd(n))}, noise SD "
                        f"√2/(nε) = {text.percent(model.noise_sd(n, epsilon))}. Both shrink "
                        "with n, but the noise like 1/n and the sampling error like 1/√n: a "
                        "large survey hides the noise, a small one at a small ε is all noise."
                    ),
                ),
            ],
        )
    snippets.SURVEY.show(n=n, epsilon=epsilon, seed=controls.seed() + model.SEED_SURVEY)
    downloads.download_csv(
        model.interval_frame(n, epsilon, controls.seed() + model.SEED_SURVEY),
        filename="uncertainty-intervals.csv",
        key="unc_dl_intervals",
    )


def _interval(result, kind: str) -> str:
    low, high = result.intervals[kind]
    return f"{text.percent(low)} to {text.percent(high)}"


two_errors()

# --- 2. Coverage, measured -------------------------------------------------------------------
st.header("2. Coverage, measured")
st.markdown(
    f"A 95% interval should hold the truth in 95% of surveys. Here {model.REPEATS:,} seeded "
    "surveys of the same size, each with its own sample and its own noise, each with its "
    "three intervals: how often did each hold the population's share?"
)


@st.fragment
def measured_coverage() -> None:
    """n and ε beside how often each interval held the truth."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        n = controls.number_slider(
            "People in each survey n  (more → less sampling error)",
            model.SAMPLE_SIZES,
            model.DEFAULT_SAMPLE,
            key="unc_cov_n",
            kind=int,
        )
        epsilon = controls.epsilon_slider(key="unc_cov_eps", label="ε of each release")
        frame = model.coverage(n, epsilon, controls.seed() + model.SEED_COVERAGE)
        held = dict(zip(frame["interval"], frame["coverage"], strict=True))
        for kind in model.KINDS:
            st.metric(f"Held the truth: {kind}", text.percent(held[kind]))
    with chart_column:
        charts.coverage().show(
            title=f"{model.REPEATS:,} surveys of {n:,} at ε = {text.number(epsilon)}",
            alt=(
                f"Bars: how often each 95% interval held the population's share over "
                f"{model.REPEATS:,} surveys of {n:,} at ε = {text.number(epsilon)}: "
                f"{'; '.join(f'{kind} {text.percent(held[kind])}' for kind in model.KINDS)}. "
                "The nominal 95% is a dashed line."
            ),
            coverage=frame,
            truth=model.nominal_rule(),
        )
    st.markdown(model.coverage_words(frame, n, epsilon))


measured_coverage()

# --- 3. Bias that no interval shows ----------------------------------------------------------
st.header("3. Bias that no interval shows")
st.markdown(
    "An interval describes *random* error around the release. Three things a pipeline does "
    "move the release itself, the same way every time, and no interval built from the noise "
    "shows them:"
)
st.markdown(
    "**Clamping** (\u201cSensitivity and clamping\u201d): values clamped into [L, U] before a "
    "sum make it too small when people lie above U. The noise is calibrated to the clamped "
    "data, so the interval is centred on the wrong value."
)
st.markdown(
    "**Clipping counts at zero.** A noisy count can be negative; printing max(count, 0) "
    "looks tidier and is post-processing (free), but it raises small counts on average:"
)
notebook.latex(
    r"\mathbb{E}\big[\max(c + \mathrm{Lap}(b), 0)\big] - c = \tfrac{b}{2}\, e^{-c/b}"
    r"\quad (c \ge 0,\ b = 1/\varepsilon)."
)


@st.fragment
def clipping_bias() -> None:
    """ε beside the average clipped release against the true count, and the census's small
    cells."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        epsilon = controls.epsilon_slider(key="unc_clip_eps", label="ε of each count")
        scale = 1 / epsilon
        cells = model.small_cells(epsilon)
        st.metric("Bias at a true zero, b/2", text.number(scale / 2))
        st.metric(
            f"People clipping adds to the {cells.small} cells under {model.SMALL}",
            text.number(cells.added),
        )
    with chart_column:
        charts.clipping().show(
            title=f"What clipping at 0 adds to a count, ε = {text.number(epsilon)}",
            alt=(
                f"A line over true counts 0 to {model.SMALL_COUNTS[-1]} of how many people "
                f"clipping the noisy count at 0 adds on average at ε = {text.number(epsilon)}: "
                f"{text.number(scale / 2)} at 0 and {text.number(model.clip_bias(3, epsilon))} "
                f"at 3, on a log scale; {_negligible(epsilon)}."
            ),
            bias=model.clipping_frame(epsilon),
        )
    st.markdown(
        f"The census has {cells.cells} occupation × native-country cells; {cells.small} of "
        f"them hold fewer than {model.SMALL} people ({cells.people:,} people in all). Noisy "
        f"counts clipped at 0 add **{text.number(cells.added)}** people to them on average at "
        f"ε = {text.number(epsilon)}: small cells come out too big, and their sum more so."
    )


def _negligible(epsilon: float) -> str:
    count = model.negligible_from(epsilon)
    if count is None:
        return f"still at least {text.number(model.ADDED_FLOOR)} at {model.SMALL_COUNTS[-1]}"
    return f"less than {text.number(model.ADDED_FLOOR)} from a count of {count}"


clipping_bias()

st.markdown(
    "**A mean as a ratio.** A mean released as (noisy sum) ÷ (noisy count), half the budget "
    "each, is not an unbiased estimate of the mean even though both parts are: dividing by a "
    "noisy number is not linear, and a count near zero makes the ratio swing."
)


@st.fragment
def ratio_bias() -> None:
    """The group's size and ε beside the ratio estimate's average and its bias."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        n = controls.number_slider(
            "People in the group  (more → the noisy count is further from zero)",
            model.GROUP_SIZES,
            model.DEFAULT_GROUP,
            key="unc_group",
            kind=int,
        )
        epsilon = controls.epsilon_slider(key="unc_ratio_eps", label="ε of the mean")
        result = model.ratio_mean(n, epsilon, controls.seed() + model.SEED_RATIO)
        st.metric("True mean age of the group", text.number(result.true_mean))
        st.metric(f"Average of {model.RATIO_DRAWS:,} ratio releases", text.number(result.average))
    curve = model.ratio_curve(epsilon, controls.seed() + model.SEED_RATIO)
    with chart_column:
        charts.ratio_bias().show(
            title=charts.ratio_bias_title(curve, epsilon),
            alt=(
                f"The bias of the mean age released as noisy sum ÷ noisy count at ε = "
                f"{text.number(epsilon)}, for groups of "
                f"{', '.join(f'{size:,}' for size in model.GROUP_SIZES)} people: "
                f"{', '.join(text.signed(bias) for bias in curve['bias'])} years. Your group "
                f"of {n:,} is marked."
            ),
            curve=curve,
            truth=model.group_rule(n, charts.group_label_at_bottom(curve, n, model.group_label(n))),
        )
    st.markdown(
        f"For {n:,} people at ε = {text.number(epsilon)} the ratio is off by "
        f"{text.signed(result.bias)} years on average (±\u00a0{text.number(2 * result.se, 2)}, two "
        f"standard errors of {model.RATIO_DRAWS:,} seeded releases). Ages are clamped to "
        f"[0, {model.AGE_BOUND:g}], so the sum gets Lap({model.AGE_BOUND:g}/(ε/2)) and the "
        "count Lap(1/(ε/2)); a noisy count below ½ is taken as ½ (a group has at least one "
        f"person). {model.ratio_verdict(curve, epsilon)} Where it does not, report the sum and "
        "the count, or use a method built for means."
    )
    snippets.RATIO.show(n=n, epsilon=epsilon, seed=controls.seed() + model.SEED_RATIO)


ratio_bias()

# --- 4. What to print beside a number ----------------------------------------------------
st.header("4. A privacy interval, a confidence interval, or both?")
st.markdown(
    "DP hides *who* is in the data, not *how much* noise was added: the mechanism and its "
    "parameters are public. So a release can honestly print, beside each number:\n"
    "- the **noise's** interval (\u201cthe privacy noise moves this count by at most ±t with "
    "95% probability\u201d), which anyone can compute from ε and the sensitivity;\n"
    "- for a survey, the interval for **both** errors, as in section 1 (a confidence "
    "interval for the population's value that counts the privacy noise too);\n"
    "- and, in words, the **biases** it cannot show: clamped values, clipped counts, ratios.\n\n"
    "A \u201cprivacy interval\u201d alone understates the error of a survey; a classical "
    "confidence interval alone ignores the noise (section 2 measured both failing). "
    "Statistical agencies that adopted DP publish the privacy-loss budget and the noise's "
    "distribution for this reason (the US Census Bureau did so for the 2020 Census's "
    "redistricting data), so that users can add the noise to their own error estimates. "
    "That works for the noisy measurements themselves; the published counts went through "
    "post-processing (TopDown's non-negativity and consistency, see the Census lesson), "
    "whose error is not that distribution: it is biased for small counts and depends on "
    "the other counts, so the published noise distribution only approximates it."
)

quiz.check_yourself("uncertainty", quiz.bank(__file__, "uncertainty"))
