"""Text from outside — a URL value, a file's names and cells, a survey question — shown as
plain text on every surface: markdown, captions, toasts, errors and widget labels.

    st.caption("Dataset: " + text.plain(name))
    controls.with_plain_label(controls.selectbox, f"Pick a respondent by {column}", …)

(A widget's label goes to a screen reader as written, escapes included: a label with
outside text is shown by `controls.with_plain_label`, which shows it through `plain` and
gives the widget the text itself, collapsed.)

Streamlit renders markdown (and, in labels, a subset of it) in all of those. `plain` makes
any string render exactly as written: every markdown, HTML and LaTeX metacharacter is
backslash-escaped, so no emphasis, link, image, HTML, LaTeX ($…$) or
:shortcode: survives; an invisible word joiner (U+2060) after every colon, inside "www." and
before "@" stops Streamlit from turning URLs, www. names and e-mail addresses into links
after parsing; line breaks become spaces (a name is one line).
"""

from __future__ import annotations

import html
import math
import re

# Every character with a meaning in Streamlit's markdown, HTML or LaTeX (plain , / ; ? are
# left as they are: they mean nothing there).
_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&=\"'^%@])")
_WORD_JOINER = "\u2060"
_LINKIFIED = re.compile(r"(:)|(?i:(www)(\.))|(@)")


def _unlink(match: re.Match[str]) -> str:
    if match.group(1):
        return ":" + _WORD_JOINER
    if match.group(2):
        return match.group(2) + _WORD_JOINER + "."
    return _WORD_JOINER + "@"


def plain(value: object) -> str:
    """`value` as text that Streamlit's markdown shows literally, on one line."""
    one_line = re.sub(r"[\r\n\u2028\u2029]+", " ", str(value))
    return _SPECIAL.sub(r"\\\1", _LINKIFIED.sub(_unlink, one_line))


# Signs whose spaces never break a line when the sign stands alone between two words: a
# phone at 390 px put "α" at the end of one line and "= 5.4" at the start of the next. On
# the page the browser keeps them together (ui/browser.py's _KEEP_TOGETHER script, for all
# text Streamlit renders as markdown); in a chart title, ui/template.title_lines (with "·").
KEEP_TOGETHER = "=≠≤≥<>≈×±−→"

TINY = 1e-6  # `number` writes smaller magnitudes in powers of ten
SHORT_DIGITS = 3  # more digits `number` and `percent` may take to show a value short of 1


def number(value: float, digits: int = 4) -> str:
    """The one number formatter for the screen: `digits` significant digits, thousands
    separators, never scientific notation, no trailing zeros (1.0986 → "1.099",
    22030.4 → "22,030", 0.0001234 → "0.0001234", 10.0 → "10", -0.5 → "−0.5"); ±∞ as "∞".
    Below TINY, in powers of ten as `power_of_ten` writes them (1.358e-60 → "1.358·10⁻⁶⁰",
    not "0.000…0001358" with 59 zeros, which ran off a phone's chart). A value short of 1
    is never written as 1: 0.9999546 → "0.99995", 1 − 2·10⁻⁹ → "1 − 2·10⁻⁹"."""
    x = float(value)
    if math.isnan(x):
        return "–"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    sign = "−" if x < 0 else ""
    x = abs(x)
    if x == 0:
        return "0"
    if x < TINY:
        return sign + power_of_ten(x, digits)
    magnitude = math.floor(math.log10(x))
    decimals = max(digits - 1 - magnitude, 0)
    shown = f"{x:,.{decimals}f}"
    # a value short of 1 (a probability) is never written as 1: "keep-probability p = 1" at
    # ε = 10 (p = 0.99995) read as no privacy at all; up to SHORT_DIGITS more digits, then
    # what it falls short by
    more = 0
    while x < 1 and float(shown) == 1 and more < SHORT_DIGITS:
        more += 1
        shown = f"{x:,.{decimals + more}f}"
    if x < 1 and float(shown) == 1:
        short = "1 − " + power_of_ten(1 - x, 2)
        return f"−({short})" if sign else short
    if "." in shown:
        shown = shown.rstrip("0").rstrip(".")
    return sign + shown if shown != "0" else "0"


def table_text(frame, max_rows: int = 40) -> str:
    """A table as text, every number in it written by `number`, whole or not ("28320",
    "22,773.0" and "882.6" in one table were three ways of writing numbers): what a
    notebook prints under a lesson's code. Columns of text, dates and truth values as they
    are."""
    numeric = [
        name
        for name, dtype in frame.dtypes.items()
        if dtype.kind in "iuf"  # whole or not; booleans stay True/False
    ]
    return frame.to_string(max_rows=max_rows, formatters={name: number for name in numeric})


def signed(value: float, digits: int = 4) -> str:
    """A change with its sign always shown, by `number`'s rules: +4.3, −1,234, 0. (Give
    st.metric its arrow with `arrow`: Streamlit reads only a hyphen as "down".)"""
    shown = number(value, digits)
    return shown if shown.startswith("−") or shown == "0" else "+" + shown


def arrow(value: float) -> str:
    """st.metric's delta_arrow for a change of `value` written by `signed`."""
    return "down" if float(value) < 0 else "up" if float(value) > 0 else "off"


ROUND_OFF = 1e-12  # a share this close to 0 is floating-point residue: shown as 0%


def percent(share: float, digits: int = 3) -> str:
    """A share as a percentage with `number`'s rules: 0.0001234 → "0.01234%", 0.5 → "50%";
    floating-point residue (|share| < 1e-12, e.g. 5.55e-17) is "0%"; a share short of 1 is
    never "100%" (0.99996 → "99.996%"; 1 − 7·10⁻¹⁵ → "over 99.9999%")."""
    share = float(share)
    shown = number(0.0 if abs(share) < ROUND_OFF else 100.0 * share, digits)
    if share < 1 and shown == "100":  # 99.996% is not everyone
        shown = number(100.0 * share, digits + SHORT_DIGITS)
        if shown == "100":
            return "over 99." + "9" * (digits + SHORT_DIGITS - 2) + "%"  # no "> ": Markdown
    return shown + "%"


WEAK_RATIO, STRONG_RATIO = 3.0, 19.0  # e^1.1 and e^2.9: a report right 75% and 95% of the time


def evidence(ratio: float) -> str:
    """How strong one randomized report is as evidence about its person, from the largest
    likelihood ratio it can carry (e^ε of the report): "weak" up to 3 (a yes/no report kept
    75% of the time), "hint" up to 19 (95%), else "strong" (all but the truth). The words
    are the caller's; the thresholds are these, for every page that says it."""
    if not ratio >= 1.0:
        raise ValueError(f"ratio must be a likelihood ratio of at least 1, got {ratio!r}")
    if ratio <= WEAK_RATIO:
        return "weak"
    return "hint" if ratio <= STRONG_RATIO else "strong"


def chance(share: float, digits: int = 3) -> str:
    """`percent` of a probability known to lie strictly between 0 and 1, as every outcome of
    an ε-DP mechanism at finite ε does while another is possible (and every bound such as
    tanh(ε/2)): never "100%" or "0%", which floating point would print where the exact value
    is only very near (report noisy max with a gap of 11,019 at ε = 1 picks the runner-up
    with chance e^(−11,019): 0.0 as a double). Then "over 99.9999%" / "under 0.0001%"."""
    shown = percent(share, digits)
    last = "9" * (digits + SHORT_DIGITS - 2)
    if shown == "100%":
        return f"over 99.{last}%"
    if shown == "0%":
        return f"under 0.{'0' * (digits + SHORT_DIGITS - 3)}1%"
    return shown


_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def power_of_ten(value: float, digits: int = 3) -> str:
    """A small probability such as δ in powers of ten, with `number`'s rules for the
    mantissa: 1e-05 → "10⁻⁵", 7e-09 → "7·10⁻⁹", 0.000163 → "1.63·10⁻⁴"; 0 → "0". Values of
    0.01 and more are written as `number` writes them (0.05 → "0.05")."""
    x = float(value)
    if math.isnan(x) or math.isinf(x) or x == 0 or abs(x) >= 0.01:
        return number(x, digits)
    exponent = math.floor(math.log10(abs(x)))
    mantissa = float(f"{x / 10**exponent:.{digits - 1}f}")
    if abs(mantissa) >= 10:  # 9.996e-5 rounds up to 10·10⁻⁵
        mantissa, exponent = mantissa / 10, exponent + 1
    power = "10" + str(exponent).translate(_SUPERSCRIPT)
    if mantissa == 1:
        return power
    if mantissa == -1:
        return "−" + power
    return number(mantissa, digits) + "·" + power


def breakable_url(url: str) -> str:
    """`url` as HTML text (every character escaped) that a narrow box breaks only after a
    "/" or before the "?" and each "&", never mid-host, mid-port ("…:861 / 1/…") or at a
    hyphen: the pieces between are unbreakable spans, and an invisible <wbr> marks each
    place between them, so copying the text copies the URL exactly. For
    st.markdown(..., unsafe_allow_html=True) (ui/style.css styles the spans)."""
    parts = re.split(r"(?<=/)(?!/)|(?=[?&])", str(url))
    return "<wbr>".join(
        f'<span class="pp-nowrap">{html.escape(part, quote=True)}</span>' for part in parts if part
    )
