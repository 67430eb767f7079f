"""Lesson: k-ary randomized response — histograms of a k-valued attribute, negative
estimates and post-processing, error versus ε, and variance versus k."""

import streamlit as st

import dp
from lessons.kary_rr import charts, model, snippets
from ui import categories, controls, downloads, notebook, quiz, tables, text, userdata
from ui import template as ui_template

controls.lesson_header(
    "k-ary randomized response",
    "Binary randomized response protects a yes/no answer. Here every person holds one of k "
    "values — their occupation, say — and reports it through k-ary randomized response. You "
    "see the true, reported and estimated histograms of an attribute, why some "
    "estimates come out negative and how post-processing repairs them for free, how the "
    "error falls as ε grows, and why more categories mean more noise.",
)

userdata.show_dataset_in_use()

st.header("The mechanism")
st.caption(
    "Local DP, as in the coin-flip lesson: the neighbour relation is one person's value "
    "changing, and for any two values x, x′ and every report y, "
    "P[F(x) = y] ≤ $e^ε$ · P[F(x′) = y]."
)
st.markdown(
    "Each person keeps their true value with probability p. Otherwise they report one of "
    "the other k − 1 values, each with the same probability q:"
)
notebook.latex(
    r"p = \frac{e^{\varepsilon}}{e^{\varepsilon} + k - 1}, \qquad "
    r"q = \frac{1}{e^{\varepsilon} + k - 1}"
)
st.markdown(
    "Whatever your true value, any report is at most p / q = $e^ε$ times more likely from you "
    "than from anyone else: that is ε-local differential privacy."
)

attr = categories.pick_attribute("kary")
if attr is None:
    st.stop()
title = text.plain(attr.title)
st.header("True, reported and estimated")
st.markdown(
    "The reports are a blurred copy of the truth: category v keeps p·n(v) of its own n(v) "
    "people and receives q·(n − n(v)) false reports from everyone else. So the expected "
    "count of reports of v is n(v) p + (n − n(v)) q = n q + n(v) (p − q), and you undo the "
    "blur by subtracting n q and dividing by p − q:"
)
notebook.latex(r"\hat c_v = \frac{C_v - n\,q}{p - q}")


@st.fragment
def survey_and_post_processing(attr) -> None:
    """ε beside the reported and estimated histograms, and the same survey's negative
    estimates and their projection (a fragment: moving ε reruns only these two sections)."""
    controls_column, chart_column = st.columns([2, 3], gap="medium")
    with controls_column:
        epsilon = controls.epsilon_slider(key="kary_eps", default=0.5)
        p, q = dp.grr_probabilities(epsilon, attr.k)

        cols = st.columns(2)
        cols[0].metric("Categories k", f"{attr.k}")
        cols[1].metric("People surveyed n", f"{attr.n:,}")
        cols = st.columns(2)
        cols[0].metric("Keep the truth p", f"{text.number(p)}")
        cols[1].metric("Each other value q", f"{text.number(q)}")
        if attr.missing:
            st.caption(
                f"{attr.missing:,} people have no {title} recorded; they are left out, so "
                f"n = {attr.n:,}."
            )
        survey = model.grr_survey(attr, epsilon, controls.seed())
        series = {"reported": survey["reported"], "estimated": survey["raw"]}
    with chart_column:
        charts.histogram(attr, tuple(series)).show(
            **model.histogram_frames(attr, series),
            title=charts.histogram_title(
                f"Reported and estimated (ε = {text.number(epsilon)})",
                [
                    f"{attr.heading} · black tick: true count",
                    "hollow dashed bar: reported · solid bar: estimated",
                ],
            ),
            alt=model.describe_histograms(attr, series),
        )
    st.caption(
        "The axis is fixed for each attribute, so moving ε shows change, not rescaling. "
        "A bar beyond the axis is cut at its edge and marked » or «."
    )
    snippets.ESTIMATES.show(
        values=list(attr.labels),
        true_counts=attr.counts,
        epsilon=epsilon,
        seed=controls.seed() + model.SEED_HISTOGRAM,
    )
    downloads.download_csv(
        model.estimates_frame(attr, survey),
        filename="kary_rr-estimates.csv",
        key="kary_rr_dl_estimates",
    )

    st.header("Negative estimates and post-processing")
    st.markdown(model.negatives_words(attr, epsilon, controls.seed(), controls.EPSILON_GRID))
    notebook.latex(
        r"\tilde c_v = \max(\hat c_v - \delta,\ 0), \qquad \textstyle\sum_v \tilde c_v = n"
    )
    st.info(
        "**Post-processing costs no privacy.** Clipping and projection use only the published "
        "estimates, never the data, so the result is ε-differentially private with the same ε. "
        "Projection never moves the estimate further from the truth in L2: the truth is itself "
        "a proper histogram."
    )
    errors = {
        name: (dp.l1_error(survey[name], attr.counts), dp.l2_error(survey[name], attr.counts))
        for name in ("raw", "clipped", "projected")
    }
    cols = st.columns(3)
    for col, name in zip(cols, ("raw", "clipped", "projected"), strict=True):
        l1, l2 = errors[name]
        change = l1 - errors["raw"][0]
        col.metric(
            f"L1 error, {name}",
            text.number(l1),
            delta=None if name == "raw" else text.signed(change),
            delta_arrow=text.arrow(change),
            delta_color="inverse",
            border=True,
        )
        col.caption(f"L2 error, {name}: **{text.number(l2)}** people")
    post = {"raw estimate": survey["raw"], "projected": survey["projected"]}
    charts.histogram(attr, tuple(post)).show(
        **model.histogram_frames(attr, post),
        title=charts.histogram_title(
            f"Projection removes negatives (ε = {text.number(epsilon)})",
            ["Black tick: true count", "hollow dashed bar: raw · solid bar: projected"],
        ),
        alt=model.describe_histograms(attr, post),
    )


survey_and_post_processing(attr)


st.header("Error versus ε")
st.markdown(
    f"One survey is one noisy draw. The table averages {model.ERROR_TABLE_REPETITIONS} "
    f"surveys of the {attr.n:,} people at each ε: the mean L1 error "
    r"$\sum_v |\hat c_v - c_v|$ and L2 error $\sqrt{\sum_v (\hat c_v - c_v)^2}$, in people."
)
table = model.error_table(attr, controls.seed())
# A static table: Streamlit's data grid costs ~0.3 s of a first visit in Chromium.
tables.written(model.error_table_display(table))
st.caption(
    f"{text.plain(attr.heading)}, k = {attr.k}. At small ε the projection helps most: the raw "
    "estimates are far off and many are negative. At large ε they are already close to a "
    "proper histogram, and projection changes little."
)

st.header("More categories, more noise")
st.markdown(
    "With more categories, a lie is spread over more values, so p falls and the truth "
    "drowns in the false reports. The variance of one estimated count (of a value nobody "
    "holds) is"
)
notebook.latex(
    r"\operatorname{Var}[\hat c_v] = n\,\frac{e^{\varepsilon} + k - 2}{(e^{\varepsilon} - 1)^2}"
)


@st.fragment
def variance_by_k(attr) -> None:
    """Its own ε beside the variance-versus-k curve (a fragment: moving it reruns only
    this section; the survey above keeps its ε)."""
    controls_column, chart_column = st.columns([2, 3], gap="medium")
    with controls_column:
        epsilon = controls.epsilon_slider(
            key="kary_var_eps", default=0.5, label="ε for the variance curve"
        )
        variance = dp.grr_variance(attr.n, epsilon, attr.k)
        st.metric(f"Variance of one count at k = {attr.k}", f"{variance:,.0f}")
        st.metric("Standard deviation", f"{variance**0.5:,.0f} people")
    frame = model.variance_by_k(attr.n, epsilon)
    domain = model.variance_domain(attr.n)
    with chart_column:
        charts.variance(domain).show(
            **model.variance_frames(frame, attr, epsilon, ui_template.current_text_scale()),
            title={
                "text": f"GRR variance versus k (ε = {text.number(epsilon)})",
                "subtitle": f"n = {attr.n:,} · diamond: {attr.title}, k = {attr.k}",
                "anchor": "start",
            },
            alt=(
                f"Line chart, log scale: GRR variance of one count for k from 2 to 64 at ε = "
                f"{text.number(epsilon)} and n = {attr.n:,}, rising from "
                f"{frame['variance'].iloc[0]:,.0f} at "
                f"k = 2 to {frame['variance'].iloc[-1]:,.0f} at k = 64; {attr.title} "
                f"(k = {attr.k}) is marked at {variance:,.0f}."
            ),
        )
    st.caption(
        "Log scale; the grey dotted curves are ε = 0.1, 1 and 10 for reference (below "
        "ε = 0.1 the curve runs along the top edge). At small ε the variance grows almost in "
        "proportion to k; at large ε the $e^ε$ term dominates and k matters less. When k is "
        "large, unary encoding (its own lesson) does better."
    )
    snippets.VARIANCE.show(n=attr.n, epsilon=epsilon)
    downloads.download_csv(frame, filename="kary_rr-variance.csv", key="kary_rr_dl_variance")


variance_by_k(attr)

quiz.check_yourself(
    "kary_rr",
    quiz.bank(__file__, "kary_rr"),
)
