"""Lesson: binary randomized response with any keep-probabilities p and q, and the ε they buy."""

import math
from dataclasses import dataclass

import streamlit as st

import dp
from lessons.binary_rr import charts, model, snippets
from ui import charts as ui_charts
from ui import controls, downloads, links, notebook, quiz, rr_survey, text

# The widgets were called grr_* while this lesson was "Generalized RR" (GRR now names the
# k-ary mechanism): links made then open the same view.
links.rename_params({f"grr_{name}": f"brr_{name}" for name in ("ask", "mode", "p", "q", "eps")})
controls.lesson_header(
    "Binary RR with any p and q",
    "The two coins were one choice among many. Here you set the keep-probabilities p "
    "(a true yes is reported yes) and q (a true no is reported no) directly, or pick ε "
    "and let the page set p = q. You watch the 2 × 2 matrix, ε, the estimator with your "
    "numbers in it, the spread of the estimated count for everybody in the dataset, "
    "and which answer is better protected when p ≠ q.",
)
survey = rr_survey.survey_question_picker("brr_ask")

st.caption(
    "Local DP, as in the coin-flip lesson: the neighbour relation is one person's value "
    "changing, and for any two values x, x′ and every report y, "
    "P[F(x) = y] ≤ $e^ε$ · P[F(x′) = y]."
)


# --- choose the mechanism ------------------------------------------------------------------
def _show(x: float) -> str:
    return r"\infty" if math.isinf(x) else text.number(x)


@dataclass(frozen=True)
class Mechanism:
    """What the controls set: p, q, how they were set, and what follows from them."""

    p: float
    q: float
    mode: str
    epsilon: float
    ln_yes: float
    ln_no: float


def choose_mechanism() -> Mechanism:
    """p and q (or ε) beside "which answer is better protected"."""
    controls_column, chart_column = st.columns([2, 3], gap="medium")
    with controls_column:
        mode = controls.radio(
            "How do you want to set the mechanism?",
            ["Set p and q", "Choose ε (p = q)"],
            key="brr_mode",
            horizontal=True,
        )
        if mode == "Set p and q":
            p = controls.share_slider(
                "p: keep a true yes  (nearer 1 − q → more private · farther → more accurate)",
                key="brr_p",
                value=0.75,
            )
            q = controls.share_slider(
                "q: keep a true no  (nearer 1 − p → more private · farther → more accurate)",
                key="brr_q",
                value=0.75,
            )
        else:
            chosen_epsilon = controls.epsilon_slider("brr_eps", default=1.0)
            p = q = dp.rr_keep_probability(chosen_epsilon)
            shown_epsilon = text.number(chosen_epsilon)
            notebook.latex(
                rf"p = q = \frac{{e^\varepsilon}}{{1 + e^\varepsilon}} = "
                rf"\frac{{e^{{{shown_epsilon}}}}}{{1 + e^{{{shown_epsilon}}}}} = {text.number(p)}"
            )

        epsilon = dp.rr_epsilon(p, q)
        ln_yes, ln_no = dp.rr_likelihood_ratios(p, q)
        metric_columns = st.columns(2)  # two per row: the labels are not cut beside a chart
        metric_columns[0].metric("p (keep a true yes)", f"{text.number(p)}")
        metric_columns[1].metric("q (keep a true no)", f"{text.number(q)}")
        st.metric("Privacy loss ε", text.number(epsilon))
    with chart_column:
        st.markdown("**Which answer is better protected?**")  # above section 1: no h3 before an h2
        charts.ratio().show(
            alt=f"Bar chart: a reported yes has |ln ratio| {_show(abs(ln_yes))}, "
            f"a reported no {_show(abs(ln_no))}; ε = {_show(epsilon)}.",
            **model.ratio_data(p, q, epsilon),
        )

    return Mechanism(p, q, mode, epsilon, ln_yes, ln_no)


def typical_error(survey, m: Mechanism) -> float | None:
    """The SD of the estimated count (None when p + q = 1: no estimate), and the warnings
    a mechanism deserves."""
    p, q, epsilon = m.p, m.q, m.epsilon
    sd_people = None
    if survey is not None:
        n_people, true_sales = survey.n, survey.true_yes
        try:
            sd_people = dp.rr_count_std(true_sales / n_people, n_people, p, q)
        except ValueError:
            st.warning(
                f"p + q = {text.number(p + q)} = 1: a true yes and a true no are reported *yes* "
                "with the "
                f"same probability ({text.number(p)}), so the answers carry **no information**. ε "
                "= 0 "
                "(perfect privacy), but no estimator can recover anything: it would divide by "
                "p + q − 1 = 0. Move p or q."
            )
    if math.isinf(epsilon):
        st.warning(
            "ε = ∞: one of the reports is possible under one true answer only, so it exposes "
            "everyone who gives it. Keep p and q strictly between 0 and 1."
        )
    if p + q < 1 and sd_people is not None:
        st.info(
            "p + q < 1: the mechanism lies more often than it tells the truth. That is as "
            "informative as telling the truth (just flip every answer), so ε is the same as "
            "for 1 − p, 1 − q, and the estimator still works: its denominator is negative."
        )

    return sd_people


def the_mechanism_and_its_epsilon(m: Mechanism) -> None:
    """Section 1: the 2 × 2 matrix, ε from its likelihood ratios, which report reveals more."""
    p, q, epsilon, ln_yes, ln_no = m.p, m.q, m.epsilon, m.ln_yes, m.ln_no
    odds_yes, odds_no = dp.rr_likelihood_ratios(p, q, log=False)
    st.header("1. The mechanism and its ε")
    st.markdown("Each row is a true answer, each column a report; every row sums to 1.")
    notebook.latex(
        r"\small\begin{array}{r|cc} & \text{says yes} & \text{says no} \\ \hline "
        rf"\text{{true yes}} & p = {text.number(p)} & 1 - p = {text.number(1 - p)} \\ "
        rf"\text{{true no}} & 1 - q = {text.number(1 - q)} & q = {text.number(q)} \end{{array}}"
    )
    st.markdown(
        "ε is the most that any report can shift the odds between the two true answers, as "
        "a log. Take every likelihood ratio (both ways round, so also when p or q is below ½):"
    )

    notebook.latex(
        r"\begin{aligned}\varepsilon"
        r" &= \max\Big(\big|\ln\tfrac{p}{1-q}\big|,\ \big|\ln\tfrac{q}{1-p}\big|\Big) \\"
        rf" &= \max\big(|{_show(ln_yes)}|,\ |{_show(ln_no)}|\big) \\"
        rf" &= {_show(epsilon)}\end{{aligned}}"
    )

    odds_columns = st.columns(2)
    odds_columns[0].metric(
        'A reported "yes" multiplies the odds of a true yes by',
        "∞" if math.isinf(odds_yes) else f"{text.number(odds_yes)}",
    )
    odds_columns[1].metric(
        'A reported "no" multiplies the odds of a true no by',
        "∞" if math.isinf(odds_no) else f"{text.number(odds_no)}",
    )
    if abs(ln_yes) < abs(ln_no):
        st.markdown(
            "A reported **yes** reveals less than a reported no: people who say yes keep more "
            "deniability. When *yes* is the embarrassing answer, that is where you want the "
            "protection. ε is set by the weaker side, the reported **no**."
        )
    elif abs(ln_yes) > abs(ln_no):
        st.markdown(model.protect_yes_advice(p, q)[1])
    else:
        st.markdown("With p = q both reports reveal exactly the same: the protection is symmetric.")


def estimating_the_true_count(survey, m: Mechanism, sd_people: float | None) -> None:
    """Section 2: one survey's estimate, the spread of many, and the error against ε."""
    p, q, epsilon, mode = m.p, m.q, m.epsilon, m.mode
    n_people, true_sales = survey.n, survey.true_yes
    st.header("2. Estimating the true count")
    st.markdown(f"The question: *{text.plain(survey.question)}*")
    if sd_people is None:
        st.info("No estimate is possible while p + q = 1.")
    else:
        yes_count = int(
            rr_survey.repeated_yes_counts(
                true_sales, n_people, p, q, 1, controls.seed() + model.SEED_ONE_SURVEY
            )[0]
        )
        share_estimate = dp.estimate_proportion_from_counts(yes_count, n_people, p, q)
        st.markdown(
            f"One survey of all {n_people:,} people gave {yes_count:,} *yes* answers, a "
            f"share Ŷ = {text.number(yes_count / n_people)}. The expected share is r p + (1 − "
            "r)(1 − q), "
            "so"
        )
        notebook.latex(
            r"\begin{aligned}\hat r &= \frac{\hat Y + q - 1}{p + q - 1} \\"
            rf" &= \frac{{{text.number(yes_count / n_people)} + {text.number(q)} - "
            rf"1}}{{{text.number(p)} + {text.number(q)} - 1}}"
            rf" \\ &= {text.number(share_estimate)} \\"
            rf"{rr_survey.latex_number(n_people)}\,\hat r &\approx "
            rf"{rr_survey.latex_number(n_people * share_estimate)}\end{{aligned}}"
        )
        estimate_columns = st.columns(3)
        error = rr_survey.relative_error_percent(n_people * share_estimate, true_sales)
        estimate_columns[0].metric(
            "This survey's estimate",
            f"{n_people * share_estimate:,.0f}",
            f"{error:+,.1f}% off",
            delta_color="off",
        )
        estimate_columns[1].metric("Typical error (SD)", f"±\u00a0{sd_people:,.0f}")
        estimate_columns[2].metric(f"Truth ({survey.who})", f"{true_sales:,}")

        repeat_seed = controls.seed() + model.SEED_REPEATED_SURVEYS
        repeated_args = (true_sales, n_people, p, q, rr_survey.REPEATS, repeat_seed)
        repeated = rr_survey.repeated_surveys(*repeated_args)
        estimates = rr_survey.repeated_count_estimates(*repeated_args)
        description = ui_charts.describe_histogram(estimates, true_sales, what="estimates") + (
            f" Dotted lines at the truth ±\u00a02 SD = ±\u00a0{2 * sd_people:,.0f}."
        )
        ui_charts.band_histogram(
            (0, 2 * true_sales), survey.x_title, 0.6, ui_charts.NOISY_COLOUR, with_band=True
        ).show(
            title=charts.sampling_title(n_people),
            alt=description,
            **ui_charts.band_histogram_data(
                estimates,
                truth=true_sales,
                sd=sd_people,
                domain=(0, 2 * true_sales),
                bins=73,
            ),
        )
        st.caption(
            description + " Estimates beyond the axis are piled into the edge bars; the axis "
            "stays put so you see the spread change."
        )
        snippets.REPEATED_SURVEYS.show(
            true_yes=true_sales,
            n=n_people,
            p=p,
            q=q,
            surveys=rr_survey.REPEATS,
            seed=repeat_seed,
        )
        downloads.download_csv(
            repeated, filename="binary_rr-surveys.csv", key="binary_rr_dl_surveys"
        )

    st.subheader("Error versus ε")
    st.markdown(
        "For p = q the spread follows from ε alone. Smaller ε, more privacy, a wider spread: "
        "as ε → 0 the error explodes like 1/ε."
    )
    curve = model.error_versus_epsilon(true_sales, n_people)
    marked = sd_people is not None and not math.isinf(epsilon) and epsilon > 0
    charts.error_epsilon().show(
        title=charts.error_epsilon_title(survey.question, n_people),
        alt=f"Log-log line: the SD of the count falls from {curve['sd'].iloc[0]:,.0f} at "
        f"ε = 0.01 to {text.number(curve['sd'].iloc[-1])} at ε = 10."
        + (f" Yours: ε = {text.number(epsilon)}, SD = {sd_people:,.0f}." if marked else ""),
        **model.error_epsilon_data(
            curve,
            epsilon if marked else None,
            sd_people if marked else None,
            "your p, q" if mode == "Set p and q" else "your ε",
        ),
    )
    st.caption(
        "The line is p = q = $e^ε/(1 + e^ε)$. With p ≠ q your point can sit above the line: "
        "for the same ε a symmetric choice is usually more accurate."
    )


@st.fragment
def mechanism_and_estimates(survey) -> None:
    """Everything p and q (or ε) drive: the matrix, ε, the estimate and the error curve (a
    fragment: moving them reruns only this part; the question picker above and the quiz
    below stay)."""
    mechanism = choose_mechanism()
    sd_people = typical_error(survey, mechanism)
    the_mechanism_and_its_epsilon(mechanism)
    if survey is not None:
        estimating_the_true_count(survey, mechanism, sd_people)


mechanism_and_estimates(survey)


# --- Check yourself ----------------------------------------------------------------------------
quiz.check_yourself(
    "binary_rr",
    quiz.bank(__file__, "binary_rr"),
)
