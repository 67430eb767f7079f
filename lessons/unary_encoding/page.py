"""Lesson: unary encoding — one respondent's bits, p and q (SUE, OUE), the estimated
histogram with error bars (census or your own file), and when unary encoding beats k-ary RR."""

from dataclasses import dataclass

import streamlit as st

import dp
from lessons.unary_encoding import charts, model, snippets
from ui import categories, controls, downloads, notebook, quiz, text, userdata
from ui import template as ui_template

controls.lesson_header(
    "Unary encoding",
    "Instead of reporting one of k values, every person reports k bits: a one-hot code of "
    "their value — their occupation, say — each bit randomized on its own. You follow one "
    "respondent through encoding and perturbation, choose the two flip probabilities p and "
    "q (or the presets SUE and OUE), estimate the histogram of everyone with error bars, "
    "and find out for which k unary encoding beats k-ary randomized response.",
)
userdata.show_dataset_in_use()

attr = categories.pick_attribute("ue")
if attr is None:
    st.stop()
title = text.plain(attr.title)
_, data_frame = userdata.active_dataset()

st.header("1 · Encode")
st.caption(
    "Local DP, as in the coin-flip lesson: the neighbour relation is one person's value "
    "changing, and for any two values x, x′ and every report y, "
    "P[F(x) = y] ≤ $e^ε$ · P[F(x′) = y]."
)
st.markdown(
    f"There are {attr.k} values of {title}. Your value becomes {attr.k} bits: a 1 at your "
    "value, 0 everywhere else."
)
category = controls.with_plain_label(
    controls.selectbox,
    f"Pick a respondent by {attr.title}",
    options=list(attr.labels),
    index=attr.labels.index("Sales") if "Sales" in attr.labels else 0,
    key="ue_value",
)
value = attr.labels.index(category)
shown = text.plain(category)
row, name = model.example_row(attr, data_frame, category)
who = f"**{text.plain(name)}**" if name else f"the person in row {row + 1:,} of your file"
st.caption(
    f"Our respondent: {who}, whose {title} is {shown}. ({attr.missing:,} people with no "
    f"{title} recorded are left out of this lesson, so n = {attr.n:,}.)"
)

st.header("2 · Choose p and q, then perturb")
st.markdown(
    "Each bit is reported as 1 with probability p if it is 1, and with probability q if it "
    "is 0. Changing your value flips two bits — one 1 → 0 and one 0 → 1 — so the "
    "privacy loss multiplies their two likelihood ratios:"
)
notebook.latex(r"\varepsilon = \ln \frac{p\,(1-q)}{(1-p)\,q}")
st.markdown(
    "Every bit is now randomized independently. The middle row shows each bit's chance of "
    "being reported as 1; the last row is one roll of the dice. Roll again to see how "
    "little a single report reveals."
)


@dataclass(frozen=True)
class Probabilities:
    """What the controls set: p (a 1-bit reported 1), q (a 0-bit reported 1), ε, and how."""

    p: float
    q: float
    epsilon: float
    mode: str

    @property
    def informative(self) -> bool:
        return self.p != self.q


def choose_probabilities() -> Probabilities:
    """The mode (SUE, OUE or custom) and its p, q or ε, with their metrics."""
    mode = controls.radio(
        "Probabilities",
        options=list(model.MODES),
        format_func=model.MODES.get,
        horizontal=True,
        key="ue_mode",
    )
    if mode == "custom":
        p = controls.share_slider(
            # ε = |ln p(1 − q)/((1 − p) q)| is 0 at p = q and grows away from it on either
            # side, and the variance shrinks: "← toward q" held only while p > q
            "p: report a 1-bit as 1  (nearer q → more private · farther → more accurate)",
            key="ue_p",
            value=0.75,
            low=0.01,
            high=0.99,
        )
        q = controls.share_slider(
            "q: report a 0-bit as 1  (nearer p → more private · farther → more accurate)",
            key="ue_q",
            value=0.25,
            low=0.01,
            high=0.99,
        )
        epsilon = dp.ue_epsilon(p, q)
    else:
        epsilon = controls.epsilon_slider(key="ue_eps")
        p, q = dp.sue_probabilities(epsilon) if mode == "sue" else dp.oue_probabilities(epsilon)
        notebook.latex(
            r"\text{SUE: } p = \frac{e^{\varepsilon/2}}{e^{\varepsilon/2} + 1},\ q = 1 - p"
        )
        notebook.latex(r"\text{OUE: } p = \tfrac12,\ q = \frac{1}{e^{\varepsilon} + 1}")
    cols = st.columns(3)
    cols[0].metric("p (1-bit → 1)", f"{text.number(p)}")
    cols[1].metric("q (0-bit → 1)", f"{text.number(q)}")
    cols[2].metric("Privacy loss ε", text.number(epsilon))
    return Probabilities(p, q, epsilon, mode)


def one_journey(pr: Probabilities) -> None:
    """One respondent's bits: encoded, each one's chance of a 1, one roll (and a re-roll)."""
    p, q = pr.p, pr.q
    rolls = st.session_state.setdefault("ue_rolls", 0)
    if st.button("Roll the dice again", key="ue_reroll", icon=":material/casino:"):
        rolls = st.session_state["ue_rolls"] = rolls + 1
    reported = dp.ue_perturb(
        dp.ue_encode([value], attr.k), p, q, rng=controls.seed() + model.SEED_JOURNEY + rolls
    )[0]
    charts.journey(attr).show(
        **model.journey_frames(attr, value, p, q, reported),
        title={
            "text": f"One respondent's journey (roll {rolls + 1})",
            "subtitle": "Each cell shows its value; darker = closer to 1",
            "anchor": "start",
        },
        alt=(
            f"Three rows of {attr.k} cells. Row 1: a single 1 at {category}. Row 2: the "
            f"chance of reporting 1 — {text.number(p)} at {category}, {text.number(q)} "
            "elsewhere. Row 3: this roll "
            f"reported {int(reported.sum())} ones"
            + (", including the true bit." if reported[value] else "; the true bit came out 0.")
        ),
    )
    cols = st.columns(2)
    cols[0].metric("Bits reported as 1", f"{int(reported.sum())} of {attr.k}")
    cols[1].metric(f"True bit ({shown}) reported as", f"{int(reported[value])}")


def sue_against_oue(pr: Probabilities) -> None:
    """Warnings for p = q and p < q; at a given ε, SUE's and OUE's noise side by side."""
    p, q, epsilon, mode, informative = pr.p, pr.q, pr.epsilon, pr.mode, pr.informative
    if not informative:
        st.warning(
            f"p = q = {text.number(p)}: every bit is reported 1 with the same probability "
            "whatever it "
            "was. That is perfectly private (ε = 0), but the reports carry no information, and "
            "nothing can be estimated: the estimator would divide by p − q = 0. Move p or q."
        )
    elif p < q:
        st.warning(
            f"p = {text.number(p)} is below q = {text.number(q)}: a 1 is now more likely to come "
            "from a 0-bit. "
            "The privacy loss is the same as with p and q swapped, and the estimator still "
            "works (p − q is negative), but the convention is p > q — and the one-hot bit "
            "then mostly reports 0. Move p above q."
        )
    if mode != "custom":
        sue_p, sue_q = dp.sue_probabilities(epsilon)
        oue_p, oue_q = dp.oue_probabilities(epsilon)
        threshold = dp.oue_sue_share_threshold(epsilon)
        sue_sd = dp.ue_variance(attr.n, sue_p, sue_q) ** 0.5
        oue_sd = dp.ue_variance(attr.n, oue_p, oue_q) ** 0.5
        above = model.values_above_share(attr, threshold)
        cols = st.columns(3)
        cols[0].metric("SUE: SD of a rare value's count (share 0)", f"{sue_sd:,.0f} people")
        cols[1].metric("OUE: SD of a rare value's count (share 0)", f"{oue_sd:,.0f} people")
        cols[2].metric("OUE is more precise below share", text.percent(threshold))
        st.caption(
            "Same ε, different noise. OUE spends its budget on the many 0-bits (small q), so it "
            "is more precise for values that are rare — but its variance grows with a value's "
            "share f (the term n·f·(1 − p − q)/(p − q)), while SUE's does not. Above "
            f"$f^* = e^{{ε/2}}/(1 + e^{{ε/2}})^2$ = {text.percent(threshold)} SUE is more "
            "precise: here "
            f"{above} of the {attr.k} values of {text.plain(attr.title)} are that common."
        )


def aggregate_over_everyone(pr: Probabilities) -> None:
    """Section 3: every person's bits, the unbiased estimates and their spread."""
    p, q, informative = pr.p, pr.q, pr.informative
    st.header("3 · Aggregate over everyone")
    st.markdown(
        f"Now all {attr.n:,} people send their {attr.k} bits. Bit v is 1 in Bᵥ reports: the "
        "n(v) people with value v contribute n(v) p in expectation, everyone else (n − n(v)) q. "
        "So the unbiased estimate of n(v) is"
    )
    notebook.latex(r"\hat c_v = \frac{B_v - n\,q}{p - q}")
    if informative:
        survey = model.ue_survey(attr, p, q, controls.seed())
        estimates, sd = survey["estimates"], survey["sd"]
        cols = st.columns(3)
        cols[0].metric(f"Reports with the {shown} bit set", f"{survey['bit_counts'][value]:,}")
        cols[1].metric(f"Estimated {shown}", f"{estimates[value]:,.0f}")
        cols[2].metric(f"True {shown}", f"{attr.counts[value]:,}")
        bits_set = f"{survey['bit_counts'][value]:,}".replace(",", "{,}")  # no space after ,
        people_n = f"{attr.n:,}".replace(",", "{,}")
        estimate = f"{estimates[value]:,.0f}".replace(",", "{,}")
        st.markdown(f"For v = {shown}:")
        notebook.latex(
            rf"\hat c_v = \frac{{{bits_set} - {people_n} \times "
            rf"{text.number(q)}}}{{{text.number(p)} - {text.number(q)}}}"
            rf" = {estimate}"
        )
        st.markdown("The standard deviation of each estimate, for a true share f, is")
        notebook.latex(
            r"\operatorname{sd}[\hat c_v] = "
            r"\sqrt{\frac{n\,q(1-q)}{(p-q)^2} + \frac{n f\,(1-p-q)}{p-q}}"
        )
        covered = int(
            ((estimates - 2 * sd <= attr.counts) & (attr.counts <= estimates + 2 * sd)).sum()
        )
        l1 = dp.l1_error(estimates, attr.counts)
        cols = st.columns(2)
        cols[0].metric("L1 error (all values)", f"{l1:,.0f} people")
        cols[1].metric("Truths inside ±2 SD", f"{covered} of {attr.k}")
        charts.estimate(attr).show(
            **model.estimate_frames(attr, estimates, sd),
            title={
                "text": f"Estimates (p = {text.number(p)}, q = {text.number(q)})",
                "subtitle": [
                    f"{attr.n:,} people · bar: estimate",
                    "whiskers: ±2 SD · vermillion tick: true count",
                ],
                "anchor": "start",
            },
            alt=(
                f"Bar chart of {attr.k} estimated counts of {attr.title} with ±2 standard "
                "deviation "
                f"whiskers (SD from {sd.min():,.0f} to {sd.max():,.0f}) and the true counts as "
                f"ticks; the L1 error is {l1:,.0f} and {covered} of {attr.k} true counts lie "
                "inside their whiskers."
            ),
        )
        st.caption(
            "The axis is fixed, so changing p and q shows the whiskers grow and shrink. A "
            "whisker beyond the axis is cut at its edge, where it ends in an arrowhead."
        )
        snippets.ESTIMATES.show(
            values=list(attr.labels),
            true_counts=attr.counts,
            p=p,
            q=q,
            seed=controls.seed() + model.SEED_SURVEY,
        )
        downloads.download_csv(
            model.estimates_table(attr, survey),
            filename="unary_encoding-estimates.csv",
            key="unary_encoding_dl_estimates",
        )
    else:
        st.info("Choose p ≠ q to estimate the histogram.")


@st.fragment
def perturb_and_aggregate() -> None:
    """p and q (or ε) beside one respondent's journey, and everyone's estimates with them
    (a fragment: moving them reruns only sections 2 and 3)."""
    controls_column, chart_column = st.columns([2, 3], gap="medium")
    with controls_column:
        probabilities = choose_probabilities()
    with chart_column:
        one_journey(probabilities)
    sue_against_oue(probabilities)
    aggregate_over_everyone(probabilities)


perturb_and_aggregate()


st.header("4 · Unary encoding or k-ary randomized response?")
st.markdown(
    "k-ary randomized response (GRR) sends one value; its noise grows with k. OUE sends k "
    "bits; its noise does not depend on k at all. Per count, at a true share of 0:"
)
notebook.latex(
    r"\operatorname{Var}_{\text{GRR}} = n\,\frac{e^{\varepsilon} + k - 2}{(e^{\varepsilon} - 1)^2}"
)
notebook.latex(
    r"\operatorname{Var}_{\text{OUE}} = n\,\frac{4 e^{\varepsilon}}{(e^{\varepsilon} - 1)^2}"
)
st.markdown("They are equal where the numerators are equal:")
notebook.latex(r"e^{\varepsilon} + k - 2 = 4 e^{\varepsilon} \iff k^* = 3 e^{\varepsilon} + 2")


@st.fragment
def unary_or_kary() -> None:
    """Its own ε, the crossover k* and the two variance curves (a fragment)."""
    compare_epsilon = controls.epsilon_slider(
        key="ue_compare_eps", options=model.COMPARE_EPSILONS, label="Privacy loss ε to compare"
    )
    crossover = dp.grr_oue_crossover_k(compare_epsilon)
    winner = dp.better_frequency_oracle(compare_epsilon, attr.k)
    frame = model.comparison_frame(attr.n, compare_epsilon)
    marks = model.comparison_marks(attr, compare_epsilon, ui_template.current_text_scale())
    charts.comparison(model.comparison_domain(attr.n)).show(
        curves=frame,
        marks=marks,
        title={
            "text": f"Variance versus k (ε = {text.number(compare_epsilon)})",
            "subtitle": model.comparison_subtitle(marks, attr.n),
            "anchor": "start",
        },
        alt=(
            "Log-log chart of variance versus k from 2 to 1,024 at ε = "
            f"{text.number(compare_epsilon)}: the "
            f"GRR line rises with k, the OUE line is flat at "
            f"{dp.oue_variance(attr.n, compare_epsilon):,.0f}; they cross at k* = "
            f"{text.number(crossover)}. "
            f"For {attr.title} (k = {attr.k}) {winner} is better."
        ),
    )
    # The numbers after the chart: the ε slider and its chart on one phone screen.
    cols = st.columns(3)
    cols[0].metric("Crossover $k^* = 3e^ε + 2$", f"{text.number(crossover)}")
    cols[1].metric(
        f"GRR variance at k = {attr.k}", f"{dp.grr_variance(attr.n, compare_epsilon, attr.k):,.0f}"
    )
    cols[2].metric("OUE variance (any k)", f"{dp.oue_variance(attr.n, compare_epsilon):,.0f}")
    st.markdown(
        f"At ε = {text.number(compare_epsilon)}, GRR wins below k* = {text.number(crossover)} and "
        "OUE above "
        "it. "
        f"For the {attr.k} values of {title} the better choice is **{winner}**."
    )
    st.caption(
        "Fixed log axes for every ε on this slider. The rule: GRR wins for $k < k^* = 3e^ε + 2$, "
        "OUE for k > k*. k* is never below 5: even at ε = "
        f"{text.number(model.COMPARE_EPSILONS[0])} "
        f"it is {text.number(dp.grr_oue_crossover_k(model.COMPARE_EPSILONS[0]), 2)}, so GRR still "
        "wins there for any attribute of 5 values or fewer (the census's race, k = 5, and age "
        "band × sex, k = 4). At large ε GRR wins until k is in the hundreds."
    )
    snippets.VERSUS_GRR.show(n=attr.n, epsilon=compare_epsilon)
    downloads.download_csv(
        model.comparison_table(frame),
        filename="unary_encoding-variance.csv",
        key="unary_encoding_dl_variance",
    )


unary_or_kary()


quiz.check_yourself(
    "unary_encoding",
    quiz.bank(__file__, "unary_encoding"),
)
