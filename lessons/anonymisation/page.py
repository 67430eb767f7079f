"""Lesson: why anonymisation fails — linkage, uniqueness and the differencing attack."""

import streamlit as st

import dp
from lessons.anonymisation import charts, model, snippets
from lessons.catalogue import LESSONS
from ui import controls, downloads, notebook, quiz, tables, text, userdata

LESSON = {lesson.folder: lesson for lesson in LESSONS}

controls.lesson_header(
    "Why anonymisation fails",
    "You attack a census release whose names and social security numbers were removed. "
    "First you link it to a public voter roll and read off people's incomes. Then you pick "
    "attributes yourself and watch how many people they single out — and how coarser "
    "attributes hide them. Last, you learn someone's income from two harmless-looking "
    "counts, and see how much Laplace noise it takes to stop that.",
)
userdata.census_only_notice(
    "the attacks need its invented names, birth dates and ZIP codes, which your file lacks."
)

# --- 1. Linkage -----------------------------------------------------------------------------
st.header("1. The linkage attack")
st.markdown(
    "The census office publishes the data *de-identified*: names and SSNs are gone, but "
    "ZIP code, date of birth and sex stay, because researchers want them. A town also "
    "publishes its **voter roll**: name, ZIP code, date of birth and sex. Join the two "
    "tables on those three columns and the names come back."
)
roll = model.voter_roll()
sweeney = model.uniqueness(model.canonical(model.SWEENEY_COLUMNS))
release_column, roll_column = st.columns(2, gap="large")
with release_column:
    st.subheader("The release")
    tables.show(model.release_preview(), key="release", height=240)
    st.caption(f"First rows of {sweeney['people']:,} people; no names, no SSNs.")
with roll_column:
    st.subheader("The voter roll")
    tables.show(model.roll_preview(), key="roll", height=240)
    st.caption(
        f"First rows of {len(roll):,} voters: {model.ROLL_SIZE:,} of them answered the "
        f"census, {model.ROLL_STRANGERS:,} did not."
    )


@st.fragment
def linkage(roll) -> None:
    """Pick a voter, link the voter to the release (a fragment: another voter reruns only
    this)."""
    names = roll["Name"].tolist()
    name = controls.selectbox(
        "Pick a voter (type to search the roll)",
        names,
        index=names.index(model.default_voter()),
        key="anon_voter",
    )
    voter = roll.loc[roll["Name"] == name].iloc[0]
    matches = model.link(name)
    st.markdown(
        f"**{name}** lives in ZIP {voter['Zip']}, was born on {voter['DOB']:%d %B %Y} and is "
        f"{str(voter['Sex']).lower()}. Rows of the release with the same three values:"
    )
    if len(matches) == 1:
        found = matches.iloc[0]
        st.success(model.reidentified_words(name, found))
        if voter["row"] < 0:
            st.warning(
                f"Careful: {name} never answered the census. The row belongs to someone else "
                "who shares the ZIP code, birthday and sex — a false link, and the attacker "
                "cannot tell."
            )
    elif len(matches) > 1:
        incomes = matches["Income"].unique()
        every = "Both" if len(matches) == 2 else f"All {len(matches):,}"
        same = (
            f" {every} earn {incomes[0]}, so you learn the income anyway."
            if len(incomes) == 1
            else ""
        )
        st.warning(
            f"Ambiguous: {len(matches):,} rows share these values, so the join cannot say which "
            f"one is {name}.{same}"
        )
    else:
        st.info(
            f"No match: {name} is not in the release (the census did not sample this voter). "
            "The attack fails only because the person is absent."
        )
    if len(matches):
        tables.show(matches, key="matches")


linkage(roll)

linked = int((roll["matches"] == 1).sum())
ambiguous = int((roll["matches"] > 1).sum())
missing = int((roll["matches"] == 0).sum())
count_unique, count_ambiguous, count_missing = st.columns(3)
count_unique.metric("Voters linked to exactly one row", f"{linked:,}")
count_ambiguous.metric("Ambiguous (several rows)", f"{ambiguous:,}")
count_missing.metric("No match", f"{missing:,}")

st.markdown(
    "This is not a quirk of our data. Latanya Sweeney (2000) found that **87% of the US "
    "population** is unique on ZIP code, date of birth and sex, and she re-identified the "
    'governor of Massachusetts in a "de-identified" hospital release this way.'
)
fact_column, ours_column = st.columns(2)
fact_column.metric("Unique on (ZIP, DOB, sex): US population, Sweeney 2000", "87%")
ours_column.metric(
    "Unique on (ZIP, DOB, sex): this dataset", f"{text.percent(sweeney['share_unique'])}"
)
zips = model.zip_sizes()
st.caption(
    f"{sweeney['buckets'][0]:,} of {sweeney['people']:,} people. Our invented ZIP codes hold "
    f"far fewer census people than a real ZIP code — {text.number(zips['mean'], 4)} on average, "
    f"but a median of {zips['median']:,} and anywhere from {zips['min']:,} to {zips['max']:,} "
    "— so the share here is higher than Sweeney's."
)

# --- 2. Uniqueness explorer -----------------------------------------------------------------
st.header("2. Who is unique?")
st.markdown(
    "People who share the same values of the chosen attributes form an *equivalence "
    "class*. If your class has one member, anyone who knows those attributes finds your "
    "row. A release is **k-anonymous** when every class has at least k people:"
)
notebook.latex(r"k = \min_{i} \bigl|\{\, j : \mathrm{QI}(j) = \mathrm{QI}(i) \,\}\bigr|")
st.markdown(
    "Pick the attributes an attacker might know. Then *generalise*: swap date of birth "
    "for birth month, birth year or an age band, or the ZIP code for its first three digits, "
    "and watch uniqueness collapse."
)


@st.fragment
def who_is_unique() -> None:
    """The attacker's quasi-identifiers beside how unique they make people (a fragment:
    choosing them reruns only this section)."""
    chosen = model.canonical(
        controls.multiselect(
            "Quasi-identifiers the attacker knows (fewer and coarser → more private)",
            model.QUASI_IDENTIFIERS,
            default=list(model.SWEENEY_COLUMNS),
            key="anon_qi",
        )
    )
    stats = model.uniqueness(chosen)
    if not chosen:
        st.info("No attributes chosen: everyone looks the same, so nobody is singled out.")
    share_column, classes_column, k_column = st.columns(3)
    share_column.metric("People who are unique", f"{text.percent(stats['share_unique'])}")
    classes_column.metric("Equivalence classes", f"{stats['classes']:,}")
    k_column.metric("k (smallest class)", f"{stats['k']:,}")
    charts.class_sizes(stats["people"]).show(
        classes=model.class_size_frame(list(stats["buckets"]), stats["people"]),
        title="People by the size of their class",
        alt=model.describe_class_sizes(stats["buckets"], stats["people"], chosen),
    )
    st.caption(
        "Bars count people, not classes; the vermillion bar (left) holds the unique ones. "
        + model.describe_class_sizes(stats["buckets"], stats["people"], chosen)
    )
    snippets.UNIQUENESS.show(columns=list(chosen))
    downloads.download_csv(
        model.class_size_download(tuple(stats["buckets"]), stats["people"]),
        filename="anonymisation-class-sizes.csv",
        key="anonymisation_dl_class_sizes",
    )


who_is_unique()

# --- 3. Differencing ------------------------------------------------------------------------
st.header("3. The differencing attack")
st.markdown(
    "Suppose the office refuses to publish rows and only answers counts. Each count "
    "looks harmless. But two counts that differ by one person reveal that person."
)


@st.fragment
def differencing_with_noise(count_all: int, count_without: int, target_is_rich: bool) -> None:
    """The ε slider, two noisy answers, the attacker's chance and its curve (a fragment:
    moving ε reruns only this part)."""
    controls_column, chart_column = st.columns([2, 3], gap="medium")
    with controls_column:
        epsilon = controls.epsilon_slider(key="anon_eps")
        rng_seed = controls.seed()
        noisy_all = dp.laplace_mechanism(
            count_all, 1, epsilon, rng=rng_seed + model.SEED_ANSWER_ALL
        )
        noisy_without = dp.laplace_mechanism(
            count_without, 1, epsilon, rng=rng_seed + model.SEED_ANSWER_WITHOUT
        )
        guess_rich = noisy_all - noisy_without > 0.5
        exact = dp.differencing_success_probability(epsilon)
        successes = dp.differencing_attack_successes(
            count_all,
            count_without,
            epsilon,
            tries=model.ATTACK_TRIES,
            rng=rng_seed + model.SEED_ATTACK,
        )
        simulated = successes / model.ATTACK_TRIES
        noisy_a, noisy_b = st.columns(2)
        noisy_a.metric("Noisy: how many earn >50K?", f"{text.number(noisy_all)}")
        noisy_b.metric("Noisy: how many not named X?", f"{text.number(noisy_without)}")
        guess_column, budget_column = st.columns(2)
        guess_column.metric(
            "Your guess for X",
            ">50K" if guess_rich else "<=50K",
            "right" if guess_rich == target_is_rich else "wrong",
            delta_color="normal" if guess_rich == target_is_rich else "inverse",
        )
        budget_column.metric(
            "Budget the two queries spend (2ε)",
            f"{text.number(dp.sequential_composition([epsilon, epsilon]))}",
        )
        exact_column, simulated_column = st.columns(2)
        exact_column.metric("Attacker right (exact)", f"{text.percent(exact)}")
        simulated_column.metric(
            f"Attacker right ({model.ATTACK_TRIES:,} simulated tries)", f"{text.percent(simulated)}"
        )
    with chart_column:
        charts.success(model.ATTACK_TRIES).show(
            title=model.success_title(epsilon, exact, simulated, tries=model.ATTACK_TRIES),
            coin=model.coin_line(epsilon),
            marker=model.success_marker(epsilon, exact, simulated, tries=model.ATTACK_TRIES),
            alt=(
                "Line chart of the attacker's chance of guessing right against ε from 0.01 to "
                f"10, rising from 50% to "
                f"{text.percent(model.success_curve()['success'].iloc[-1])}. At your "
                f"ε = {text.number(epsilon)} it is {text.percent(exact)} exactly; "
                f"{model.ATTACK_TRIES:,} simulated "
                f"tries gave {text.percent(simulated)}."
            ),
        )
    st.caption(
        f"At ε = {text.number(epsilon)} the attacker is right {text.percent(exact)} of the time "
        "(black circle on "
        f"the dashed line); {model.ATTACK_TRIES:,} simulated attacks were right "
        f"{text.percent(simulated)} "
        f"of the time (orange diamond); its standard error is "
        f"{text.percent(dp.proportion_standard_error(exact, model.ATTACK_TRIES))}. Small ε "
        "pushes the attacker toward a coin toss; large ε lets them win."
    )
    snippets.DIFFERENCING.show(
        count_all=count_all,
        count_without=count_without,
        epsilon=epsilon,
        tries=model.ATTACK_TRIES,
        seed=rng_seed + model.SEED_ATTACK,
    )
    downloads.download_csv(
        model.success_curve(),
        filename="anonymisation-attack-success.csv",
        key="anonymisation_dl_success",
    )


@st.fragment
def differencing() -> None:
    """The target X, the two counts that reveal X, and the same attack with noise (a fragment:
    picking another X reruns only this section)."""
    facts = model.income_facts()
    rich_names = [n for n in facts["names"] if facts["is_rich"][n]]
    target = controls.selectbox(
        "Target person X (type to search)",
        facts["names"],
        index=facts["names"].index(rich_names[0]),
        key="anon_target",
    )
    count_all = facts["count_rich"]
    target_is_rich = facts["is_rich"][target]
    count_without = count_all - int(target_is_rich)
    st.markdown(f"X = **{target}**.")
    all_column, without_column, diff_column = st.columns(3)
    all_column.metric("How many earn >50K?", f"{count_all:,}")
    without_column.metric("How many not named X earn >50K?", f"{count_without:,}")
    diff_column.metric("Difference", f"{count_all - count_without:,}")
    st.error(
        f"The difference is {count_all - count_without}, so {target} earns "
        f"**{'>50K' if target_is_rich else '<=50K'}**. Neither count mentions one person's "
        "income, yet together they reveal it exactly."
    )

    st.subheader("Answer with noise")
    st.markdown(
        "Now the office adds Laplace noise to every answer, with scale b = 1/ε (a count changes "
        "by at most 1 when one person leaves). You subtract the two noisy answers and guess "
        '">50K" when the difference exceeds ½. The difference is the truth plus '
        "L₁ − L₂, two independent Laplace noises, whose distribution you can work out:"
    )
    notebook.latex(
        r"\begin{aligned} F(t) &= P[L_1 - L_2 \le t] \\"
        r" &= 1 - \frac{(2 + t/b)\,e^{-t/b}}{4} \end{aligned}"
    )
    st.markdown("for t ≥ 0, with b = 1/ε; below 0, symmetry gives F(t) = 1 − F(−t).")
    st.markdown("So you guess right, whether X earns >50K or not, with probability")
    notebook.latex(
        r"\begin{aligned} P[\text{right}] &= P\!\left[L_1 - L_2 > -\tfrac12\right] \\"
        r" &= 1 - \frac{(2 + \varepsilon/2)\,e^{-\varepsilon/2}}{4} \end{aligned}"
    )
    st.caption(
        "Here ε only sets the noise's strength (smaller ε, more noise). What it guarantees about "
        "one person, and why two answers use 2ε, come later:"
    )
    for later, why in (
        ("definition", "What ε guarantees"),
        ("composition", "Why two answers cost 2ε"),
    ):
        controls.page_link(LESSON[later].path, label=f"{why}: {LESSON[later].title}")
    differencing_with_noise(count_all, count_without, target_is_rich)


differencing()

quiz.check_yourself(
    "anonymisation",
    quiz.bank(__file__, "anonymisation"),
)
