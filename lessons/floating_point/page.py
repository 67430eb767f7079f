"""Lesson: when code breaks the proof — the textbook Laplace sampler in doubles
names its input from an output's low bits; snapping and the discrete Laplace do not; timing,
a reused seed and a data-dependent bound leak too."""

import streamlit as st

from lessons.catalogue import LESSONS
from lessons.floating_point import charts, model, snippets
from ui import controls, downloads, notebook, quiz, tables, text

controls.lesson_header(
    "When code breaks the proof",
    "The Laplace mechanism is ε-DP on real numbers; computers use doubles. You draw outputs "
    "of the textbook sampler for a count of 0 and a count of 1, decide exactly which outputs "
    "only one of the two counts can produce, watch that attack beat every promise ε makes, "
    "and see it find nothing against the two fixes the course uses. Then three other ways "
    "an implementation leaks.",
)
LESSON = {lesson.folder: lesson for lesson in LESSONS}

# --- 1. The textbook sampler in doubles ---------------------------------------------------------
st.header("1. The textbook sampler in doubles")
st.markdown(
    "The textbook way to add Laplace noise of scale b = 1/ε to a count: draw u uniformly "
    "from (−½, ½) and invert the Laplace distribution's CDF. In code, u is a double: "
    "u = k/2⁵³ − ½ for a random whole number k, as `random() − 0.5` gives it. Then the "
    "logarithm, the product and the sum each round to the nearest double:"
)
notebook.latex(
    r"""y = x + b\cdot\big(-\operatorname{sign}(u)\,\ln(1 - 2|u|)\big),\qquad
    u = \frac{k}{2^{53}} - \frac{1}{2},\quad k \in \{1, \dots, 2^{53} - 1\}.""",
    narrow=r"""\begin{aligned}
    &y = x + b\cdot\big(-\operatorname{sign}(u)\,\ln(1 - 2|u|)\big), \\
    &u = k/2^{53} - 1/2,\quad k \in \{1, \dots, 2^{53} - 1\}.
    \end{aligned}""",
)
st.markdown(
    "On real numbers every y is possible from both x = 0 and x = 1, at most exp(ε) times "
    "likelier from one: that is ε-DP (add/remove neighbours: a count of 0 or 1). In doubles, "
    "the outputs near a value are not every double there. The attacker takes an output y and "
    "asks, for each count, whether any k gives exactly y. That is decided exactly: y never "
    "decreases as k grows, so a binary search over k with the sampler's own arithmetic "
    "finds the k that could have given y, if there is one (dp.possible_outputs)."
)


@st.fragment
def textbook() -> None:
    """ε beside what the attacker decides about each output."""
    predict = st.container()
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        epsilon = controls.epsilon_slider(
            key="fp_eps", default=model.DEFAULT_EPSILON, options=model.EPSILONS
        )
        attack = model.textbook_attack(epsilon, controls.seed() + model.SEED_TEXTBOOK)
        st.metric("Outputs that name their count", text.percent(attack.named))
        st.metric(
            "The attack's TPR − FPR",
            text.percent(attack.advantage),
        )
        st.metric("Any test's ceiling under ε-DP, tanh(ε/2)", text.percent(model.ceiling(epsilon)))
    with chart_column:
        shares = model.verdict_frame(epsilon, controls.seed() + model.SEED_TEXTBOOK)
        charts.verdicts().show(
            title=f"{model.SAMPLES:,} outputs from each count, ε = {text.number(epsilon)}",
            alt=(
                f"Stacked bars for the textbook sampler's outputs at ε = "
                f"{text.number(epsilon)}: of {model.SAMPLES:,} outputs drawn from a count of "
                f"0, {text.percent(attack.verdicts[0][0] / attack.samples)} are possible "
                f"from both counts and {text.percent(attack.verdicts[0][1] / attack.samples)} "
                f"only from 0; of those drawn from a count of 1, "
                f"{text.percent(attack.verdicts[1][0] / attack.samples)} are possible from "
                f"both and {text.percent(attack.verdicts[1][2] / attack.samples)} only from 1."
            ),
            verdicts=shares,
        )
    with predict:
        quiz.predict_first(
            "floating_point_predict",
            [
                quiz.Question(
                    f"Of the textbook sampler's outputs at ε = {text.number(epsilon)}, how "
                    "many can only one of the two counts produce, so that they name it?",
                    model.NAMED_BANDS,
                    correct=model.named_band(attack.named),
                    explanation=(
                        f"{text.percent(attack.named)} of {2 * model.SAMPLES:,} outputs. ε-DP "
                        "would allow none: an output impossible from one count is infinitely "
                        "likelier from the other."
                    ),
                )
            ],
        )
    st.markdown(model.textbook_words(attack))
    snippets.ATTACK.show(epsilon=epsilon, seed=controls.seed() + model.SEED_TEXTBOOK)
    downloads.download_csv(shares, filename="textbook-attack.csv", key="fp_dl_textbook")


textbook()

st.subheader("Under the microscope")
st.markdown(
    f"{model.CELLS} doubles in a row, each one the next double after the last, and whether "
    "the textbook sampler ever outputs it from each count (filled: it does):"
)


@st.fragment
def microscope() -> None:
    """Where to look and ε beside the consecutive doubles."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        near = controls.number_slider(
            "Look at the doubles from", model.NEAR, model.DEFAULT_NEAR, key="fp_near"
        )
        epsilon = controls.epsilon_slider(
            key="fp_micro_eps",
            default=model.DEFAULT_EPSILON,
            options=model.EPSILONS,
            label="ε of the sampler",
        )
    frame = model.microscope(epsilon, near)
    found = model.microscope_counts(frame)
    with chart_column:
        charts.microscope().show(
            title=f"{model.CELLS} doubles from {text.number(near)}, ε = {text.number(epsilon)}",
            alt=(
                f"Two rows of {model.CELLS} squares, one per consecutive double from "
                f"{text.number(near)}: a count of 0 can output {found['from 0']} of them, a "
                f"count of 1 {found['from 1']}; {found['only one']} can come from only one "
                "of the two counts."
            ),
            doubles=frame,
        )
    st.markdown(model.microscope_words(near, found))


microscope()

# --- 2. The fixes --------------------------------------------------------------------------------
st.header("2. The fixes")
st.markdown(
    "**Snapping** (Mironov 2012): clamp the count to [−B, B], add the noise, round the result "
    "to a multiple of Λ, the smallest power of two at least b, and clamp again. Outputs are "
    "then on a grid far coarser than any rounding error, and near each grid point there are "
    "noise values from both counts. Mironov proves it (1/b + 2⁻⁴⁹·B/b)-DP for b < B < 2⁴⁶·b "
    "when U is drawn from every double in (0, 1]. The course's U is on the same 2⁻⁵³ grid as "
    "u, which stops the noise at ±36.7·b: where B lets an output lie beyond that reach "
    "(ε = 5 with B = 20: outputs in (7.25, 8.25] come from count 1 only), and where the "
    "tail's few draws make the ratio of two outputs' chances exceed exp(ε), the pure guarantee "
    "fails. What this sampler does have is (ε + 2⁻⁴⁹·B/b, δ)-DP with a tiny δ, computed "
    "below exactly by counting its draws (dp.snapping_delta). "
    "**The discrete Laplace** (dp.discrete_laplace_mechanism) adds a whole number K with "
    "P[K = k] ∝ exp(−ε|k|): its outputs are whole numbers, with no low bits to read, and every "
    "whole number is possible from both counts. The same attack, the same number of outputs:"
)


@st.fragment
def fixes() -> None:
    """ε and B beside what the attack finds against each mechanism."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        epsilon = controls.epsilon_slider(
            key="fp_fix_eps",
            default=model.DEFAULT_EPSILON,
            options=model.EPSILONS,
            label="ε of the three samplers",
        )
        bound = controls.number_slider(
            "Snapping's clamp bound B", model.BOUNDS, model.DEFAULT_BOUND, key="fp_bound"
        )
        st.metric("Snapping's grid Λ", text.number(model.snapping_grid(epsilon)))
    seed = controls.seed()
    attacks = model.attacks(epsilon, bound, seed)
    with chart_column:
        charts.fixes().show(
            title=f"The same attack on three samplers, ε = {text.number(epsilon)}",
            alt=(
                "Bars of the share of outputs that name their count: "
                + "; ".join(f"{a.mechanism} {text.percent(a.named)}" for a in attacks)
                + f". A dashed line marks tanh(ε/2) = {text.percent(model.ceiling(epsilon))}."
            ),
            fixes=model.fixes_frame(epsilon, bound, seed),
            truth=model.ceiling_rule(epsilon),
        )
    tables.written(model.fixes_table(epsilon, bound, seed))
    st.markdown(model.fixes_words(attacks, bound))


fixes()

# --- 3. Other ways an implementation leaks -------------------------------------------------------
st.header("3. Other ways an implementation leaks")
first, second = model.reused_seed()
st.markdown(
    "**Timing.** A sampler whose running time depends on its output (a rejection loop that "
    "runs longer for large noise, a slow path for subnormal numbers) tells an attacker "
    "who times it about the noise, so about the value: Jin, McMurtry, Rubinstein & "
    "Ohrimenko 2022 (\u201cAre we there yet? Timing and floating-point attacks on "
    "differential privacy systems\u201d, IEEE S&P) showed such timing leaks in the "
    "samplers of real DP libraries. The course's dp/ makes no timing promise: under its "
    "discrete Laplace, numpy's geometric sampler loops once per unit of the value it draws "
    "when 1 − exp(−ε) ≥ ⅓ (ε ≥ 0.41), so one draw's time grows with its noise. Drawn in "
    "batches of thousands, as here, one value's time is hidden in the batch's; a server "
    "that answered one query at a time would have to fix it.\n\n"
    f"**A reused seed.** Release a count of {model.REUSE_COUNT:,} with Laplace noise and "
    f"seed {model.SEED_REUSED}: {text.number(first, 10)}. Release the same count with one "
    f"more person and the same seed: {text.number(second, 10)}. The noise is the same, so "
    f"the difference, {text.number(second - first, 10)}, is the person. Every random "
    "function of dp/ takes `rng`: a fresh generator from the operating system's entropy "
    "unless one is given. The course passes fixed seeds so that a projector matches a "
    "handout; that is teaching, never a release.\n\n"
    "**A bound computed from the data.** Clamp incomes to [0, the largest income in the "
    "data] and add noise for that sensitivity: the noise's scale now depends on one "
    "person's value, and one release with and one without them differ in the scale. The "
    "bound must be chosen without looking (the clamping lesson) or chosen privately "
    "(Choosing privately). Floating-point sums break sensitivity too: Casacuberta, "
    "Shoemate, Vadhan & Wagaman 2022 (\u201cWidespread underestimation of sensitivity in "
    "differentially private libraries and how to fix it\u201d, CCS) showed that a clamped "
    "sum in floating point can change by far more than the clamp bound when one value "
    "changes, because of rounding."
)
clamping, choosing = LESSON["clamping"], LESSON["choosing"]
controls.page_link(clamping.path, label=f"Back to {clamping.title}", icon=clamping.icon)
controls.page_link(choosing.path, label=f"Back to {choosing.title}", icon=choosing.icon)

quiz.check_yourself("floating_point", quiz.bank(__file__, "floating_point"))
