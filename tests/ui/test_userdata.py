"""Your own data: every bad upload gets a clear UploadError, file content is never rendered
as markdown/HTML, uploads stay in one session and never touch disk.

The Streamlit tests run tests/apps/userdata_demo.py (the picker on a small page) and upload
with AppTest's own file-uploader driver (`at.file_uploader[0].upload`, Streamlit 1.67).
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from data import upload as reader
from data.upload import (
    UploadError,
    categorical_columns,
    missing_values,
    read_upload,
    yes_no_conditions,
)
from ui import classroom, pace, text, userdata

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "tests" / "apps" / "userdata_demo.py"
MB = 1024 * 1024
LIMIT = 25 * MB
SCRIPT = "<script>alert(1)</script>"
IMAGE = "![x](http://example.com/a.png)"
GOOD = b"Job,Town,Age\nSales,Leeds,30\nClerk,York,41\nSales,,52\n"


def read(raw: bytes, name: str = "data.csv", max_bytes: int = LIMIT) -> pd.DataFrame:
    return read_upload(raw, name, max_bytes=max_bytes)


# --- read_upload: what is accepted ---------------------------------------------------------


def test_good_csv_keeps_values_and_missing_as_nan():
    frame = read(GOOD)
    assert list(frame.columns) == ["Job", "Town", "Age"]
    assert frame["Age"].tolist() == [30, 41, 52]
    assert str(frame["Job"].dtype) == "category"
    assert frame["Town"].isna().tolist() == [False, False, True]
    assert missing_values(frame) == {"Town": 1}


def test_values_keep_their_spaces_and_case():
    frame = read(b"Job,n\n Sales,1\nsales,2\n")
    assert frame["Job"].astype(object).tolist() == [" Sales", "sales"]


def test_missing_markers_become_nan_and_are_counted():
    frame = read(b"Job,n\nSales,1\n?,2\nNA,3\n,4\n")
    assert missing_values(frame) == {"Job": 3}


def test_semicolons_and_byte_order_mark_are_understood():
    frame = read("\ufeffJob;Town\nSales;Leeds\nClerk;York\n".encode())
    assert list(frame.columns) == ["Job", "Town"]


def test_windows_1252_text_is_read():
    frame = read("Town,n\nMálaga,1\nBonn,2\n".encode("cp1252"))
    assert frame["Town"].astype(object).tolist() == ["Málaga", "Bonn"]


# --- read_upload: bounded ------------------------------------------------


def test_too_many_columns_are_refused_before_any_row_is_read():
    header = ",".join(f"c{i}" for i in range(reader.MAX_COLUMNS + 1)).encode()
    with pytest.raises(UploadError, match="201 columns; the lessons read at most 200"):
        read(header + b"\n" + b",".join([b"v"] * (reader.MAX_COLUMNS + 1)) + b"\n")
    ok = ",".join(f"c{i}" for i in range(reader.MAX_COLUMNS)).encode()
    frame = read(ok + b"\n" + b",".join([b"v"] * reader.MAX_COLUMNS) + b"\n")
    assert frame.shape == (1, reader.MAX_COLUMNS)


def test_too_many_rows_or_values_are_refused(monkeypatch):
    monkeypatch.setattr(reader, "MAX_ROWS", 100)
    with pytest.raises(UploadError, match="more than 100 rows"):
        read(b"Job,n\n" + b"Sales,1\n" * 101)
    assert len(read(b"Job,n\n" + b"Sales,1\n" * 100)) == 100
    monkeypatch.setattr(reader, "MAX_CELLS", 30)
    with pytest.raises(UploadError, match="more than 15 rows of 2 fields"):
        read(b"Job,n\n" + b"Sales,1\n" * 16)


def test_a_column_with_very_many_numbers_keeps_them(monkeypatch):
    monkeypatch.setattr(reader, "MAX_DISTINCT", 10)
    values = [str(i * 1.5) for i in range(40)] + ["NA", "7"]
    data = "Job,Pay\n" + "".join(
        f"{'Sales' if i % 2 else 'Cook'},{v}\n" for i, v in enumerate(values)
    )
    frame = read(data.encode())
    expected = [float(v) if v != "NA" else np.nan for v in values]
    np.testing.assert_array_equal(frame["Pay"].to_numpy(), expected)
    assert frame["Job"].dtype == "category"


def test_a_column_with_very_many_texts_is_not_kept_and_says_why(monkeypatch):
    monkeypatch.setattr(reader, "MAX_DISTINCT", 10)
    data = "Job,Note\n" + "".join(f"{'Sales' if i % 2 else 'Cook'},note {i}\n" for i in range(40))
    frame = read(data.encode())
    assert list(frame.columns) == ["Job"]
    assert frame.attrs["dropped_columns"] == ["Note"]
    why = categorical_columns(frame).unavailable["Note"]
    assert why == "more than 10 different texts (IDs or free text): not kept"
    with pytest.raises(UploadError, match="Every column of data.csv has more than 10"):
        read(b"Note\n" + "".join(f"note {i}\n" for i in range(40)).encode())


def test_types_are_those_of_the_whole_table_reader():
    # numbers (int without missing, float with), few texts as sorted categories, many as text
    many = "".join(f"{'x' * (i % 3 + 1)}{i},{i},{'' if i == 5 else i}\n" for i in range(60))
    frame = read(b"Name,Int,Gaps\n" + many.encode())
    assert frame["Int"].dtype == np.int64 and frame["Gaps"].dtype == np.float64
    assert np.isnan(frame["Gaps"][5]) and frame["Gaps"][6] == 6.0
    assert frame["Name"].dtype == object and frame["Name"][0] == "x0"
    few = read(b"Town,n\nYork,1\nBath,2\nYork,3\nAyr,\n")
    assert list(few["Town"].cat.categories) == ["Ayr", "Bath", "York"]
    assert few["Town"].tolist() == ["York", "Bath", "York", "Ayr"]


def test_old_mac_line_breaks_are_read():
    frame = read(b"Job,Town\rSales,Leeds\rClerk,York\r")
    assert frame["Job"].tolist() == ["Sales", "Clerk"]


# --- read_upload: every bad upload, with a clear message -----------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"", "is empty"),
        (b"\n\n  \n", "is empty"),
        (b"Job,Town\n", "header row but no data rows"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary bytes"),
        (bytes(range(256)) * 4, "binary bytes"),
        (b"Job,Town\nSales,\x01\x02\x03\n", "binary bytes"),
        (b"\xff\xfe\x00J\x00o\x00b", "binary bytes"),  # UTF-16: save as UTF-8
        (b'{"Job": "Sales", "Town": "Leeds"}', "looks like JSON"),
        (b"<!DOCTYPE html><html><body>hi</body></html>", "looks like HTML"),
        (
            b"This is a letter to my bank about my account and nothing like a table at all.\n"
            b"It goes on.\n",
            "does not look like a CSV",
        ),
        (b"Age,Hours\n30,40\n41,38\n", "Every column of data.csv holds numbers"),
        (b"Job,Town\nSales,Leeds,extra\n", "line 2 has 3 fields, but the header row has 2"),
        (b"Job,Town\nSales,Leeds\nClerk\n", "line 3 has 1 field, but the header row has 2"),
        (b'Job,Town\n"Sales,Leeds\n', "not a valid CSV file"),
        (b"Job,Job\nSales,Clerk\n", "two columns are called"),
        (b"Job,\nSales,x\n", "column 2 has no name"),
        ("\u00a0".encode(), "is empty"),
        ("\u3000\n".encode(), "is empty"),
        ("\u2028\u00a0\n".encode(), "is empty"),
        (
            "Name,Job\nCafé,Bäcker\nJérôme,Cook\n".encode() + b"Zo\xe9,Cook\n",
            "line 4 holds a byte",
        ),
    ],
    ids=[
        "empty",
        "blank-lines",
        "header-only",
        "png",
        "all-bytes",
        "control-characters",
        "utf16",
        "json",
        "html",
        "prose",
        "only-numbers",
        "row-too-long",
        "row-too-short",
        "open-quote",
        "duplicate-name",
        "nameless-column",
        "only-no-break-space",
        "only-ideographic-space",
        "only-line-separators",
        "utf8-with-one-windows-1252-byte",
    ],
)
def test_bad_upload_raises_upload_error_with_a_clear_message(raw, expected):
    with pytest.raises(UploadError, match=expected.replace("(", r"\(")):
        read(raw)


def test_upload_error_is_a_value_error():
    assert issubclass(UploadError, ValueError)


def test_file_over_the_limit_is_refused_before_parsing():
    with pytest.raises(UploadError, match=r"big\.csv is 2\.0 MB; files can be at most 1\.0 MB"):
        read_upload(b"x" * (2 * MB), "big.csv", max_bytes=MB)


def test_file_at_the_limit_is_accepted():
    raw = GOOD + b"Clerk,York,1\n" * 10
    assert len(read_upload(raw, "ok.csv", max_bytes=len(raw))) == 13


# --- columns and conditions ----------------------------------------------------------------


def test_categorical_columns_give_reasons_for_the_others():
    frame = pd.DataFrame(
        {
            "Job": ["Sales", "Clerk"] * 30,
            "Id": [f"p{i}" for i in range(60)],
            "Age": range(60),
            "Same": ["x"] * 60,
            "Empty": [None] * 60,
        }
    )
    columns = categorical_columns(frame)
    assert columns.usable == ("Job",)
    assert columns.unavailable == {
        "Id": "60 categories; the histogram lessons take at most 50",
        "Age": "numbers, not categories",
        "Same": "only one value: nothing to compare",
        "Empty": "every value is missing",
    }


def test_census_columns_and_the_sales_condition():
    from data.census import load_census

    census = load_census()
    columns = categorical_columns(census)
    assert "Occupation" in columns.usable and "NativeCountry" in columns.usable
    assert columns.unavailable["Zip"].startswith("300 categories")
    sales = next(c for c in yes_no_conditions(census) if c.label == "Occupation = Sales")
    assert sales.count == 3650
    assert int(sales.mask(census).sum()) == 3650  # the 1,843 missing answer no


def test_conditions_list_small_columns_first_and_skip_one_person_values():
    frame = pd.DataFrame(
        {"Id": [f"p{i % 55}" for i in range(110)] + ["lonely"], "Job": ["a", "b"] * 55 + ["a"]}
    )
    labels = [c.label for c in yes_no_conditions(frame)]
    assert labels[:2] == ["Job = a", "Job = b"]
    assert len(labels) == 2 + 50 and "Id = lonely" not in labels


def test_no_text_the_lessons_show_from_a_file_is_longer_than_the_bound():
    """Finding: a column's names, its categories and the file's name were shown whole, each
    up to the CSV reader's 131,072 characters a field: a 10 MB file of 50 categories of
    100,000 characters made one slider press of k-ary RR cost the server 0.55 s of CPU (a
    census press: 15 ms) and send 13 MB. Names are cut to MAX_TEXT_CHARS; a column with a
    longer value is free text (with its reason), and no yes/no question asks about one."""
    bound = reader.MAX_TEXT_CHARS
    long_name, long_value = "Q" * 100_000, "v" * 100_000
    raw = (
        f"{long_name},Job,Notes\n"
        + "".join(f"{job},{job},{note}\n" for job, note in [("a", long_value), ("b", "x")] * 3)
    ).encode()
    frame = read(raw, name="f" * 5_000 + ".csv")
    assert list(frame.columns) == ["Q" * (bound - 1) + "…", "Job", "Notes"]
    columns = categorical_columns(frame)
    assert columns.usable == ("Q" * (bound - 1) + "…", "Job")
    assert columns.unavailable == {
        "Notes": "a value of 100,000 characters: free text, not categories (the lessons show "
        f"categories of at most {bound} characters)"
    }
    labels = [c.label for c in yes_no_conditions(frame)]
    assert "Notes = x" in labels and not [label for label in labels if long_value in label]
    assert max(len(label) for label in labels) <= 2 * bound + 3
    with pytest.raises(UploadError) as refused:
        read(b"x\n", name="g" * 5_000 + ".csv")
    assert len(str(refused.value)) < bound + 200
    assert reader.shorten("abc", 3) == "abc" and reader.shorten("abcd", 3) == "ab…"


def test_names_that_differ_only_past_the_bound_are_two_columns_with_one_name():
    bound = reader.MAX_TEXT_CHARS
    raw = f"{'N' * bound}1,{'N' * bound}2\na,b\nc,d\n".encode()
    with pytest.raises(UploadError, match=f"begin with the same {bound} characters"):
        read(raw)
    with pytest.raises(UploadError, match="two columns are called") as refused:
        read(f"{'N' * 5_000},{'N' * 5_000}\na,b\n".encode())
    assert len(str(refused.value)) < bound + 200


# --- escape_markdown ----------------------------------------------------------------------


def test_escape_markdown_escapes_every_metacharacter():
    escaped = text.plain(f"{SCRIPT} {IMAGE} **b** $x$ :red[hi] a@b.com www.a.com")
    visible = escaped.replace("\u2060", "")
    for raw in ("<script>", "![x]", "](http", "**b**", "$x$", ":red[", "a@b", "www."):
        assert raw not in visible
    # Unescaped, it reads exactly as the input.
    unescaped = visible.replace("\\", "")
    assert unescaped == f"{SCRIPT} {IMAGE} **b** $x$ :red[hi] a@b.com www.a.com"


def test_escape_markdown_makes_one_line():
    assert text.plain("a\n# b") == "a \\# b"


# --- the Streamlit picker (AppTest) --------------------------------------------------------


def demo() -> AppTest:
    return AppTest.from_file(str(DEMO), default_timeout=30).run()


def texts(at: AppTest) -> list[str]:
    return [t.value for t in at.text]


def markdown_values(at: AppTest) -> list[str]:
    """Every element whose body Streamlit renders as markdown."""
    elements = [*at.markdown, *at.caption, *at.error, *at.warning, *at.info, *at.success]
    elements += [*at.title, *at.subheader, *at.header]
    return [str(e.value) for e in elements]


def upload(at: AppTest, name: str, raw: bytes) -> AppTest:
    return at.file_uploader[0].upload(name, raw, "text/csv").run()


def test_census_is_in_use_by_default():
    at = demo()
    assert not at.exception
    assert "Bundled census (32,561 people)" in texts(at)
    assert at.metric[0].value == "32,561" and at.metric[1].value == "3,650"
    assert at.selectbox(key="demo_column").value == "Occupation"
    assert at.selectbox(key="demo_condition").value == "Occupation = Sales"


def test_upload_limit_comes_from_the_config():
    at = demo()
    assert at.file_uploader[0].proto.max_upload_size_mb == 25
    assert "25 MB" in at.file_uploader[0].help


def test_good_upload_is_used_and_back_to_the_census_restores_it():
    at = upload(demo(), "jobs.csv", GOOD)
    assert not at.exception
    assert "Your file: jobs.csv (3 rows)" in texts(at)
    assert at.metric[0].value == "3"
    assert at.selectbox(key="demo_column").options == ["Job", "Town"]  # not Age: numbers
    assert at.selectbox(key="demo_condition").value == "Job = Sales"
    assert at.metric[1].value == "2"
    assert any(text.plain("Town: 1") in v for v in markdown_values(at))  # missing values reported
    assert any("Age \\(numbers, not categories\\)" in v for v in markdown_values(at))
    at.button(key="userdata_back").click().run()
    assert not at.exception
    assert "Bundled census (32,561 people)" in texts(at)
    assert at.selectbox(key="demo_column").value == "Occupation"
    assert at.metric[0].value == "32,561"


class _Clock:
    """`time` for ui/pace.py, whose buckets budget runs and uploads: a clock the test moves."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def monotonic(self) -> float:
        return self.now


def test_a_tab_that_sends_file_after_file_has_them_read_within_its_budget(monkeypatch):
    """Each read of an upload holds the interpreter every session shares (a 25 MB file ~3 s,
    bench/bench_upload.py), and a tab can send a file, or clear it and send it again, as
    often as it sends messages: its callback runs before the page's pace check. A session
    reads two of the largest files at once, then one every 30 s, a small file costing a
    tenth of one; past that a file is not read, the uploader is emptied and says when to
    choose it again. A file that is not read, or a clear with nothing read, collects
    nothing (a full collection walks the whole room's objects)."""
    reads: list[str] = []
    collections: list[int] = []
    real_read = userdata.read_upload

    def counted_read(raw, name, **kwargs):
        reads.append(name)
        return real_read(raw, name, **kwargs)

    monkeypatch.setattr(userdata, "read_upload", counted_read)
    monkeypatch.setattr(userdata, "return_freed_memory", lambda: collections.append(1))
    clock = _Clock()
    monkeypatch.setattr(pace, "time", clock)
    at = demo()
    for number in range(30):  # thirty small files, one after another, no time passing
        at = upload(at, f"jobs{number}.csv", GOOD)
        assert not at.exception
    # 2 × 25 MB at once; a small file costs 2.5 MB: twenty are read, the rest are not
    assert reads == [f"jobs{number}.csv" for number in range(20)]
    # one collection per read, and one when the 21st dropped the 20th; none after
    assert len(collections) == 21
    assert at.file_uploader[0].value is None  # emptied
    assert [e.value for e in at.error] == [
        text.plain(
            "Too many files in a short time: the server reads up to 50 MB of files at once "
            "for each student, then 25 MB every 30 seconds. Choose your file again in 3 s. "
            "Using the bundled census meanwhile."
        )
    ]
    assert "Bundled census (32,561 people)" in texts(at)
    clock.now += 2.9  # not yet: 2.4 of the 2.5 MB a small file costs
    at = upload(at, "early.csv", GOOD)
    assert "early.csv" not in reads and "Choose your file again in 1 s" in at.error[0].value
    clock.now += 0.2
    at = upload(at, "later.csv", GOOD)
    assert reads[-1] == "later.csv" and not at.error
    assert "Your file: later.csv (3 rows)" in texts(at)
    clock.now += 60  # a minute on: the bucket refilled by 50 MB, to its top
    for number in range(20):
        at = upload(at, f"again{number}.csv", GOOD)
    assert reads[-20:] == [f"again{number}.csv" for number in range(20)] and not at.error


def test_a_larger_file_costs_its_size_up_to_the_largest(monkeypatch):
    """With the largest file 1,000 bytes (the bucket 2,000, refilled at 1,000 per 30 s): a
    598-byte file costs 598, a 10-byte one 100 (a tenth of the largest)."""
    clock = _Clock()
    monkeypatch.setattr(pace, "time", clock)
    monkeypatch.setattr(userdata, "max_upload_bytes", lambda: 1_000)
    at = demo()
    wide = b"Job\n" + b"Sales\n" * 99  # 598 bytes
    for number in range(3):
        at = upload(at, f"wide{number}.csv", wide)
        assert not at.error and f"Your file: wide{number}.csv (99 rows)" in texts(at)
    at = upload(at, "one_more.csv", wide)  # 206 of 2,000 left, 392 short: 11.8 s away
    assert "Choose your file again in 12 s" in at.error[0].value
    for number in range(2):  # 100 each
        at = upload(at, f"small{number}.csv", b"Job\nSales\n")
    assert not at.error and "Your file: small1.csv (1 row)" in texts(at)
    at = upload(at, "small2.csv", b"Job\nSales\n")
    assert "Choose your file again in 3 s" in at.error[0].value


@pytest.mark.parametrize(
    ("name", "raw", "expected"),
    [
        ("empty.csv", b"", "empty\\.csv is empty"),
        ("photo.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00", "holds binary bytes"),
        ("numbers.csv", b"a,b\n1,2\n", "Every column of numbers\\.csv holds numbers"),
        ("ragged.csv", b"a,b\nx,y,z\n", "line 2 has 3 fields"),
        ("big.csv", b"Job\n" + b"Sales\n" * (LIMIT // 6 + 10), "files can be at most 25\\.0 MB"),
    ],
    ids=["empty", "binary", "only-numbers", "ragged", "over-the-limit"],
)
def test_bad_upload_shows_a_clear_error_and_the_census_keeps_working(name, raw, expected):
    at = upload(demo(), name, raw)
    assert not at.exception
    assert len(at.error) == 1
    assert expected in at.error[0].value
    assert "Using the bundled census instead" in at.error[0].value
    assert "Bundled census (32,561 people)" in texts(at)
    assert at.metric[0].value == "32,561"


def test_html_and_markdown_in_names_and_cells_are_shown_literally():
    raw = f"{SCRIPT},{IMAGE},n\nSales,{IMAGE},1\nClerk,{SCRIPT},2\nSales,,3\n".encode()
    at = upload(demo(), f"{SCRIPT}.csv", raw)
    assert not at.exception
    assert f"Your file: {SCRIPT}.csv (3 rows)" in texts(at)  # st.text: literal
    assert at.selectbox(key="demo_column").options == [SCRIPT, IMAGE]  # plain-text options
    for value in markdown_values(at):
        assert SCRIPT not in value and IMAGE not in value
        active = re.sub(r"\\.", "", value)  # what markdown still reads as syntax
        assert "<" not in active and "![" not in active and "](" not in active
    # ...and the escaped forms are what the markdown elements carry.
    assert any(text.plain(SCRIPT) in v for v in markdown_values(at))


def test_an_upload_never_reaches_another_session():
    alice, bob = demo(), demo()
    upload(alice, "alice.csv", GOOD)
    bob.run()
    assert "Your file: alice.csv (3 rows)" in texts(alice)
    assert "Bundled census (32,561 people)" in texts(bob)
    assert userdata.STATE_KEY not in bob.session_state
    assert bob.metric[0].value == "32,561"
    # A new session opened after the upload also starts on the census.
    carol = demo()
    assert "Bundled census (32,561 people)" in texts(carol)


def test_active_dataset_is_per_session():
    at = AppTest.from_string(
        "from ui import userdata\n"
        "userdata.dataset_picker()\n"
        "name, frame = userdata.active_dataset()\n"
        "import streamlit as st\n"
        "st.text(f'{name}|{len(frame)}')\n",
        default_timeout=30,
    ).run()
    other = AppTest.from_string(
        "from ui import userdata\n"
        "name, frame = userdata.active_dataset()\n"
        "import streamlit as st\n"
        "st.text(f'{name}|{len(frame)}')\n",
        default_timeout=30,
    )
    at.file_uploader[0].upload("mine.csv", GOOD, "text/csv").run()
    other.run()
    assert "Your file: mine.csv (3 rows)|3" in texts(at)
    assert "Bundled census (32,561 people)|32561" in texts(other)


def _files_touched_since(start: float, roots: list[Path]) -> list[Path]:
    touched = []
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if d not in {".git", ".venv", "node_modules"}]
            for filename in filenames:
                path = Path(dirpath) / filename
                try:
                    stat = path.stat()
                except OSError:
                    continue
                if stat.st_mtime >= start and stat.st_size < 50 * MB:
                    touched.append(path)
    return touched


def test_upload_never_touches_disk():
    marker = f"Marker{time.time_ns()}"
    raw = f"Job,Secret\nSales,{marker}\nClerk,{marker}x\n".encode()
    at = demo()
    start = time.time() - 1
    upload(at, "secret.csv", raw)
    assert "Your file: secret.csv (2 rows)" in texts(at)
    for path in _files_touched_since(start, [ROOT, Path(tempfile.gettempdir())]):
        try:
            content = path.read_bytes()
        except OSError:
            continue
        assert marker.encode() not in content, f"the upload reached {path}"


def test_userdata_uses_no_cross_session_cache_for_uploads():
    source = (ROOT / "ui" / "userdata.py").read_text()
    check = (ROOT / "data" / "upload.py").read_text()
    assert "@st.cache_data" not in source and "cache_data(" not in source + check
    # The one cross-session cache holds the public census analysis only (the dataset-aware
    # cache, computed on the census whatever file is active).
    assert "@st.cache_resource" not in source
    assert source.count("@datasets.cached(") == 1
    assert "@datasets.cached(census_only=True, max_entries=1)\ndef _census_analysis()" in source
    assert "streamlit" not in check  # the checks are plain pandas


def test_the_sidebar_shows_the_dataset_and_its_upload_and_the_classroom_is_atop_the_page():
    """The upload sat at the bottom of the sidebar, below the classroom
    controls; it now sits with the dataset in use, right under the lesson menu.
    The classroom controls left the sidebar for the panel atop the page."""

    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "app.py"), default_timeout=60)
    at.run()
    assert not at.exception
    order = [
        type(node).__name__ + ":" + str(getattr(node, "label", getattr(node, "value", "")))
        for node in at.sidebar
    ]
    dataset = next(i for i, s in enumerate(order) if s == "Subheader:Dataset")
    upload = next(i for i, s in enumerate(order) if s.startswith("FileUploader:"))
    assert dataset < upload, order
    assert not [s for s in order if s.endswith("Random seed") or "Presenter" in s], order
    # the first thing the page shows (before it: the app's style sheet and scripts)
    shown = [node for node in at.main if type(node).__name__ not in ("SpecialBlock", "Html")]
    assert type(shown[0]).__name__ == "Expander", shown[:2]
    assert shown[0].label == classroom.PANEL_LABEL
    assert at.number_input(key=classroom.SEED_KEY) and at.toggle(key=classroom.PRESENT_KEY)


def test_census_pickers_do_not_list_the_census_columns_that_cannot_be_picked() -> None:
    """ "Not available: Name (32,561 categories…)" under every census
    picker was noise; it is shown for an uploaded file only."""
    from apptest_helpers import hosted_lesson, upload_csv

    at = hosted_lesson("choosing/page.py", timeout_s=60)
    assert not [c.value for c in at.caption if c.value.startswith("Not available")]
    rows = "\n".join(f"{i},{'ab'[i % 2]}" for i in range(200))
    upload_csv(at, "mine.csv", f"id,letter\n{rows}\n".encode())
    assert any(c.value.startswith("Not available: id") for c in at.caption), [
        c.value for c in at.caption
    ]
