"""Lesson: what ε means in practice — the odds an attacker may reach, the advantage any test
may have, an attack's rates under that ceiling, the budgets deployments chose, and splitting
a budget over several answers."""

import streamlit as st

from data.deployments import COLUMNS as deployment_columns
from lessons.catalogue import LESSONS
from lessons.epsilon_meaning import charts, model, snippets
from ui import charts as ui_charts
from ui import controls, deployments, downloads, notebook, quiz, tables, text, tracing, userdata

controls.lesson_header(
    "What ε means in practice",
    "\u201cIs ε = 8 a lot?\u201d You read ε as the odds an attacker may reach about one "
    "person and as the most any test can tell two neighbouring datasets apart, place a real "
    "attack under that ceiling, compare the ε that 16 published deployments chose (and why "
    "most of them cannot be compared), and split a budget of ε = 1 over five statistics.",
)
userdata.census_only_notice("its attack and its five statistics are the census's.")
LESSON = {lesson.folder: lesson for lesson in LESSONS}

# --- 1. ε as odds -----------------------------------------------------------------------------
st.header("1. ε as odds")
st.markdown(
    "Under ε-DP, any output is at most $e^\\varepsilon$ times as likely with one person's "
    "record as without it (add/remove neighbours; replace-one neighbours give the same bound for a "
    "change of one record). By Bayes, an attacker's odds that the record is there move by "
    "at most that factor; and any test that tells the two datasets apart has a true-positive "
    "rate at most tanh(ε/2) above its false-positive rate (Kairouz, Oh & Viswanath 2015):"
)
notebook.latex(
    r"""\Pr[\text{in} \mid \text{output}] \le \frac{e^{\varepsilon}p}{e^{\varepsilon}p + 1 - p},
    \qquad \mathrm{TPR} - \mathrm{FPR} \le \frac{e^{\varepsilon} - 1 + 2\delta}{e^{\varepsilon}
    + 1} = \tanh\frac{\varepsilon}{2} + \frac{2\delta}{e^{\varepsilon} + 1}.""",
    narrow=r"""\begin{aligned}
    &\Pr[\text{in} \mid \text{output}] \le \frac{e^{\varepsilon}p}{e^{\varepsilon}p + 1 - p}, \\
    &\mathrm{TPR} - \mathrm{FPR} \le \tanh\frac{\varepsilon}{2}
      + \frac{2\delta}{e^{\varepsilon} + 1}.
    \end{aligned}""",
)
st.caption("p: what the attacker believed before seeing the output (the prior). δ = 0 here.")


@st.fragment
def odds() -> None:
    """ε and the prior beside both bounds against ε; the prediction above them."""
    predict = st.container()
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        epsilon = controls.epsilon_slider(key="em_eps", default=model.DEFAULT_EPSILON)
        prior = controls.number_slider(
            "The attacker's belief before, p  (lower → less to start from)",
            model.PRIORS,
            model.DEFAULT_PRIOR,
            format_func=text.percent,
            key="em_prior",
        )
        belief = model.belief(prior, epsilon)
        advantage = model.advantage(epsilon)
        st.metric(
            f"Belief after one output, from {text.percent(prior)}: at most", text.percent(belief)
        )
        st.metric("Any test's TPR − FPR: at most", text.percent(advantage))
        st.metric("Odds move by at most a factor exp(ε)", text.number(model.odds_factor(epsilon)))
    with chart_column:
        charts.odds().show(
            title=f"What ε = {model.epsilon_label(epsilon)} allows, from a prior of "
            f"{text.percent(prior)}",
            alt=(
                f"Two rising curves against ε from 0.05 to 20 on a log axis: the most an "
                f"attacker who believed {text.percent(prior)} can believe after one output, "
                f"and the largest advantage of any test. At ε = {model.epsilon_label(epsilon)}: "
                f"belief {text.percent(belief)}, advantage {text.percent(advantage)}."
            ),
            curves=(curves := model.odds_curves(prior)),
            truth=model.epsilon_rule(
                epsilon,
                charts.rule_label_at_bottom(curves, epsilon, model.rule_label(epsilon)),
            ),
        )
    with predict:
        quiz.predict_first(
            "epsilon_meaning_predict",
            [
                quiz.Question(
                    f"An attacker is {text.percent(prior)} sure that Ana's record is in the "
                    f"data. After one output of an ε = {model.epsilon_label(epsilon)} "
                    "mechanism, how sure can they be, at most?",
                    model.BELIEF_BANDS,
                    correct=model.belief_band(prior, epsilon),
                    explanation=(
                        f"exp(ε)·p / (exp(ε)·p + 1 − p) = {text.percent(belief)}: the odds "
                        f"p/(1 − p) = {text.number(prior / (1 - prior), 3)} grow by at most "
                        f"exp(ε) = {text.number(model.odds_factor(epsilon))}."
                    ),
                )
            ],
        )
    tables.written(model.odds_table(prior))
    st.markdown(
        f"**What ε = {model.epsilon_label(epsilon)} guarantees.** Whatever the attacker knew "
        f"before, one output moves their odds about one person by a factor of at most "
        f"{text.number(model.odds_factor(epsilon))}: from {text.percent(prior)} to at most "
        f"{text.percent(belief)}. No test, however clever, tells the data with the person from "
        f"the data without them with a true-positive rate more than "
        f"{text.percent(advantage)} above its false-positive rate.\n\n"
        "**What it does not.** It does not say the attacker learns nothing about the person: "
        "a study can reveal that smokers get cancer, and so something about every smoker, "
        "whether or not they took part. It bounds the difference that *taking part* makes. "
        "And it is a bound per unit of privacy and per release: a household, a user's year "
        "or the next release are not covered unless the accounting says so."
    )
    snippets.ODDS.show(prior=prior)


odds()

# --- 2. ε as an attack's ceiling --------------------------------------------------------------
st.header("2. ε as an attack's ceiling")
membership_lesson = LESSON["membership"]
st.markdown(
    f"The *{membership_lesson.title}* lesson traces people from a study's "
    f"{model.ATTACK_ATTRIBUTES} published averages (n = {model.ATTACK_STUDY}). Each threshold "
    "of its score is a test with a false- and a true-positive rate; together they are its "
    "ROC curve. Under ε-DP every test lies under the edge of the privacy region, "
    "TPR ≤ exp(ε)·FPR and TPR ≤ 1 − exp(−ε)·(1 − FPR) (the same replace-one neighbours as that "
    "lesson). Read it off the chart rather than take it on trust:"
)


@st.fragment
def ceiling() -> None:
    """ε of the release beside the attack's ROC inside the privacy region."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        epsilon = controls.epsilon_slider(
            key="em_attack_eps",
            default=model.DEFAULT_EPSILON,
            options=model.ATTACK_EPSILONS,
            label="ε of the study's release",
        )
        seed = controls.seed() + model.SEED_ATTACK
        result = model.ceiling(epsilon, seed)
        st.metric("The attack's best TPR − FPR", text.percent(result.advantage))
        st.metric("The most any test may reach, tanh(ε/2)", text.chance(result.bound))
        st.metric(
            "Members found at 1% false positives",
            tracing.members_found(result.found, model.ATTACK_STUDY),
        )
    with chart_column:
        ui_charts.roc((tracing.NO_NOISE, model.ATTACK_NAME), True).show(
            title=f"The tracing attack against ε = {text.number(epsilon)}",
            alt=(
                f"The ROC of the tracing attack without noise and with Laplace noise at ε = "
                f"{text.number(epsilon)}, and the dashed edge of the ε-DP privacy region. "
                f"With noise the attack's best advantage is {text.percent(result.advantage)} "
                f"against a ceiling of {text.chance(result.bound)}; at 1% false positives "
                f"it finds {tracing.members_found(result.found, model.ATTACK_STUDY)} members, "
                "the region allows "
                f"{text.percent(result.allowed)}."
            ),
            roc=model.attack_roc(epsilon, seed),
            region=tracing.region_frame(epsilon, 0.0),
            truth=tracing.target_rule(),
        )
    st.markdown(model.ceiling_words(result))
    controls.page_link(
        membership_lesson.path,
        label=f"Back to {membership_lesson.title}",
        icon=membership_lesson.icon,
    )


ceiling()

# --- 3. What deployments chose ----------------------------------------------------------------
st.header("3. What deployments chose")
table = deployments.deployments().table
st.markdown(
    f"{len(table)} published budgets from {table['organisation'].nunique()} organisations, each "
    "as its source states it. An ε is a promise **per unit of privacy and per period**: "
    "ε = 8 per user per day composes to far more over a year, while ε = 8 per person for "
    "a whole census is spent once. So the chart puts on one scale only deployments whose "
    "unit and period match; pick a unit to see its group."
)


@st.fragment
def deployed() -> None:
    """The unit of privacy beside the ε of the deployments that share it."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    units, sizes = deployments.deployments().units, deployments.deployments().sizes
    with control_column:
        unit = controls.selectbox(
            "Unit of privacy and period",
            list(units),
            format_func=lambda u: f"{u} ({sizes[u]})",
            key="em_unit",
        )
        frame = deployments.unit_frame(unit)
    with chart_column:
        charts.deployed().show(
            title=f"ε {unit}",
            alt=(
                f"Points on a log ε axis for the {len(frame)} deployments whose unit of "
                f"privacy is {unit}: "
                + "; ".join(
                    f"{row.deployment} {text.number(row.epsilon)}" for row in frame.itertuples()
                )
                + "."
            ),
            deployments=frame,
        )
    if unit.endswith("per day"):
        st.markdown(model.year_words(unit))
    elif any("ρ" in how for how in frame["how"]):
        st.markdown(
            "**From ρ.** These budgets were published as zCDP's ρ; the ε charted is "
            "dp.zcdp_to_approx_dp(ρ, δ) at the δ in the table (the tight conversion of "
            "Canonne, Kamath & Steinke 2020). A different δ gives a different ε for the same ρ."
        )
    else:
        st.markdown(
            "**One of its kind.** No other deployment in the table has this unit and period, "
            "so its ε has nothing on the same scale to be compared with."
        )


deployed()


@st.fragment
def every_deployment(count: int) -> None:
    """The `count` deployments' table and sources, sent only once opened (Streamlit's lazy
    expander: they were a fifth of the page's first render), in a fragment: opening it
    reruns only this."""
    with st.expander(
        f"Every deployment, with its source ({count})",
        icon=":material/menu_book:",
        key="em_every_deployment",
        on_change="rerun",
    ) as every:
        if every.open:
            st.markdown("Each row, with the ε as charted and how it was reached:")
            tables.written(model.deployments_table())
            st.markdown("**Sources**, numbered as the table's rows:")
            st.markdown(model.sources_markdown())


every_deployment(len(table))
downloads.download_csv(
    table[list(deployment_columns)],
    filename="dp-deployments.csv",
    key="em_dl_deployments",
)
census = table.iloc[0]
st.caption(
    f"The census's persons tables: ρ = {text.number(census['rho'])}, at δ = "
    f"{text.power_of_ten(census['delta'])} that is ε = {text.number(census['epsilon_used'])} "
    "(the Bureau's own figure is 17.14, from its unrounded ρ = (542/339)² = "
    f"{text.number(model.CENSUS_RHO_UNROUNDED, 5)}). ρ adds up "
    "over releases (dp.zcdp_compose); ε converted from each does not."
)

# --- 4. Splitting a budget ---------------------------------------------------------------------
st.header("4. Splitting a budget")
st.markdown(
    "You may spend ε = 1 in total on five counts of the census (the fifth gets what the "
    "first four leave): people aged 60 or over, "
    "women, people earning more than \\$50K, the self-employed and people born outside the "
    "US (each of sensitivity 1: one "
    "person more or fewer changes it by at most 1). Laplace noise at εᵢ has standard "
    "deviation √2/εᵢ, and basic composition adds the εᵢ. Some counts matter more to your "
    "users: weight them, and see which split gives the smallest total of weight × variance:"
)
notebook.latex(
    r"""\begin{aligned}
    &\min \sum_i w_i \frac{2}{\varepsilon_i^2},\ \sum_i \varepsilon_i = 1
      \ \Rightarrow\ \varepsilon_i \propto w_i^{1/3}; \\
    &\min \sum_i \frac{w_i}{2\rho_i},\ \sum_i \rho_i = \rho
      \ \Rightarrow\ \rho_i \propto \sqrt{w_i}.
    \end{aligned}"""
)
rho = model.gaussian_rho()
st.caption(
    f"The Gaussian split: the largest ρ with ε ≤ 1 at δ = 10⁻⁵ is ρ = {text.number(rho)} "
    "(dp.zcdp_to_approx_dp); zCDP composes by adding the ρᵢ (dp.zcdp_compose), and each "
    "count gets Gaussian noise with σ² = 1/(2ρᵢ)."
)


st.subheader("What matters to your users")


@st.fragment
def budget_split(weights: tuple[float, ...]) -> None:
    """Each count's ε beside the errors of the three splits."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        chosen = tuple(
            controls.number_slider(
                f"ε for \u201c{name}\u201d  ({controls.MORE_PRIVATE_LEFT})",
                model.SHARE_OPTIONS,
                model.DEFAULT_SHARE,
                key=f"em_share_{index}",
            )
            for index, name in enumerate(model.STATISTICS[:-1])
        )
        shares = (*chosen, model.remaining(chosen))
        st.metric(f"Left for \u201c{model.STATISTICS[-1]}\u201d", text.number(shares[-1]))
    result = model.split(shares, weights)
    with chart_column:
        charts.split().show(
            title="Each count's error, three splits",
            alt=(
                "Grouped bars of each count's error SD in people: "
                + "; ".join(
                    f"{name}: yours "
                    + ("not released" if result.over else text.number(row_sd[0]))
                    + f", best Laplace {text.number(row_sd[1])}, best Gaussian "
                    f"{text.number(row_sd[2])}"
                    for name, row_sd in model.sd_rows(result)
                )
                + "."
            ),
            split=result.frame,
        )
    if result.over:
        st.error(
            f"Over budget: the first four counts spend ε = {text.number(sum(chosen))} of "
            f"{text.number(model.TOTAL_EPSILON)}."
        )
    metric_columns = st.columns(4)
    metric_columns[0].metric("ε spent (basic composition)", text.number(result.spent))
    metric_columns[1].metric(
        "Your weighted error", "over budget" if result.yours is None else text.number(result.yours)
    )
    metric_columns[2].metric("Best Laplace split", text.number(result.best))
    metric_columns[3].metric("Best Gaussian split", text.number(result.gaussian))
    st.markdown(model.split_words(result))
    snippets.SPLIT.show(weights=weights)
    downloads.download_csv(result.frame, filename="budget-split.csv", key="em_dl_split")


@st.fragment
def weighted_split() -> None:
    """The weights beside the best split they give, and the split you choose (a fragment:
    moving a weight reruns only this section; moving your split only its own)."""
    counts = model.statistic_counts()
    weight_column, best_column = st.columns([2, 3], gap="medium")
    with weight_column:
        weights = tuple(
            controls.number_slider(
                f"Weight of \u201c{name}\u201d ({counts[index]:,} people)",
                model.WEIGHT_OPTIONS,
                1.0,
                key=f"em_weight_{index}",
            )
            for index, name in enumerate(model.STATISTICS)
        )
    best = model.best_shares(weights)
    with best_column:
        charts.shares().show(
            title="Best split for these weights",
            alt=model.best_shares_alt(weights),
            shares=best,
            truth=model.equal_rule(),
        )
    st.caption(
        "A count that matters w times more gets ∛w times the ε under Laplace noise, and "
        "√w times the ρ under Gaussian noise: the Gaussian split follows the weights more."
    )

    st.subheader("Your split")
    budget_split(weights)


weighted_split()

quiz.check_yourself("epsilon_meaning", quiz.bank(__file__, "epsilon_meaning"))
