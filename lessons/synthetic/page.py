"""Lesson: synthetic data — MWEM against the naive approach, and what synthetic data cannot
do."""

import streamlit as st

from lessons.synthetic import charts, model, snippets
from ui import controls, downloads, notebook, quiz, tables, text, userdata

controls.lesson_header(
    "Synthetic data",
    "Agencies and companies often release a synthetic table: fake people whose statistics "
    "match the real ones. You build a contingency table from census columns and see how "
    "empty it is, watch the naive synthesizer keep every column and lose every "
    "relationship, run MWEM over all two-way marginals, and then see what synthetic data "
    "cannot do: questions outside its workload, rare people, and models trained on it.",
)
userdata.census_only_notice("its table is built from banded census columns.")

# --- 1. The data ---------------------------------------------------------------------------------
st.header("1. The data: a contingency table")
picked = controls.multiselect(
    "Columns of the table (4 to 6; more columns → far more cells, most of them empty)",
    list(model.COLUMNS),
    default=list(model.DEFAULT_COLUMNS),
    max_selections=model.MAX_COLUMNS,  # "Select all" picked 8 and hid every section below
    key="syn_columns",
)
problem = model.valid_columns(picked)
if problem:
    st.warning(problem, icon=":material/table:")
    st.stop()
columns = tuple(picked)
table = model.table(columns)
cols = st.columns(3)
cols[0].metric("People n (public)", text.number(table.n))
cols[1].metric("Cells in the domain", text.number(table.cells))
cols[2].metric(
    "Empty cells", f"{text.number(table.empty)} ({text.percent(table.empty / table.cells)})"
)
st.markdown(
    f"Each person is one cell of a table with {' × '.join(str(s) for s in table.shape)} = "
    f"{text.number(table.cells)} cells. The table is a count vector; adding or removing a "
    "person changes one count by 1. Add columns and the cells multiply while the people do "
    "not: the **curse of dimensionality**, in numbers."
)

# --- 2. The naive way ----------------------------------------------------------------------------
st.header("2. The naive way: noisy columns, sampled independently")
st.markdown(
    f"Release each column's counts with Laplace noise at ε/{len(columns)} (each person is "
    f"in one cell of each column: the {len(columns)} columns add up to ε), then draw every "
    "synthetic person's columns independently. Each column looks right. Every relationship "
    "between columns is gone."
)
pair_names = [f"{columns[a]} × {columns[b]}" for a, b in model.pairs(columns)]


@st.fragment
def naive_way() -> None:
    """ε and the pair beside the real and naive two-way marginals (a fragment)."""
    control_column, chart_column = st.columns([2, 3], vertical_alignment="top")
    with control_column:
        epsilon = controls.epsilon_slider(
            key="syn_naive_eps",
            default=model.DEFAULT_EPSILON,
            options=model.EPSILONS,
            label="ε of the naive release",
        )
        pair_name = controls.selectbox(
            "Two-way marginal to compare",
            pair_names,
            index=model.default_pair(pair_names),
            key="syn_pair",
        )
        pair = model.pairs(columns)[pair_names.index(pair_name)]
        shown = model.naive_view(columns, epsilon, controls.seed(), pair)
        high, mean = shown.error
        st.metric("Two-way error, largest", f"{text.number(high)} people")
        st.metric("Two-way error, mean", f"{text.number(mean)} people")
    frame = shown.frame
    a, b = (model.COLUMNS[columns[i]] for i in pair)
    with chart_column:
        charts.heatmaps(a.labels, b.labels, row_title=a.name, column_title=b.name).show(
            title=f"{pair_name}: real and naive synthetic, ε = {text.number(epsilon)}",
            alt=(
                f"Two heatmaps of the {pair_name} marginal, real and from the naive synthetic "
                f"data at ε = {text.number(epsilon)}, people per cell. Largest gap over every "
                f"two-way marginal: {text.number(high)} people."
            ),
            real=shown.real,
            synthetic=shown.synthetic,
        )
    downloads.download_csv(frame, filename="naive-two-way.csv", key="syn_dl_naive")


naive_way()

# --- 3. MWEM -------------------------------------------------------------------------------------
st.header("3. MWEM: measure what is still wrong")
st.markdown(
    "MWEM (Hardt, Ligett & McSherry 2012) keeps a synthetic table A, uniform at first. Each "
    "of T rounds it uses the **exponential mechanism** to pick the two-way marginal cell "
    "that A gets most wrong, **measures** it with Laplace noise, and nudges A toward the "
    "measurement by **multiplicative weights**; the release is the average of the T tables. "
    "Each round spends ε/(2T) on the choice and ε/(2T) on the measurement."
)
notebook.latex(
    r"A \leftarrow A \cdot \exp\!\Big(\frac{q\,(m - q \cdot A)}{2n}\Big),\qquad "
    r"m = q \cdot x + \mathrm{Lap}(2T/\varepsilon)",
    narrow=r"""\begin{aligned}
    A &\leftarrow A \cdot \exp\!\Big(\frac{q\,(m - q \cdot A)}{2n}\Big),\\
    m &= q \cdot x + \mathrm{Lap}(2T/\varepsilon)
    \end{aligned}""",
)
quiz.predict_first(
    "synthetic_predict",
    quiz.bank(__file__, "synthetic_predict"),
)


@st.fragment
def mwem_section() -> None:
    """ε and T beside the workload error against T, the marginals measured, and what the
    synthetic table gets wrong (a fragment)."""
    control_column, chart_column = st.columns([2, 3], vertical_alignment="top")
    with control_column:
        epsilon = controls.epsilon_slider(
            key="syn_eps", default=model.DEFAULT_EPSILON, options=model.EPSILONS
        )
        rounds = controls.number_slider(
            "Rounds T  (more → more measured, each noisier)",
            model.ROUNDS,
            model.DEFAULT_ROUNDS,
            key="syn_rounds",
            kind=int,
        )
        seed = controls.seed()
        shown = model.view(columns, epsilon, rounds, seed)
        high, mean = shown.mwem_error
        naive_high, naive_mean = shown.naive_error
        st.metric("MWEM two-way error, largest", f"{text.number(high)} people")
        st.metric("Naive, at the same ε", f"{text.number(naive_high)} people")
    errors = model.errors_by_rounds(columns, epsilon, seed)
    with chart_column:
        charts.errors_by_rounds().show(
            title=f"Two-way marginal error against T, ε = {text.number(epsilon)}",
            alt=(
                f"Lines against the rounds T from {model.ROUNDS[0]} to "
                f"{text.number(model.ROUNDS[-1])} (log x): MWEM's largest and mean error over "
                f"every two-way marginal cell at ε = {text.number(epsilon)}, and the naive "
                f"release's as flat lines. At T = {text.number(rounds)}: MWEM "
                f"{text.number(high)} (mean {text.number(mean)}), naive "
                f"{text.number(naive_high)} (mean {text.number(naive_mean)}) people."
            ),
            errors=errors,
            truth=model.rounds_rule(rounds),
        )
    choice = shown.choices
    charts.choices(tuple(choice["marginal"])).show(
        title=f"Which marginal each of the {text.number(rounds)} rounds measured",
        alt=(
            f"Bars: how many of the {text.number(rounds)} rounds chose a cell of each two-way "
            f"marginal. Most often: {choice.loc[choice['rounds'].idxmax(), 'marginal']} "
            f"({text.number(choice['rounds'].max())} rounds)."
        ),
        choices=choice,
    )
    st.markdown(
        f"With T = {text.number(rounds)} rounds each measurement carries Lap("
        f"{text.number(2 * rounds / epsilon)}) noise: more rounds measure more cells, each "
        "more noisily, and the multiplicative update moves the table only a little per round. "
        + model.rounds_words(errors, rounds, epsilon)
    )
    snippets.MWEM.show(columns=columns, epsilon=epsilon, rounds=rounds, seed=seed + model.SEED_MWEM)
    downloads.download_csv(errors, filename="mwem-error-by-rounds.csv", key="syn_dl_mwem")

    st.subheader("What it cannot do")
    three_mwem, three_naive = shown.three_way
    cols = st.columns(2)
    cols[0].metric("Three-way marginals, MWEM: mean error", f"{text.number(three_mwem)} people")
    cols[1].metric("Naive: mean error", f"{text.number(three_naive)} people")
    st.markdown(
        "**Questions outside the workload.** MWEM measured two-way marginals only; nothing "
        "made its three-way marginals right, and the release answers them with whatever the "
        "multiplicative weights happened to produce. **Rare people** are smoothed away: "
        "the smallest real cells against their synthetic counts:"
    )
    tables.written(shown.rare)
    synthetic = model.synthetic_table(columns, epsilon, rounds, seed)
    downloads.download_csv(
        synthetic,
        filename="synthetic-census.csv",
        label=f"Download the {text.number(len(synthetic))} synthetic people (CSV)",
        key="syn_dl_rows",
    )


mwem_section()


@st.fragment
def trained_on_synthetic(columns: tuple[str, ...]) -> None:
    """Classifiers trained on real and synthetic data, scored on the real census (a
    fragment: opening its numbers reruns only this)."""
    if "income" not in columns:
        st.info(
            "Add the income column to the table to train a classifier on it.",
            icon=":material/info:",
        )
    else:
        accuracy = model.classifier_accuracy(columns, model.DEFAULT_ROUNDS, controls.seed())
        real = accuracy[accuracy["model"] == charts.MODELS[0]]["accuracy"].iloc[0]
        mwem_acc = accuracy[accuracy["model"] == charts.MODELS[1]].set_index("epsilon")["accuracy"]
        charts.accuracy_by_epsilon().show(
            title="Predicting income on real people, trained on real or synthetic data",
            alt=(
                "Lines against ε from 0.1 to 10 (log x): the accuracy on the real census of a "
                f"logistic regression predicting income from the other columns, trained on the "
                f"real table ({text.percent(real)}), on MWEM's synthetic data (T = "
                f"{text.number(model.DEFAULT_ROUNDS)}: {text.percent(mwem_acc.iloc[0])} at "
                f"ε = 0.1, {text.percent(mwem_acc.iloc[-1])} at ε = 10) and on the naive "
                "synthetic data."
            ),
            accuracy=accuracy,
        )
        label, share = model.majority_income(columns)
        naive = accuracy[accuracy["model"] == charts.MODELS[2]]["accuracy"]
        flat = bool(abs(naive - share).max() < 0.005)
        st.caption(
            "Each line is a logistic regression that predicts income from the table's other "
            "columns, trained on the real table or on a synthetic one, and scored on the real "
            f"census. {model.mwem_against_real(real, mwem_acc)} "
            + (
                f"The naive line is flat at {text.percent(share)}: that is the share of the census "
                f"in the income band {text.plain(label)}, what a classifier scores by answering "
                f"{text.plain(label)} for everyone. The naive synthetic people carry no link "
                "between income and the other columns, so its classifier learns none."
                if flat
                else f"Answering {text.plain(label)} for everyone would score "
                f"{text.percent(share)}."
            )
        )
        downloads.download_csv(accuracy, filename="synthetic-classifier.csv", key="syn_dl_clf")


# --- 4. Models trained on synthetic data ---------------------------------------------------------
st.header("4. Models trained on synthetic data")
trained_on_synthetic(columns)
st.markdown(
    "**Not unlimited free queries.** The synthetic table is post-processing of an ε-DP "
    "release, so any question asked of it costs no more privacy; but its answers are only as "
    "good as what the workload measured. A question the workload did not cover gets an "
    "answer, not a good one.\n\n"
    "**Rows that look like real people are not a leak.** A synthetic row may match a real "
    "person exactly, simply because such people are common. DP promises that the release "
    "would be about as likely without any one person, not that no row resembles anyone."
)

# --- 5. What practitioners use -------------------------------------------------------------------
st.header("5. What practitioners use")
st.markdown(
    "- **MST** (McKenna, Miklau & Sheldon, *Winning the NIST Contest: A scalable and general "
    "approach to differentially private synthetic data*, Journal of Privacy and "
    "Confidentiality 2021): measures one-way marginals and a maximum spanning tree of "
    "two-way marginals chosen privately, then fits a graphical model (private-pgm) and "
    "samples from it. It won the 2018 NIST synthetic data challenge.\n"
    "- **AIM** (McKenna, Mullins, Sheldon & Miklau, *AIM: An Adaptive and Iterative "
    "Mechanism for Differentially Private Synthetic Data*, VLDB 2022): like MWEM it selects "
    "marginals adaptively, but with zCDP budgeting, a budget that grows as rounds go on, "
    "and a graphical model instead of a full table, so it scales to domains far beyond "
    "the few thousand cells MWEM's table can hold."
)

quiz.check_yourself(
    "synthetic",
    quiz.bank(__file__, "synthetic"),
)
