"""Lesson: counting over time — a running count released every day, three ways (noisy
increments, recomputing with ε/T, the binary tree), the tree drawn for 16 days, and where
continual release is used."""

import streamlit as st

from lessons.catalogue import LESSONS
from lessons.counting_over_time import charts, model, snippets
from ui import controls, downloads, notebook, quiz, tables, text, userdata

controls.lesson_header(
    "Counting over time",
    "A dashboard that updates every day spends privacy every day. You release a running "
    f"count over {model.HORIZON:,} days three ways, see one error grow like √t, one like the "
    "number of days T and one only polylogarithmically (its SD is √(2·ones(t))·L/ε with "
    "L = ⌊log₂ T⌋ + 1, typically about (log T)·√(log T)), take the binary tree apart for 16 "
    "days, and see "
    "where continual release is used, from published budgets to private training.",
)
userdata.census_only_notice("its stream is the census's people arriving one a day.")
LESSON = {lesson.folder: lesson for lesson in LESSONS}

# --- 1. Three ways to count a stream ----------------------------------------------------------
st.header("1. Three ways to count a stream")
st.markdown(
    f"The census's people arrive one a day, in a fixed random order. On day t the "
    "dashboard shows how many of the first t people earn more than \\$50K (xₜ = 1 "
    f"if person t does), every day for T = {model.HORIZON:,} days. Neighbouring streams "
    "differ in one day's xₜ: one person's answer (event-level privacy). Three ways to "
    "release every count with ε in total:\n"
    "- **Noisy increments.** Add Lap(1/ε) to each xₜ once and publish the running sum. Each "
    "xₜ is in one noisy value: ε-DP. Day t's count carries t noises.\n"
    "- **Recompute each day with ε/T.** Publish each day's true count with fresh "
    "Lap(T/ε) noise. One xₜ is in up to T counts: T·(ε/T) = ε by composition.\n"
    "- **The binary tree.** Split the days into blocks of 1, 2, 4, … days and add "
    f"Lap(L/ε) to each block's sum, L = ⌊log₂ T⌋ + 1 = {model.levels()} levels. Day t's "
    "count adds the blocks of t's binary digits; one xₜ is in one block per level."
)
notebook.latex(
    r"""\operatorname{Var}_{\text{increments}}(t) = \frac{2t}{\varepsilon^2},\quad
    \operatorname{Var}_{\text{recompute}} = \frac{2T^2}{\varepsilon^2},\quad
    \operatorname{Var}_{\text{tree}}(t) = 2\Big(\frac{L}{\varepsilon}\Big)^2\,
    \#\{\text{1 bits of } t\}""",
    narrow=r"""\begin{aligned}
    &\operatorname{Var}_{\text{increments}}(t) = 2t/\varepsilon^2, \\
    &\operatorname{Var}_{\text{recompute}} = 2T^2/\varepsilon^2, \\
    &\operatorname{Var}_{\text{tree}}(t) = 2(L/\varepsilon)^2\,\#\{\text{1 bits of } t\}
    \end{aligned}""",
)
st.caption(
    "Lap(b) has variance 2b². The tree's bound: Chan, Shi & Song 2011 (the binary mechanism); "
    "dp.binary_tree_variance."
)


@st.fragment
def three_ways() -> None:
    """ε and the day read beside the dashboard; each method's error beside the metrics."""
    predict = st.container()
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        epsilon = controls.epsilon_slider(
            key="ot_eps", default=model.DEFAULT_EPSILON, options=model.EPSILONS
        )
        day = controls.number_slider(
            "Day t to read",
            model.DAYS,
            model.DEFAULT_DAY,
            format_func=lambda d: f"{d:,}",
            key="ot_day",
            kind=int,
        )
    seed = controls.seed() + model.SEED_RUN
    found = model.sds(day, epsilon)
    wide = model.on_day(epsilon, seed, day)
    with chart_column:
        charts.dashboard().show(
            title=f"The dashboard at ε = {text.number(epsilon)}, one release (dashed: day {day:,})",
            alt=(
                f"The running count over {model.HORIZON:,} days, true and as each method "
                f"releases it at ε = {text.number(epsilon)}. On day {day:,}: true "
                f"{wide[model.TRUTH]:,.0f}; "
                + "; ".join(f"{name} {text.number(wide[name])}" for name in model.METHODS)
                + f". The recompute's line is left out: its counts scatter by "
                f"±{text.number(found[model.RECOMPUTE])}, beyond the chart."
            ),
            releases=model.dashboard_frame(epsilon, seed),
            true_count=model.truth_frame(),
            truth=model.day_rule(day),
        )
    best = model.best_method(day, epsilon)
    with predict:
        quiz.predict_first(
            "counting_over_time_predict",
            [
                quiz.Question(
                    f"On day {day:,} (in binary {model.binary(day)}), which release is "
                    "closest to the truth, on average?",
                    model.METHODS,
                    correct=best,
                    explanation=(
                        f"The error SDs on day {day:,}: "
                        + ", ".join(f"{n} {text.number(found[n])}" for n in model.METHODS)
                        + f". The tree adds {model.ones(day)} blocks of Lap(L/ε) for the "
                        f"{model.ones(day)} ones of {model.binary(day)}; the increments add "
                        f"{day:,} of Lap(1/ε)."
                    ),
                )
            ],
        )
    metric_column, error_column = st.columns([2, 3], gap="medium")
    with metric_column:
        for name in model.METHODS:
            st.metric(f"Error SD on day {day:,}: {name}", text.number(found[name]))
    with error_column:
        charts.errors().show(
            title="How far off each count is, on average",
            alt=(
                f"The error SD against the day, both axes on log scales, at ε = "
                f"{text.number(epsilon)}: the increments' rises like √t, the recompute's is "
                f"flat at {text.number(found[model.RECOMPUTE])}, the tree's jumps with the "
                f"1 bits of t. On day {day:,}: "
                + ", ".join(f"{n} {text.number(found[n])}" for n in model.METHODS)
                + f". Circles: the tree's SD measured over {model.RUNS} releases."
            ),
            curves=(curves := model.error_curves(epsilon)),
            measured=model.measured(epsilon, seed),
            truth=model.day_rule(day, charts.day_label_at_bottom(curves, day)),
        )
    snippets.STREAM.show(epsilon=epsilon, seed=seed)
    downloads.download_csv(
        model.release_wide(epsilon, seed),
        filename="running-count.csv",
        key="ot_dl_release",
    )
    st.markdown(model.three_ways_words(day, epsilon))


three_ways()

# --- 2. The tree itself ------------------------------------------------------------------------
st.header("2. The tree itself")
st.markdown(
    f"The tree for T = {model.SMALL_HORIZON} days: L = {model.levels(model.SMALL_HORIZON)} "
    "levels of blocks, each holding its days' sum plus its own Lap(L/ε). Pick the day whose "
    "count you read and the day of one person's answer:"
)


@st.fragment
def small_tree() -> None:
    """The two days beside the tree they colour."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        t = controls.number_slider(
            "Day t whose count you read",
            model.SMALL_DAYS,
            model.DEFAULT_COUNT_DAY,
            key="ot_tree_day",
            kind=int,
        )
        s = controls.number_slider(
            "Day s of one person's answer",
            model.SMALL_DAYS,
            model.DEFAULT_EVENT_DAY,
            key="ot_event_day",
            kind=int,
        )
    counted, holds = model.count_nodes(t), model.event_nodes(s)
    with chart_column:
        charts.tree().show(
            title=f"Day {t}'s count and day {s}'s answer in the tree",
            alt=(
                f"The {len(model.tree_nodes())} blocks of a {model.SMALL_HORIZON}-day tree in "
                f"{model.levels(model.SMALL_HORIZON)} rows. The count on day {t} adds "
                f"{model.nodes_text(counted)}; day {s}'s answer is in "
                f"{model.nodes_text(holds, ', ')}."
            ),
            nodes=model.tree_frame(t, s),
        )
    st.markdown(model.tree_words(t, s))
    snippets.TREE.show(t=t, s=s)


small_tree()

# --- 3. Where it is used -----------------------------------------------------------------------
st.header("3. Where it is used")
meaning, dpsgd, subsampling = (
    LESSON["epsilon_meaning"],
    LESSON["dpsgd"],
    LESSON["subsampling"],
)
daily = model.daily_deployments()
st.markdown(
    f"**Budgets spent every day.** {len(daily)} of the deployments in the course's table "
    "publish an ε *per user per day*: a fresh budget for each day's release, as the "
    "recompute method spends one per count. Over a year those add up, by basic composition, "
    "to 365 times the day's ε: what the published numbers promise about a whole year of "
    "one person's data."
)
tables.written(daily)
controls.page_link(meaning.path, label=f"Every deployment: {meaning.title}", icon=meaning.icon)
st.markdown(
    "**Trees in private training.** DP-FTRL (Kairouz, McMahan, Song, Thakkar, Thakurta & Xu "
    "2021, \u201cPractical and private (deep) learning without sampling or shuffling\u201d) "
    "releases the running sum of clipped gradients with the same tree, instead of DP-SGD's "
    "random batches: each step's model needs the sum of all gradients so far, a running "
    "count of vectors. It needs no sampling, which federated learning on phones cannot "
    "promise; Google trained a Gboard Spanish-language model with it in 2022 (ρ = 0.81 "
    "zCDP per device, in the deployments' table). DP-SGD instead buys its small ε from sampling "
    "each step's batch at random."
)
controls.page_link(dpsgd.path, label=f"DP-SGD: {dpsgd.title}", icon=dpsgd.icon)
controls.page_link(
    subsampling.path, label=f"Why sampling helps: {subsampling.title}", icon=subsampling.icon
)
st.markdown(
    "**Counts that never end.** For a stream with no last day, the tree's L is not known in "
    "advance; the hybrid mechanism (Chan, Shi & Song 2011) runs a new tree over each block "
    "of days of doubling length, and later work (the factorization mechanisms) trades the "
    "tree for matrices with smaller error at the same ε."
)

quiz.check_yourself("counting_over_time", quiz.bank(__file__, "counting_over_time"))
