"""Lesson: coin-flip randomized response — two coins give every respondent deniability."""

import math
from dataclasses import dataclass

import streamlit as st

import dp
from lessons.coin_flip import charts, model, snippets
from ui import charts as ui_charts
from ui import controls, downloads, notebook, quiz, rr_survey, tables, text

controls.lesson_header(
    "Coin-flip randomized response",
    "How a survey can ask a sensitive question and give every respondent plausible "
    "deniability: no single answer proves anything, although each one shifts the odds "
    "about you by at most a factor of 3 (Warner 1965). You flip the two secret coins yourself, "
    "derive the privacy loss "
    "ε = ln 3 step by step, then survey everybody in the dataset and watch the "
    "naive count go wrong while the debiased estimate lands near the truth. Finally "
    "you bias the coins and hunt for a bug that a textbook formula hides.",
)

survey = rr_survey.survey_question_picker("cf_ask")
question = "Do you work in Sales?" if survey is None else survey.question

# --- 1. One respondent ---------------------------------------------------------------------
st.header("1. One respondent, two coins")
st.markdown(
    f"You ask: *{text.plain(question)}* Before answering, the respondent "
    "flips a coin in secret. **Heads:** answer honestly. **Tails:** flip a second coin "
    "and say *yes* on heads, *no* on tails. Only the respondent sees the coins, so any "
    "single answer can be blamed on the coins."
)


@st.fragment
def one_respondent() -> None:
    """The true answer and the coins (a fragment: a flip reruns only this)."""
    true_answer = controls.radio(
        "The respondent's true answer",
        ["Yes", "No"],
        key="cf_true_answer",
        horizontal=True,
    )
    if st.button("Flip the coins", key="cf_flip", icon=":material/toll:"):
        st.session_state["cf_flips"] = st.session_state.get("cf_flips", 0) + 1
    flips = st.session_state.get("cf_flips", 0)
    coin1, coin2 = model.flip_two_coins(controls.seed() + model.SEED_COINS + flips)
    report = (true_answer == "Yes") if coin1 else coin2
    coin_columns = st.columns(3)  # three in a row, read left to right as the coins fall
    coin_columns[0].metric(
        "Coin 1", "Heads" if coin1 else "Tails", help="Heads: answer honestly. Tails: use coin 2."
    )
    coin_columns[1].metric(
        "Coin 2",
        ("Heads" if coin2 else "Tails") + (" (ignored)" if coin1 else ""),
        help="Only used when coin 1 is tails: heads says yes, tails says no.",
    )
    coin_columns[2].metric("Reported answer", "Yes" if report else "No")
    st.caption(
        f"Flip {flips + 1:,} of this session. "
        + (
            "Coin 1 is heads, so the report is the true answer."
            if coin1
            else "Coin 1 is tails, so coin 2 decides; the true answer played no part."
        )
    )


one_respondent()

st.subheader("Every way the coins can fall")
tables.written(model.table_arrow("coin_outcomes"))
p_fair, q_fair = dp.coin_flip_probabilities(0.5, 0.5)
odds_yes, odds_no = dp.rr_likelihood_ratios(p_fair, q_fair, log=False)
st.markdown(
    "Add up the rows per true answer. A true *yes* is reported *yes* with probability "
    "½ + ¼ = ¾; a true *no* is reported *yes* with probability ¼. That is the whole "
    "mechanism, a 2 × 2 matrix:"
)
notebook.latex(
    r"\begin{array}{r|cc} & \text{report yes} & \text{report no} \\ \hline "
    rf"\text{{truly yes}} & p = {text.number(p_fair)} & 1 - p = {text.number(1 - p_fair)} \\ "
    rf"\text{{truly no}} & 1 - q = {text.number(1 - q_fair)} & q = {text.number(q_fair)} "
    rf"\end{{array}}"
)
st.markdown(
    "How much can one report teach someone about you? Compare how likely it is under "
    "each true answer. A *yes* is three times as likely from a true *yes*:"
)
notebook.latex(
    r"\frac{P[\text{yes} \mid \text{truly yes}]}{P[\text{yes} \mid \text{truly no}]}"
    rf" = \frac{{3/4}}{{1/4}} = {text.number(odds_yes)},"
)
notebook.latex(
    r"\frac{P[\text{no} \mid \text{truly no}]}{P[\text{no} \mid \text{truly yes}]}"
    rf" = \frac{{3/4}}{{1/4}} = {text.number(odds_no)}."
)
st.markdown(
    "No report shifts the odds by more than a factor 3. Differential privacy writes that "
    "factor as $e^ε$, so:"
)
epsilon_fair = dp.rr_epsilon(p_fair, q_fair)
notebook.latex(
    rf"e^{{\varepsilon}} = {text.number(odds_yes)} \quad\Longrightarrow\quad "
    rf"\varepsilon = \ln 3 \approx {text.number(epsilon_fair)}"
)
fair_columns = st.columns(3)
fair_columns[0].metric("p (keep a true yes)", f"{text.number(p_fair)}")
fair_columns[1].metric("q (keep a true no)", f"{text.number(q_fair)}")
fair_columns[2].metric("Privacy loss ε (fair coins)", text.number(epsilon_fair))

st.subheader("Local differential privacy")
st.markdown(
    "This is the *local* model: each person randomizes their own answer before anyone sees "
    "it, so nobody has to be trusted. Here the neighbour relation is **one person's value "
    "changes** (x to x′), and a randomizer F is ε-LDP when, for all inputs x, x′ and every "
    "output y,"
)
notebook.latex(r"\Pr[F(x) = y] \;\le\; e^{\varepsilon}\, \Pr[F(x') = y].")
st.markdown(
    "The two coins are Warner's randomized response (1965), the oldest DP mechanism, "
    "decades older than the definition. It runs at scale today; published budgets are per "
    "user and per period, so they are not directly comparable:"
)
tables.written(model.table_arrow("local_deployments"))

st.subheader("Spot the flaw: the forced-response coin")
forced_p, forced_q = model.FORCED_RESPONSE
forced_yes, forced_no = dp.rr_likelihood_ratios(forced_p, forced_q, log=False)
st.markdown(
    "A popular explainer uses one coin: **heads, say yes; tails, tell the truth.** A true "
    f"yes is then always reported yes (p = {text.number(forced_p)}), a true no is reported no "
    f"half the time (q = {text.number(forced_q)}). A reported yes multiplies the odds by "
    f"{text.number(forced_yes)}; a reported **no** multiplies them by "
    f"{text.number(forced_no)}: only a true no can say no, so it is certain proof. "
    f"ε = `dp.rr_epsilon({forced_p:g}, {forced_q:g})` = "
    f"{text.number(dp.rr_epsilon(forced_p, forced_q))}: "
    "no deniability at all for the no-sayers. The second coin fixes it: it also forces a "
    f"no half the time, so every report can come from either truth (ε = ln 3 = "
    f"{text.number(epsilon_fair)})."
)


@st.fragment
def one_survey(survey, p_fair: float, q_fair: float) -> None:
    """One survey of everybody with the fair coins, counted naively and debiased (a
    fragment: "Run the survey again" reruns only this)."""
    n_people, true_sales = survey.n, survey.true_yes
    if st.button("Run the survey again", key="cf_resurvey", icon=":material/refresh:"):
        st.session_state["cf_surveys"] = st.session_state.get("cf_surveys", 0) + 1
    surveys = st.session_state.get("cf_surveys", 0)
    responses = model.survey_responses(
        survey, p_fair, q_fair, controls.seed() + model.SEED_SURVEY + surveys
    )
    naive = int(responses.sum())
    estimate = dp.estimate_count(responses, p_fair, q_fair)
    survey_columns = st.columns(3)
    survey_columns[0].metric(
        'Naive count of "yes"',
        f"{naive:,}",
        f"{rr_survey.relative_error_percent(naive, true_sales):+,.1f}% off",
        delta_color="off",
    )
    survey_columns[1].metric(
        "Debiased estimate",
        f"{estimate:,.0f}",
        f"{rr_survey.relative_error_percent(estimate, true_sales):+,.1f}% off",
        delta_color="off",
    )
    survey_columns[2].metric(f"Truth ({survey.who})", f"{true_sales:,}")
    st.markdown(
        f"{model.naive_words(true_sales, n_people)} The expected share of *yes* answers Ŷ is "
        "¼ + r/2 for a true share r, so you undo the coins by solving for r:"
    )
    shown_share, shown_estimate = model.fair_coin_arithmetic(naive, n_people)
    notebook.latex(
        r"\begin{aligned}"
        r"\hat r &= \frac{\hat Y - 1/4}{1/2} = 2\hat Y - \tfrac12 \\"
        rf"&= 2 \cdot {shown_share} - 0.5 = {shown_estimate} \\"
        rf"{rr_survey.latex_number(n_people)}\,\hat r"
        rf" &\approx {rr_survey.latex_number(estimate)}"
        r"\end{aligned}"
    )


@st.fragment
def repeated_surveys(survey, p_fair: float, q_fair: float) -> None:
    """The fair coins' survey repeated, its debiased estimates as a histogram (a fragment:
    opening its numbers or code reruns only this)."""
    n_people, true_sales = survey.n, survey.true_yes
    repeat_seed = controls.seed() + model.SEED_REPEATED_SURVEYS
    repeated_args = (true_sales, n_people, p_fair, q_fair, rr_survey.REPEATS, repeat_seed)
    repeated = rr_survey.repeated_surveys(*repeated_args)
    estimates = rr_survey.repeated_count_estimates(*repeated_args)
    sd_fair = dp.rr_count_std(true_sales / n_people, n_people, p_fair, q_fair)
    window = max(1_000.0, 6 * sd_fair)
    ui_charts.band_histogram(
        (true_sales - window, true_sales + window),
        survey.x_title,
        0.25,
        ui_charts.NOISY_COLOUR,
        with_band=True,
    ).show(
        title=f"Debiased estimates from {rr_survey.REPEATS:,} surveys",
        alt=ui_charts.describe_histogram(estimates, true_sales, what="debiased estimates"),
        **ui_charts.band_histogram_data(
            estimates,
            truth=true_sales,
            sd=sd_fair,
            domain=(true_sales - window, true_sales + window),
            bins=50,
        ),
    )
    st.caption(ui_charts.describe_histogram(estimates, true_sales, what="debiased estimates"))
    snippets.REPEATED_SURVEYS.show(
        true_yes=true_sales,
        n=n_people,
        p=p_fair,
        q=q_fair,
        surveys=rr_survey.REPEATS,
        seed=repeat_seed,
    )
    downloads.download_csv(repeated, filename="coin_flip-surveys.csv", key="coin_flip_dl_surveys")
    st.metric("Typical error (SD)", f"±\u00a0{sd_fair:,.0f} people")
    st.markdown(
        "Each survey lands somewhere else, but they centre on the truth: the estimator is "
        "unbiased. The price of deniability is the spread."
    )


# --- 2. Survey the data --------------------------------------------------------------------
if survey is not None:
    n_people, true_sales = survey.n, survey.true_yes
    st.header(f"2. Survey all {n_people:,} people")
    st.markdown(
        f"Now every one of the {n_people:,} people in the dataset answers "
        f"*{text.plain(survey.question)}* with the two fair coins. "
        f"The truth is {true_sales:,}."
    )
    one_survey(survey, p_fair, q_fair)

    st.subheader(f"Repeat the survey {rr_survey.REPEATS:,} times")
    repeated_surveys(survey, p_fair, q_fair)

# --- 3. Population size --------------------------------------------------------------------
st.header("3. More people, smaller spread")
st.markdown(
    "The coins add the same amount of noise to every answer, so the noise in the share "
    "averages out as you ask more people. The standard deviation of the estimate shrinks "
    "like 1/√n:"
)
notebook.latex(
    r"\begin{aligned}\operatorname{SD}[\hat r]"
    r" &= \sqrt{\frac{r\,p(1-p) + (1-r)\,q(1-q)}{n\,(p+q-1)^2}} \\"
    r" &\propto \frac{1}{\sqrt n}\end{aligned}"
)


@st.fragment
def population_size(p_fair: float, q_fair: float) -> None:
    """The true share and n beside the two charts they drive (a fragment: moving either
    slider reruns only this section)."""
    size_columns = st.columns(2)
    with size_columns[0]:
        rate = controls.share_slider(
            "True share of yes in the population (privacy does not depend on it)",
            key="cf_rate",
            value=0.10,
            low=0.01,
            high=0.99,
        )
    with size_columns[1]:
        n_synthetic = controls.select_slider(
            "People asked, n (ε = ln 3 at every n · more people → smaller spread)",
            options=model.N_GRID,
            value=1_000,
            format_func=lambda n: f"{n:,}",
            key="cf_n",
        )
    spread = model.spread_versus_n(rate, p_fair, q_fair, controls.seed() + model.SEED_SPREAD)
    current_sd = model.percent(
        dp.rr_count_std(round(rate * n_synthetic) / n_synthetic, n_synthetic, p_fair, q_fair)
        / n_synthetic
    )
    synthetic_yes = round(rate * n_synthetic)
    share_estimates = model.repeated_share_estimates(
        synthetic_yes,
        n_synthetic,
        p_fair,
        q_fair,
        rr_survey.REPEATS,
        controls.seed() + model.SEED_SYNTHETIC,
    )
    chart_columns = st.columns(2)
    with chart_columns[0]:
        ui_charts.band_histogram(
            (-50.0, 150.0),
            "estimated share of yes (%)",
            1.0,
            ui_charts.NOISY_COLOUR,
            with_band=False,
        ).show(
            title=f"Estimated share from {rr_survey.REPEATS:,} surveys of {n_synthetic:,}",
            alt=ui_charts.describe_histogram(
                share_estimates,
                model.percent(synthetic_yes / n_synthetic),
                what="estimated shares (%)",
            ),
            **ui_charts.band_histogram_data(
                share_estimates,
                truth=model.percent(synthetic_yes / n_synthetic),
                domain=(-50.0, 150.0),
                bins=80,
            ),
        )
    with chart_columns[1]:
        charts.spread().show(
            alt="Log-log chart: the spread falls from "
            f"{text.number(spread['sd'].iloc[0])} points at n = 10 "
            f"to {text.number(spread['sd'].iloc[-2])} at n = 1,000,000; "
            f"your n = {n_synthetic:,} gives {text.number(current_sd)} points.",
            **model.spread_data(
                rate, p_fair, q_fair, controls.seed() + model.SEED_SPREAD, n_synthetic, current_sd
            ),
        )
    # The numbers after the charts: a slider and its chart on one phone screen.
    spread_metrics = st.columns(3)
    spread_metrics[0].metric("True yes", f"{synthetic_yes:,} of {n_synthetic:,}")
    spread_metrics[1].metric(
        "Spread of the estimate (SD)", f"±\u00a0{text.number(current_sd)} % points"
    )
    spread_metrics[2].metric("In people (SD × n)", f"±\u00a0{current_sd / 100 * n_synthetic:,.0f}")
    st.caption(
        f"At n = {n_synthetic:,} the estimate is typically {text.number(current_sd)} "
        "percentage points off. Ten times more people cut that by √10 ≈ 3.2. The estimates "
        "can fall below 0% or above 100%: the estimator is unbiased because it is not clipped."
    )


population_size(p_fair, q_fair)

# --- 4. Biased coins -----------------------------------------------------------------------
st.header("4. Varying the noise: biased coins")
st.markdown(
    "Nothing forces the coins to be fair. Let coin 1 say *answer honestly* with "
    "probability h and coin 2 say *yes* with probability y. Then"
)
notebook.latex(
    r"\begin{aligned} p &= h + (1-h)\,y, \\ q &= h + (1-h)(1-y), \\"
    r" p + q - 1 &= h. \end{aligned}"
)


@dataclass(frozen=True)
class Coins:
    """What the sliders set: h (coin 1 says answer honestly), y (coin 2 says yes), and the
    p, q and ε that follow."""

    honest: float
    random_yes: float
    p: float
    q: float
    epsilon: float


def choose_coins() -> Coins:
    """The h and y sliders, with p, q and ε."""
    honest = controls.share_slider(
        "h: coin 1 says answer honestly (← more private · more accurate →)",
        key="cf_honest",
        value=0.5,
        step=0.05,
    )
    random_yes = controls.share_slider(
        "y: coin 2 says yes (most private at 0.5 · less private toward 0 or 1)",
        key="cf_yes",
        value=0.5,
        step=0.05,
    )
    p, q = dp.coin_flip_probabilities(honest, random_yes)
    epsilon = dp.rr_epsilon(p, q)
    coin_metrics = st.columns(2)  # two per row: the labels are not cut beside a chart
    coin_metrics[0].metric("p (keep a true yes)", f"{text.number(p)}")
    coin_metrics[1].metric("q (keep a true no)", f"{text.number(q)}")
    st.metric("Privacy loss ε", text.number(epsilon))
    return Coins(honest, random_yes, p, q, epsilon)


def debiased_histogram(survey, coin_estimates) -> None:
    """REPEATS surveys with these coins, each debiased correctly."""
    if survey is None:
        st.info("Pick a yes/no question at the top of the page to survey with these coins.")
    elif coin_estimates is None:
        st.info("With h = 0 the answers carry no information: there is nothing to estimate.")
    else:
        # Fixed for the question: ± n/4 around the truth holds 2 SD even at h = 0.05.
        coin_domain = (survey.true_yes - survey.n / 4, survey.true_yes + survey.n / 4)
        ui_charts.band_histogram(
            coin_domain, survey.x_title, 1.0, ui_charts.BLUE, with_band=False
        ).show(
            title=f"{rr_survey.REPEATS:,} surveys with these coins, debiased",
            alt=ui_charts.describe_histogram(
                coin_estimates, survey.true_yes, what="debiased estimates"
            ),
            **ui_charts.band_histogram_data(
                coin_estimates, truth=survey.true_yes, domain=coin_domain, bins=80
            ),
        )


def debiasing(survey, coins: Coins, coin_estimates) -> bool:
    """ε = ∞ and h = 0 explained; else the correct debiasing with one survey's numbers.
    True when the answers carry information (h > 0)."""
    honest, p, q, epsilon = coins.honest, coins.p, coins.q, coins.epsilon
    if math.isinf(epsilon):
        st.warning(
            "ε = ∞: some report is possible under one true answer only, so it exposes the "
            "respondent. "
            + (
                "With h = 1 everybody answers honestly."
                if honest == 1
                else "Coin 2 always gives the same answer, so the other answer can only be true."
            )
        )
    if survey is None:
        return False
    n_people, true_sales = survey.n, survey.true_yes
    informative = True
    try:
        biased_sd = dp.rr_count_std(true_sales / n_people, n_people, p, q)
    except ValueError:
        informative = False
        st.warning(
            f"With h = 0 nobody ever answers honestly: p + q = {text.number(p + q)}, so every "
            "answer is "
            "pure coin noise and says nothing about the truth. No formula can recover the "
            "true count (the de-biasing would divide by p + q − 1 = 0). Move h up."
        )
    if informative:
        st.markdown("The correct de-biasing solves E[Ŷ] = h r + (1 − h) y for r:")
        notebook.latex(
            r"\begin{aligned}\hat r &= \frac{\hat Y - (1-h)\,y}{h}"
            r" = \frac{\hat Y + q - 1}{p + q - 1} \\"
            rf" &= \frac{{\hat Y - {text.number(1 - q)}}}"
            rf"{{{text.number(honest)}}}\end{{aligned}}"
        )
        biased_estimate = coin_estimates[0]  # the first of the repeated surveys
        result_columns = st.columns(3)
        result_columns[0].metric(
            "One survey, debiased",
            f"{biased_estimate:,.0f}",
            f"{rr_survey.relative_error_percent(biased_estimate, true_sales):+,.1f}% off",
            delta_color="off",
        )
        result_columns[1].metric("Typical error (SD)", f"±\u00a0{biased_sd:,.0f} people")
        result_columns[2].metric("Truth", f"{true_sales:,}")
    return informative


def spot_the_bug(
    survey, coins: Coins, coin_surveys: tuple, coin_estimates, informative: bool
) -> None:
    """The textbook's 2Ŷ − ½, which hard-codes fair coins, beside the correct estimator, on
    the same surveys (`coin_surveys`: their arguments and seed) as the debiased histogram."""
    honest, random_yes = coins.honest, coins.random_yes
    n_people, true_sales = survey.n, survey.true_yes
    with st.container(border=True):
        st.subheader(":material/bug_report: Spot the bug")
        st.markdown(
            "A colleague biased the coins with the sliders above but kept the de-biasing line "
            "from the textbook (Dwork & Roth, §3.2): *estimate r as twice the fraction "
            "answering yes, minus ½*."
        )
        # Inline code, not st.code: the first code block on a page starts Streamlit's
        # syntax highlighter, 180 ms of a phone's first visit for this one line.
        st.markdown("`estimate = n * (2 * yes_count / n - 0.5)`")
        wrong = model.textbook_count_estimates(*coin_surveys)
        bias_people = n_people * dp.fair_coin_formula_bias(
            true_sales / n_people, honest, random_yes
        )
        if abs(bias_people) < 0.5:
            st.info(model.textbook_right_words(n_people, true_sales / n_people, honest, random_yes))
        bug_columns = st.columns(2)
        domain = (-0.5 * n_people, 1.5 * n_people)
        with bug_columns[0]:
            ui_charts.band_histogram(
                domain, survey.x_title, 1.0, ui_charts.VERMILLION, with_band=False
            ).show(
                title="Textbook 2Ŷ − ½ (hard-codes fair coins)",
                alt=ui_charts.describe_histogram(
                    wrong, true_sales, what="textbook-formula estimates"
                ),
                **ui_charts.band_histogram_data(
                    wrong,
                    truth=true_sales,
                    domain=domain,
                    bins=80,
                ),
            )
            st.metric(
                "Expected error of the textbook formula",
                f"{bias_people:+,.0f} people",
                help="From dp.fair_coin_formula_bias: (2h − 1) r + 2(1 − h) y − ½, times n.",
            )
        with bug_columns[1]:
            if informative:
                right = coin_estimates
                ui_charts.band_histogram(
                    domain, survey.x_title, 1.0, ui_charts.BLUE, with_band=False
                ).show(
                    title="Correct (Ŷ + q − 1)/(p + q − 1)",
                    alt=ui_charts.describe_histogram(right, true_sales, what="correct estimates"),
                    **ui_charts.band_histogram_data(
                        right,
                        truth=true_sales,
                        domain=domain,
                        bins=80,
                    ),
                )
                st.metric("Expected error of the correct formula", "+0 people (unbiased)")
            else:
                st.info("With h = 0 there is no correct formula to compare with.")
        with st.expander("Show the bug"):
            st.markdown(
                "2Ŷ − ½ is right only when **both** coins are fair. It subtracts ¼, the fair "
                "coins' share of random *yes*, instead of (1 − h) y, and multiplies by 2 = 1/½ "
                "instead of dividing by h. Its expected error is"
            )
            notebook.latex(
                r"\begin{aligned}&\mathbb{E}[2\hat Y - \tfrac12] - r \\"
                r" &\quad= (2h - 1)\,r + 2(1-h)\,y - \tfrac12,\end{aligned}"
            )
            st.markdown(model.bug_words(bias_people, honest, random_yes))


@st.fragment
def biased_coins(survey) -> None:
    """The h and y sliders and everything they drive (a fragment: moving a slider reruns
    only this section)."""
    bias_controls, bias_chart = st.columns([2, 3], gap="medium")
    with bias_controls:
        coins = choose_coins()
    honest, p, q = coins.honest, coins.p, coins.q
    # The same REPEATS surveys with these coins feed the chart here and both bug histograms.
    coin_estimates, coin_surveys = None, ()
    if survey is not None:
        seed = controls.seed() + model.SEED_BIASED_COINS
        coin_surveys = (survey.true_yes, survey.n, p, q, rr_survey.REPEATS, seed)
        if honest != 0:  # p + q − 1 = h: with h = 0 nothing can be debiased
            coin_estimates = rr_survey.repeated_count_estimates(*coin_surveys)
    with bias_chart:
        debiased_histogram(survey, coin_estimates)
    informative = debiasing(survey, coins, coin_estimates)
    if survey is not None:
        spot_the_bug(survey, coins, coin_surveys, coin_estimates, informative)


biased_coins(survey)

# --- Check yourself ----------------------------------------------------------------------------
quiz.check_yourself(
    "coin_flip",
    quiz.bank(__file__, "coin_flip"),
)
