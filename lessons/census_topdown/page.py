"""Lesson: the 2020 US Census in miniature — TopDown on the course's census: noisy
measurements at every level of a geography, post-processing into a consistent table, and
who pays for the noise."""

import streamlit as st

from lessons.catalogue import LESSONS
from lessons.census_topdown import charts, model, snippets
from ui import classroom, controls, downloads, notebook, quiz, tables, text, userdata

controls.lesson_header(
    "The 2020 Census in miniature",
    "The largest DP deployment ever made, rebuilt on the course's census: every level of a "
    "geography (nation, 10 regions, 40 ZIP3s, 300 ZIP5s) gets discrete Gaussian noise, and "
    "TopDown turns the noisy, negative, inconsistent counts into a table whose counts are "
    "whole, never negative and add up. Then you see who pays: small places, and small counts.",
)
userdata.census_only_notice("its geography is the census's invented ZIP codes.")
LESSON = {lesson.folder: lesson for lesson in LESSONS}
geo = model.geography()

# --- 1. Noisy measurements --------------------------------------------------------------------
st.header("1. Noisy measurements")
st.markdown(
    "In every unit of every level, a small table: sex × age band (17–29, 30–49, 50+), 6 "
    f"cells. Level by level that is {', '.join(f'{t.size:,}' for t in geo.true)} counts. "
    "Each person is in one cell per level, so adding or removing one person changes one "
    "count per level by 1 (sensitivity 1, add/remove neighbours). Each level ℓ gets its "
    "share $\\rho_\\ell$ of the budget and **discrete Gaussian** noise, integers with "
    "P[x] ∝ exp(−x²/(2σ²)) (Canonne, Kamath & Steinke 2020):"
)
notebook.latex(
    r"""\tilde c = c + \mathcal N_{\mathbb Z}(0, \sigma_\ell^2), \quad
    \sigma_\ell^2 = \frac{1}{2\rho_\ell}, \quad \rho = \sum_\ell \rho_\ell
    \ \text{(zCDP adds up)}, \quad \varepsilon = \varepsilon(2\rho, \delta = 10^{-10}).""",
    narrow=r"""\begin{aligned}
    \tilde c &= c + \mathcal N_{\mathbb Z}(0, \sigma_\ell^2), \quad
      \sigma_\ell^2 = \frac{1}{2\rho_\ell}, \\
    \rho &= \sum_\ell \rho_\ell \ \text{(zCDP adds up)}, \\
    \varepsilon &= \varepsilon(2\rho, \delta = 10^{-10}).
    \end{aligned}""",
)
st.markdown(
    f"The nation's total, **{geo.total:,}**, is published exact: an *invariant*, as the "
    "2020 Census published each state's population exactly. With the total exact, adding or "
    "removing one person is detected with certainty, so the guarantee no longer holds "
    "between add/remove neighbours: it holds between datasets that share the invariant, "
    "those that differ in one person's record (a person moved, or changed age band, the "
    "total unchanged). Such a change moves two counts of a level by 1 each (L2 sensitivity "
    "√2), so between them the same noise gives 2ρ-zCDP: the ε shown below is that "
    "guarantee's. The Bureau counts its budget the same way (its code's *bounded* "
    "neighbours): the 2020 persons tables' ρ = 2.56 is this slider's ρ = 1.28."
)

share_columns = st.columns(4)
weights = []
for column, level, default in zip(share_columns, model.LEVELS, model.CENSUS_WEIGHTS, strict=True):
    with column:
        weights.append(
            int(
                controls.slider(
                    f"Weight of the {level} level",
                    1,
                    100,
                    default,
                    1,
                    key=f"ct_weight_{level.lower()}",
                    help="Each level gets weight ÷ (sum of weights) of ρ. The defaults are the "
                    "2020 Census's persons-file proportions, in whole percent.",
                )
            )
        )
weights = tuple(weights)


def rho_slider(*, key: str, label: str = "Total ρ") -> float:
    return controls.number_slider(
        f"{label}  ({controls.MORE_PRIVATE_LEFT})",
        model.RHOS,
        model.DEFAULT_RHO,
        key=key,
        help="1.28 is the 2020 Census's noise for its persons tables: its ρ = 2.56 counts "
        "a changed record, 2ρ here.",
    )


@st.fragment
def measurements(weights: tuple[int, ...]) -> None:
    """Total ρ beside each level's noise against its counts."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        rho = rho_slider(key="ct_rho")
        st.metric(model.EPSILON_LABEL, text.number(model.epsilon_of(rho)))
        levels = model.levels_frame(rho, weights)
        st.metric("Noise SD at ZIP5", text.number(float(levels["sd"].iloc[3])))
        st.caption(model.sd_words(float(levels["sd"].iloc[3]), float(levels["sigma"].iloc[3])))
        st.caption(f"The split: {model.weights_words(weights)}.")
    with chart_column:
        charts.levels(classroom.presenting()).show(
            title=f"Noise against the counts it hides, ρ = {text.number(rho)}",
            alt=(
                "Per level, the noise's SD against the median true count of a cell, on a log "
                "axis of people: "
                + "; ".join(
                    f"{row.level}: SD {text.number(row.sd)}, median count {text.number(row._6)}"
                    for row in levels.itertuples()
                )
                + "."
            ),
            levels=model.levels_long(rho, weights),
        )
    tables.written(model.levels_table(rho, weights))
    snippets.MEASURE.show(rho=rho, weights=weights)


measurements(weights)

# --- 2. Making it a table ---------------------------------------------------------------------
st.header("2. Making it a table")
st.markdown(
    "The noisy counts are useless as a table: some are negative, and a ZIP3's ZIP5 counts do "
    "not add up to the ZIP3's own count. **TopDown** fixes both, level by level from the top "
    "(deterministic post-processing, so it costs no privacy): each parent's children are "
    "projected onto the non-negative counts that sum to the parent's final count "
    "(`dp.simplex_projection`), then rounded to whole numbers keeping the sum "
    "(`dp.round_preserving_sum`)."
)
notebook.latex(
    r"""x^\star = \arg\min_{x \ge 0,\ \sum_i x_i = P} \sum_i (x_i - \tilde c_i)^2
    = \max(\tilde c - \theta, 0), \quad \theta \text{ such that } \sum_i x_i = P.""",
    narrow=r"""\begin{aligned}
    x^\star &= \arg\min_{x \ge 0,\ \sum_i x_i = P} \sum_i (x_i - \tilde c_i)^2 \\
    &= \max(\tilde c - \theta, 0),\ \theta:\ \sum_i x_i = P.
    \end{aligned}""",
)


@st.fragment
def table_from_noise(weights: tuple[int, ...]) -> None:
    """ρ, a ZIP3 and a cell beside its ZIP5s' true, noisy and released counts."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    choices = model.zip3_choices()
    with control_column:
        rho = rho_slider(key="ct_table_rho", label="ρ of this release")
        result = model.runs(rho, weights, controls.seed() + model.SEED_RUNS)
        zip3 = controls.selectbox(
            "ZIP3", list(choices), index=model.DEFAULT_ZIP3_INDEX, key="ct_zip3"
        )
        cell_name = controls.selectbox("Cell", list(model.CELLS), index=5, key="ct_cell")
        zip3_index, cell = choices.index(zip3), model.CELLS.index(cell_name)
        frame = model.children_frame(result, zip3_index, cell)
        true, noisy, final = model.parent_count(result, zip3_index, cell)
        st.metric(f"ZIP3 {zip3}, released", f"{final:,}")
        st.metric("Its ZIP5s' noisy counts add up to", text.number(float(frame["noisy"].sum())))
        st.metric("Its ZIP5s' released counts add up to", f"{int(frame['final'].sum()):,}")
    with chart_column:
        charts.children().show(
            title=f"ZIP3 {zip3}, {cell_name}: noise to table",
            alt=(
                f"For each ZIP5 of ZIP3 {zip3}, {cell_name}: true, noisy and released counts "
                "on a symlog axis: "
                + "; ".join(
                    f"{row.zip} true {row.true}, noisy {text.number(row.noisy)}, released "
                    f"{row.final}"
                    for row in frame.itertuples()
                )
                + "."
            ),
            counts=model.children_long(frame),
        )
    st.markdown(
        f"In this run ZIP3 {zip3}'s {cell_name} measured {text.number(noisy)} "
        f"(true {true:,}) and was released as {final:,}. Its {len(frame)} ZIP5 counts were "
        f"measured adding up to {text.number(float(frame['noisy'].sum()))}, and released "
        f"adding up to {int(frame['final'].sum()):,}, exactly their parent. "
        + model.negatives_words(frame, result, cell, rho)
    )
    snippets.TOPDOWN.show(rho=rho, weights=weights, seed=controls.seed() + model.SEED_RUNS)
    downloads.download_csv(frame, filename="topdown-one-zip3.csv", key="ct_dl_children")


table_from_noise(weights)

# --- 3. Who pays --------------------------------------------------------------------------------
st.header("3. Who pays")
st.markdown(
    f"Over {model.RUNS} seeded releases, how far is each unit's "
    "released population from its true one, relative to its size? The noise is the same "
    "size everywhere in a level, so it weighs most on small places."
)


@st.fragment
def who_pays(weights: tuple[int, ...]) -> None:
    """ρ beside each place's relative error and the bias by count; the prediction above."""
    predict = st.container()
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        rho = rho_slider(key="ct_pay_rho", label="ρ of each release")
        result = model.runs(rho, weights, controls.seed() + model.SEED_RUNS)
        said = model.who_pays(result)
        accurate = said.accurate
        st.metric(
            "Every place within 5% from",
            "none" if accurate is None else f"{accurate:,} people",
        )
    with chart_column:
        charts.who_pays().show(
            title=f"Relative error of each place's population, ρ = {text.number(rho)}",
            alt=said.alt,
            units=model.units_frame(result),
            truth=model.accurate_rule(accurate),
        )
    st.markdown(
        (
            f"At ρ = {text.number(rho)}, every place of at least **{accurate:,} people** is "
            f"within 5% on average over these {model.RUNS} releases (a size read off noisy "
            f"releases: another {model.RUNS} would put it somewhat elsewhere); below it the "
            "error grows as the place shrinks. "
            if accurate is not None
            else f"At ρ = {text.number(rho)} not even the largest places are all within 5%. "
        )
        + "The Census Bureau found the same shape at the scale of the nation: its counts are "
        "fit for use for places of several hundred people and more, not for single blocks."
    )
    st.markdown(
        "Post-processing has a price of its own. Making counts non-negative pushes small counts "
        "**up** (a noisy −2 becomes 0, never a negative that would cancel a +2), and since "
        "every parent's children must still add up, what the small ones gain is taken from "
        "their siblings. Each measurement is unbiased in expectation (the true count plus "
        "noise of mean 0). The chart shows both, with two standard errors:"
    )
    charts.bias().show(
        title="Mean error of a ZIP5 cell by its true count",
        alt=said.bias_alt,
        bias=model.bias_frame(result),
    )
    st.markdown(said.bias_said)
    downloads.download_csv(
        model.unit_errors(result), filename="topdown-who-pays.csv", key="ct_dl_errors"
    )
    with predict:
        quiz.predict_first(
            "census_topdown_predict",
            [
                quiz.Question(
                    f"At ρ = {text.number(rho)}, how far off is the released population of a "
                    f"ZIP5 of {model.SMALL_PLACE[0]} to {model.SMALL_PLACE[1]} people, on "
                    "average?",
                    model.ERROR_BANDS,
                    correct=said.band,
                    explanation=(
                        f"Over {model.RUNS} releases those ZIP5s were off by "
                        f"{text.percent(said.small_error)} of their population "
                        "on average: the noise is the same in every place, the place is small."
                    ),
                )
            ],
        )


who_pays(weights)

# --- 4. Why ------------------------------------------------------------------------------------
st.header("4. Why the Census did this")
reconstruction = LESSON["reconstruction"]
st.markdown(
    "For 2010 the Bureau published more than 150 billion statistics, most of them down to "
    "single blocks, protected by the assumption that aggregates are safer than rows. Its own "
    "attack on 34 of those table sets rebuilt records of block, sex, age, race and ethnicity "
    "that an attacker could verify as right in 70% of all blocks (97 million people; Abowd "
    "et al. 2023, the source the *Reconstruction attacks* lesson cites). That lesson runs "
    "the attack on one block: enough exact tables pin down the people. Noise on every "
    "published count, with a budget that adds up over all the tables, is the answer that "
    "holds however many tables are published; TopDown is what makes the noisy counts a "
    "table again."
)
controls.page_link(
    reconstruction.path, label=f"Back to {reconstruction.title}", icon=reconstruction.icon
)

quiz.check_yourself("census_topdown", quiz.bank(__file__, "census_topdown"))
