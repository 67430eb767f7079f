"""Lesson: choosing privately — report noisy max, the exponential mechanism, a private
quantile, and a clamp bound chosen without peeking."""

import streamlit as st

from lessons.catalogue import LESSONS
from lessons.choosing import charts, model, snippets
from ui import columns as shared_columns
from ui import controls, datasets, downloads, notebook, quiz, text, userdata

controls.lesson_header(
    "Choosing privately",
    "Sometimes the answer is not a number but a choice: the most common occupation, the "
    "best threshold, the median age. You watch report noisy max pick the largest of many "
    "noisy counts, with the exact chance of each winner beside 1,000 simulated runs; see "
    "why releasing only the winner is much cheaper than releasing every count when the "
    "questions overlap; then pick a median with the exponential mechanism, and use a "
    "private percentile as the clamp bound that Sensitivity and clamping could not read "
    "off the data.",
)


def noisy_max_epsilon(key: str, label: str = "Privacy loss ε") -> float:
    """An ε on report noisy max's scale (model.EPSILONS, 0.001 to 10): sections 1 and 2 and
    the Gumbel comparison each have one."""
    return controls.epsilon_slider(
        key=key, label=label, default=model.DEFAULT_EPSILON, options=model.EPSILONS
    )


# --- 1. Which category is most common? ---------------------------------------------------------
st.header("1. Which value is most common? Report noisy max")
userdata.show_dataset_in_use()
column = userdata.pick_categorical_column("choose_column", label="Column to ask about", bind=True)
if column is None:
    st.stop()
cats = model.categories(column)
if cats.k < 2:
    st.warning("This column has a single category: there is nothing to choose between.")
    st.stop()
name = text.plain(column)
top = text.plain(cats.labels[0])
st.markdown(
    f"The question: *which value of **{name}** do most people have?* Add Lap(1/ε) noise to "
    "each count and report **only the name of the largest noisy count** — not the counts. "
    f"{model.truth_words(cats)}"
    + (f" ({cats.missing:,} people have no value and are in no count.)" if cats.missing else "")
)
notebook.latex(r"\hat{\imath} = \arg\max_i \big(c_i + \mathrm{Lap}(1/\varepsilon)\big)")


@st.fragment
def noisy_max_winner() -> None:
    """ε on the left, with its numbers and the chance of each winner as ε grows; who wins at
    this ε on the right: both charts beside the slider that drives them (a fragment: moving ε
    reruns only this section)."""
    control_column, bars_column = st.columns([2, 3], vertical_alignment="top")
    with control_column:
        epsilon = noisy_max_epsilon("choose_eps")
        frame = model.win_frame(cats, epsilon, controls.seed() + model.SEED_RUNS)
        exact_top = float(frame["exact probability"].iloc[0])
        st.metric(f"Chance the true winner {top} is reported", text.chance(exact_top))
        st.metric(
            f"Reported in {model.RUNS:,} runs",
            f"{int(round(frame['share of runs'].iloc[0] * model.RUNS)):,} times",
        )
        charts.win_curves(tuple(model.curve_series(cats))).show(
            title="The chance of each winner, as ε grows",
            alt=(
                "Lines against ε from 0.001 to 10 on a log axis for the "
                f"{min(model.TOP_CURVES, cats.k)} "
                f"largest values of {column}"
                + (" and all the others together" if cats.k > model.TOP_CURVES else "")
                + f". At your ε = {text.number(epsilon)}, {cats.labels[0]} is reported with "
                f"chance {text.chance(exact_top)}."
            ),
            curves=model.win_curves(cats),
            truth=model.epsilon_rule(epsilon),
        )
    shown = model.bars_frame(frame)
    with bars_column:
        charts.win_bars(len(shown), "chance of being reported").show(
            numbers_key="report_noisy_max",
            title=f"Who wins report noisy max at ε = {text.number(epsilon)}",
            alt=(
                f"Horizontal bars, one per value of {column}, for the exact chance of being "
                f"reported at ε = {text.number(epsilon)}, with ticks for the share of "
                f"{model.RUNS:,} simulated runs. {cats.labels[0]} (true count "
                f"{cats.counts[0]:,}) is reported with chance {text.chance(exact_top)}, "
                f"{cats.labels[1]} with {text.chance(frame['exact probability'].iloc[1])}."
            ),
            wins=shown,
        )
        st.caption(
            "Bars: the exact chance, $\\int f_i(x) \\prod_{j \\ne i} F_j(x)\\,dx$, integrated "
            f"numerically. Black ticks: the share of {model.RUNS:,} simulated runs (seeded). "
            "Labels show each true count. Each count moves by at most 1 when a person joins or "
            "leaves (add/remove), so the noise SD is √2/ε = "
            f"{text.number(model.typical_count_error(epsilon))} people."
        )
    snippets.WINS.show(column=column, epsilon=epsilon)
    downloads.download_csv(frame, filename="report-noisy-max.csv", key="choose_dl_wins")


noisy_max_winner()
st.markdown(  # the same at every ε: outside the fragment, sent once
    f"{model.takeover_words(cats)} The noise a count needs does not depend on how many "
    "candidates there are."
)


# --- 2. What releasing only the winner saves ---------------------------------------------------
st.header("2. Why release only the winner?")
traits = model.traits_in_common()
m = traits["m"]
st.markdown(
    f"The values of **{name}** are **disjoint**: each person is in one count. Releasing all "
    f"{cats.k} noisy counts then also costs only ε, by parallel composition (under "
    "add/remove), so "
    "here the winner alone saves nothing — you might as well publish the histogram. The "
    "difference appears when the questions **overlap**: *which of these traits is most "
    "common?*"
)
userdata.census_only_notice("these five yes/no questions are about census columns.")


@st.fragment
def most_common_trait(m: int) -> None:
    """This section's own ε beside the overlapping traits' bars and the three costs (a
    fragment: moving it reruns only this section)."""
    control_column, bars_column = st.columns([2, 3], vertical_alignment="top")
    with control_column:
        epsilon = noisy_max_epsilon("choose_trait_eps", "ε for the trait question")
        costs = model.release_costs(epsilon, cats.k, m)
        st.metric("Release the winner", f"ε = {text.number(costs.winner)}")
        st.metric(f"Release all {m} noisy counts", f"{m}ε = {text.number(costs.all_overlapping)}")
        st.metric(
            f"All {m} at total ε: noise SD each",
            f"±\u00a0{text.number(model.typical_count_error(epsilon, m))}",
        )
    trait_frame = model.trait_frame(epsilon, controls.seed() + model.SEED_RUNS)
    shown_traits = model.bars_frame(trait_frame)
    with bars_column:
        charts.win_bars(len(shown_traits), "chance of being reported").show(
            numbers_key="traits",
            title=f"Most common trait, ε = {text.number(epsilon)}",
            alt=(
                f"Horizontal bars for {m} overlapping yes/no questions about the census, the "
                f"exact chance each is reported at ε = {text.number(epsilon)}, with ticks for "
                f"{model.RUNS:,} runs. {trait_frame['category'].iloc[0]} has the largest true "
                f"count ({trait_frame['true count'].iloc[0]:,}) and is reported with chance "
                f"{text.chance(trait_frame['exact probability'].iloc[0])}."
            ),
            wins=shown_traits,
        )


most_common_trait(m)
st.markdown(
    f"One person can be in all {m} counts ({traits['people']:,} census people are), so "
    f"adding them moves the vector of counts by {m} in total: releasing every noisy count "
    f"at Lap(1/ε) costs {m}ε (sequential composition), or needs {m} times the noise for "
    "the same ε. Report noisy max still costs **ε**: each count moves by at most 1, all in "
    "the same direction, and the proof (Dwork & Roth, Claim 3.9) needs only that. The same "
    "holds for *which threshold*, *which query* or *which attribute is best*."
)

# --- 3. The exponential mechanism ---------------------------------------------------------------
st.header("3. The exponential mechanism: a private median")
numeric = model.columns()
if not numeric:
    names = ", ".join(str(n) for n in datasets.active().frame.columns)
    st.warning(
        "The rest of this lesson needs a column of numbers, and your file has none. Its "
        "columns are: "
        + text.plain(names)
        + ". Press “Back to the census” in the sidebar. "
        + shared_columns.left_out_words()
    )
    st.stop()
st.markdown(
    "Report noisy max needs counts. The **exponential mechanism** chooses among any "
    "candidates — words, thresholds, ages — given a *utility* u(c) that says how good each "
    "is, and its sensitivity Δ (how far one person moves any utility). For a quantile, the "
    "candidates are a grid fixed in advance and the utility counts how unbalanced the data "
    "is around c:"
)
notebook.latex(
    r"""\begin{aligned}
    u(c) &= -\big|(1-\alpha)\,\#\{v < c\} - \alpha\,\#\{v > c\}\big|, \\
    \Pr[c] &= \frac{\exp\!\big(\varepsilon\,u(c) / (2\Delta)\big)}
      {\sum_{c'} \exp\!\big(\varepsilon\,u(c') / (2\Delta)\big)}.
    \end{aligned}"""
)
st.markdown(
    "For the median (α = ½), u(c) is −½·|#below − #above| ≈ −|rank(c) − n/2|. Adding or "
    "removing one person moves it by at most Δ = max(α, 1 − α). **Why the 2?** Between "
    "neighbours, the numerator exp(εu(c)/2Δ) can grow by $e^{ε/2}$ *and* the normaliser "
    "below it can shrink by $e^{−ε/2}$: together $e^ε$. Report noisy max gets by with Lap(1/ε) "
    "because its counts all move the same way."
)
by_name = {col.name: col for col in numeric}
PICKED_KEY = "choose_picked"  # (column, people) of section 3, which section 4 reuses


@st.fragment
def private_quantile() -> None:
    """The column, quantile, people and ε beside the exponential mechanism's bars (a fragment:
    moving ε reruns only this section; a new column or number of people reruns the page, so
    that section 4, which uses the same ones, follows)."""
    picks, chart_column = st.columns([2, 3], vertical_alignment="top")
    with picks:
        numeric_column = by_name[
            controls.selectbox(
                "Numeric column",
                list(by_name),
                index=list(by_name).index(model.DEFAULT_NUMERIC)
                if model.DEFAULT_NUMERIC in by_name
                else 0,
                format_func=lambda key: by_name[key].label,
                key="choose_num",
            )
        ]
        if left_out := shared_columns.left_out_words():
            st.caption(left_out)
        alpha = controls.radio(
            "Which quantile",
            list(model.QUANTILES),
            format_func=model.QUANTILES.get,
            horizontal=True,
            key="choose_alpha",
        )
        sizes = tuple(s for s in model.SAMPLE_SIZES if s == 0 or s < model.present(numeric_column))
        size = controls.select_slider(
            "People in the data  (more people → a sharper choice at the same ε)",
            options=sizes,
            value=model.DEFAULT_SAMPLE if model.DEFAULT_SAMPLE in sizes else sizes[-1],
            format_func=model.people,
            key="choose_n",
        )
        quantile_epsilon = controls.epsilon_slider(
            key="choose_q_eps", default=0.1, label="Budget ε for the quantile"
        )
    release = model.quantile_release(
        numeric_column, size, alpha, quantile_epsilon, controls.seed() + model.SEED_QUANTILE
    )
    with chart_column:
        charts.quantile_bars(numeric_column.low, numeric_column.high, numeric_column.label).show(
            numbers_key="quantile",
            title=f"Private {model.QUANTILES[alpha]} at ε = {text.number(quantile_epsilon)}",
            alt=(
                f"Bars over {numeric_column.label} from {text.number(numeric_column.low)} to "
                f"{text.number(numeric_column.high)}: the exponential mechanism's chance of "
                f"releasing each candidate for the {model.QUANTILES[alpha]} of "
                f"{model.people(size)} at ε = {text.number(quantile_epsilon)}. The true value is "
                f"{text.number(release.truth)}; candidates within {model.CLOSE} steps of it get "
                f"{text.chance(release.close)} of the chance."
            ),
            candidates=model.quantile_frame(release, numeric_column),
            truth=model.truth_rule(release.truth, alpha),
        )
    cols = st.columns(3)
    cols[0].metric(f"True {model.QUANTILES[alpha]}", text.number(release.truth))
    cols[1].metric("One private release", text.number(release.released))
    cols[2].metric(f"Chance within ±{model.CLOSE} steps of the truth", text.chance(release.close))
    st.caption(
        f"Δ = {text.number(release.sensitivity)} (add/remove). Candidates: "
        f"{release.grid.size:,} values from {text.number(numeric_column.low)} to "
        f"{text.number(numeric_column.high)} in steps of {text.number(numeric_column.step)}, "
        + (
            "chosen from the column's public range, not from the data. "
            if numeric_column.public
            else "read off your file's smallest and largest values: a file has no public "
            "range, so here the grid itself looks at the data (a real release fixes it in "
            "advance). "
        )
        + f"Among {model.people(size)}, one more person shifts the scores by at most Δ, "
        "whatever ε: more people make the utility gaps larger, and the choice sharper."
    )
    snippets.QUANTILE.show(
        column=numeric_column.name,
        alpha=alpha,
        epsilon=quantile_epsilon,
        low=numeric_column.low,
        high=numeric_column.high,
        step=numeric_column.step,
    )
    downloads.download_csv(
        model.quantile_frame(release, numeric_column),
        filename="exponential-mechanism.csv",
        key="choose_dl_quantile",
    )
    picked = (numeric_column.name, size)
    if st.session_state.get(PICKED_KEY, picked) != picked:
        st.session_state[PICKED_KEY] = picked
        st.rerun()  # the whole page: section 4 takes the same column and people
    st.session_state[PICKED_KEY] = picked


private_quantile()
numeric_column = by_name.get(st.session_state.get(PICKED_KEY, ("",))[0]) or next(
    iter(by_name.values())
)
size = st.session_state.get(PICKED_KEY, ("", model.DEFAULT_SAMPLE))[1]
label = text.plain(numeric_column.label)

st.subheader("Another noise, the same choice: Gumbel")


@st.fragment
def gumbel_choice() -> None:
    """Its own ε beside the exponential mechanism's bars, with section 1's Laplace chance
    at the same ε for comparison (a fragment)."""
    control_column, bars_column = st.columns([2, 3], vertical_alignment="top")
    with control_column:
        epsilon = noisy_max_epsilon("choose_gumbel_eps", "ε for the Gumbel comparison")
        gumbel = model.gumbel_frame(cats, epsilon, controls.seed() + model.SEED_GUMBEL)
        laplace = model.win_frame(cats, epsilon, controls.seed() + model.SEED_RUNS)
        st.metric(
            f"Gumbel: {top} chosen",
            text.chance(gumbel["exact probability"].iloc[0]),
        )
        st.metric(
            f"Laplace: {top} reported",
            text.chance(laplace["exact probability"].iloc[0]),
        )
        monotone = model.monotone_probabilities(cats, epsilon)
        st.metric(f"Without the 2: {top} chosen", text.chance(monotone[0]))
    shown_gumbel = model.gumbel_bars(cats, epsilon, controls.seed() + model.SEED_GUMBEL)
    with bars_column:
        charts.win_bars(len(shown_gumbel), "chance of being chosen").show(
            numbers_key="gumbel",
            title=f"Noisy max with Gumbel noise, ε = {text.number(epsilon)}",
            alt=(
                f"Horizontal bars for the exponential mechanism's exact chance of choosing "
                f"each value of {column} with utility = count (Δ = 1) at ε = "
                f"{text.number(epsilon)}, and ticks for the share of {model.GUMBEL_RUNS:,} "
                f"runs of report noisy max with Gumbel(2/ε) noise. {cats.labels[0]}: exact "
                f"{text.chance(gumbel['exact probability'].iloc[0])}, runs "
                f"{text.percent(gumbel['share of runs'].iloc[0])}."
            ),
            wins=shown_gumbel,
        )
    st.markdown(
        "Replace the Laplace noise of section 1 by Gumbel noise of scale 2Δ/ε and report "
        "noisy max **is** the exponential mechanism: the bars are exp(ε·c/2)/Σ exactly, the "
        f"ticks are {model.GUMBEL_RUNS:,} Gumbel runs (the *Gumbel-max trick*). Compared "
        f"with section 1's Laplace noise at the same ε = {text.number(epsilon)} (the numbers "
        "beside the chart), the choice is blurrier, because the general exponential mechanism "
        "pays the 2: it must allow a neighbour to raise one score while lowering the others."
    )
    st.markdown(
        "**When can the 2 go?** When the utility is *monotone*: between any two neighbours "
        "every score moves the same way. Counts are: adding a person can raise counts, never "
        "lower one (add/remove neighbours). Then the numerator and the normaliser cannot move "
        "against each other, and exp(ε·u/Δ), without the 2, is already ε-DP (McSherry & "
        "Talwar 2007; Dwork & Roth 2014, §3.4). Here that chooses "
        f"{top} with {text.chance(monotone[0])} at ε = {text.number(epsilon)}, against "
        f"{text.chance(gumbel['exact probability'].iloc[0])} with the 2. Quantile scores "
        "(section 3) are not monotone: a new value raises the scores on one side of it and "
        "lowers them on the other, so there the 2 stays."
    )


gumbel_choice()

# --- 4. A clamp bound chosen privately ---------------------------------------------------------
st.header("4. Choosing a clamp bound without peeking")
clamping = next(lesson for lesson in LESSONS if lesson.folder == "clamping")
st.markdown(
    "The clamping lesson showed that setting U to the data's maximum gives the largest "
    "value away. Instead, spend a slice of the budget on a **private 99th percentile** of "
    f"{label} (the mechanism above) and the rest on the clamped noisy sum: sequential "
    "composition makes the total ε."
)
controls.page_link(clamping.path, label=f"Back to {clamping.title}", icon=clamping.icon)


@st.fragment
def private_bound(numeric_column, size: int, label: str) -> None:
    """The total ε and the share spent on U beside where the private U lands, and the sum it
    clamps (a fragment: its sliders rerun only this section)."""
    bound_controls, bound_chart = st.columns([2, 3], vertical_alignment="top")
    with bound_controls:
        total_epsilon = controls.epsilon_slider(key="choose_total_eps", label="Total budget ε")
        share = controls.select_slider(
            "Share of ε spent on choosing U  (more → a better U, a noisier sum)",
            options=model.BOUND_SHARES,
            value=model.BOUND_SHARES[0],
            format_func=text.percent,
            key="choose_share",
        )
        st.caption(f"Column and people as in section 3: {label}, {model.people(size)}.")
    bound = model.private_bound(numeric_column, size, total_epsilon, share, controls.seed())
    with bound_chart:
        charts.quantile_bars(numeric_column.low, numeric_column.high, numeric_column.label).show(
            numbers_key="private_bound",
            title=f"Where the private U lands (ε = {text.number(bound.epsilon_bound)})",
            alt=(
                f"Bars over {numeric_column.label}: the chance that the private 99th percentile, "
                f"at ε = {text.number(bound.epsilon_bound)}, releases each candidate as the "
                f"upper bound U. The true 99th percentile is {text.number(bound.release.truth)}; "
                f"this release drew U = {text.number(bound.upper)}."
            ),
            candidates=model.quantile_frame(bound.release, numeric_column),
            truth=model.bound_rules(bound),
        )
    cols = st.columns(3)
    cols[0].metric(f"Private U (ε = {text.number(bound.epsilon_bound)})", text.number(bound.upper))
    cols[1].metric(
        f"Noisy sum (ε = {text.number(bound.epsilon_sum)})", text.number(bound.noisy_sum)
    )
    cols[2].metric("True sum", text.number(bound.true_sum))
    st.caption(
        f"ε = {text.number(bound.epsilon_bound)} + {text.number(bound.epsilon_sum)} = "
        f"{text.number(total_epsilon)}. "
        + (
            f"The data's maximum, {text.number(bound.data_max)}, was never used: U came from "
            "the exponential mechanism over the public range "
            f"{text.number(numeric_column.low)}–{text.number(numeric_column.high)}, so a "
            "newcomer far above it moves U only by chance, never by certainty. "
            if numeric_column.public
            else f"Your file has no public range: the grid "
            f"{text.number(numeric_column.low)}–{text.number(numeric_column.high)} was read "
            f"off its values, so the data's maximum, {text.number(bound.data_max)}, set its "
            "top, and a newcomer above it would move the grid itself. With a public range, as "
            "the census's columns have, only the exponential mechanism's draw would. "
        )
        + "Clamped to "
        f"[{text.number(numeric_column.low)}, {text.number(bound.upper)}] the sum is "
        f"{text.number(bound.clamped_sum)}. U lands above the data's largest value with chance "
        f"{text.percent(bound.above_max)}: then nothing is cut, at the price of a little more "
        "noise."
    )


private_bound(numeric_column, size, label)

quiz.check_yourself(
    "choosing",
    quiz.bank(__file__, "choosing"),
)
