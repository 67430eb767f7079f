"""Lesson: Who pays for privacy — the same ε costs small groups' statistics most; what a
private model loses in each group, measured; and which gradients clipping cuts."""

import streamlit as st

from lessons.catalogue import LESSONS
from lessons.who_pays import charts, model, snippets
from ui import controls, layout, notebook, quiz, text, userdata

controls.lesson_header(
    "Who pays for privacy",
    "Differential privacy protects everyone equally, and costs them unequally. The same "
    "noise on every group's count swamps the small groups' numbers while the large ones "
    "barely move. You see which groups' counts become useless at each ε, measure what a "
    "private model loses in each group (and whether small groups lose more here), and see "
    "whose gradients DP-SGD's clipping cuts.",
)
userdata.census_only_notice(
    "its groups are the census's race and sex groups, and its model the census's income classifier."
)
LESSON = {lesson.folder: lesson for lesson in LESSONS}
UNCERTAINTY, CENSUS = LESSON["uncertainty"], LESSON["census_topdown"]
GROUPS = tuple(model.groups_by_size())

# --- 1. Small groups pay more for the same ε ---------------------------------------------------
st.header("1. Small groups pay more for the same ε")
st.markdown(
    "A statistics office publishes how many people in each race and sex group earn more "
    "than \\$50K, each count with Laplace noise of scale 1/ε (adding or removing one person "
    "changes one count by 1). Every count gets the same noise, whose typical error (its "
    "standard deviation) is √2/ε; what it does to a count depends on the count:"
)
notebook.latex(
    r"\frac{\text{typical error}}{\text{count}} = \frac{\sqrt{2}}{\varepsilon \cdot \text{count}}."
)


@st.fragment
def counts() -> None:
    """ε beside each group's relative error."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        epsilon = controls.epsilon_slider(
            key="wp_eps", default=model.DEFAULT_EPSILON, options=model.EPSILONS
        )
        found = model.relative_errors(epsilon)
        layout.metrics(
            "wp_counts",
            [
                ("Typical error", text.number(model.typical_error(epsilon), 3)),
                (
                    "Counts at least half noise",
                    f"{len(model.useless_groups(epsilon))} of {len(found)}",
                ),
            ],
        )
    with chart_column:
        charts.relative_errors().show(
            title="Dots: the 10 groups. Line: √2/(ε·count)",
            alt=model.counts_alt(epsilon),
            curves=model.error_line(epsilon),
            groups=found,
            useless=model.epsilon_note(*charts.note_place(epsilon)),
        )
    st.markdown("**Here** " + model.counts_words(epsilon))
    snippets.COUNTS.show(epsilon=epsilon)


counts()

# --- 2. Models ---------------------------------------------------------------------------------
st.header("2. What a private model loses, group by group")
st.markdown(
    'The same question for a model: the census\'s income classifier of "Private ERM", '
    f"trained by objective perturbation (λ = {text.number(model.LAMBDA)}) at each ε, "
    f"{model.RUNS} seeded models each, and scored on each race group's test rows against "
    "the non-private model on the same rows. Studies of deep networks (Bagdasaryan, "
    "Poursaeed & Shmatikov 2019) found that the smallest groups lose the most, and more as ε "
    "shrinks. Whether that happens is a measurement, not a law: here is this model's."
)
quiz.predict_first(
    "who_pays_predict",
    [
        quiz.Question(
            f"At ε = {text.number(model.PREDICT_EPSILON)}, which race group's accuracy drops "
            "the most?",
            (*GROUPS, model.NONE_CLEARLY),
            correct=(*GROUPS, model.NONE_CLEARLY).index(model.most_lost(model.PREDICT_EPSILON)),
            explanation=model.prediction_words(),
        )
    ],
)


@st.fragment
def models() -> None:
    """ε beside each group's accuracy drop against ε."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        epsilon = controls.number_slider(
            f"Model's privacy loss ε  ({controls.MORE_PRIVATE_LEFT})",
            model.MODEL_EPSILONS,
            model.DEFAULT_MODEL_EPSILON,
            key="wp_model_eps",
        )
        layout.metrics(
            "wp_drops",
            [
                (f"{GROUPS[0]}: points lost", model.points(model.drop(epsilon, GROUPS[0]))),
                (f"{GROUPS[-1]}: points lost", model.points(model.drop(epsilon, GROUPS[-1]))),
            ],
        )
    with chart_column:
        charts.drops(GROUPS).show(
            title="Accuracy lost to privacy, by race",
            alt=model.drops_alt(epsilon),
            curves=model.drop_curves(),
            truth=model.model_rule(epsilon),
        )
    st.markdown("**Here** " + model.models_words(epsilon))


models()

# --- 3. Why, and what can be done --------------------------------------------------------------
st.header("3. Why, and what can be done")
st.markdown(
    "DP-SGD clips every person's gradient to a length C before adding noise. A long gradient "
    "belongs to a person the model gets wrong or is unsure of; where a group has many, "
    "clipping cuts more of what the group tells the model, and the noise, the same for "
    "everyone, drowns the rest. Here are the shares clipping would shorten at the "
    "non-private model's weights:"
)


@st.fragment
def clipping() -> None:
    """C beside each group's share of clipped gradients."""
    control_column, chart_column = st.columns([2, 3], gap="medium")
    with control_column:
        clip = controls.number_slider(
            "Clipping norm C  (smaller → less noise per step, more gradients cut)",
            model.CLIPS,
            model.DEFAULT_CLIP,
            key="wp_clip",
        )
    with chart_column:
        charts.clipped(GROUPS).show(
            title=f"Gradients clipping shortens at C = {text.number(clip)}",
            alt=model.clipping_alt(clip),
            shares=model.clipped_shares(clip),
        )
    st.markdown("**Here** " + model.clipping_words(clip))


clipping()
st.markdown(
    "**What can be done.** Spend more of the budget on the tables small groups' numbers "
    "come from (a statistics office chooses how to split its ε across levels and tables, as "
    "the 2020 Census's TopDown did). Within one table of separate groups, as above, every "
    "count already has the whole ε (each person is in one group: parallel composition), so "
    "a larger ε for a small group is weaker privacy for its own members. Publish "
    "larger groups by design (merge categories until each count is large enough for its "
    "noise); and always report each group's uncertainty with its number, so that a reader "
    "sees which numbers are noise. What no mechanism can do is give a group of six the "
    "accuracy of a group of six thousand at the same ε."
)
controls.page_link(UNCERTAINTY.path, label=f"More: {UNCERTAINTY.title}", icon=UNCERTAINTY.icon)
controls.page_link(CENSUS.path, label=f"More: {CENSUS.title}", icon=CENSUS.icon)

quiz.check_yourself("who_pays", quiz.bank(__file__, "who_pays"))
