"""Lesson: the definition of differential privacy — neighbouring datasets, the e^ε ratio
bound, the privacy loss and what an attacker can conclude."""

import streamlit as st

import dp
from lessons.definition import charts, model, snippets
from ui import controls, downloads, notebook, quiz, text, userdata

controls.lesson_header(
    "The definition",
    "You remove one person from the census and ask the same count of both versions. "
    "Laplace noise makes the two answers overlap so much that no event Y — no range of "
    "outputs you could watch for — is more than $e^ε$ times likelier in one world than in the "
    "other. You then see the privacy loss output by output, and what that bound means for "
    "an attacker's belief.",
)
userdata.census_only_notice(
    "it removes one named person from the census and counts who earns more than \\$50K."
)

# --- 1. Neighbouring datasets --------------------------------------------------------------
st.header("1. Two neighbouring datasets")
st.markdown(
    "Take the full census as **D**. Remove one person and call the result **D′**. Datasets "
    "that differ by **adding or removing one person** are *neighbours* (the add/remove "
    "relation used throughout these lessons; some texts instead *replace* one person's "
    "row, under which a histogram can change by 2 in total: one bar down, another up). "
    "The query is a count: "
    "**how many people earn more than \\$50K a year?**"
)
incomes = model.people_to_remove()
name = controls.selectbox(
    "The person removed from D to make D′",
    options=list(incomes),
    format_func=lambda person_name: f"{person_name} — earns {incomes[person_name]}",
    key="def_person",
)
income = incomes[name]
truth = model.rich_count()
truth_neighbour = truth - int(income == ">50K")

count_d, count_d_prime, change = st.columns(3)
count_d.metric("f(D): everyone", f"{truth:,}")
count_d_prime.metric(f"f(D′): without {name}", f"{truth_neighbour:,}")
change.metric("Difference", f"{truth - truth_neighbour}")
if truth == truth_neighbour:
    st.info(
        f"{name} earns {income}, so removing them does not change this count: the two "
        "worlds give the same answer and their output densities coincide. Differential privacy "
        "must hold for *every* person, so pick someone who earns >50K to see the worst case."
    )
else:
    st.markdown(
        f"{name} earns >50K, so the two answers differ by exactly 1 — the most one person can "
        "change a count (its *sensitivity*)."
    )

st.markdown(
    "A mechanism F is **ε-differentially private** when, for every pair of neighbours and "
    "every set of outputs Y,"
)
notebook.latex(
    r"e^{-\varepsilon} \;\le\; \frac{\Pr[F(D) \in Y]}{\Pr[F(D') \in Y]} \;\le\; e^{\varepsilon}."
)
st.markdown("The Laplace mechanism answers with the count plus noise of scale b = 1/ε:")
notebook.latex(r"F(D) = f(D) + \mathrm{Lap}(b), \qquad b = \frac{1}{\varepsilon}.")

low_edge, high_edge = truth - model.HALF_WINDOW, truth + model.HALF_WINDOW


@st.fragment
def two_worlds() -> None:
    """ε and the event beside both worlds' densities, and the ratio for that event (a
    fragment: moving them reruns only this section; sections 2 and 3 have their own ε)."""
    controls_column, chart_column = st.columns([2, 3], gap="medium")
    with controls_column:
        epsilon = controls.epsilon_slider(key="def_eps")
        scale = dp.laplace_scale(1, epsilon)
        lo, hi = controls.select_slider(
            "The event Y = [lo, hi]: the range of outputs an attacker watches for",
            options=model.event_edges(truth),  # labelled by the one formatter: 7,841.5
            value=(float(truth), float(truth + 3)),
            key="def_event",
            help="Any range of outputs is an event. The ratio bound must hold for all of them.",
        )
    with chart_column:
        charts.densities(truth).show(
            density=model.density_frame(truth, truth_neighbour, epsilon),
            event=model.event_frame(lo, hi),
            title=f"Both worlds' output densities, ε = {text.number(epsilon)}",
            alt=(
                f"Two Laplace densities at ε = {text.number(epsilon)}: F(D) centred on {truth:,} "
                "(solid blue) and "
                f"F(D′) centred on {truth_neighbour:,} (dashed orange), on a log scale from "
                f"{low_edge:,.0f} to {high_edge:,.0f}, with the event Y = [{text.number(lo)}, "
                f"{text.number(hi)}] shaded."
            ),
        )
    st.caption(
        "The y axis is logarithmic, so a flat density (small ε) and a tall spike (large ε) fit on "
        "the same fixed axes. On it a Laplace density is a tent; the vertical gap between the two "
        "tents is the privacy loss shown in section 2."
    )
    snippets.DENSITIES.show(truth=truth, truth_neighbour=truth_neighbour, epsilon=epsilon)
    downloads.download_csv(
        model.download_frame(truth, truth_neighbour, epsilon),
        filename="definition-densities.csv",
        key="definition_dl_densities",
    )

    if lo >= hi:
        st.warning(
            "Y has zero width, so both probabilities are 0 and their ratio is undefined. "
            "Drag the two handles apart."
        )
    else:
        p_d, p_d_prime, ratio = dp.laplace_event_probabilities(
            lo, hi, loc=truth, loc_neighbour=truth_neighbour, scale=scale
        )
        bound = dp.likelihood_ratio_bound(epsilon)
        col_p, col_q, col_ratio, col_bound = st.columns(4)
        col_p.metric("P[F(D) ∈ Y]", f"{text.number(p_d)}")
        col_q.metric("P[F(D′) ∈ Y]", f"{text.number(p_d_prime)}")
        col_ratio.metric("Ratio", f"{text.number(ratio)}")
        col_bound.metric("$e^ε$", f"{text.number(bound)}")
        if 1 / bound * (1 - 1e-9) <= ratio <= bound * (1 + 1e-9):
            st.success(
                f"The ratio {text.number(ratio)} lies within $[e^{{−ε}}, e^ε]$ = "
                f"[{text.number(1 / bound)}, "
                f"{text.number(bound)}]. Move Y anywhere: it always will.",
                icon=":material/check_circle:",
            )
        else:  # cannot happen for the Laplace mechanism; shown if the math were wrong
            st.error(
                f"The ratio {text.number(ratio)} leaves $[e^{{−ε}}, e^ε]$ = "
                f"[{text.number(1 / bound)}, {text.number(bound)}].",
                icon=":material/error:",
            )
        if truth != truth_neighbour:
            st.caption(
                "The ratio reaches $e^ε$ when Y lies entirely to the right of both centres "
                "(and $e^{−ε}$ entirely to the left): far out in a tail, every output is "
                "exactly $e^ε$ times likelier in one world."
            )
        else:
            st.caption(
                "This person does not change the count, so both worlds give the same answer: the "
                "two densities coincide and the ratio is 1 for every Y. The bound $e^ε$ is reached "
                "only for a neighbour who changes the count — pick someone who earns >50K."
            )


two_worlds()


# --- 2. The privacy loss --------------------------------------------------------------------
st.header("2. The privacy loss, output by output")
st.markdown(
    "Zoom in on a single output y. How much more likely is it in one world than the other? "
    "Its logarithm is the *privacy loss*:"
)
notebook.latex(
    r"""\begin{aligned}
    \mathcal{L}(y) &= \ln \frac{p_{F(D)}(y)}{p_{F(D')}(y)} \\
      &= \frac{|y - f(D')| - |y - f(D)|}{b} \in [-\varepsilon, \varepsilon].
    \end{aligned}"""
)
st.markdown(
    "The chart shows ℒ(y) for every output in view, and the grey band ±ε it may never leave."
)


@st.fragment
def privacy_loss() -> None:
    """Its own ε beside the privacy loss across outputs (a fragment)."""
    loss_controls, loss_chart = st.columns([2, 3], gap="medium")
    with loss_controls:
        epsilon = controls.epsilon_slider(key="def_loss_eps", label="ε for the privacy loss")
        loss = model.loss_frame(truth, truth_neighbour, epsilon)
        # The largest |ℒ(y)| over the outputs in view: ε when the removed person is counted
        # (the grid reaches past both centres), else 0.
        st.metric("Largest |privacy loss| here", text.number(float(loss["loss"].abs().max())))
        st.caption("Its own ε: section 1's slider moves only section 1.")
    with loss_chart:
        charts.loss(truth).show(
            loss=loss,
            **model.band_frames(truth, epsilon),
            title=f"Privacy loss stays inside ±ε = ±{text.number(epsilon)}",
            alt=(
                f"Privacy loss across outputs {low_edge:,.0f} to {high_edge:,.0f} at ε = "
                f"{text.number(epsilon)}: "
                f"it is −{truth - truth_neighbour}·ε left of {truth_neighbour:,}, rises linearly "
                "between "
                f"the two centres and is +{truth - truth_neighbour}·ε right of {truth:,}, inside "
                "the "
                f"grey band ±{text.number(epsilon)}."
                if truth != truth_neighbour
                else f"Privacy loss across outputs {low_edge:,.0f} to {high_edge:,.0f}: 0 "
                "everywhere (the removed person does not change the count), well inside the "
                "grey band "
                f"±{text.number(epsilon)}."
            ),
        )
    st.caption(
        "The y axis is a symmetric log scale, so that a band of ±0.01 and one of ±10 are both "
        "visible. Between the two true counts the loss climbs; outside them it sits exactly on the "
        "edge of the band — the worst case is reached, but never exceeded."
    )
    downloads.download_csv(
        model.download_frame(truth, truth_neighbour, epsilon),
        filename="definition-privacy-loss.csv",
        key="definition_dl_loss",
    )


privacy_loss()


# --- 3. What an attacker can conclude ------------------------------------------------------
st.header("3. What an attacker can conclude")
st.markdown(
    f"An attacker knows everyone except {name} and wonders whether the data set is D (with "
    f"{name}) or D′ (without). Before seeing any output they believe D with probability p. "
    "After seeing an output y, Bayes' rule multiplies their odds by the likelihood ratio, "
    "which is at most $e^ε$. So whatever y they see, their belief is at most"
)
notebook.latex(r"\Pr[D \mid y] \;\le\; \frac{e^{\varepsilon}\,p}{e^{\varepsilon}\,p + 1 - p}.")


@st.fragment
def attacker_belief() -> None:
    """Its own ε and the prior beside the worst-case posterior (a fragment)."""
    controls_column, chart_column = st.columns([2, 3], gap="medium")
    with controls_column:
        epsilon = controls.epsilon_slider(
            key="def_post_eps", label="ε of the output the attacker sees"
        )
        prior = controls.share_slider(
            "Attacker's prior belief p that the data set is D  (← knows less · knows more →)",
            key="def_prior",
            value=0.10,
            low=0.01,
            high=0.99,
        )
        posterior = dp.posterior_bound(prior, epsilon)
        col_prior, col_post = st.columns(2)
        col_prior.metric("Prior p", f"{text.percent(prior, 2)}")
        col_post.metric(
            "Worst-case posterior",
            f"{text.percent(posterior)}",
            delta=f"{text.signed(100 * (posterior - prior), 3)} percentage points",
            delta_arrow=text.arrow(posterior - prior),
        )
    with chart_column:
        charts.posterior().show(
            curve=model.posterior_frame(prior),
            **model.posterior_frames(prior, epsilon, posterior),
            alt=(
                "Worst-case posterior versus ε from 0.01 to 20 for a prior of "
                f"{text.percent(prior, 2)}: it starts at the prior and climbs towards 100%; "
                f"at the chosen ε = {text.number(epsilon)} it is {text.percent(posterior)}."
            ),
        )
    snippets.POSTERIOR.show(prior=prior, epsilon=epsilon)
    downloads.download_csv(
        model.posterior_frame(prior),
        filename="definition-posterior.csv",
        key="definition_dl_posterior",
    )


attacker_belief()


small_prior = 0.01
at_ten = dp.posterior_bound(small_prior, 10.0)
at_one = dp.posterior_bound(small_prior, 1.0)
st.markdown(
    f"**ε → 0: nothing learned — and nothing useful.** The posterior equals the prior: the "
    f"output tells the attacker nothing about {name}. But it then tells *anyone* nothing about "
    "the data either: the noise is infinite and the answer is useless. Privacy and accuracy "
    "trade against each other through ε.\n\n"
    "**ε above about 10 protects little.** "
    f"$e^{{10}}$ ≈ {dp.likelihood_ratio_bound(10.0):,.0f}, so "
    f"even an attacker who starts almost sure {name} is *not* in the data (prior "
    f"{text.percent(small_prior, 2)}) can end up {text.percent(at_ten)} sure that they are. At "
    "ε = 1 the same attacker "
    f"can reach at most {text.percent(at_one)}."
)

quiz.check_yourself(
    "definition",
    quiz.bank(__file__, "definition"),
)
