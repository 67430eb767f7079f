"""Lesson: sensitivity and clamping — sums, means, bounds that leak, and whose data is
protected when one person has many rows."""

import streamlit as st

from lessons.catalogue import LESSONS
from lessons.clamping import charts, model, snippets
from ui import columns as shared_columns
from ui import controls, datasets, downloads, notebook, quiz, text, userdata

controls.lesson_header(
    "Sensitivity and clamping",
    "Counts change by at most 1 when one person joins; sums do not. You pick a numeric "
    "column, clamp every value into a window and watch the trade-off: a narrow window "
    "needs little noise but cuts real values off (bias), a wide one keeps them but needs "
    "a lot of noise. Then you release a mean, see how a bound read off the data gives "
    "away the largest value, and decide whose data is protected when one person owns "
    "many rows.",
)

# --- 1. Why a sum's sensitivity is not 1 -----------------------------------------------------
st.header("1. A sum has no sensitivity until you bound it")
userdata.show_dataset_in_use()
columns = shared_columns.numeric_columns()
if not columns:
    names = ", ".join(str(name) for name in datasets.active().frame.columns)
    st.warning(
        "This lesson sums a column of numbers, and your file has none. Its columns are: "
        + text.plain(names)
        + ". Press “Back to the census” in the sidebar, or upload a file with a numeric column. "
        + shared_columns.left_out_words()
    )
    st.stop()
by_name = {column.name: column for column in columns}
column = by_name[
    controls.selectbox(
        "Numeric column to sum",
        list(by_name),
        format_func=lambda name: by_name[name].label,
        key="clamp_col",
    )
]
if left_out := shared_columns.left_out_words():
    st.caption(left_out)
sizes = shared_columns.sample_options(shared_columns.present_count(column.name))
size = 0  # everyone, unless the column is large enough to offer samples
if len(sizes) > 1:
    size = controls.select_slider(
        "People in the data  (fewer people → noise matters more, cutting values less)",
        options=sizes,
        value=shared_columns.DEFAULT_SAMPLE
        if shared_columns.DEFAULT_SAMPLE in sizes
        else sizes[-1],
        format_func=shared_columns.sample_label,
        key="clamp_n",
    )
label = text.plain(column.label)
values_missing = shared_columns.missing_count(column.name)
top = model.extremes(column.name, size)
people = shared_columns.sample_label(size)
st.markdown(
    "Neighbours here add or remove one person. A count changes by at most 1, so Lap(1/ε) "
    f"hides anyone. A sum of **{label}** changes by that person's whole value: among "
    f"{people}{'' if size == 0 else ' (a fixed random sample)'}, the largest is "
    f"**{text.number(top.largest)}** ({top.holders:,} "
    f"{'person has' if top.holders == 1 else 'people have'} it), so adding one of them moves "
    f"the total by {text.number(top.largest)}. And nothing stops the next person from having "
    "ten times more: without a bound, the sensitivity is unbounded and **no finite noise "
    "is enough**."
)
st.markdown(
    "The fix is to **clamp**: force every value into a window [L, U] chosen *before* "
    "looking at the data. Then one person moves the sum by at most max(|L|, |U|):"
)
notebook.latex(
    r"""\begin{aligned}
    \operatorname{clamp}(v) &= \min(\max(v, L), U), \\
    \Delta_{\text{add/remove}} &= \max(|L|, |U|), \\
    \Delta_{\text{replace}} &= U - L, \\
    F(D) &= \textstyle\sum_{v \in D} \operatorname{clamp}(v) + \mathrm{Lap}(\Delta/\varepsilon).
    \end{aligned}"""
)
st.caption(
    "Under add/remove the person's whole clamped value appears or disappears; under "
    "replace, one value swaps for another, from L to U at worst. This lesson uses add/remove."
)

# --- 2. The clamping trade-off ------------------------------------------------------------------
st.header("2. The clamping trade-off")
window_key = f"clamp_window_{list(by_name).index(column.name)}"
if not datasets.on_census():
    window_key = f"clamp_file_window_{list(by_name).index(column.name)}"
held = st.session_state.get(window_key)
if held is not None and not (column.low <= held[0] <= held[1] <= column.high):
    del st.session_state[window_key]  # a window left from another file: start afresh


def the_released_sum(result) -> None:
    """Section 2's numbers: the true, clamped and noisy sums, the bias and the noise."""
    # Two rows, not five columns: six-digit sums must fit at presenter-mode font sizes.
    cols = st.columns(3)
    cols[0].metric("True sum", text.number(result.true_sum))
    cols[1].metric("Clamped sum", text.number(result.clamped_sum))
    cols[2].metric("Bias (clamped − true)", text.number(result.bias))
    cols = st.columns(3)
    cols[0].metric("Noise scale b = Δ/ε", text.number(result.scale))
    cols[1].metric("One noisy sum", text.number(result.noisy_sum))
    st.caption(
        f"Δ = max(|L|, |U|) = {text.number(result.sensitivity)}. {result.clipped_above:,} "
        f"values above U are cut to U, {result.clipped_below:,} below L are raised to L"
        + (f"; {values_missing:,} missing values add nothing" if values_missing else "")
        + f". Typical error of the noise (SD): ±\u00a0{text.number(result.typical_error)}; "
        "with the "
        f"bias, the released sum misses the truth by about ±\u00a0{text.number(result.rmse)} (root "
        "mean squared error)."
    )


def bias_against_noise(lower: float, upper: float, epsilon: float, result) -> None:
    """Section 2's curve: bias, noise and their total as U moves, the best U marked."""
    curve = model.error_curve(column, size, lower, epsilon)
    noise_part = model.PARTS[1]
    charts.error_curves(column.low, column.high, model.error_domain(column), noise_part).show(
        title=[
            f"Bias against noise as U moves (L = {text.number(lower)}, ε = {text.number(epsilon)})",
            f"◆ the lowest total: U = {text.number(curve.best_upper)}",
        ],
        alt=(
            f"Three curves against the upper bound U on a log axis: the clamping bias falls as U "
            f"grows, the noise SD √2·U/ε rises, and their total is lowest at U = "
            f"{text.number(curve.best_upper)} (±\u00a0{text.number(curve.best_rmse)}). Your U = "
            f"{text.number(upper)} gives ±\u00a0{text.number(result.rmse)}."
        ),
        curves=curve.curves,
        best=model.best_point(curve),
        truth=model.current_rule(upper),
    )
    st.markdown(
        "The expected squared error of the released sum adds the two parts, so the total "
        "(black) is the root of their squares:"
    )
    notebook.latex(
        r"""\begin{aligned}
        &\mathbb{E}\big[(F(D) - \textstyle\sum_{v} v)^2\big] \\
        &\quad = \underbrace{\big(\textstyle\sum_v \operatorname{clamp}(v)
            - \sum_v v\big)^2}_{\text{bias}^2} \\
        &\quad\quad + \underbrace{2\,(\Delta/\varepsilon)^2}_{\text{noise variance}}
        \end{aligned}"""
    )
    st.markdown(
        "Try few people, then everyone. The noise does not grow with the data, but the values "
        "you cut add up: with everyone, cutting costs far more than noise, and the best U "
        "climbs to the top of the range. A small ε pushes it back down."
    )
    st.caption(
        f"The lowest total here is at U = {text.number(curve.best_upper)}. But that U was "
        "found by looking at everyone's value: publishing it, or using it, is not private. It "
        "shows the shape of the trade-off; section 4 shows what goes wrong when a bound comes "
        "from the data. Axes fixed per column: x is the column's whole range, y runs from "
        f"{text.number(model.error_domain(column)[0])} to "
        f"{text.number(model.error_domain(column)[1])} for every ε and window."
    )
    snippets.ERROR_CURVE.show(
        column=column.name, lower=lower, epsilon=epsilon, step=column.step, high=column.high
    )
    downloads.download_csv(curve.curves, filename="clamping-error-curve.csv", key="clamp_dl_curve")


def a_mean(lower: float, upper: float, epsilon: float) -> None:
    """Section 3: a mean as a noisy sum over a noisy count, ε/2 each."""
    st.header("3. A mean: a noisy sum over a noisy count")
    st.markdown(
        "The mean is a sum divided by a count. Under add/remove, the count n is itself "
        "private: whether a person is in the data changes it by 1. So both get noise, and the "
        "budget is split, ε/2 each (sequential composition: ε in total)."
    )
    notebook.latex(
        r"""\widehat{\text{mean}} = \frac{\sum_v \operatorname{clamp}(v)
        + \mathrm{Lap}\!\left(\frac{\Delta}{\varepsilon/2}\right)}
        {n + \mathrm{Lap}\!\left(\frac{1}{\varepsilon/2}\right)}"""
    )
    mean = model.mean_release(
        column.name, size, lower, upper, epsilon, controls.seed() + model.SEED_MEAN
    )
    cols = st.columns(4)
    cols[0].metric("True mean", text.number(mean.true_mean))
    cols[1].metric(f"Noisy sum (ε/2 = {text.number(epsilon / 2)})", text.number(mean.noisy_sum))
    cols[2].metric(f"Noisy count (ε/2 = {text.number(epsilon / 2)})", text.number(mean.noisy_count))
    cols[3].metric("Noisy mean", text.number(mean.noisy_mean))
    st.caption(
        f"Noise scales: {text.number(mean.sum_scale)} on the sum (2Δ/ε), "
        f"{text.number(mean.count_scale)} on the count (2/ε). The clamped data's mean is "
        f"{text.number(mean.clamped_mean)}: the noisy mean is centred near it, not near the "
        "true mean. The ratio is kept within [L, U] and the count at 1 or more: both use only "
        "the noisy answers, so they cost nothing (post-processing)."
    )
    st.markdown(
        f"**Why not divide by the true n = {mean.n:,}?** Because n is an answer too. Release a "
        f"mean over n = {mean.n:,} today and over n = {mean.n - 1:,} tomorrow, and everyone "
        "learns that exactly one person left — and, from the two noisy sums, roughly what their "
        "value was. An exact n is a count with no noise: it breaks ε-DP under add/remove. "
        "(Under *replace*, n is the same in every neighbour and may be public.)"
    )


@st.fragment
def window_sum_and_mean() -> None:
    """The clamp window and ε beside the column's histogram, and what they do to the sum
    (section 2) and the mean (section 3) (a fragment: moving them reruns only these two)."""
    chart_column, control_column = st.columns([3, 2], vertical_alignment="top")
    with control_column:
        lower, upper = controls.slider(
            "Clamp window [L, U]  (narrower → less noise, more values cut)",
            min_value=column.low,
            max_value=column.high,
            value=column.default,
            step=column.step,
            format=shared_columns.slider_format(column),
            key=window_key,
        )
        epsilon = controls.epsilon_slider(key="clamp_eps")
    if upper <= lower:  # both ends on one value: a legitimate state, explained in numbers
        point = model.point_window(column.name, size, lower)
        lower, upper = model.widened_window(column, lower)
        st.info(model.describe_point_window(point, lower, upper), icon=":material/info:")
    result = model.clamped_sum(
        column.name, size, lower, upper, epsilon, controls.seed() + model.SEED_SUM
    )
    with chart_column:
        charts.column_histogram(column.low, column.high, column.label).show(
            title=(
                f"{column.label} and the clamp window (green), {text.number(lower)} to "
                f"{text.number(upper)}"
            ),
            alt=(
                f"Histogram of {column.label} over {text.number(column.low)} to "
                f"{text.number(column.high)}. The clamp window from {text.number(lower)} to "
                f"{text.number(upper)} is shaded; {result.clipped_above:,} values lie above it "
                f"and {result.clipped_below:,} below it."
            ),
            bins=model.histogram(column.name, size, column.low, column.high),
            window=model.window_frame(lower, upper),
        )
    the_released_sum(result)
    bias_against_noise(lower, upper, epsilon, result)
    a_mean(lower, upper, epsilon)


window_sum_and_mean()


# --- 4. Bounds taken from the data leak --------------------------------------------------------
st.header("4. A bound read off the data gives away the outlier")
st.markdown(
    "Why not set U to the data's largest value, so nothing is cut? Because then the bound, "
    "and with it the noise scale, depends on one person. Add a newcomer with a value above "
    "everyone's, and U jumps to exactly that value."
)


@st.fragment
def data_bound_leak() -> None:
    """Its own ε and the newcomer: what a bound read off the data gives away (a fragment)."""
    epsilon = controls.epsilon_slider(key="clamp_leak_eps", label="ε for the released sum")
    newcomer = controls.with_plain_label(
        controls.number_input,
        f"A newcomer joins with {column.label} =",
        value=float(min(top.largest * 2, column.high * 10)) if top.largest > 0 else column.high,
        min_value=float(column.low),
        max_value=float(max(column.high, abs(top.largest)) * 10),
        step=float(column.step),
        format=shared_columns.slider_format(column),
        key="clamp_newcomer",
    )
    leak = model.data_bound(column.name, size, float(newcomer), epsilon)
    cols = st.columns(4)
    cols[0].metric("U = max without them", text.number(leak.bound_before))
    cols[1].metric("U = max with them", text.number(leak.bound_after))
    cols[2].metric("Noise scale without", text.number(leak.scale_before))
    cols[3].metric("Noise scale with", text.number(leak.scale_after))
    if leak.bound_after > leak.bound_before:
        st.error(
            f"The noise scale grows from {text.number(leak.scale_before)} to "
            f"{text.number(leak.scale_after)}: anyone who sees it (or the published bound) "
            f"learns that someone with {label} = {text.number(leak.bound_after)} joined. Far in "
            "the tails, the two noise distributions differ by an unbounded factor: ε = ∞.",
            icon=":material/warning:",
        )
    else:
        st.info(
            f"A newcomer at or below the current maximum {text.number(leak.bound_before)} does "
            "not move U — but one above it does, by exactly their value. A privacy guarantee "
            "must hold for every possible newcomer.",
            icon=":material/info:",
        )
    st.markdown(
        "Safe bounds come from outside the data: **domain knowledge** (ages lie between 0 and "
        "100; this census records capital gains up to \\$99,999 — "
        + (
            "the ranges of the sliders above"
            if datasets.on_census()
            else "the census's ranges; your file's sliders instead span the values it holds, "
            "read off the file, which a real release may not do"
        )
        + "), or a **private quantile** chosen with a small part of the budget by the "
        "exponential mechanism, which the lesson *Choosing privately* builds and then uses "
        "for exactly this bound."
    )


data_bound_leak()


choosing = next(lesson for lesson in LESSONS if lesson.folder == "choosing")
controls.page_link(choosing.path, label=f"Ahead: {choosing.title}", icon=choosing.icon)

# --- 5. One person, many rows --------------------------------------------------------------------
st.header("5. Whose data? One person, many rows")
visits = model.visits_summary()
if not datasets.on_census():
    st.info(
        "This section uses a visits table simulated for the census people, whatever data "
        "you picked: a file of one row per person cannot show one person with many rows.",
        icon=":material/info:",
    )
st.markdown(
    f"Now the table has one row per *visit* to a clinic: {visits['rows']:,} rows for "
    f"{visits['people']:,} people (simulated: the median person has "
    f"{text.number(visits['median'])} rows, {text.percent(visits['over_10'])} have more than "
    f"10, one has {visits['largest']:,}). **How many visits were there?** If the neighbours "
    "differ by one *row*, the count has sensitivity 1 — but that protects a visit, not a "
    f"person. The person with {visits['largest']:,} visits changes the count by "
    f"{visits['largest']:,}."
)


@st.fragment
def rows_per_person() -> None:
    """Its own ε and m beside the contribution curves and the protection levels (a fragment)."""
    curve_column, m_column = st.columns([3, 2], vertical_alignment="top")
    with m_column:
        max_rows = controls.select_slider(
            "Rows kept per person, m  (smaller → less noise, more rows dropped)",
            options=model.MAX_ROWS_OPTIONS,
            value=10,
            key="clamp_m",
        )
        epsilon = controls.epsilon_slider(key="clamp_rows_eps", label="ε for the visit count")
    bounded = model.bounded_count(max_rows, epsilon, controls.seed() + model.SEED_VISITS_SUM)
    contribution, best_m = model.contribution_curve(epsilon)
    with curve_column:
        charts.contribution_curves(model.contribution_domain(), model.NOISE_PART_ROWS).show(
            title=[
                f"Bounding contributions at ε = {text.number(epsilon)}",
                f"◆ the lowest total: m = {best_m}",
            ],
            alt=(
                f"Three curves against m from 1 to 100 on a log axis: the rows dropped fall as m "
                f"grows, the noise SD √2·m/ε rises, and their total is lowest at m = {best_m}. "
                f"Your m = {max_rows} gives ±\u00a0{text.number(bounded.rmse)}."
            ),
            curves=contribution,
            best=model.best_m_point(contribution, best_m),
            truth=model.current_rule(max_rows, prefix="your m"),
        )
    cols = st.columns(4)
    cols[0].metric("True number of visits", f"{bounded.true_rows:,}")
    cols[1].metric(f"Rows kept (at most {max_rows} each)", f"{bounded.kept_rows:,}")
    cols[2].metric("Noise SD √2·m/ε", f"±\u00a0{text.number(bounded.typical_error)}")
    cols[3].metric("One noisy count", text.number(bounded.noisy_count))
    st.caption(model.dropped_words(bounded.people_over, max_rows))
    snippets.CONTRIBUTIONS.show(seed=model.VISITS_SEED, epsilon=epsilon)

    charts.protection().show(
        title="The ε one person really gets",
        alt=(
            f"Log-log lines against the number of rows a person has, from 1 to "
            f"{model.VISITS_CAP}: with event-level protection at "
            f"ε = {text.number(epsilon)} a "
            f"person with r rows gets r·ε ({text.number(epsilon * visits['largest'])} for the "
            f"person with {visits['largest']:,} rows); with at most m rows per person every "
            f"person gets ε = {text.number(epsilon)}."
        ),
        levels=model.protection_frame(epsilon),
    )
    st.markdown(
        "**Event-level** DP protects each row at ε, so a person with r rows is protected only at "
        "r·ε (group privacy). **User-level** DP bounds what one person can add (here m rows) and "
        "scales the noise to it, so every person gets ε, at the price of dropped rows."
    )


rows_per_person()


quiz.check_yourself(
    "clamping",
    quiz.bank(__file__, "clamping"),
)
