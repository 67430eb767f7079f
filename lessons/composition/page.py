"""Lesson: composition and the privacy budget — sequential and parallel composition, the
averaging attack, group privacy."""

import streamlit as st

import dp
from lessons.composition import charts, model, snippets
from ui import charts as ui_charts
from ui import controls, downloads, notebook, quiz, text, userdata
from ui import tables as ui_tables

controls.lesson_header(
    "Composition and the budget",
    "Every noisy answer leaks a little. Here you see how those leaks add up. You split one "
    "budget over many questions and watch each answer get noisier. You play an attacker who "
    "asks the same question again and again and averages the noise away — and you see the "
    "ledger that stops them. Then you learn why a histogram over disjoint groups costs ε "
    "only once, and what ε means for a whole family instead of one person.",
)
userdata.census_only_notice(
    "its examples (people earning more than 50K, the occupation histogram) are fixed "
    "census queries, so the numbers match the text and the other lessons."
)

# --- (a) sequential composition -------------------------------------------------------------
st.header("1. One budget, many questions")
st.markdown(
    "Each ε-DP answer about the same people leaks up to ε. Several answers together leak "
    "the sum. So a curator with a total budget ε who wants to answer m questions "
    "gives each one a share:"
)
notebook.latex(
    r"""\begin{aligned}
    \varepsilon_{\text{total}} &= \sum_{i=1}^{m} \varepsilon_i \\
    \Rightarrow\quad \varepsilon_i &= \frac{\varepsilon_{\text{total}}}{m}
    \end{aligned}"""
)
st.markdown(
    "A count has sensitivity 1, so each answer gets Laplace noise of scale m/ε (ε the total "
    "budget). "
    "Its typical error — the standard deviation — grows in proportion to m:"
)
notebook.latex(
    r"\operatorname{sd} = \sqrt{2}\,\frac{1}{\varepsilon_i}"
    r" = \sqrt{2}\,\frac{m}{\varepsilon_{\text{total}}}"
)


@st.fragment
def one_budget() -> None:
    """The total budget and m beside the per-query error they drive (a fragment: moving them
    reruns only this section)."""
    controls_column, chart_column = st.columns([2, 3], gap="medium")
    with controls_column:
        total = controls.epsilon_slider(key="seq_total", label="Total budget ε")
        m = controls.slider(
            "Number of queries m sharing the budget (privacy stays the total ε · more queries → "
            "more "
            "noise in each)",
            min_value=1,
            max_value=model.MAX_QUERIES,
            value=10,
            key="seq_m",
        )
        per_query = dp.split_budget(total, m)
        sd = dp.laplace_std(1, per_query)
        one_query_sd = dp.laplace_std(1, total)
        cols = st.columns(2)  # two per row: the labels are not cut beside the chart
        cols[0].metric("ε per query", f"{text.number(per_query)}")
        cols[1].metric(
            "95% of answers within",
            f"±\u00a0{text.number(dp.laplace_interval_half_width(dp.laplace_scale(1, per_query)))}",
        )
        st.metric("Typical error per answer (sd)", f"±\u00a0{text.number(sd)}")
        sequential = model.sequential_error_frame(total)
    with chart_column:
        charts.sequential().show(
            curve=sequential,
            current=model.sequential_current(sequential, m),
            alt=(
                f"Line chart, log scale: the typical error per answer for 1 to 50 queries sharing "
                f"total ε = {text.number(total)}. One query: "
                f"±\u00a0{text.number(one_query_sd)}. At m "
                f"= {m} "
                "(marked): "
                f"±\u00a0{text.number(sd)}, each query getting ε = {text.number(per_query)}."
            ),
        )
    st.caption(
        f"With {m} queries each answer is {m}× noisier than a single query at total ε = "
        f"{text.number(total)} "
        f"(±\u00a0{text.number(one_query_sd)}). Axis fixed from 0.1 to 10,000 people, log scale."
    )
    downloads.download_csv(
        model.sequential_error_frame(total),
        filename="composition-sequential.csv",
        key="composition_dl_sequential",
    )


one_budget()


# --- (b) the averaging attack ---------------------------------------------------------------
st.header("2. The averaging attack")
truth = model.high_earners()
st.markdown(
    f"Now turn it around. An attacker asks the same count — *how many people earn more than "
    f"50K?* (truth: {truth:,}) — m times, each at ε. The noise is independent every time, "
    "so it averages away:"
)
notebook.latex(
    r"""\begin{aligned}
    \bar{A}_m &= \frac{1}{m}\sum_{i=1}^{m} A_i, \\
    \operatorname{sd}(\bar{A}_m) &= \frac{\sqrt{2}}{\varepsilon\sqrt{m}}
    \end{aligned}"""
)
st.markdown("Sequential composition keeps the bill:")
notebook.latex(
    r"\varepsilon_{\text{spent}} = \underbrace{\varepsilon + \cdots + \varepsilon}_{m}"
    r" = m\,\varepsilon"
)


@st.fragment
def averaging_attack(truth: int) -> None:
    """ε per answer and m beside the attacker's running average, and the ledger (a
    fragment)."""
    avg_eps = controls.epsilon_slider(
        key="avg_eps",
        label="ε per answer",
        options=model.AVERAGING_EPSILONS,
        default=0.1,
    )
    avg_m = controls.select_slider(
        "Number of answers m the attacker averages (← more private · less private →)",
        options=model.AVERAGING_ANSWERS,
        value=100,
        format_func=lambda k: f"{k:,}",
        key="avg_m",
    )
    spent = dp.sequential_composition([avg_eps] * avg_m)
    average_sd = dp.averaged_laplace_std(1, avg_eps, avg_m)
    averaging_seed = controls.seed() + model.SEED_AVERAGING
    answers = model.averaging_frame(truth, avg_eps, averaging_seed)
    shown = model.first_answers(answers, avg_m)
    average = float(shown["average"].iloc[-1])
    charts.averaging(truth).show(
        answers=shown,
        alt=(
            f"Grey dots: {avg_m:,} noisy answers at ε = {text.number(avg_eps)} each; blue line: "
            "their running "
            f"average, ending at {text.number(average)}; dashed line: the true count {truth:,}; "
            "shaded band: "
            "±\u00a02 typical errors of the average (one typical error: "
            f"±\u00a0{text.number(average_sd)} "
            "after "
            f"{avg_m:,} answers)."
        ),
    )
    # the numbers after the chart, so that the chart sits right under its sliders
    cols = st.columns(3)
    cols[0].metric(
        "Average of the answers", f"{text.number(average)}", help=f"The truth is {truth:,}."
    )
    cols[1].metric("Typical error of the average", f"±\u00a0{text.number(average_sd)}")
    cols[2].metric("Privacy spent m·ε", f"{text.number(spent)}")
    st.caption(
        f"Axes fixed: 1 to 1,000 answers (log scale), {truth:,}\u00a0±\u00a080 people. Single "
        "answers "
        "beyond that range are not drawn."
    )
    snippets.AVERAGING.show(truth=truth, epsilon=avg_eps, answers=avg_m, seed=averaging_seed)
    downloads.download_csv(
        shown, filename="composition-averaging.csv", key="composition_dl_averaging"
    )
    st.markdown(model.ledger_words(avg_eps, avg_m, average_sd))
    # A static table: Streamlit's data grid costs ~0.3 s of a first visit in Chromium.
    ui_tables.written(model.ledger(avg_eps, avg_m, model.LEDGER_BUDGET))


averaging_attack(truth)


# --- (c) parallel composition ---------------------------------------------------------------
st.header("3. Parallel composition: disjoint groups cost ε once")
counts = model.occupation_counts()
k = len(counts)
missing = model.people_without_occupation()
st.markdown(
    f"A histogram of occupations has {k} bars. Everyone is in at most one of them "
    f"({missing:,} people have no occupation recorded and are in none), so — with neighbours "
    "that **add or remove one person** — one person changes one bar by 1 and no other. "
    "Each bar is ε-DP on its own part of the data, and disjoint parts compose in parallel: "
    "the cost is the largest ε, not the sum:"
)
notebook.latex(
    r"""\begin{aligned}
    \varepsilon &= \max_i \varepsilon_i \\
    &\text{instead of } \textstyle\sum_i \varepsilon_i
    \end{aligned}"""
)


@st.fragment
def parallel_histogram(k: int) -> None:
    """The histogram's ε beside its noisy bars, parallel against split (a fragment)."""
    par_eps = controls.epsilon_slider(
        key="par_eps", label="Budget ε for the histogram", default=0.1
    )
    parallel_cost = dp.parallel_composition([par_eps] * k)
    sequential_cost = dp.sequential_composition([par_eps] * k)
    split_eps = dp.split_budget(par_eps, k)
    st.caption(
        "Under the other neighbour relation — **replace** one person's record — a person can "
        "move from one bar to another, changing two bars by 1 each: the same histogram then "
        f"costs 2ε = {text.number(dp.group_privacy(parallel_cost, 2))}."
    )
    bars_seed = controls.seed() + model.SEED_BARS
    bars = model.histogram_frames(par_eps, bars_seed)
    left, right = st.columns(2)
    with left:
        charts.bars("parallel", ui_charts.BLUE).show(
            bars=bars,
            title=f"One histogram: ε = {text.number(par_eps)} per bar",
            alt=(
                f"Noisy occupation counts at ε = {text.number(par_eps)} per bar (total ε = "
                f"{text.number(parallel_cost)}), "
                f"black ticks at the true counts. Total absolute error "
                f"{float(dp.l1_error(bars['parallel'], bars['true'])):,.0f} people."
            ),
        )
    with right:
        charts.bars("split", ui_charts.ORANGE).show(
            bars=bars,
            title=f"{k} separate queries: ε = {text.number(split_eps, 3)} each",
            alt=(
                f"Noisy occupation counts at ε = {text.number(split_eps, 3)} per bar (the same "
                "total ε = "
                f"{text.number(par_eps)} split {k} ways), black ticks at the true counts. Total "
                "absolute error "
                f"{float(dp.l1_error(bars['split'], bars['true'])):,.0f} people."
            ),
        )
    # the numbers after the charts, right under the slider
    cols = st.columns(4)
    cols[0].metric("Cost as one histogram", f"ε = {text.number(parallel_cost)}")
    cols[1].metric(f"Cost as {k} separate queries", f"ε = {text.number(sequential_cost, 3)}")
    cols[2].metric("Error per bar, histogram", f"±\u00a0{text.number(dp.laplace_std(1, par_eps))}")
    cols[3].metric(
        f"Error per bar, ε split {k} ways", f"±\u00a0{text.number(dp.laplace_std(1, split_eps))}"
    )
    st.caption(
        f"Black ticks: true counts. Left: total absolute error "
        f"{float(dp.l1_error(bars['parallel'], bars['true'])):,.0f} people; right: "
        f"{float(dp.l1_error(bars['split'], bars['true'])):,.0f}. Axis fixed from −1,000 to "
        "5,000. Parallel composition only holds when the groups are disjoint: a histogram where "
        "one person can sit in two bars costs more."
    )
    snippets.PARALLEL.show(epsilon=par_eps, seed=bars_seed)
    downloads.download_csv(bars, filename="composition-parallel.csv", key="composition_dl_parallel")


parallel_histogram(k)


# --- (d) group privacy ----------------------------------------------------------------------
st.header("4. Group privacy: a family costs g·ε")
st.markdown(
    "DP protects one person: a neighbour differs in one row. A family of g people differs in "
    "g rows — a chain of g neighbours — and each step can multiply a probability by $e^ε$. So "
    "the family is protected only at g·ε:"
)
notebook.latex(r"\Pr[M(D) \in S] \le e^{g\varepsilon}\,\Pr[M(D') \in S]")
st.markdown("for any event S and any two datasets D, D′ that differ in g people.")


@st.fragment
def group_privacy() -> None:
    """ε per person, g and the prior beside what an attacker can learn about the group (a
    fragment)."""
    group_eps = controls.epsilon_slider(key="group_eps", label="ε per person", default=0.5)
    g = controls.slider(
        "Group size g (← stronger protection · weaker protection →)",
        min_value=1,
        max_value=model.MAX_GROUP,
        value=4,
        key="group_g",
    )
    prior = controls.select_slider(
        "Attacker's belief before the release that the family is in the data",
        options=(0.01, 0.05, 0.1, 0.25, 0.5),
        value=0.1,
        format_func=lambda v: f"{text.percent(v, 2)}",
        key="group_prior",
    )
    group_eps_total = dp.group_privacy(group_eps, g)
    posterior = dp.posterior_bound(prior, group_eps_total)
    charts.group().show(
        **model.group_data(group_eps, g, prior, *charts.prior_place(group_eps, g, prior)),
        alt=(
            f"Worst-case belief about a group of 1 to 10 people at ε = {text.number(group_eps)} "
            "per "
            "person, "
            f"starting from a prior of {text.percent(prior, 2)} (dashed line). One person: "
            f"{text.percent(dp.posterior_bound(prior, group_eps), 2)}; a group of {g}: "
            f"{text.percent(posterior, 2)}."
        ),
    )
    # the bound and its numbers after the chart, right under its sliders
    st.markdown("An attacker who believed π before can believe at most this afterwards:")
    notebook.latex(r"\pi' \le \frac{e^{g\varepsilon}\,\pi}{e^{g\varepsilon}\,\pi + 1 - \pi}")
    cols = st.columns(3)
    cols[0].metric("Family's ε = g·ε", f"{text.number(group_eps_total, 3)}")
    cols[1].metric(
        "Likelihood ratio bound $e^{gε}$",
        f"{text.number(dp.likelihood_ratio_bound(group_eps_total), 3)}",
    )
    cols[2].metric(
        "Worst-case belief afterwards",
        f"{text.chance(posterior, 2)}",
        help=f"Before the release: {text.percent(prior, 2)}. One person alone: "
        f"{text.percent(dp.posterior_bound(prior, group_eps), 2)}.",
    )
    st.caption(
        "Axes fixed: group sizes 1 to 10, belief 0 to 100%. To protect families as well as one "
        "person, a curator must divide ε by the family size it wants to cover."
    )
    downloads.download_csv(
        model.group_frame(group_eps, prior),
        filename="composition-group.csv",
        key="composition_dl_group",
    )


group_privacy()


quiz.check_yourself(
    "composition",
    quiz.bank(__file__, "composition"),
)
