"""Lesson: beyond k-anonymity — a k-anonymous census release still reveals a value shared by
a whole class (homogeneity); l-diversity and t-closeness measure that, and fail in their
turn (a skewed class, two releases linked)."""

import streamlit as st

from lessons.beyond_k_anonymity import charts, model, snippets
from lessons.catalogue import LESSONS
from ui import controls, downloads, quiz, tables, text, userdata

controls.lesson_header(
    "Beyond k-anonymity",
    "A release where everyone hides in a crowd of at least k can still give away what the "
    "crowd shares. You generalise the census's age, ZIP code and sex until the release is "
    "k-anonymous, find the classes whose members all share their income or occupation, "
    "measure the release's l-diversity and t-closeness, and see those fail too: a skewed "
    "class, and two k-anonymous releases linked.",
)
userdata.census_only_notice("its quasi-identifiers and sensitive values are the census's.")
LESSON = {lesson.folder: lesson for lesson in LESSONS}

# --- 1. From k-anonymous to leaking ---------------------------------------------------------------
st.header("1. From k-anonymous to leaking")
st.markdown(
    "*Why anonymisation fails* linked people by age, ZIP code and sex: the quasi-identifiers. "
    "The classic repair is **k-anonymity** (Sweeney 2002): blur the quasi-identifiers "
    "(ages into bands, ZIP codes cut to their first digits) and withhold the rows of any "
    "class of fewer than k people that is left, so that whoever you look for is one of at "
    "least k. But the release also holds a **sensitive value**. If everyone in a class has "
    "the same one, finding your neighbour's class is enough to know theirs: a **homogeneity "
    "attack** (Machanavajjhala, Kifer, Gehrke & Venkitasubramaniam 2007)."
)


@st.fragment
def generalise() -> None:
    """The generalisation beside the classes' diversity; its cost beside their closeness."""
    predict = st.container()
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        sensitive = controls.selectbox("Sensitive value", list(model.SENSITIVE), key="bk_sensitive")
        keep_sex = controls.toggle("Keep sex", value=True, key="bk_sex")
        age_band = controls.number_slider(
            "Ages in bands of, in years  (← more detail · more hidden →)",
            model.AGE_BANDS,
            model.DEFAULT_AGE_BAND,
            key="bk_age",
            kind=int,
        )
        zip_digits = controls.number_slider(
            "ZIP code digits kept  (← more hidden · more detail →)",
            tuple(reversed(model.ZIP_DIGITS)),
            model.DEFAULT_ZIP_DIGITS,
            key="bk_zip",
            kind=int,
        )
        min_class = controls.number_slider(
            "Withhold classes smaller than k =",
            model.MIN_CLASS,
            model.DEFAULT_MIN_CLASS,
            key="bk_k",
            kind=int,
        )
    args = (age_band, zip_digits, keep_sex, min_class, sensitive)
    value = model.DISPLAY[sensitive]
    found = model.release(*args)
    revealed = model.homogeneous(*args)
    with chart_column:
        charts.diversity().show(
            title=f"Published people by the {value}s in their class",
            alt=(
                f"Bars of the share of the {int(found.sizes.sum()):,} published people by how "
                f"many distinct {value}s their class holds. "
                f"{text.percent(revealed.share)} are in a class with one value, which the "
                f"release reveals for them; k = {found.k}, l = {found.diversity}."
            ),
            diversity=model.diversity_frame(*args),
        )
    with predict:
        quiz.predict_first(
            "beyond_k_anonymity_predict",
            [
                quiz.Question(
                    f"This release is {found.k}-anonymous: everyone is one of at least "
                    f"{found.k}. How many of its people have their {value} given away by "
                    "their class alone?",
                    model.REVEALED_BANDS,
                    correct=model.revealed_band(revealed.share),
                    explanation=(
                        f"{revealed.people:,} of {int(found.sizes.sum()):,} "
                        f"({text.percent(revealed.share)}) are in a class whose members all "
                        f"share one {value}. k counts people, not values."
                    ),
                )
            ],
        )
    metric_columns = st.columns(4)
    metric_columns[0].metric("k (the smallest class)", f"{found.k:,}")
    metric_columns[1].metric(f"l (distinct {value}s, fewest)", f"{found.diversity:,}")
    metric_columns[2].metric("t (largest distance)", text.number(found.closeness, 3))
    metric_columns[3].metric("People revealed", f"{revealed.people:,}")
    if revealed.people:
        st.markdown(
            f"**The classes that fail l = 2**, largest first ({revealed.classes.size:,} in all): "
            f"knowing someone's class is knowing their {value}."
        )
        tables.written(model.revealed_table(*args))
    else:
        st.markdown(
            f"**No class has a single {value}:** the release is l-diverse with "
            f"l = {found.diversity}."
        )
    st.markdown(model.background_words(*args))
    st.subheader("The cost, and t-closeness")
    lost = model.lost_detail(*args)
    cost_column, closeness_column = st.columns([2, 3], gap="medium")
    with cost_column:
        st.metric("Classes", lost["classes"])
        st.metric("Withheld rows", lost["withheld"])
        st.metric("The median person's class", lost["median class"])
    with closeness_column:
        charts.closeness().show(
            title=f"How far each class's {value} is from the table's",
            alt=(
                f"A histogram of the published people by their class's distance "
                f"(½Σᵥ|p(v | class) − p(v)|) from the whole table's distribution of {value}, "
                f"0 to 1. The "
                f"largest, the release's t, is {text.number(found.closeness, 3)}."
            ),
            closeness=model.closeness_frame(*args),
            truth=model.t_rule(found.closeness),
        )
    st.markdown(model.skew_words(*args))
    snippets.RELEASE.show(
        age_band=age_band,
        zip_digits=zip_digits,
        keep_sex=keep_sex,
        min_class=min_class,
        sensitive=sensitive,
    )
    downloads.download_csv(
        model.revealed_table(*args, rows=10_000),
        filename="revealed-classes.csv",
        key="bk_dl_revealed",
    )


generalise()

# --- 2. l-diversity and t-closeness, defined ------------------------------------------------------
st.header("2. l-diversity and t-closeness")
st.markdown(
    "**l-diversity** asks every class to hold at least l distinct sensitive values, so that "
    "a class gives away none of them for certain (Machanavajjhala et al. 2007). "
    "**t-closeness** asks more: each class's distribution of the value must lie within t of "
    "the whole table's (Li, Li & Venkatasubramanian 2007), here measured as ½Σᵥ|p(v | class) "
    "− p(v)| over the values v (the earth mover's distance when every two values are "
    "equally far apart). "
    "t = 0 is a release where every class looks like the table, and so tells nothing about "
    "its members beyond what the table tells about everyone; t near 1 is a class unlike the "
    "rest. Both are computed above from the same release (dp.l_diversity, dp.t_closeness)."
)

# --- 3. Why these are not enough ---------------------------------------------------------------
st.header("3. Why these are not enough")
linked = model.linked()
composition = LESSON["composition"]
st.markdown(
    "**Skewness and similarity.** l-diversity counts values, not how likely they are: a "
    "class where 2 of 100 people earn more than \\$50K is 2-diverse, yet tells anyone who "
    "finds you in it that you earn less, with 98% certainty (the example above is from the "
    "release you built). Nor does it "
    "know which values are alike: occupations that all pay well reveal pay.\n\n"
    f"**Two releases of the same people.** Release 1 gives exact ages with the first digit "
    f"of the ZIP code and sex; release 2 gives 20-year age bands with three digits and sex. "
    f"Each withholds its classes of fewer than {model.LINK_MIN_CLASS}, so each is "
    f"{min(linked.k_first, linked.k_second)}-anonymous on its own (k = {linked.k_first} and "
    f"{linked.k_second}). Someone in both is in one class of each, so among the people in "
    f"both releases they hide only with those in both their classes. Of the "
    f"{linked.both:,} people in both, **{linked.unique:,} are alone** in that intersection "
    f"and {linked.under:,} are in one smaller than {model.LINK_MIN_CLASS}. k-anonymity has "
    "no rule for what two releases do together.\n\n"
    "**Differential privacy has one.** Two releases at ε₁ and ε₂ are together at most "
    "(ε₁ + ε₂)-DP, whatever they are and whatever the attacker knows: the guarantee degrades "
    "gracefully and is counted, never lost to a clever join."
)
definition = LESSON["definition"]
controls.page_link(
    definition.path, label=f"What DP promises: {definition.title}", icon=definition.icon
)
controls.page_link(
    composition.path, label=f"How DP counts it: {composition.title}", icon=composition.icon
)

quiz.check_yourself("beyond_k_anonymity", quiz.bank(__file__, "beyond_k_anonymity"))
