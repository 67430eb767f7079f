"""Lesson: DP group-by — who is protected when one person has many rows, how many rows one
person may add, and which groups may be shown at all."""

import streamlit as st

from lessons.group_by import charts, model, snippets
from ui import controls, downloads, notebook, quiz, tables, text, userdata
from ui import template as ui_template

controls.lesson_header(
    "DP group-by",
    "Real data has many rows per person: visits, purchases, messages. You count a year of "
    "clinic visits per clinic and see whom the usual noise protects (a visit, not a "
    "person), bound each person's rows to L0 clinics and L∞ visits in each, with the bias "
    "against the noise on a heatmap, and then meet the harder question: which clinics may "
    "appear in the result at all, when a clinic one person alone visits would give them "
    "away. Last, the whole pipeline every DP engine runs: bound, select, noise, release.",
)
userdata.census_only_notice(
    "its visits are simulated for the census's 32,561 people, and its rare groups are the "
    "census's own occupation × native-country cells."
)
shown = model.contributions()

# --- 1. The unit of privacy ----------------------------------------------------------------
st.header("1. The unit of privacy: a visit or a person?")
st.markdown(
    f"Each of the census's {shown.people:,} people has a year of visits to {model.PLACES} "
    f"clinics: {shown.rows:,} rows in all, most people with {text.number(shown.median_rows)} "
    f"or fewer, one with **{shown.most_rows:,}**. The release is the number of visits per "
    "clinic."
)
first, second, third = st.columns(3)
first.metric("Visits (rows)", f"{shown.rows:,}")
second.metric("Most visits by one person", f"{shown.most_rows:,}")
third.metric("Most clinics one person visits", f"{shown.most_places:,}")
st.markdown(
    "Whom a release protects depends on its **neighbour relation**. Under **event-level** DP "
    "the neighbours differ in one *row*: add Lap(1/ε) to each count and every single visit "
    "is hidden at ε. Under **user-level** DP they differ in one *person*, all their rows: "
    f"the person with {shown.most_rows:,} visits moves the counts by {shown.most_rows:,}. An "
    "event-level ε protects them only as a group of that many rows (group privacy):"
)
notebook.latex(
    r"""\begin{aligned}
    \text{event level: } & \Pr[M(D) \in S] \le e^{\varepsilon} \Pr[M(D') \in S],
      \ D' = D \text{ minus one row}, \\
    \text{a person with } r \text{ rows: } & \Pr[M(D) \in S] \le e^{r\varepsilon}
      \Pr[M(D') \in S], \ D' = D \text{ minus their rows}.
    \end{aligned}""",
    narrow=r"""\begin{aligned}
    &\text{event level, } D' = D \text{ minus one row:} \\
    &\quad \Pr[M(D) \in S] \le e^{\varepsilon} \Pr[M(D') \in S], \\
    &\text{a person with } r \text{ rows, } D' = D \text{ minus them:} \\
    &\quad \Pr[M(D) \in S] \le e^{r\varepsilon} \Pr[M(D') \in S].
    \end{aligned}""",
)


@st.fragment
def unit_of_privacy() -> None:
    """ε beside what an event-level and a user-level release promise the heaviest person."""
    epsilon = controls.epsilon_slider(key="gb_unit_eps", label="ε of each clinic count")
    heavy = model.group_loss(epsilon, shown.most_rows)
    typical = model.group_loss(epsilon, max(1, int(shown.median_rows)))
    left, right = st.columns(2)
    left.metric(
        f"Event level: ε for the person with {shown.most_rows:,} visits", text.number(heavy)
    )
    right.metric("User level: ε for every person", text.number(epsilon))
    st.caption(
        f"At event level a typical person ({text.number(shown.median_rows)} visits) gets "
        f"{text.number(typical)}, the heaviest {text.number(heavy)}: a likelihood ratio of up "
        f"to exp({text.number(heavy)}) is no promise at all. User level needs every person's rows "
        "bounded first (section 2), so that one person moves the counts by a known, limited "
        "amount."
    )


unit_of_privacy()

# --- 2. Bounding contributions -------------------------------------------------------------
st.header("2. Bounding what one person adds")
st.markdown(
    "A DP engine bounds each person to at most **L0** clinics (a random L0 of theirs, each "
    "equally likely) and at most **L∞** visits in each kept clinic (a random L∞ of them). "
    "Then one person moves at most L0 counts, each by at most L∞: the L1 sensitivity is "
    "L0·L∞, and each clinic's count gets Lap(L0·L∞/ε). Small bounds drop real visits (bias: "
    "the counts come out too low); large bounds need more noise. It is clamping's trade-off "
    "in two dimensions."
)
notebook.latex(
    r"""\begin{aligned}
    \Delta_1 &= L_0 \cdot L_\infty, \qquad
    \tilde c_p = \textstyle\sum_{u} \min(L_\infty, r_{up})\,[p \text{ kept by } u]
      + \mathrm{Lap}(L_0 L_\infty/\varepsilon), \\
    \mathbb{E}[\text{kept in } p] &= \textstyle\sum_{u} \frac{\min(L_0, d_u)}{d_u}
      \min(L_\infty, r_{up}), \qquad
    \text{total error} = \sqrt{\text{bias}^2 + 2\,(L_0 L_\infty/\varepsilon)^2}.
    \end{aligned}""",
    narrow=r"""\begin{aligned}
    \Delta_1 &= L_0 \cdot L_\infty, \\
    \tilde c_p &= \textstyle\sum_{u} k_{up} \min(L_\infty, r_{up}) \\
      &\quad + \mathrm{Lap}(L_0 L_\infty/\varepsilon), \\
    k_{up} &= [p \text{ kept by } u], \\
    \mathbb{E}[\text{kept in } p] &= \textstyle\sum_{u} \frac{\min(L_0, d_u)}{d_u}
      \min(L_\infty, r_{up}), \\
    \text{total error} &= \sqrt{\text{bias}^2 + 2\,(L_0 L_\infty/\varepsilon)^2}.
    \end{aligned}""",
)
st.caption(
    "rᵤₚ: person u's visits to clinic p; dᵤ: how many clinics u visits. Bias is the root "
    "mean square, over the clinics, of the visits bounding drops on average."
)


@st.fragment
def bounding() -> None:
    """L0, L∞ and ε beside the heatmap of the total error they drive; the prediction above
    them (the metrics and the heatmap answer it)."""
    predict = st.container()
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        l0 = controls.number_slider(
            "L0: clinics per person  (fewer → less noise, more dropped)",
            model.GRID_L0,
            model.DEFAULT_L0,
            key="gb_l0",
            kind=int,
        )
        linf = controls.number_slider(
            "L∞: visits per clinic  (fewer → less noise, more dropped)",
            model.GRID_LINF,
            model.DEFAULT_LINF,
            key="gb_linf",
            kind=int,
        )
        epsilon = controls.epsilon_slider(key="gb_eps")
        here = model.bounding(l0, linf, epsilon)
        st.metric("Visits dropped by bounding (on average)", f"{here.dropped:,.0f}")
        st.metric("Noise SD per clinic, √2·L0·L∞/ε", text.number(here.noise))
        st.metric("Total error per clinic count", text.number(here.total))
    grid, best = model.error_grid(epsilon)
    best_here = model.bounding(best[0], best[1], epsilon)
    with chart_column:
        charts.error_heatmap().show(
            title={
                "text": f"Total error per clinic at ε = {text.number(epsilon)}",
                "subtitle": "Outlined: black, the lowest; orange, your choice",
            },
            alt=(
                f"Heatmap of the total error of one clinic's count for L0 from 1 to "
                f"{model.GRID_L0[-1]} and L∞ from 1 to {model.GRID_LINF[-1]} at ε = "
                f"{text.number(epsilon)}. Your choice, L0 = {l0} and L∞ = {linf}, gives "
                f"{text.number(here.total)} ({text.number(here.bias)} from dropped visits, "
                f"{text.number(here.noise)} from noise); the lowest is "
                f"{text.number(best_here.total)} at L0 = {best[0]}, L∞ = {best[1]}."
            ),
            grid=grid,
            marks=model.heatmap_marks(best, l0, linf),
        )
    change, now, then = model.error_change(l0, linf, epsilon)
    with predict:
        quiz.predict_first(
            "group_by_bounds_predict",
            [
                quiz.Question(
                    f"At L0 = {l0} and ε = {text.number(epsilon)}, you raise L∞ from {linf} to "
                    f"{model.next_linf(linf)}. The total error of a clinic's count …",
                    model.ERROR_CHANGES,
                    correct=change,
                    explanation=(
                        f"It goes from {text.number(now)} to {text.number(then)}. A larger L∞ "
                        "keeps more visits (less bias) but raises the noise's scale L0·L∞/ε in "
                        "proportion: while dropped visits dominate, raising it helps; once the "
                        "noise dominates, it hurts."
                    ),
                ),
            ],
        )
    private = model.pipeline_bounds(controls.seed())
    st.markdown(
        f"The lowest cell, L0 = {best[0]} and L∞ = {best[1]}, was **read off the data**: "
        "choosing the bounds by looking at everyone's rows leaks them, exactly as a clamp "
        "window read off the data does. A real pipeline spends a little budget on choosing "
        f"them: the private {text.percent(model.QUANTILE)} quantile "
        f"(\u201cChoosing privately\u201d) of the clinics per person and of the most visits "
        f"one person makes to one clinic, at ε = {text.number(model.BOUNDS_EPSILON)} in all, "
        f"gives **L0 = {private[0]}, L∞ = {private[1]}** here."
    )
    snippets.BOUNDING.show(l0=l0, linf=linf, epsilon=epsilon)
    downloads.download_csv(grid, filename="group-by-error-grid.csv", key="gb_dl_grid")


bounding()

# --- 3. Which partitions may appear -------------------------------------------------------
st.header("3. Which groups may be shown at all?")
st.markdown(
    "Noise hides how *many* visits a clinic has. It cannot hide that the clinic is **in** "
    "the result. If one person alone visits a clinic, printing that clinic's row, noisy "
    "count or not, says that somebody went there, and the neighbour without that person has "
    "no such row. So a release either uses a public list of keys fixed in advance, or "
    "**selects** keys privately, showing a key only when enough users touch it. Two ways "
    "(with L0 = the clinics one person may add to):"
)
notebook.latex(
    r"""\begin{aligned}
    \text{Laplace threshold: } & \text{show } p \text{ if } n_p + \mathrm{Lap}(L_0/\varepsilon)
      \ge \tau, \quad \tau = 1 + \tfrac{L_0}{\varepsilon} \ln\tfrac{L_0}{2\delta}, \\
    \text{optimal: } & p(n) = \min\!\big(e^{\varepsilon'} p(n-1) + \delta',\
      1 - e^{-\varepsilon'}(1 - \delta' - p(n-1)),\ 1\big), \\
    & \varepsilon' = \tfrac{\varepsilon}{L_0},\ \delta' = \tfrac{\delta}{L_0},\ p(0) = 0.
    \end{aligned}""",
    narrow=r"""\begin{aligned}
    &\text{Laplace threshold: show } p \text{ if} \\
    &\quad n_p + \mathrm{Lap}(L_0/\varepsilon) \ge \tau,
      \ \tau = 1 + \tfrac{L_0}{\varepsilon} \ln\tfrac{L_0}{2\delta}, \\
    &\text{optimal, with } \varepsilon' = \tfrac{\varepsilon}{L_0},
      \ \delta' = \tfrac{\delta}{L_0}\text{:} \\
    &\quad p(n) = \min\!\big(e^{\varepsilon'} p(n-1) + \delta', \\
    &\qquad 1 - e^{-\varepsilon'}(1 - \delta' - p(n-1)),\ 1\big).
    \end{aligned}""",
)
st.caption(
    "nₚ: the users who touch partition p. A key one person creates (n = 1) appears with "
    "chance at most δ/L0 under either rule (Korolova et al. 2009; Desfontaines, Voss, "
    "Gipson & Mandayam 2022, whose rule is the largest release chance (ε, δ)-DP allows for "
    "L0 = 1; for L0 > 1 it runs here at (ε/L0, δ/L0) per partition, basic composition over "
    "the partitions one user can touch: valid, not optimal)."
)


@st.fragment
def selection() -> None:
    """ε, δ and L0 beside the chance of release against users, and the census's rare cells;
    the prediction above them."""
    predict = st.container()
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        epsilon = controls.epsilon_slider(key="gb_sel_eps", label="ε of the selection")
        delta = controls.number_slider(
            "δ  (← more private · less private →)",
            model.DELTAS,
            model.DEFAULT_DELTA,
            format_func=text.power_of_ten,
            key="gb_delta",
        )
        l0 = controls.number_slider(
            "L0: partitions per user  (more → each needs more users)",
            model.GRID_L0,
            1,
            key="gb_sel_l0",
            kind=int,
        )
        curves = model.selection_curves(epsilon, delta, l0)
        optimal = model.half_the_time(model.OPTIMAL_RULE, epsilon, delta, l0)
        laplace = model.half_the_time(model.LAPLACE_RULE, epsilon, delta, l0)
        tau = model.row_threshold(epsilon, delta, l0, 1)
        st.metric("Shown half the time from (optimal)", _users(optimal))
        st.metric("Shown half the time from (Laplace threshold)", _users(laplace))
        st.metric("Laplace threshold τ (users)", text.number(tau))
    with chart_column:
        charts.selection_curves().show(
            title=(
                f"Which partitions appear: ε = {text.number(epsilon)}, δ = "
                f"{text.power_of_ten(delta)}, L0 = {l0}"
            ),
            alt=(
                f"Two step curves of the chance that a partition touched by 0 to "
                f"{model.SELECTION_USERS[-1]} users is released at ε = {text.number(epsilon)}, "
                f"δ = {text.power_of_ten(delta)}, L0 = {l0}. The optimal selection shows it half "
                f"the time from {_users(optimal)}, the Laplace threshold (τ = "
                f"{text.number(tau)}) from {_users(laplace)}; one user's partition appears with "
                f"chance {text.power_of_ten(delta / l0)} at most."
            ),
            curves=curves,
            half=model.half_rule(
                *charts.half_place(epsilon, delta, l0, ui_template.current_text_scale())
            ),
            points=model.half_points(epsilon, delta, l0),
        )
    how_often, chance = model.shown_how_often(epsilon, delta, l0)
    with predict:
        quiz.predict_first(
            "group_by_selection_predict",
            [
                quiz.Question(
                    f"At ε = {text.number(epsilon)}, δ = {text.power_of_ten(delta)} and L0 = "
                    f"{l0}, a clinic that {model.PREDICT_USERS} users visit is released …",
                    model.SHOWN_HOW_OFTEN,
                    correct=how_often,
                    explanation=(
                        f"With chance {text.percent(chance)} under the optimal selection. One "
                        r"user more can raise the chance at most $e^{\varepsilon/L_0}$ = "
                        f"{text.number(model.growth_per_user(epsilon, l0))} times, plus δ/L0, "
                        f"starting from δ/L0 = {text.power_of_ten(delta / l0)} for one user."
                    ),
                ),
            ],
        )
    cells = model.cells_shown(epsilon, delta)
    st.markdown(
        f"**What disappears.** The census has {cells.cells} occupation × native-country cells, "
        f"{cells.singletons} of them a single person (one person is in one cell: L0 = 1). At "
        f"ε = {text.number(epsilon)} and δ = {text.power_of_ten(delta)} the optimal selection "
        f"shows {text.number(cells.expected_shown)} of them on average; the "
        f"{cells.hidden_people:,} people in cells shown less than half the time are, most "
        "likely, in no released row at all. That is the price of not revealing who is rare."
    )


def _users(count: int) -> str:
    return f"{count:,} users"


selection()

# --- 4. The whole pipeline ----------------------------------------------------------------
st.header("4. The whole pipeline: bound, select, noise, release")
pipeline_l0, pipeline_linf = model.pipeline_bounds(controls.seed())
st.markdown(
    f"Every engine (PipelineDP, Tumult Analytics, OpenDP, Google's library) runs the steps "
    f"in this order. The bounds come first, fixed before the release: here L0 = "
    f"{pipeline_l0} and L∞ = {pipeline_linf}, the private choice of section 2. "
    "Half the budget selects the clinics (optimal selection on the bounded data's user "
    "counts), the other half counts their visits with Lap(L0·L∞/(ε/2)). Choosing the bounds "
    f"privately spent ε = {text.number(model.BOUNDS_EPSILON)} too, so the whole pipeline is "
    f"(ε + {text.number(model.BOUNDS_EPSILON)}, δ)-DP at user level, by sequential "
    "composition."
)


@st.fragment
def pipeline() -> None:
    """The pipeline's ε and δ beside the released clinics and the truth."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        epsilon = controls.epsilon_slider(key="gb_pipe_eps", label="Total budget ε")
        delta = controls.number_slider(
            "δ of the selection  (← more private · less private →)",
            model.DELTAS,
            model.DEFAULT_DELTA,
            format_func=text.power_of_ten,
            key="gb_pipe_delta",
        )
        seed = controls.seed() + model.SEED_PIPELINE
        l0, linf = model.pipeline_bounds(controls.seed())
        release = model.pipeline(l0, linf, epsilon, delta, seed)
        st.metric(
            "Total ε, the bounds' choice included",
            text.number(model.pipeline_epsilon(epsilon)),
        )
        st.metric("Clinics released", f"{release.released} of {model.PLACES}")
        st.metric("Visits dropped by bounding", f"{release.dropped_rows:,}")
        st.metric(
            "Noise SD per released count",
            text.number(model.noise_sd(l0 * linf, epsilon / 2)),
        )
    rule = model.pipeline_rule(epsilon, delta, l0)
    with chart_column:
        charts.release().show(
            title=f"The release at ε = {text.number(epsilon)}, δ = {text.power_of_ten(delta)}",
            alt=(
                f"Each of the {model.PLACES} clinics at its number of users against its visits, "
                f"on log scales. {release.released} are released with a noisy count, "
                f"{release.dropped_clinics} are not; a clinic is shown half the time from "
                f"{text.number(float(rule['x'].iloc[0]))} users. Black ticks are the true "
                "visits."
            ),
            clinics=model.released_points(release.table),
            truth=rule,
        )
    st.markdown("The release beside the truth (the busiest clinics first, by true visits):")
    tables.show(model.release_rows(release.table), key="gb_release", height=320)
    snippets.PIPELINE.show(l0=l0, linf=linf, epsilon=epsilon, delta=delta, seed=seed)
    downloads.download_csv(release.table, filename="group-by-release.csv", key="gb_dl_release")


pipeline()

quiz.check_yourself("group_by", quiz.bank(__file__, "group_by"))
