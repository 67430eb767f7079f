"""What an activity's create page says its precision buys a room (ui/activity.py): the same
rule for the class survey, the quiz's private mode and the progress check-in."""

from __future__ import annotations

import pytest

from ui import activity


def test_rooms_are_30_and_200() -> None:
    assert activity.ROOMS == (30, 200)


@pytest.mark.parametrize(
    ("half_widths", "scales", "said"),
    [
        ((0.26, 0.10), (1.0, 1.0), None),
        ((0.5, 0.2), (1.0, 1.0), "a room of 30"),  # ± 50% spans every share
        ((0.49, 0.2), (1.0, 1.0), None),
        ((0.6, 0.5), (1.0, 1.0), "either room"),
        ((15.0, 55.0), (30, 200), "a room of 30"),  # ± 15 of 30 students
        ((859.0, 2217.0), (30, 200), "either room"),
        ((7.5, 19.0), (30, 200), None),
    ],
)
def test_an_interval_as_wide_as_half_the_scale_says_next_to_nothing(
    half_widths, scales, said
) -> None:
    assert activity.too_wide_in(half_widths, scales) == said


def test_one_half_width_and_one_scale_per_room() -> None:
    with pytest.raises(ValueError, match="one half-width and one scale per room"):
        activity.too_wide_in([0.1], [1.0, 1.0])
    with pytest.raises(ValueError, match="one half-width and one scale per room"):
        activity.too_wide_in([0.1, 0.2], [1.0])


def test_a_share_is_said_with_its_percent_at_most_100() -> None:
    shown, where = activity.share_precision(lambda n: 30 / n)  # ± 1.0 and ± 0.15
    assert shown == ["±\u00a0100%", "±\u00a015%"]
    assert where == "a room of 30"
