"""Lesson: privatized data for machine learning — train a classifier on locally privatized
census records and score it on the truth."""

import streamlit as st

from lessons.private_ml import charts, model, snippets
from ui import controls, downloads, notebook, quiz, rr_training, text, userdata
from ui import tables as ui_tables

controls.lesson_header(
    "Privatized data for ML",
    "Every person privatizes their age band and sex on their own device (k-ary randomized "
    "response, as in its own lesson), and perhaps more columns, before sending their "
    "record. Can an analyst still train a useful income classifier on what arrives? You "
    "train three models — on the true table, on the privatized table, and without the "
    "privatized columns — score each on held-out true records, and watch the accuracy, the "
    "model's coefficients and its fairness between women and men change with ε.",
)
userdata.census_only_notice("the classifier needs the census's income column.")

# --- 1. What each person sends -------------------------------------------------------------
st.header("1. What each person sends")
st.markdown(
    "Each census person sends one record. **Education** (years) and **hours worked per "
    "week** go as they are, and so does the label the model learns: **income above \\$50K**. "
    "**Age band × sex** (6 bands × 2 = 12 categories) is privatized; you may privatize more "
    "columns. Local DP protects exactly the privatized columns: for any two values of them, "
    "every report is at most $e^ε$ times as likely under one as under the other. The columns "
    "sent as they are get no protection — here they stand for what the analyst knows anyway."
)
setup_left, setup_right = st.columns(2, gap="medium")
with setup_left:
    chosen = controls.multiselect(
        "Privatize as well (more columns → each gets less of ε)",
        list(rr_training.EXTRA_COLUMNS),
        key="pml_cols",
        format_func=rr_training.EXTRA_COLUMNS.get,
        placeholder="only age band × sex",
    )
with setup_right:
    mechanism = controls.radio(
        "Mechanism for every privatized column",
        rr_training.MECHANISMS,
        key="pml_mech",
        horizontal=True,
    )
columns = tuple(column for column in rr_training.EXTRA_COLUMNS if column in chosen)
count = 1 + len(columns)
st.markdown(
    f"A person's ε is split evenly over the **{count}** privatized "
    f"column{'s' if count > 1 else ''} (sequential composition), so each column gets "
    "ε′ = ε / c, with c the number of privatized columns. A column with k categories is then "
    "reported with the keep-probabilities"
)
if mechanism == rr_training.GRR:
    notebook.latex(
        r"p = \frac{e^{\varepsilon'}}{e^{\varepsilon'} + k - 1},\qquad "
        r"q = \frac{1}{e^{\varepsilon'} + k - 1}"
    )
    st.markdown(
        "A person reports their true category with probability p, each other one "
        "with probability q."
    )
else:
    notebook.latex(r"p = \tfrac12,\qquad q = \frac{1}{e^{\varepsilon'} + 1}")
    st.markdown(
        "A person sends k bits, a 1 for their category: each true 1 stays 1 with "
        "probability p, each 0 turns into a 1 with probability q."
    )

# --- 2. Three models, one test -------------------------------------------------------------
seed = controls.seed()
st.header("2. Three models, one test")
st.markdown(
    "Logistic regression learns P(income > \\$50K) from the features. All three models train "
    "on the same 75% of the people and are scored on the same held-out 25%, **with their "
    "true values** — the question is how well a model trained on privatized data predicts "
    "for real people: (a) trained on the true table; (b) trained on the privatized table "
    "as it arrives; (c) trained without the privatized columns, the baseline."
)
reference = rr_training.reference_models(columns, seed)
draw = seed + rr_training.SEED_PRIVATIZE
with st.spinner("Training 24 models (once per choice of columns and seed)…"):
    curve = rr_training.accuracy_curve(columns, mechanism, seed)


@st.fragment
def three_models() -> None:
    """ε beside the three models' accuracy curve (a fragment: moving ε reruns only this
    section; sections 3 and 4-5 have an ε of their own)."""
    controls_column, chart_column = st.columns([1, 2], gap="medium")
    with controls_column:
        epsilon = controls.epsilon_slider(key="pml_eps", default=1.0)
        share = rr_training.column_epsilon(epsilon, columns)
        here = rr_training.privatized_model(columns, mechanism, epsilon, seed, draw)
        st.metric("ε′ per privatized column", text.number(share))
        st.metric("(a) true table", text.percent(reference["true"]["accuracy"]))
        st.metric("(b) privatized table", text.percent(here["accuracy"]))
        st.metric(
            "(c) without the privatized columns", text.percent(reference["baseline"]["accuracy"])
        )
    with chart_column:
        levels = model.accuracy_levels(reference)
        charts.accuracy_curve().show(
            curve=model.accuracy_frame(curve),
            levels=levels,
            mark=model.mark_frame(epsilon, here["accuracy"]),
            title={
                # your ε's words in the text (read from the chart's data): a subtitle is
                # part of the spec, which a press re-sends whole
                "text": [
                    "(b) trained on privatized data",
                    f"◆ at your ε = {text.number(epsilon)}: {text.percent(here['accuracy'])}",
                ],
                "subtitle": mechanism,
            },
            alt=model.describe_accuracy(curve, reference, epsilon, here),
        )
    st.caption(
        f"Blue: model (b)'s test accuracy, the mean of {rr_training.REPEATS} privatizations per ε "
        "(bars: ±\u00a01 standard error); the diamond is this page's own privatization at your ε. "
        f"Test set: {reference['test']:,} people, so one person more or less right moves the "
        f"accuracy by {text.percent(1 / reference['test'])}. Axes fixed: ε 0.01–10, accuracy "
        "74–86%."
    )
    st.markdown(model.gain_words(epsilon, here, reference, curve))
    snippets.ONE_POINT.show(columns=columns, mechanism=mechanism, epsilon=epsilon, seed=seed)
    downloads.download_csv(
        curve, filename="private_ml-accuracy-vs-epsilon.csv", key="private_ml_dl_curve"
    )


three_models()


# --- 3. What the analyst receives ----------------------------------------------------------
st.header("3. What the analyst receives")
st.markdown(
    "The analyst de-biases each category's count, as in the k-ary and unary lessons: "
    "ĉ = (reported − n q) / (p − q)."
)


@st.fragment
def analyst_table() -> None:
    """Its own ε and the privatized table the analyst receives (a fragment)."""
    epsilon = controls.epsilon_slider(
        key="pml_table_eps", default=1.0, label="ε for the analyst's table"
    )
    share = rr_training.column_epsilon(epsilon, columns)
    table = model.privatized_table(columns, mechanism, epsilon, draw)
    st.markdown(model.row_words(share, len(table)))
    left, right = st.columns([3, 2], gap="medium")
    with left:
        st.markdown(f"**Age band × sex at ε′ = {text.number(share)}**")
        ui_tables.show(model.marginal(columns, mechanism, epsilon, draw), key="marginal")
    with right:
        st.markdown("**The first rows the analyst gets**")
        ui_tables.show(table.head(8), key="first-rows")
    st.caption(
        "±\u00a01 SE: the standard error of the debiased count (at the true share). About 95% of "
        "estimates fall within 2 SE of the true count. The table has no name, birth date, SSN "
        "or ZIP code."
    )
    downloads.download_csv(
        table,
        filename="private_ml-privatized-table.csv",
        label="Download the privatized table (CSV)",
        key="private_ml_dl_table",
    )


analyst_table()


@st.fragment
def model_and_fairness() -> None:
    """Its own ε beside the coefficients, and the fairness gap at that ε (a fragment)."""
    # --- 4. What the model learns --------------------------------------------------------------
    st.header("4. What the model learns")
    st.markdown(
        "Each age band × sex category gets a coefficient: how much it raises the log-odds of "
        "income > \\$50K. On privatized data they shrink toward 0, for two reasons. The expected "
        "report keeps only p − q of the true category (the rest is spread over all categories), "
        "and the report's noise makes the model trust the column less — *regression dilution*, "
        "the classic effect of noisy features. The model then leans on education and hours."
    )
    controls_column, chart_column = st.columns([1, 2], gap="medium")
    with controls_column:
        epsilon = controls.epsilon_slider(
            key="pml_model_eps", default=1.0, label="ε for the coefficients and the fairness gap"
        )
        share = rr_training.column_epsilon(epsilon, columns)
        here = rr_training.privatized_model(columns, mechanism, epsilon, seed, draw)
        gap = rr_training.keep_gap(mechanism, share, len(rr_training.AGE_SEX_CATEGORIES))
        slope = model.shrinkage(here["coefficients"], reference["coefficients"])
        st.metric("p − q for age band × sex", text.number(gap, 3))
        st.metric("Privatized ÷ true coefficients", text.number(slope, 3))
    with chart_column:
        charts.coefficients().show(
            coefficients=model.coefficients_frame(reference["coefficients"], here["coefficients"]),
            title={
                "text": f"Coefficients at ε = {text.number(epsilon)}",
                "subtitle": "age band × sex",
            },
            alt=model.describe_coefficients(reference["coefficients"], here["coefficients"], slope),
        )
    st.caption(
        "Coefficients centred within the column (with an intercept only the differences between "
        "categories matter). The multiple is the least-squares slope of the blue diamonds on "
        "the black circles. Axis fixed at −3.5 … 2.5."
    )

    # --- 5. Fairness ----------------------------------------------------------------------------
    st.header("5. Fairness: accuracy for women and for men")
    st.markdown(
        "The census's women earn > \\$50K far less often than its men, so every model is right "
        "more often for women. How big that gap is depends on what the model knows: privacy "
        "noise in the sex column changes it."
    )
    cols = st.columns(3)
    for column, (label, result) in zip(
        cols,
        (("(a)", reference["true"]), ("(b)", here), ("(c)", reference["baseline"])),
        strict=True,
    ):
        column.metric(
            f"{label} right for women / men",
            f"{text.percent(result['women'])} / {text.percent(result['men'])}",
        )
    gap_levels = model.gap_levels(reference)
    charts.gap_curve().show(
        curve=model.gap_frame(curve),
        levels=gap_levels,
        mark=model.mark_frame(epsilon, 100 * here["gap"]),
        title=[
            "Accuracy gap, women − men",
            # ≤ 34 characters, presenter mode's line ("◆ (b) at your" / "ε = 0.07: 14.8 points"
            # was broken in two on a projector)
            f"◆ (b) at ε = {text.number(epsilon)}: {model.points(here['gap'])}",
        ],
        alt=model.describe_gap(curve, reference, epsilon, here),
    )
    st.caption(
        f"{model.fairness_words(reference, columns)} At small ε the privatized model loses "
        "that help and its gap moves toward the baseline's. Privacy noise is not neutral: "
        "measure fairness at the ε you deploy. Axes fixed: ε 0.01–10, gap 5–20 percentage "
        "points."
    )
    downloads.download_csv(
        model.gap_frame(curve), filename="private_ml-fairness-gap.csv", key="private_ml_dl_gap"
    )


model_and_fairness()


# --- 6. The answer ---------------------------------------------------------------------------
st.header("6. So: can you learn from privatized data?")
kept = model.kept_along_curve(curve, reference)
st.markdown(
    f"For the columns and mechanism you chose, the privatized model keeps "
    f"**{text.percent(kept[0.1])}** of the privatized columns' worth at ε = 0.1, "
    f"**{text.percent(kept[1.0])}** at ε = 1 and **{text.percent(kept[4.0])}** at ε = 4 (the "
    "curve's means, (b − c) / (a − c)). So yes: a classifier can learn from locally "
    "privatized records, at an ε of a few units per person. Below that the columns are noise "
    "and the model falls back on what was sent as is. Each extra privatized column divides "
    "ε further, and the columns sent in the clear were never protected. Counts (section 3) "
    "survive much better than row-level learning: averaging over many people removes noise "
    "that a per-person model must live with."
)

quiz.check_yourself(
    "private_ml",
    quiz.bank(__file__, "private_ml"),
)
