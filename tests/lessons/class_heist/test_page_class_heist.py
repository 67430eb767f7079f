"""AppTest for lessons/class_heist/page.py: a lecturer sets up a heist, 30 phones send made-up
answers (one volunteers), the projector picks the volunteer, the exact differencing pair
reveals the target's secret on the projector and the target's phone says "They found you";
then noisy pairs fill the ledger until the budget refuses, the projector's interval is the
one dp computes from the stored ledger, and only the target's phone shows the truth."""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import numpy as np
import pytest
from chart_checks import assert_valid_charts
from streamlit.testing.v1 import AppTest

import dp
import survey
from apptest_helpers import classroom_page, frames_of, rows_table, spec_of, title_of
from apptest_helpers import page_words as words
from lessons.class_heist import charts, model
from ui import text

ROOT = Path(__file__).resolve().parents[3]
PAGE = str(ROOT / "lessons" / "class_heist/page.py")
PHONES = 30


def page(**params: str) -> AppTest:
    return classroom_page(PAGE, **params).run()


def create(**fields) -> AppTest:
    at = page()
    at.text_input(key="heist_a_name").input(fields.get("a_name", "Seat row"))
    at.number_input(key="heist_a_max").set_value(fields.get("a_max", 6))
    at.button(key="heist_create").click().run()
    assert not at.exception, at.exception
    return at


def answer(phone: AppTest, secret: int, a: int, b: int, volunteer: bool = False) -> None:
    phone.selectbox(key="heist_secret").set_value(secret)
    phone.selectbox(key="heist_a").set_value(a)
    phone.selectbox(key="heist_b").set_value(b)
    phone.checkbox(key="heist_volunteer").set_value(volunteer)
    phone.button(key="FormSubmitter:heist_answer-Send my made-up answer").click().run()
    assert not phone.exception, phone.exception


def test_a_heist_with_30_phones(store) -> None:
    lecturer = create()
    code = lecturer.query_params["manage"]
    assert "key" not in lecturer.query_params  # the admin key never sits in the address bar
    rng = np.random.default_rng(3)
    phones, sent = [], []
    for i in range(PHONES):
        phone = page(join=code)
        if i == 0:
            assert "Make everything up" in words(phone)
            assert "No real personal data is asked for" in words(phone)
        secret, a, b = int(rng.integers(1, 11)), int(rng.integers(1, 7)), int(rng.integers(1, 13))
        if i == 4:  # the volunteer: alone in row 6, month 12
            secret, a, b = 9, 6, 12
        elif (a, b) == (6, 12):
            b = 11
        answer(phone, secret, a, b, volunteer=i == 4)
        assert "Your made-up answer is in" in words(phone)
        phones.append(phone)
        sent.append((secret, a, b))
    lecturer.run()
    assert any(m.value == "30" for m in lecturer.metric)
    assert "1 volunteer to be the target" in words(lecturer)
    lecturer.button(key="heist_pick").click().run()
    lecturer.run()  # the fragment asks for the whole page once the target is picked
    assert not lecturer.exception, lecturer.exception
    assert "Seat row 6 and Birthday month (made up) 12" in words(lecturer)
    assert "9" not in [m.value for m in lecturer.metric]  # nothing revealed yet

    lecturer.button(key="heist_exact").click().run()
    metrics = {m.label: m.value for m in lecturer.metric}
    assert metrics["Their difference"] == "9"
    target, bystander = phones[4], phones[5]
    target.run()
    assert "You are the target" in words(target) and "They found you" in words(target)
    bystander.run()
    assert "it is not you" in words(bystander) and "They found you" not in words(bystander)
    assert "shares your two values" not in words(bystander)

    # Through noise: ε = 0.5 a query, a budget of 2 (the defaults): two pairs, then refused
    for _ in range(3):
        lecturer.button(key="heist_noisy_1").click().run()
    assert "budget" in words(lecturer)  # the third pair was refused, and said so
    heists = survey.HeistStore(store)
    heist = heists.find(code)
    ledger = heists.ledger(heist.id)
    noisy = [q for q in ledger if q.epsilon is not None and q.refused is None]
    assert len(noisy) == 2 and heists.spent(heist.id) == 2.0
    width = dp.discrete_laplace_sum_half_width(0.05, 4) / 2
    estimate = sum(q.total for q in noisy) / 2
    running = frames_of(lecturer.get("vega_lite_chart")[0])["running"]
    assert running["estimate"].tolist()[-1] == estimate
    assert running["high"].tolist()[-1] == estimate + width
    found = model.attack(ledger, heists.target_answer(heist))
    assert (found.low, found.high) == (estimate - width, estimate + width)
    stated = model.claim(found, "the secret")
    assert stated[0].upper() + stated[1:] in words(lecturer)
    target.run()
    assert model.claim(found, "your secret", "95%") in words(target)
    assert "Your secret is 9" in words(target)
    bystander.run()
    assert "attacker can say" not in words(bystander) and "95% interval" not in words(bystander)
    assert_valid_charts(lecturer, "class_heist")
    spec = json.dumps(spec_of(lecturer.get("vega_lite_chart")[0]), ensure_ascii=False)
    assert "a secret is 1 to 10" in spec and "estimate of the secret" in spec
    ledger_rows = rows_table(lecturer, "heist-ledger")
    assert ledger_rows["ε spent"].tolist()[-3:] == ["1", "1", "0"]
    assert ledger_rows["answer"].tolist()[0] == "9"


def test_a_small_group_query_is_refused_on_the_projector(store) -> None:
    lecturer = create()
    code = lecturer.query_params["manage"]
    for secret, a, b in [(3, 1, 1), (4, 2, 2), (5, 2, 2), (6, 3, 3), (7, 3, 3), (8, 4, 4)]:
        answer(page(join=code), secret, a, b, volunteer=(a, b) == (1, 1))
    lecturer.run()
    lecturer.button(key="heist_pick").click().run()
    lecturer.run()
    lecturer.radio(key="heist_q_who").set_value("only").run()
    lecturer.selectbox(key="heist_q_a").set_value(1).run()
    lecturer.button(key="heist_q_ask").click().run()
    assert not lecturer.exception
    assert (
        "a group of 1 is smaller than the agency's minimum of 5"
        in rows_table(lecturer, "heist-ledger")["answer"].iloc[-1]
    )


def test_a_phone_without_a_heist_and_a_stranger_on_the_projector(store) -> None:
    lecturer = create()
    code = lecturer.query_params["manage"]
    assert "There is no heist with this code" in words(page(join="ZZZZZZ"))
    stranger = page(manage=code)
    assert "open your private lecturer link" in words(stranger)
    assert "heist_pick" not in [b.key for b in stranger.button]


def test_an_incomplete_answer_is_not_sent(store) -> None:
    lecturer = create()
    phone = page(join=lecturer.query_params["manage"])
    phone.selectbox(key="heist_secret").set_value(5)
    phone.button(key="FormSubmitter:heist_answer-Send my made-up answer").click().run()
    assert not phone.exception
    assert "Pick a secret and both values" in words(phone)
    heists = survey.HeistStore(store)
    assert heists.count_answers(heists.find(lecturer.query_params["manage"]).id) == (0, 0)


def test_the_attributes_names_are_plain_text(store) -> None:
    """A name the lecturer typed is shown as plain text (Markdown escaped) and given to the
    select box as it is: its collapsed label is what a screen reader reads, without the
    escapes a visible label would need."""
    name = "**Row** [x](http://e.io)"
    lecturer = create(a_name=name)
    phone = page(join=lecturer.query_params["manage"])
    boxes = {s.key: s for s in phone.selectbox}
    assert boxes["heist_a"].label == name
    assert boxes["heist_a"].proto.label_visibility.value == 2  # collapsed
    assert text.plain(name) in [m.value for m in phone.markdown]
    heist = survey.HeistStore(store).find(lecturer.query_params["manage"])
    assert model.value_name(heist, 1, None).startswith(text.plain("**Row**"))


def test_a_target_who_shares_its_values_is_told_the_attack_reads_the_groups_total(store) -> None:
    """Two students in row 3, month 3: the pair's difference is their total (7 + 2), the
    projector says so, the target's phone does not say "They found you", and the noisy
    interval is cut to what a total of two secrets can be (2 to 20)."""
    lecturer = create()
    code = lecturer.query_params["manage"]
    target = page(join=code)
    answer(target, 7, 3, 3, volunteer=True)
    sharer = page(join=code)
    answer(sharer, 2, 3, 3)
    for secret in range(1, 9):
        answer(page(join=code), secret, 1 + secret % 5, 4 + secret)
    lecturer.run()
    lecturer.button(key="heist_pick").click().run()
    lecturer.run()
    lecturer.button(key="heist_exact").click().run()
    assert {m.label: m.value for m in lecturer.metric}["Their difference"] == "9"
    assert "2 people share the target's two values" in words(lecturer)
    lecturer.button(key="heist_noisy_1").click().run()
    target.run()
    assert "They found you" not in words(target)
    assert "1 other student shares your two values" in words(target)
    # the classmate in the target's group is told its secret is in what the pair reads
    sharer.run()
    assert "it is not you, but it shares your two values" in words(sharer)
    assert "**7**" not in words(sharer) and "is 7" not in words(sharer)  # not its secret
    heists = survey.HeistStore(store)
    heist = heists.find(code)
    found = model.attack(heists.ledger(heist.id), heists.target_answer(heist), group=2)
    assert found.possible == (2, 20)
    assert model.claim(found, "your group's total", "95%") in words(target)
    said = model.claim(found, "the group's total")  # the projector too: not "the secret"
    assert said[0].upper() + said[1:] in words(lecturer.run())
    # and its chart: the grey band is what two people's total can be, not one secret
    spec = json.dumps(spec_of(lecturer.get("vega_lite_chart")[0]), ensure_ascii=False)
    assert "2 people's total is 2 to 20" in spec and "estimate of their total" in spec
    assert "a secret is 1 to 10" not in spec and '"high": 20' in spec


def test_the_projectors_epsilon_and_budget_are_stored_and_priced(store) -> None:
    """ε 1 a query and no budget, moved on the projector: the store holds them, × 10 costs
    ε = 20 (10 pairs of two queries), and its button said so before it was pressed."""
    lecturer = create()
    code = lecturer.query_params["manage"]
    for secret in range(1, 9):
        answer(page(join=code), secret, secret % 5 + 1, secret, volunteer=secret == 3)
    lecturer.run()
    lecturer.button(key="heist_pick").click().run()
    lecturer.run()
    lecturer.button_group(key="heist_eps").set_value(1.0).run()
    lecturer.selectbox(key="heist_budget").set_value(model.BUDGETS.index(None)).run()
    heists = survey.HeistStore(store)
    heist = heists.find(code)
    assert (heist.epsilon, heist.budget) == (1.0, None)
    assert "costs ε = 20" in lecturer.button(key="heist_noisy_10").help
    lecturer.button(key="heist_noisy_10").click().run()
    assert heists.spent(heist.id) == 20.0
    title = title_of(spec_of(lecturer.get("vega_lite_chart")[0]))
    assert title.startswith("ε spent 20 · after 10 pairs")


def test_a_stale_projector_tab_cannot_raise_the_budget_or_ask_at_an_old_epsilon(store) -> None:
    """Two projector tabs on the attack. Tab A lowers the budget to 1; tab B, still showing
    the budget of 2, moves only ε: its press changes nothing and says so, and B now shows
    A's budget (before, B's press stored its budget of 2 again). Then A raises ε to 5: B's
    "Ask once", whose button said it costs ε = 1 at 0.5 a query, asks nothing and spends
    nothing (before, it spent 10 of a budget it did not show)."""
    heists = survey.HeistStore(store)
    made = heists.create_heist("Heist", "Seat row", 6, "Month", 12, min_group=2)
    heist_id = made.heist.id
    for secret in range(1, 9):
        token = survey.security.new_session_token()
        heists.submit(heist_id, token, secret, secret % 3 + 1, secret, volunteer=secret == 3)
    heists.set_privacy(heist_id, made.admin_key, 0.5, 2.0)
    heists.pick_target(heist_id, made.admin_key)
    tab_a = page(manage=made.heist.code, key=made.admin_key)
    tab_b = page(manage=made.heist.code, key=made.admin_key)
    assert tab_b.selectbox(key="heist_budget").value == model.BUDGETS.index(2.0)
    tab_a.selectbox(key="heist_budget").set_value(model.BUDGETS.index(1.0)).run()
    assert heists.get_heist(heist_id).budget == 1.0
    tab_b.button_group(key="heist_eps").set_value(1.0).run()
    assert not tab_b.exception, tab_b.exception
    heist = heists.get_heist(heist_id)
    assert (heist.epsilon, heist.budget) == (0.5, 1.0)
    assert any(
        "changed the class heist first, so this press changed nothing" in i.value
        for i in tab_b.info
    )
    assert tab_b.selectbox(key="heist_budget").value == model.BUDGETS.index(1.0)
    assert tab_b.button_group(key="heist_eps").value == 0.5
    tab_a.run()
    tab_a.button_group(key="heist_eps").set_value(5.0).run()
    assert heists.get_heist(heist_id).epsilon == 5.0
    assert "costs ε = 1 " in tab_b.button(key="heist_noisy_1").help
    tab_b.button(key="heist_noisy_1").click().run()
    assert not tab_b.exception, tab_b.exception
    assert heists.spent(heist_id) == 0.0 and heists.ledger(heist_id) == []
    assert any(
        "changed the class heist first, so this press changed nothing" in i.value
        for i in tab_b.info
    )
    assert "costs ε = 10 " in tab_b.button(key="heist_noisy_1").help  # B shows ε 5 now
    tab_b.selectbox(key="heist_budget").set_value(model.BUDGETS.index(None)).run()
    tab_b.button(key="heist_noisy_1").click().run()  # from what B shows: asked
    assert heists.spent(heist_id) == 10.0


def test_an_estimate_beyond_the_axis_is_marked_with_its_value() -> None:
    """Finding: the chart's y range is fixed at about ±70, so a first estimate of −105 sat
    on the edge as if it were −60. It is now drawn at the edge as a triangle pointing its
    way, labelled with its value."""
    target = survey.heist.Answer(7, 2, 3, True)

    def pair(total: int, n: int) -> survey.Query:
        return survey.Query(n, "sum", "pair", 2, 3, 0.1, 1, total, 0.2, None)

    frame = model.running([pair(-105, 1), pair(130, 2), pair(10, 3)], target)
    low, high = model.ESTIMATE_DOMAIN
    assert frame["estimate"].tolist() == [-105.0, 12.5, 11.666666666666666]
    assert frame["beyond"].tolist() == ["below", "", ""]
    assert frame["edge"].tolist()[0] == low and frame["label"].tolist()[0] == "−105"  # a minus sign
    over = model.running([pair(200, 1)], target)
    assert over["beyond"].tolist() == ["above"] and over["edge"].tolist() == [high]


def test_what_the_attacker_can_say_in_each_case_of_the_interval() -> None:
    """The noisy interval cut to what the total can be: one that rules values out, one that
    holds them all ("1 to 10" is said to rule none out), and one wholly outside (about 4% of
    first pairs at ε = 0.5): never "between 10 and 10", a false certainty."""
    narrowed = model.Attack(None, pairs=40, estimate=6.0, half_width=2.5, spent=40.0)
    assert narrowed.stated() == (3.5, 8.5)
    said = model.claim(narrowed, "the secret")
    assert said == "the attacker can say: the secret is between 3.5 and 8.5 (95%, exact)"
    whole = model.Attack(None, pairs=1, estimate=5.0, half_width=82.0, spent=1.0)
    assert whole.stated() == (1, 10)
    assert model.claim(whole, "your secret", "95%") == (
        "the attacker can say: your secret is between 1 and 10 (95%); that is every value "
        "your secret can take, so none is ruled out yet"
    )
    high = model.Attack(None, pairs=1, estimate=95.0, half_width=82.0, spent=1.0)
    assert high.missed and high.stated() is None
    said = model.claim(high, "the secret")
    assert "interval, 13 to 177, lies wholly above 10, the most the secret can be" in said
    assert "between" not in said
    pair = model.Attack(None, pairs=2, estimate=-69.0, half_width=57.5, spent=2.0, group=2)
    assert pair.missed and pair.stated() is None
    assert "lies wholly below 2, the least the group's total can be" in model.claim(
        pair, "the group's total"
    )
    assert model.claim(model.Attack(9, 0, None, None, 0.0), "the secret") is None


def test_a_room_too_small_for_the_exact_pair_is_told_before_and_after_the_pick(store) -> None:
    """Four answers and the agency's minimum of 5: everyone but the target is 3 people. The
    projector says so while the room answers, says the pair will be refused (not "two large
    groups, so the agency answers both"), and the agency refuses it."""
    lecturer = create()
    code = lecturer.query_params["manage"]
    for secret, a, b in [(9, 6, 12), (3, 1, 1), (4, 2, 2), (5, 3, 3)]:
        answer(page(join=code), secret, a, b, volunteer=secret == 9)
    lecturer.run()
    assert "The exact attack needs at least 6 answers" in words(lecturer)
    lecturer.button(key="heist_pick").click().run()
    lecturer.run()
    assert "the agency answers both" not in words(lecturer)
    assert (
        "with 4 answers the second group has 3 people, fewer than the agency's minimum of 5, "
        "so it refuses (a room of 6 would pass)"
    ) in words(lecturer)
    lecturer.button(key="heist_exact").click().run()
    assert "a group of 3 is smaller than the agency's minimum of 5" in words(lecturer)
    assert "Their difference" not in [m.label for m in lecturer.metric]


def test_a_room_large_enough_names_both_groups_of_the_exact_pair(store) -> None:
    lecturer = create()
    code = lecturer.query_params["manage"]
    for secret in range(1, 8):
        answer(page(join=code), secret, secret % 6 + 1, secret, volunteer=secret == 2)
    lecturer.run()
    assert "The exact attack needs" not in words(lecturer)
    lecturer.button(key="heist_pick").click().run()
    lecturer.run()
    assert "groups of 7 and 6 people, both at least 5, so the agency answers both" in words(
        lecturer
    )


def test_the_guides_odds_for_one_pair_at_the_defaults() -> None:
    """docs/lecturer.md: at ε = 0.5 and a budget of 2, one pair's interval holds every secret
    from 1 to 10 "about 94%" of the time and lies wholly outside them "about 4%". Exact, by
    convolving the two answers' discrete Laplace noises (parameter ε/Δ = 0.05 each), for
    every secret."""
    made = inspect.signature(survey.HeistStore.create_heist).parameters
    assert (made["epsilon"].default, made["budget"].default) == (0.5, 2.0)  # a new heist's
    step = 0.5 / survey.heist.SENSITIVITY["sum"]
    values = np.arange(-3000, 3001)
    one = dp.discrete_laplace_pmf(values, step)
    noise = np.convolve(one, one)
    support = np.arange(-6000, 6001)
    width = model.half_width(((step, 2),))
    for secret in range(1, 11):
        whole = noise[(support >= 10 - width - secret) & (support <= 1 + width - secret)].sum()
        missed = noise[(support < 1 - width - secret) | (support > 10 + width - secret)].sum()
        assert 0.935 <= whole <= 0.945 and 0.035 <= missed <= 0.045, (secret, whole, missed)


@pytest.mark.parametrize("group", [0, -1, True, 1.5])
def test_the_chart_refuses_a_group_that_is_not_a_count_of_people(group) -> None:
    """Even after the one-person chart is cached (make test found True served from it: True
    and 1 are one key to a cache)."""
    charts.closing_in(False, 1)
    with pytest.raises(ValueError, match="group must be an int of at least 1"):
        charts.closing_in(False, group)


@pytest.mark.parametrize("presenting", [False, True])
def test_the_first_pairs_interval_is_drawn(presenting) -> None:
    """Finding: the interval was drawn only as an area, which needs two points, so after the
    first noisy pair (the one the room reads first) the chart showed a point and no interval,
    and that point sat on the y axis. Each pair's interval is also a bar from low to high,
    and the x axis starts below 1 pair."""
    spec = charts.closing_in(presenting).spec
    layers = spec["layer"]
    single = [
        layer
        for layer in layers
        if (layer["mark"] if isinstance(layer["mark"], str) else layer["mark"]["type"])
        in ("rule", "errorbar", "bar", "tick")
        and layer.get("data", {}).get("name") == "running"
        and layer["encoding"].get("y", {}).get("field") == "low"
        and layer["encoding"].get("y2", {}).get("field") == "high"
    ]
    assert len(single) == 1, [layer["mark"] for layer in layers]
    x_domain = single[0]["encoding"]["x"]["scale"]["domain"]
    assert x_domain[0] < 1 <= x_domain[1]
