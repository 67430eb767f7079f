"""The one number formatter and the one escaping function (ui/text.py)."""

import math

import pytest

from ui import text


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (1.0986122886681098, "1.099"),  # ln 3: never 1.0986 on one line and 1.099 on another
        (22030.4, "22,030"),  # never 2.203e+04
        (485165195.4, "485,165,195"),  # e^20, never 4.85e+08
        (0.0001234, "0.0001234"),
        (10.0, "10"),
        (0.1, "0.1"),
        (-0.5, "−0.5"),
        (0.0, "0"),
        (math.inf, "∞"),
        (0.000001, "0.000001"),
        # below 10⁻⁶ in powers of ten: beyond global sensitivity's S at ε = 10 was written
        # with 59 zeros and ran off a phone's chart
        (1.358e-60, "1.358·10⁻⁶⁰"),
        (-2.5e-9, "−2.5·10⁻⁹"),
        (9.99996e-7, "10⁻⁶"),
        # a value short of 1 is never 1: randomized response's p at ε = 10 read "p = 1"
        (0.9999546021312976, "0.99995"),
        (0.99995, "0.99995"),
        (0.9999, "0.9999"),
        (1.00002, "1"),  # above 1, rounded as any other number
        (-0.99999, "−0.99999"),
        (1 - 2e-9, "1 − 2·10⁻⁹"),  # past three more digits: what it falls short by
        (-(1 - 2e-9), "−(1 − 2·10⁻⁹)"),  # not "−1 − 2·10⁻⁹", which is below −1
    ],
)
def test_number_shows_significant_digits_separators_and_no_exponent(value, shown) -> None:
    assert text.number(value) == shown


def test_percent_keeps_small_shares_visible() -> None:
    # "Typical relative error 0.000%" at ε = 10 was a real bug: the share is 0.0097%.
    assert text.percent(math.sqrt(2) / 10 / 14_237) == "0.000993%"
    assert text.percent(0.5) == "50%"
    # ... and a share short of everyone is never "100%"
    assert text.percent(0.99996) == "99.996%"
    assert text.percent(0.999999) == "99.9999%"
    assert text.percent(1 - 7e-15) == "over 99.9999%"  # the chance that one of 32,561 is out
    assert text.percent(1.0) == "100%"
    assert text.percent(0.9994) == "99.9%"  # 3 digits, as before: short of 100% already
    assert text.percent(0.99999999999999994) == "over 99.9999%"


def test_chance_never_calls_a_dp_outcome_certain_or_impossible() -> None:
    # Report noisy max with a lead of 11,019 at ε = 1: the runner-up's chance e^(−11,019)
    # is 0.0 as a double and the winner's 1.0, yet under ε-DP neither is certain.
    winner = 1.0 - math.exp(-11_019)
    assert winner == 1.0 and text.percent(winner) == "100%"
    assert text.chance(winner) == "over 99.9999%"
    assert text.chance(math.exp(-11_019)) == "under 0.0001%"
    assert text.chance(1.0, 2) == "over 99.999%"
    assert text.chance(0.0, 2) == "under 0.001%"
    # otherwise it is `percent`
    for share in (0.5, 0.99996, 1 - 7e-15, 1e-9, 0.0123):
        assert text.chance(share) == text.percent(share)


@pytest.mark.parametrize(
    "hostile",
    [
        "**bold**",
        "[link](http://127.0.0.1:9/phish)",
        "![](http://127.0.0.1:9/px.png)",
        "<script>alert(1)</script>",
        "$x^2$",
        ":red[alert]",
        "www.example.com",
        "someone@example.com",
        "# heading",
    ],
)
def test_plain_leaves_no_markdown_metacharacter_unescaped(hostile) -> None:
    shown = text.plain(hostile)
    for char in "*[]()!<>$#":
        assert char not in shown.replace("\\" + char, ""), (hostile, shown)
    assert "www." not in shown and "@" not in shown.replace("\u2060\\@", "")


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (1e-5, "10⁻⁵"),
        (1e-10, "10⁻¹⁰"),
        (7e-9, "7·10⁻⁹"),
        (0.000163, "1.63·10⁻⁴"),
        (9.996e-5, "10⁻⁴"),  # the mantissa rounds up to 10: one more power instead
        (0.05, "0.05"),  # from 0.01 up, as `number` writes it
        (0.0, "0"),
        (-3e-6, "−3·10⁻⁶"),
    ],
)
def test_power_of_ten_writes_small_probabilities_readably(value, shown) -> None:
    assert text.power_of_ten(value) == shown


def test_a_table_writes_every_number_as_the_page_does():
    """A notebook's table once mixed "28320", "22,773" and "882.6": whole numbers, floats
    and both in one column now read alike; text and truth values stay as they are."""
    import pandas as pd

    frame = pd.DataFrame(
        {
            "people": [28_320, 5],
            "answer": [22_773.0, 882.6],
            "kept": [True, False],
            "who": ["a", "b"],
        }
    )
    lines = text.table_text(frame).splitlines()
    assert lines[1].split() == ["0", "28,320", "22,773", "True", "a"]
    assert lines[2].split() == ["1", "5", "882.6", "False", "b"]


def test_evidence_reads_a_likelihood_ratio_by_the_courses_two_thresholds() -> None:
    """A yes/no report kept 75% of the time carries a likelihood ratio of 0.75/0.25 = 3 (weak
    evidence), kept 95% of the time 19 (a hint): the thresholds are those ratios."""
    assert text.evidence(1.0) == "weak" and text.evidence(0.75 / 0.25) == "weak"
    assert text.evidence(3.0001) == "hint" and text.evidence(0.95 / 0.05) == "hint"
    assert text.evidence(19.01) == "strong" and text.evidence(float("inf")) == "strong"
    for bad in (0.5, float("nan"), -1.0):
        with pytest.raises(ValueError, match="ratio must be a likelihood ratio"):
            text.evidence(bad)
