"""Lesson: approximate DP — what δ means, the Gaussian mechanism against Laplace, the privacy
loss, choosing σ, zCDP for many queries, and the numbers real deployments publish."""

import streamlit as st

from lessons.approximate_dp import charts, model, snippets
from ui import charts as ui_charts
from ui import controls, datasets, downloads, notebook, quiz, tables, text

controls.lesson_header(
    "Approximate DP",
    "Pure ε-DP never lets the privacy loss exceed ε. Real deployments — the 2020 US census, "
    "LinkedIn, Wikipedia — publish something weaker: (ε, δ), or a zCDP ρ. You see what the "
    "extra δ allows (and why it must be tiny), compare Gaussian noise with Laplace noise "
    "through their privacy loss, choose σ with the old formula and the exact one, watch "
    "Gaussian noise win once there are many questions, and convert the census's ρ into an ε.",
)


def delta_slider(key: str, label: str = "δ") -> float:
    """A select slider over δ (log steps), smaller = more private."""
    return controls.number_slider(
        f"{label}  ({controls.MORE_PRIVATE_LEFT})",
        model.DELTAS,
        model.DEFAULT_DELTA,
        format_func=text.power_of_ten,
        key=key,
        help="δ is the chance that the ε guarantee may fail. Smaller δ: more privacy.",
    )


# --- 1. What δ means ---------------------------------------------------------------------------
@st.fragment
def what_delta_means() -> None:
    st.header("1. What δ means")
    st.markdown(
        "A mechanism M is **(ε, δ)-differentially private** when, for every pair of neighbouring "
        "datasets D and D′ (here: D′ is D with one person added or removed) and every set S of "
        "outputs,"
    )
    notebook.latex(r"\Pr[M(D) \in S] \;\le\; e^{\varepsilon}\,\Pr[M(D') \in S] + \delta.")
    st.markdown(
        "With δ = 0 this is pure ε-DP. The extra δ is an *additive* escape hatch, and an "
        "extreme mechanism shows how much it can hide: **publish each person's full record, "
        "independently, with probability δ**. Whatever S is, the record of the one person who "
        "differs appears only with probability δ, so this is (0, δ)-DP — ε = 0! — yet it "
        "publishes n·δ people's data in full, on average."
    )
    people = len(datasets.active().frame)
    exposure_controls, exposure_chart = st.columns([2, 3], vertical_alignment="top")
    with exposure_controls:
        delta_1 = delta_slider("ad_n_delta")
        result = model.exposure(people, delta_1)
        st.metric("People published in full, on average (n·δ)", text.number(result.expected))
        st.metric("Chance at least one is", text.chance(result.at_least_one))
        st.caption(
            f"n = {people:,} people in the dataset in use; 1/n = "
            f"{text.power_of_ten(result.one_over_n)}."
        )
    with exposure_chart:
        charts.exposure().show(
            title=model.exposure_title(result),
            alt=(
                f"A rising curve: the chance that publishing each of {people:,} records with "
                f"probability δ publishes at least one, against δ from 10⁻¹² to 0.1 on a log axis. "
                f"A dashed rule marks δ = 1/n = {text.power_of_ten(result.one_over_n)}. At your "
                f"δ = {text.power_of_ten(delta_1)} the chance is "
                f"{text.percent(result.at_least_one)}."
            ),
            curves=model.exposure_curve(people),
            truth=model.one_over_n_rule(people),
            mark=model.exposure_marks(result),
        )
    st.markdown(
        "So δ must be **much smaller than 1/n**: at δ = 1/n one person is exposed on average. "
        "Deployments use δ from 10⁻⁵ to 10⁻¹⁰ and smaller. Real mechanisms with a δ are far "
        "gentler than this one — the Gaussian below never publishes a record — but the "
        "definition alone does not rule this one out."
    )


what_delta_means()


# --- 2. Laplace against Gaussian -------------------------------------------------------------
@st.fragment
def laplace_against_gaussian() -> None:
    st.header("2. Laplace against Gaussian: the privacy loss")
    st.markdown(
        "Release a count (sensitivity Δ = 1: adding you moves it by 1) with noise. The "
        "**privacy loss** at an output y says how much more likely y is with you out than in:"
    )
    notebook.latex(
        r"""\begin{aligned}
        L(y) &= \ln\frac{p_{D}(y)}{p_{D'}(y)} \\
        \text{Laplace: } L(y) &= \frac{|y-\Delta| - |y|}{b} \in [-\varepsilon, \varepsilon] \\
        \text{Gaussian: } L(y) &= \frac{(y-\Delta)^2 - y^2}{2\sigma^2} \\
        &= \frac{\Delta^2 - 2y\Delta}{2\sigma^2}
        \end{aligned}"""
    )
    st.markdown(
        "Calibrate both to the same ε (Laplace b = Δ/ε; Gaussian: the smallest σ that is "
        "(ε, δ)-DP, section 3) and compare. One σ is (ε′, δ(ε′))-DP for **every** ε′ at once — "
        "the curve on the right passes through your (ε, δ):"
    )
    loss_controls, delta_chart = st.columns([2, 3], vertical_alignment="top")
    with loss_controls:
        epsilon = controls.epsilon_slider(
            key="ad_eps", default=model.DEFAULT_EPSILON, options=model.EPSILONS
        )
        delta = delta_slider("ad_delta", "δ for the Gaussian")
        cal = model.calibration(epsilon, delta)
        # Two by two, one pair of columns: the noise on the left, the tail on the right (a
        # phone stacks them in that order).
        noise_column, tail_column = st.columns(2)
        noise_column.metric("Laplace noise SD", text.number(cal.laplace_sd))
        noise_column.metric("Gaussian σ", text.number(cal.sigma))
        tail_column.metric("P[loss > ε]", text.power_of_ten(cal.tail))
        tail_column.metric("Exact δ(ε)", text.power_of_ten(cal.exact_delta))
    with delta_chart:
        charts.delta_curve().show(
            title=[
                f"Gaussian with σ = {text.number(cal.sigma)}: δ at every ε′",
                model.calibration_words(cal),
            ],
            alt=(
                f"Two falling curves against ε′ from 0.01 to 10 on log axes, for the Gaussian with "
                f"σ = {text.number(cal.sigma)}: the exact δ(ε′) (solid) and the tail "
                f"P[loss > ε′] (dashed), which lies above it. A diamond marks your (ε, δ) = "
                f"({text.number(epsilon)}, {text.power_of_ten(delta)}), where the exact curve "
                f"passes; the tail there is {text.power_of_ten(cal.tail)}."
            ),
            curves=model.delta_curve(epsilon, delta),
            mark=model.calibration_mark(cal),
        )

    snippets.LOSS.show(epsilon=epsilon, delta=delta)
    downloads.download_csv(
        model.delta_curve(epsilon, delta), filename="gaussian-delta-curve.csv", key="ad_dl_delta"
    )


laplace_against_gaussian()


@st.fragment
def densities_and_losses() -> None:
    """Its own ε and δ above both mechanisms' densities and privacy-loss bars (a fragment:
    moving them reruns only this part; the δ curve above keeps its own)."""
    st.markdown(
        "Now look at the two mechanisms' outputs themselves, at an ε and δ of your choice: "
        "the densities with and without you, and where their privacy loss falls."
    )
    epsilon_column, delta_column = st.columns(2)
    with epsilon_column:
        epsilon = controls.epsilon_slider(
            key="ad_loss_eps",
            default=model.DEFAULT_EPSILON,
            options=model.EPSILONS,
            label="ε for the densities and losses",
        )
    with delta_column:
        delta = delta_slider("ad_loss_delta", "δ for these densities")
    cal = model.calibration(epsilon, delta)
    laplace_column, gaussian_column = st.columns(2)
    with laplace_column:
        charts.densities(ui_charts.ORANGE).show(
            title=f"Laplace, b = {text.number(cal.laplace_scale)}",
            alt=(
                f"Two Laplace densities on a log axis, for the count without you (solid) and with "
                f"you (dashed, shifted by 1), scale b = {text.number(cal.laplace_scale)}. On a "
                f"log axis each is a tent; the gap between them, the privacy loss, never exceeds "
                f"ε = {text.number(epsilon)}."
            ),
            densities=model.laplace_densities(epsilon),
        )
        charts.loss_bars().show(
            numbers_key="laplace_loss",
            title="Laplace: privacy loss ÷ ε",
            alt=(
                f"Bars of the Laplace mechanism's privacy loss in units of ε = "
                f"{text.number(epsilon)}: all of it lies between −1 and 1; half of it sits at "
                "exactly 1. Nothing lies beyond ε."
            ),
            bins=model.laplace_loss_bins(epsilon),
            truth=model.epsilon_rule_in_loss_units(),
        )
    with gaussian_column:
        charts.densities(ui_charts.BLUE).show(
            title=f"Gaussian, σ = {text.number(cal.sigma)}",
            alt=(
                f"Two Gaussian densities on a log axis, without you (solid) and with you "
                f"(dashed), σ = {text.number(cal.sigma)}, the analytic σ for ε = "
                f"{text.number(epsilon)} and δ = {text.power_of_ten(delta)}. On a log axis each "
                "is a parabola; the gap between them grows without bound in the tails."
            ),
            densities=model.gaussian_densities(epsilon, delta),
        )
        charts.loss_bars().show(
            numbers_key="gaussian_loss",
            title="Gaussian: privacy loss ÷ ε",
            alt=(
                f"Bars of the Gaussian mechanism's privacy loss in units of ε: a normal "
                f"distribution with mean {text.number(cal.loss_mean)} and SD "
                f"{text.number(cal.loss_sd)}. The part beyond ε, in vermillion, has probability "
                f"{text.power_of_ten(cal.tail)}."
            ),
            bins=model.gaussian_loss_bins(epsilon, delta),
            truth=model.epsilon_rule_in_loss_units(),
        )
    st.markdown(
        "On the log axis the vertical gap between the solid and the dashed curve *is* the "
        "privacy loss. Laplace's two tents stay within ε of each other everywhere: its loss "
        "(below them) never passes ε, and half the time sits exactly at ε. The Gaussian's two "
        "parabolas drift apart without bound: far in the left tail an output is vastly more "
        "likely without you. **No ε makes the Gaussian purely ε-DP.** But those outputs are "
        f"rare: the loss is a normal variable, N(η, 2η) with η = Δ²/2σ² = "
        f"{text.number(cal.loss_mean)}, and it exceeds ε = {text.number(epsilon)} with "
        f"probability {text.power_of_ten(cal.tail)} (the vermillion bars).\n\n"
        "**A common slip.** Working out the ratio of two Gaussian densities, it is easy to "
        "drop the Δ² term and keep only −2yΔ/2σ². That loss would be centred on 0 and "
        "symmetric, and, being unbounded, would make the Gaussian look broken. Keeping Δ² "
        "changes the picture twice: the loss is on average **positive**, "
        "η = Δ²/2σ² (the KL divergence between the two outputs, the ρ of zCDP below), and the "
        "unboundedness is no problem once δ is allowed: δ pays for the rare tail.\n\n"
        "**δ is not simply P[loss > ε].** The exact δ at ε weighs each bit of the tail by how "
        "far beyond ε it goes (Balle & Wang 2018, Thm 8) — here "
        f"{text.power_of_ten(cal.exact_delta)} against a tail of {text.power_of_ten(cal.tail)}:"
    )
    notebook.latex(
        r"""\begin{aligned}
        \delta(\varepsilon) &= \mathbb{E}_{y \sim M(D)}\big[(1 - e^{\varepsilon - L(y)})_+\big] \\
        &= \Phi\Big(\frac{\Delta}{2\sigma} - \frac{\varepsilon\sigma}{\Delta}\Big) \\
        &\quad - e^{\varepsilon}\,\Phi\Big(-\frac{\Delta}{2\sigma}
          - \frac{\varepsilon\sigma}{\Delta}\Big) \\
        &\le \Pr[L > \varepsilon]
        \end{aligned}"""
    )


densities_and_losses()


# --- 3. Choosing σ -----------------------------------------------------------------------------
@st.fragment
def choosing_sigma() -> None:
    st.header("3. Choosing σ: the textbook formula and the exact one")
    st.markdown(
        "The textbook σ (Dwork & Roth 2014, Thm A.1) is a closed formula — proved only for "
        "ε < 1. The **analytic** σ (Balle & Wang 2018) is the smallest σ whose exact δ(ε) is "
        "at most δ: found numerically, valid for every ε."
    )
    notebook.latex(r"\sigma_{\text{classic}} = \frac{\Delta\sqrt{2\ln(1.25/\delta)}}{\varepsilon}")
    sigma_controls, sigma_chart = st.columns([2, 3], vertical_alignment="top")
    with sigma_controls:
        sigma_epsilon = controls.number_slider(
            f"ε to compare at  ({controls.MORE_PRIVATE_LEFT})",
            model.SIGMA_CHOICES,
            model.REFERENCE_EPSILON,
            key="ad_sigma_eps",
        )
        sigma_delta = delta_slider("ad_sigma_delta")
        comparison = model.sigma_comparison(sigma_delta, sigma_epsilon)
        at_eps = f"at ε = {text.number(comparison.epsilon)}"
        if comparison.classic is None:
            st.metric(f"Classic σ {at_eps}", "no proof")
        else:
            st.metric(f"Classic σ {at_eps}", text.number(comparison.classic))
        st.metric(f"Analytic σ {at_eps}", text.number(comparison.analytic))
        st.metric(f"Laplace SD {at_eps}", text.number(comparison.laplace_sd))
        if comparison.classic is None:
            st.caption(
                "Dwork & Roth's theorem is proved only for ε < 1: at this ε the classic "
                "formula gives no guarantee, and only the analytic σ is defined."
            )
        else:
            st.caption(
                f"The analytic σ is {text.percent(comparison.saving)} smaller. The classic σ "
                f"over-delivers: its real δ {at_eps} is "
                f"{text.power_of_ten(comparison.classic_delta)}, not "
                f"{text.power_of_ten(sigma_delta)}."
            )
    with sigma_chart:
        classic_text = (
            "no classic σ (ε ≥ 1)"
            if comparison.classic is None
            else f"classic {text.number(comparison.classic)}"
        )
        charts.sigma().show(
            title=f"Noise for one count at δ = {text.power_of_ten(sigma_delta)}",
            alt=(
                f"Three falling lines against ε from 0.05 to 5 on log axes: the classic σ (only "
                f"up to ε = 1, where a dashed rule marks the end of its proof), the analytic σ, "
                f"and Laplace's noise SD √2/ε. At ε = {text.number(comparison.epsilon)}: "
                f"{classic_text}, analytic {text.number(comparison.analytic)}, Laplace "
                f"{text.number(comparison.laplace_sd)}. The analytic σ and Laplace's SD cross "
                f"at ε ≈ {text.number(comparison.crossover)}."
            ),
            curves=model.sigma_frame(sigma_delta),
            truth=model.classic_limit_rule(),
        )
    st.markdown(
        model.noise_verdict(comparison) + "\n\n"
        "Two lessons. The classic formula is wasteful: at every ε < 1 it adds more noise than "
        "needed. And beyond ε = 1 its proof does not hold: `dp.gaussian_sigma_classic` refuses, "
        "and the analytic σ takes over. For a single count, which mechanism needs less noise "
        "depends on ε and δ (move them); the Gaussian's clear advantage appears with many "
        "queries."
    )
    snippets.SIGMA.show(delta=sigma_delta)
    downloads.download_csv(
        model.sigma_frame(sigma_delta), filename="gaussian-sigma.csv", key="ad_dl_sigma"
    )


choosing_sigma()


# --- 4. Many queries ---------------------------------------------------------------------------
@st.fragment
def many_queries() -> None:
    st.header("4. Many queries: where Gaussian wins")
    st.markdown(
        "Answer k counting queries about the same people, each with noise of the same SD. What "
        "does it cost in total? Three accountants (Δ = 1 each, add/remove):"
    )
    st.markdown(
        "- **Laplace, basic composition:** each answer is ε = √2/SD, and ε's add: k·ε.\n"
        "- **Laplace, advanced composition** (Dwork, Rothblum & Vadhan 2010): "
        "ε′ = ε·√(2k ln(1/δ)) + kε($e^ε$ − 1), at the price of δ.\n"
        "- **Gaussian, zCDP** (Bun & Steinke 2016): each answer with σ = SD is ρ = Δ²/2σ²-zCDP; "
        "ρ's add up to kρ, converted to (ε, δ) once at the end (the tight conversion of "
        "section 5)."
    )
    budget_controls, budget_chart = st.columns([2, 3], vertical_alignment="top")
    with budget_controls:
        noise_sd = controls.number_slider(
            "Noise SD per answer  (more noise → more private →)",
            model.NOISE_SDS,
            model.DEFAULT_NOISE_SD,
            key="ad_sd",
        )
        budget_delta = delta_slider("ad_k_delta")
        budget = model.budget(noise_sd, budget_delta)
        st.metric("100 queries, Laplace basic", f"ε = {text.number(budget.at_100[model.BASIC])}")
        st.metric("100 queries, Gaussian zCDP", f"ε = {text.number(budget.at_100[model.ZCDP])}")
    with budget_chart:
        crossing = (
            (
                "Gaussian with zCDP costs less from the first query on."
                if budget.crossover == 1
                else f"Gaussian with zCDP costs less from k = {budget.crossover:,} queries on."
            )
            if budget.crossover is not None
            else "Gaussian with zCDP never costs less within 1,000 queries."
        )
        charts.composition().show(
            title=f"Total ε of k answers, each with noise SD = {text.number(noise_sd)}",
            alt=(
                f"Three rising lines against k from 1 to 1,000 on log axes: total ε for Laplace "
                f"with basic composition (a straight line, k·{text.number(budget.epsilon_each)}), "
                f"Laplace with advanced composition, and Gaussian with zCDP at δ = "
                f"{text.power_of_ten(budget_delta)}. {crossing} At k = 100: basic "
                f"{text.number(budget.at_100[model.BASIC])}, advanced "
                f"{text.number(budget.at_100[model.ADVANCED])}, zCDP "
                f"{text.number(budget.at_100[model.ZCDP])}."
            ),
            curves=(frame := model.composition_frame(noise_sd, budget_delta)),
            truth=model.crossover_rule(budget, charts.crossover_label_at_bottom(frame, budget)),
        )
    st.markdown(
        f"{crossing} {model.growth_sentence(budget)} That is why the 2020 census "
        "(thousands of noisy counts per area) and private training of machine-learning models "
        "(thousands of noisy gradient steps) use Gaussian noise with zCDP or its relatives."
    )
    st.caption(
        f"Per answer: Laplace ε = √2/SD = {text.number(budget.epsilon_each)}, Gaussian ρ = "
        f"1/(2·SD²) = {text.number(budget.rho_each)}. Laplace with basic composition keeps "
        "δ = 0; the other two spend δ. Advanced composition is worse than basic for few queries: "
        "both bounds hold, so an accountant takes the smaller."
    )
    snippets.COMPOSITION.show(noise_sd=noise_sd, delta=budget_delta)
    downloads.download_csv(
        model.composition_frame(noise_sd, budget_delta),
        filename="composition-laplace-gaussian.csv",
        key="ad_dl_composition",
    )


many_queries()


# --- 5. Real numbers ---------------------------------------------------------------------------
@st.fragment
def real_numbers() -> None:
    st.header("5. The numbers real deployments publish")
    st.warning(
        "An ε is only meaningful with its **unit of privacy** (a person, a device, a user's "
        "day) and its **period** (once, per day, per month). ε = 2.64 per user per day is not "
        "comparable with ε = 16 per user per day for another feature, nor with a one-time "
        "census ρ: a year of daily releases composes to far more. Local and central ε's differ "
        "too: the same ε buys much less accuracy in the local model."
    )
    convert_controls, convert_chart = st.columns([2, 3], vertical_alignment="top")
    with convert_controls:
        rho = float(
            controls.number_input(
                "zCDP ρ to convert  (smaller → more private)",
                min_value=model.RHO_RANGE[0],
                max_value=model.RHO_RANGE[1],
                value=model.RHO_DEFAULT,
                step=0.01,
                format="%.3f",
                key="ad_rho",
            )
        )
        convert_delta = controls.number_slider(
            f"δ for the conversion  ({controls.MORE_PRIVATE_LEFT})",
            model.DELTAS,
            1e-10,
            format_func=text.power_of_ten,
            key="ad_rho_delta",
        )
        converted = model.conversion(rho, convert_delta)
        st.metric(
            f"ε at δ = {text.power_of_ten(convert_delta)} (tight)", text.number(converted.tight)
        )
        st.metric("ε by the simple formula", text.number(converted.simple))
    with convert_chart:
        charts.conversion().show(
            title=f"ρ = {text.number(rho)} as (ε, δ)",
            alt=(
                f"Two falling lines against δ from 10⁻¹⁴ to 0.01 on log axes: the ε implied by "
                f"ρ = {text.number(rho)}-zCDP with the tight conversion and, above it, the simple "
                f"formula. At δ = {text.power_of_ten(convert_delta)}: tight "
                f"{text.number(converted.tight)}, simple {text.number(converted.simple)}."
            ),
            curves=model.conversion_frame(rho),
            mark=model.conversion_mark(converted),
        )
    notebook.latex(
        r"""\begin{aligned}
        \varepsilon_{\text{simple}} &= \rho + 2\sqrt{\rho\ln(1/\delta)} \\
        \varepsilon_{\text{tight}} &= \min_{\alpha > 1}\Big(\rho\alpha
          + \frac{\ln(1/\delta) - \ln\alpha}{\alpha - 1} \\
        &\qquad + \ln(1 - 1/\alpha)\Big)
        \end{aligned}"""
    )
    wikimedia = model.conversion(0.015, 1e-7)
    st.caption(
        "Simple: Bun & Steinke 2016, Prop. 1.3. Tight: Canonne, Kamath & Steinke 2020, the "
        "conversion OpenDP uses. Try the census: ρ = 2.56 for its persons tables at δ = 10⁻¹⁰. "
        "Or Wikimedia's ρ = 0.015, which its dataset README calls “roughly ε = 1, δ = 10⁻⁷”: "
        f"that is the simple formula ({text.number(wikimedia.simple, 3)}); the tight one gives "
        f"{text.number(wikimedia.tight, 3)}."
    )
    snippets.CONVERSION.show(rho=rho)
    downloads.download_csv(
        model.conversion_frame(rho), filename="zcdp-to-approx-dp.csv", key="ad_dl_conversion"
    )
    deployments = model.deployments_frame(convert_delta)
    tables.written(model.deployments_shown(convert_delta))
    st.caption(
        "The census total is ρ = 2.63: persons 2.56 and housing units 0.07 (a person is in the "
        "persons tables, a housing unit in the housing tables). A budget published as ρ is "
        f"converted here with the tight conversion at your δ = {text.power_of_ten(convert_delta)}"
        "; the others are as published. The list is data/deployments.csv (its download has every "
        "row's source); "
        "the lesson “What ε means in practice” charts it by unit of privacy. "
        "Desfontaines keeps a longer list at "
        "desfontain.es/privacy/real-world-differential-privacy.html."
    )
    downloads.download_csv(deployments, filename="dp-deployments.csv", key="ad_dl_deployments")


real_numbers()

quiz.check_yourself(
    "approximate_dp",
    quiz.bank(__file__, "approximate_dp"),
)
