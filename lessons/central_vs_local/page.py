"""Lesson: central versus local — the same question at the same ε in both models."""

import streamlit as st

import dp
from lessons.central_vs_local import charts, model, snippets
from ui import controls, datasets, downloads, notebook, quiz, text, userdata

controls.lesson_header(
    "Central versus local",
    "You ask one yes/no question — by default, how many people work in Sales? — at the "
    "same ε in both models of differential privacy. In the central model a trusted "
    "curator holds the raw data and adds Laplace noise once. In the local model every "
    "person randomizes their own answer before it leaves their device. You see how far off "
    "each answer typically is, how much worse the local model does here, how that gap "
    "grows with the number of people, and what each model asks you to trust.",
)

userdata.show_dataset_in_use()
condition = userdata.pick_condition("cvl_q", bind=True)
if condition is None:
    st.stop()
people = datasets.active().frame
on_census = datasets.on_census()
truth, n = condition.count, len(people)
question = text.plain(condition.label)
where = "in the census" if on_census else "in your file"
st.markdown(
    f"The truth: **{truth:,}** of the {n:,} people {where} answer yes to “{question}”. "
    "Both models protect every person with the same ε, but against different neighbours. "
    "**Central DP** compares datasets that differ by *adding or removing one person*: the "
    "published count changes by at most 1. **Local DP** compares *two values of one "
    "person's answer*: each report must look alike whether that person's true answer is "
    "yes or no."
)
st.header("1. The same question, two models")
left, right = st.columns(2)
with left:
    st.markdown("**Central.** The curator counts, then adds noise of scale b = 1/ε:")
    notebook.latex(r"\operatorname{sd}_{\text{central}} = \sqrt{2}\,\frac{1}{\varepsilon}")
with right:
    st.markdown(
        "**Local.** Each person keeps their true answer with probability "
        "p = $e^ε/(1+e^ε)$, else flips it; the analyst de-biases the count:"
    )
    notebook.latex(
        r"\operatorname{sd}_{\text{local}} = \frac{\sqrt{n\,p(1-p)}}{2p-1}"
        r" = \sqrt{n}\,\frac{e^{\varepsilon/2}}{e^{\varepsilon}-1}"
    )


@st.fragment
def one_question() -> None:
    """ε beside one answer from each model and their error distributions (a fragment:
    moving ε reruns only this section; section 2 has an ε of its own)."""
    controls_column, chart_column = st.columns([2, 3], gap="medium")
    with controls_column:
        epsilon = controls.epsilon_slider(key="cvl_eps")
        p = dp.rr_keep_probability(epsilon)
        central_sd = dp.laplace_std(1, epsilon)
        local_sd = dp.local_count_std(n, epsilon)
        ratio = dp.local_to_central_error_ratio(n, epsilon)
        central_answer, local_answer = model.one_answer_each(
            truth, n, epsilon, controls.seed() + model.SEED_ONE_ANSWER
        )
        cols = st.columns(2)
        cols[0].metric("True count", f"{truth:,}")
        cols[1].metric("Keep-probability p = q", f"{text.number(p)}")
        cols = st.columns(2)
        cols[0].metric("One central answer", f"{text.number(central_answer)}")
        cols[1].metric("One local estimate", f"{local_answer:,.0f}")
        cols = st.columns(2)
        cols[0].metric("Typical error, central", f"±\u00a0{text.number(central_sd)}")
        cols[1].metric("Typical error, local", f"±\u00a0{text.number(local_sd)}")
        st.metric("Local is worse here by", f"about {ratio:,.0f}×")

    errors_seed = controls.seed() + model.SEED_ERRORS
    errors = model.error_distributions(truth, n, epsilon, errors_seed)
    with chart_column:
        data = model.error_distribution_data(errors, n, epsilon)
        typical, title = charts.placed_typical(data["bins"], data["typical"])
        charts.error_distribution().show(
            bins=data["bins"],
            typical=typical,
            title=title,
            alt=(
                "Two distributions of the absolute error on one log axis, at ε = "
                f"{text.number(epsilon)}. "
                f"Central (solid blue, exact): typical error ±\u00a0{text.number(central_sd)} "
                "people. "
                "Local "
                f"(dashed orange, {model.REPETITIONS:,} simulated surveys): typical error "
                f"±\u00a0{text.number(local_sd)} people, about {ratio:,.0f} times larger."
            ),
        )
    st.caption(
        "Each curve shows how often an answer misses the truth by a given amount (10 bins per "
        "factor of 10). Axes fixed: 0.01 to 100,000 people, 0 to 35%. The true value is an "
        "error of 0; the local estimate is off by about "
        f"{text.percent(dp.normalised_error(local_sd, truth))} "
        "of the true count, the central one by "
        f"{text.percent(dp.normalised_error(central_sd, truth))}."
    )
    snippets.ERRORS.show(
        truth=truth,
        n=n,
        epsilon=epsilon,
        repetitions=model.REPETITIONS,
        seed=errors_seed,
    )
    downloads.download_csv(
        errors,
        filename="central_vs_local-error-distribution.csv",
        key="central_vs_local_dl_errors",
    )


one_question()


st.header("2. More people: the gap grows")
st.markdown(
    "The central curator adds one noise draw to the total, whatever the number of people. "
    "In the local model every one of the n people adds their own noise, and n independent "
    "noises add up to a spread of √n:"
)
notebook.latex(
    r"\frac{\operatorname{sd}_{\text{local}}}{\operatorname{sd}_{\text{central}}}"
    r" = \sqrt{n}\;\frac{\varepsilon\, e^{\varepsilon/2}}{\sqrt{2}\,(e^{\varepsilon}-1)}"
)


@st.fragment
def gap_by_n() -> None:
    """Its own ε beside the typical error of both models against n (a fragment)."""
    data_label = "this census" if on_census else "your file"
    controls_column, chart_column = st.columns([2, 3], gap="medium")
    with controls_column:
        epsilon = controls.epsilon_slider(key="cvl_n_eps", label="ε for the comparison by n")
        central_sd = dp.laplace_std(1, epsilon)
        for size in (1_000, n, 1_000_000):
            st.metric(
                f"n = {size:,}: local / central",
                f"{dp.local_to_central_error_ratio(size, epsilon):,.0f}×",
            )
    with chart_column:
        charts.error_versus_n().show(
            **model.error_versus_n_data(epsilon, n, data_label),
            alt=(
                f"Log-log chart at ε = {text.number(epsilon)}: the central typical error is flat "
                "at "
                f"±\u00a0{text.number(central_sd)} people for every n; the local one grows "
                "like √n, "
                "from "
                f"±\u00a0{text.number(dp.local_count_std(100, epsilon))} at 100 people to "
                f"±\u00a0{dp.local_count_std(10_000_000, epsilon):,.0f} at 10,000,000. The "
                "dataset in "
                "use "
                f"({n:,} people) is marked by a dashed line."
            ),
        )
    st.caption(
        "Axes fixed: 100 to 10,000,000 people, 0.01 to 1,000,000 people of error, both log "
        "scale. As a share of n the local error still shrinks, like 1/√n — that is why the local "
        "model works for companies with millions of users, and poorly for a survey of 1,000."
    )
    snippets.BY_N.show(epsilon=epsilon)
    downloads.download_csv(
        model.error_versus_n(epsilon),
        filename="central_vs_local-error-vs-n.csv",
        key="central_vs_local_dl_by_n",
    )


gap_by_n()


st.header("3. What each model asks you to trust")
# At ε = 1 (fixed: the sliders above live in their own fragments).
central_sd = dp.laplace_std(1, 1.0)
local_sd = dp.local_count_std(n, 1.0)
ratio = dp.local_to_central_error_ratio(n, 1.0)
left, right = st.columns(2)
with left, st.container(border=True):
    st.markdown(
        "**Central: trust the curator.** You hand your true answer to someone who "
        "stores the raw data, adds the noise correctly, keeps the budget, and is never "
        "hacked, subpoenaed or tempted. In return you get answers that are off by "
        f"about ±\u00a0{text.number(central_sd)} people at ε = 1."
    )
with right, st.container(border=True):
    st.markdown(
        "**Local: trust no one.** Your answer is randomized before it leaves your "
        "hands, so even a curator who leaks everything holds only deniable reports. "
        f"The price: answers off by about ±\u00a0{local_sd:,.0f} people here at ε = 1 — "
        f"{ratio:,.0f} times the central error."
    )
st.markdown(
    "Same ε, same privacy promise to each person against the published result. The "
    "difference is *who else* you are protected from — and what that costs in accuracy."
)

quiz.check_yourself(
    "central_vs_local",
    quiz.bank(__file__, "central_vs_local"),
)
