"""The ε guessing game: each round the projector shows one noisy count, computed with or
without a volunteer's record (a hidden coin); every phone guesses which. After each reveal,
the room's true- and false-positive rates are drawn inside the ε privacy region, with the ε
the room has proven (Clopper–Pearson). At large ε the room wins; at small ε it does no
better than a coin.

Three modes, chosen by the URL, as the class survey and quiz:
- no parameters: the lecturer sets a game up;
- ?manage=CODE (&key=ADMIN_KEY from the private link): the projector;
- ?join=CODE: a student's phone.
"""

from __future__ import annotations

import streamlit as st

import survey
from lessons.catalogue import by_folder
from lessons.class_game import charts, model, snippets
from ui import activity, classroom, controls, tables, text

ACTIVITY = model.ACTIVITY
SUBMIT_MESSAGES = {
    survey.SubmitResult.DUPLICATE: "This browser has already guessed in this round.",
    survey.SubmitResult.CLOSED: "Too late: the lecturer has revealed this round.",
    survey.SubmitResult.UNKNOWN: "This round is no longer on show.",
}


def show_fault(reason: str, *, student: bool) -> None:
    activity.show_fault(reason, student=student, activity=ACTIVITY.name)


def counts_line(game: survey.Game) -> str:
    return (
        f"The true count: **{game.base_count}** without the volunteer's record, "
        f"**{game.base_count + 1}** with it; plus discrete Laplace noise at "
        f"ε = {text.number(game.epsilon)}."
    )


# --- Student -----------------------------------------------------------------------------------
def send(games: survey.GameStore, game_id: int, position: int, token: str, guess: bool) -> None:
    """Button callback: store this browser's guess for the round on show."""
    result = ACTIVITY.tap(
        games.store,
        token,
        model.TAP_LIMIT,
        model.TAPS_PER_MINUTE,
        lambda: games.submit(game_id, position, token, guess),
    )
    if result is None:
        return
    model.outcome(game_id, position).set(result.value)
    if result is survey.SubmitResult.ACCEPTED:
        model.guessed(game_id, position).set(guess)


@st.fragment(run_every=model.POLL_S)
@ACTIVITY.faults_shown(student=True)
def follow(games: survey.GameStore, game_id: int, token: str) -> None:
    """The round on show, the release and the two buttons; every POLL_S seconds."""
    game = games.get_game(game_id)
    if game is None:
        st.error("This game no longer exists.")
        return
    if not game.started:
        st.info("Waiting for your lecturer to start the first round.", icon=":material/schedule:")
        return
    if game.finished:
        rounds, mine = games.rounds(game.id), games.own_guesses(game.id, token)
        right, guessed = model.own_record(rounds, mine, game.rounds)
        best = text.percent(model.best_rates(game.epsilon)[0])
        st.success(
            f"The game is over. You guessed {right:,} of {guessed:,} rounds right; a coin "
            f"gets half, the best possible guesser {best}."
            if guessed
            else f"The game is over. You did not guess in any round; a coin would have got "
            f"half, the best possible guesser {best}."
        )
        return
    found = games.round(game.id, game.position)
    if found is None:
        st.info("The next round is on its way.")
        return
    st.caption(f"Round {game.position + 1} of {game.rounds} · ε = {text.number(game.epsilon)}")
    st.metric("This round's release", f"{found.release:,}")
    st.caption(
        f"Without the volunteer the true count is {game.base_count}; with, {game.base_count + 1}."
    )
    guess = model.guessed(game.id, game.position).read_through(
        lambda: games.own_guess(game.id, game.position, token)
    )
    if guess is None and not game.revealed:
        if games.read_only:
            show_fault(survey.database.READ_ONLY, student=True)
        else:
            left, right = st.columns(2)
            for column, value, label in (
                (left, True, "With the record"),
                (right, False, "Without it"),
            ):
                column.button(
                    label,
                    key=f"game_guess_{game.position}_{int(value)}",
                    width="stretch",  # the same style for both: no answer is suggested
                    on_click=send,
                    args=(games, game.id, game.position, token, value),
                )
        ACTIVITY.tap_feedback(model.outcome(game.id, game.position).get(), SUBMIT_MESSAGES)
    elif guess is None:
        st.warning("This round is revealed: you did not guess.")
    else:
        st.success(f"Your guess is in: **{model.side(guess)}** the record.")
    if game.revealed:
        truth = model.side(found.with_record)
        mark = (
            ""
            if guess is None
            else (" You were right." if guess == found.with_record else " You were wrong.")
        )
        st.info(f"It was **{truth}** the volunteer's record.{mark}")


def nickname_box(games: survey.GameStore, game: survey.Game, token: str) -> None:
    """An optional nickname (ui/activity.py): shown only if the lecturer projects the scores."""
    if games.read_only:
        return
    activity.nickname_box(
        ACTIVITY,
        games,
        game.id,
        token,
        expanded=False,
        scored="how many rounds you guessed right",
    )


def student_view(games: survey.GameStore, raw_code: str) -> None:
    phone = activity.joined(ACTIVITY, games, raw_code)
    if phone is None:
        return
    found, token = phone
    follow(games, found.id, token)
    nickname_box(games, found, token)
    st.caption(
        "No names are asked: the lecturer sees how many guessed each way, and a nickname "
        "only if you give one and the scores are shown."
    )


# --- Lecturer: set up ------------------------------------------------------------------------
def create_view(games: survey.GameStore) -> None:
    controls.lesson_header(
        "The ε guessing game",
        "Your class audits ε. Each round the projector shows one noisy count of a made-up "
        "dataset, computed with or without a volunteer's record: a hidden coin decides. "
        "Every phone guesses which. After each reveal, the room's hit rates are drawn "
        "inside the privacy region of the ε you chose, with the ε the room has proven. At "
        "a large ε the room wins; at a small one it does no better than a coin.",
    )
    if games.read_only:
        show_fault(survey.database.READ_ONLY, student=False)
    title = st.text_input(
        "Title",
        value="The ε guessing game",
        max_chars=survey.game.MAX_TITLE_CHARS,
        key="game_title",
    )
    epsilon = st.segmented_control(
        "ε of each release  (← more private · easier to guess →)",
        model.EPSILONS,
        default=5.0,
        format_func=text.number,
        key="game_eps",
    )
    rounds = st.segmented_control(
        "Rounds", model.ROUNDS, default=model.DEFAULT_ROUNDS, key="game_rounds"
    )
    # none chosen (a second tap on the chosen one), or a forged value: the defaults
    epsilon = epsilon if epsilon in model.EPSILONS else 5.0
    rounds = rounds if rounds in model.ROUNDS else model.DEFAULT_ROUNDS
    best = model.best_rates(float(epsilon))[0]
    most = model.provable(*model.even_split(rounds), looks=rounds)
    can_prove = (
        f"a room that is always right proves ε ≥ {text.number(most, 3)} at most"
        if most > 0
        else "even a room that is always right can prove nothing"
    )
    st.caption(
        f"At ε = {text.number(epsilon)} the best possible guesser is right "
        f"{text.percent(best)} of the time (a coin: 50%). In {rounds} rounds (about "
        f"{rounds // 2} each way), {can_prove}, with 95% confidence over the whole game "
        "(the bound is recomputed after every round): more rounds, a stronger proof."
    )
    if st.button(
        "Create game",
        key="game_create",
        type="primary",
        icon=":material/casino:",
        disabled=games.read_only,
    ):
        limits = games.store
        refused = activity.create_refused(limits, lambda: ACTIVITY.running_lineage(games))
        if refused is not None:
            st.warning(activity.limit_message("create", refused, activity=ACTIVITY.name))
            return
        try:
            made = games.create_game(
                title or "The ε guessing game",
                float(epsilon),
                int(rounds),
                lineage=activity.creation_lineage(),
            )
        except (TypeError, ValueError) as error:
            st.warning(f"The game cannot be created: {text.plain(error)}.")
            return
        activity.count_create(limits)
        activity.created(ACTIVITY, made.game.code, made.admin_key)


# --- Lecturer: the projector ------------------------------------------------------------------
@st.fragment(run_every=model.POLL_S)
@ACTIVITY.faults_shown(student=False)
def projector(games: survey.GameStore, game_id: int, admin_key: str) -> None:
    fault = activity.recent_fault(model.LECTURER_FAULT)
    if fault is not None:
        show_fault(fault, student=False)
    game = games.get_game(game_id)
    if game is None:
        st.error("This game no longer exists.")
        return
    disabled = games.read_only
    status, *buttons = st.columns([5, 2, 2], vertical_alignment="center")
    if not game.started:
        status.markdown(
            f"**{game.rounds} rounds at ε = {text.number(game.epsilon)}.** Students join now, "
            "then press Start."
        )
        buttons[0].button(
            "Start",
            key="game_start",
            type="primary",
            shortcut="Right",
            disabled=disabled,
            on_click=activity.lecturer_press,
            args=(model.LECTURER_FAULT, games.next_round, game.id, admin_key),
            kwargs={"since": game.position},
        )
        st.markdown(counts_line(game))
        return
    rounds = games.rounds(game.id)
    tallies = games.tallies(game.id)
    rates = model.room_rates(game, rounds, tallies)
    if game.finished:
        status.markdown(f"**The game is over.** {game.rounds} rounds.")
    else:
        tally = tallies.get(game.position, survey.Tally(0, 0))
        status.markdown(
            f"Round {game.position + 1} of {game.rounds} · **{tally.n:,} "
            f"{'guess' if tally.n == 1 else 'guesses'}**"
        )
        if not game.revealed:
            buttons[0].button(
                "Reveal",
                key="game_reveal",
                type="primary",
                shortcut="V",
                disabled=disabled,
                on_click=activity.lecturer_press,
                args=(model.LECTURER_FAULT, games.reveal, game.id, admin_key),
                kwargs={"since": game.position},
            )
        last = game.position + 1 == game.rounds
        buttons[1].button(
            "Summary" if last else "Next round",
            key="game_next",
            shortcut="Right",
            disabled=disabled,
            on_click=activity.lecturer_press,
            args=(model.LECTURER_FAULT, games.next_round, game.id, admin_key),
            kwargs={"since": game.position},
        )
    play, chart = st.columns([2, 3], gap="medium")
    with play:
        if not game.finished:
            found = games.round(game.id, game.position)
            if found is not None:
                st.metric("This round's release", f"{found.release:,}")
                st.markdown(counts_line(game))
                if game.revealed:
                    tally = tallies.get(game.position, survey.Tally(0, 0))
                    guess = model.room_guess(tally)
                    room = (
                        "nobody guessed"
                        if guess is None
                        else f"the room said **{model.side(guess)}** "
                        f"({tally.with_record:,} with, {tally.without:,} without)"
                    )
                    st.success(f"It was **{model.side(found.with_record)}** the record: {room}.")
        st.markdown(model.verdict(rates, game.epsilon))
        if game.finished:
            scores_table(games, game)
    with chart:
        proven = rates.proven()
        charts.region(classroom.presenting()).show(
            alt=model.describe_chart(rates, game.epsilon),
            title=charts.title(model.headline(rates, game.epsilon)),
            region=model.region_frame(game.epsilon),
            proven=model.proven_frame(proven),
            points=model.points_frame(rates, game.epsilon),
        )
    if game.finished:
        snippets.PROOF.show(
            epsilon=game.epsilon,
            tp=rates.true_positives,
            positives=rates.positives,
            fp=rates.false_positives,
            negatives=rates.negatives,
            rounds=game.rounds,
        )


def scores_table(games: survey.GameStore, game: survey.Game) -> None:
    """The nicknamed students' scores, hidden until the lecturer shows them."""
    scores = games.scores(game.id)
    show = st.toggle("Show the scores", key=f"game_show_scores_{game.id}", disabled=not scores)
    if not scores:
        st.caption("No student gave a nickname, so there are no scores to show.")
    elif show:
        tables.show(model.score_table(scores), key="game-scores")
    else:
        st.caption(
            f"{len(scores):,} gave a nickname; the best {min(len(scores), model.SCORES_SHOWN)} "
            "appear here only when you show them."
        )


def lecturer_view(games: survey.GameStore, raw_code: str) -> None:
    gate = activity.lecturer_gate(ACTIVITY, games, games.store, raw_code)
    if gate is None:
        return
    found, admin_key = gate
    st.markdown(f"#### {text.plain(found.title)}")
    if games.read_only:
        show_fault(survey.database.READ_ONLY, student=False)
    address, main_column = activity.projector_row(ACTIVITY, found.code, model.join_url)
    with main_column:
        projector(games, found.id, admin_key)
    st.caption(
        "Keys: → next round, V reveal. The room's guess in a round is its majority (a tie "
        "says without): one guess a round, because every phone sees the same release."
    )
    activity.lecturer_links(ACTIVITY, found.code, admin_key, address)


activity.route(
    ACTIVITY,
    activity.opener("game"),
    create=create_view,
    projector=lecturer_view,
    phone=student_view,
)

if "join" not in st.query_params:
    heist = by_folder("class_heist")
    controls.page_link(heist.path, label="The class heist", icon=heist.icon)
