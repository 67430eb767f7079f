"""ui.tables: a shown frame's Arrow form, made once per frame object."""

import gc

import pandas as pd
import pyarrow as pa
import pytest

from ui import datasets, tables


def test_arrow_is_the_frames_columns_without_the_index():
    frame = pd.DataFrame({"Name": ["Ann", "Bo"], "Count": [3, 4]}, index=[7, 9])
    table = tables.arrow(frame)
    assert table.column_names == ["Name", "Count"]
    assert table.to_pydict() == {"Name": ["Ann", "Bo"], "Count": [3, 4]}
    assert table.equals(pa.Table.from_pandas(frame, preserve_index=False))


def test_arrow_is_converted_once_per_frame_object_and_forgotten_with_it():
    frame = pd.DataFrame({"x": [1.0, 2.0]})
    first = tables.arrow(frame)
    assert tables.arrow(frame) is first  # the same frame object: no second conversion
    other = pd.DataFrame({"x": [1.0, 2.0]})
    assert tables.arrow(other) is not first  # equal content, another object: its own
    mine = [key for key in datasets._DERIVED if key[0] == id(frame)]
    assert len(mine) == 1
    del frame, first
    gc.collect()
    assert not any(key in datasets._DERIVED for key in mine)


def test_arrow_refuses_what_is_not_a_frame():
    with pytest.raises(TypeError, match="frame"):
        tables.arrow([[1, 2]])


# --- static: a frame as st.table shows it ----------------------------------------------------


def test_static_escapes_every_label_and_text_cell_and_formats_every_number():
    frame = pd.DataFrame(
        {
            "Income": [">50K", "<=50K", None],
            "# people": [14187, -3, 0],
            "share": [0.123456, float("nan"), 1.0],
            "status": ["Married-civ-spouse", "*starred*", "[link](x)"],
            "flag": [True, False, True],
        }
    )
    table = tables.static(frame)
    assert table.schema.types == [pa.string()] * 5  # every cell as text: nothing to reformat
    shown = table.to_pydict()
    assert list(shown) == ["Income", r"\# people", "share", "status", "flag"]
    assert shown["Income"] == [r"\>50K", r"\<\=50K", "–"]
    assert shown[r"\# people"] == ["14,187", "−3", "0"]  # counts: separators, a minus sign
    assert shown["share"] == ["0.1235", "–", "1"]  # the one formatter, never "1.0" or "nan"
    assert shown["status"] == [r"Married\-civ\-spouse", r"\*starred\*", r"\[link\]\(x\)"]
    assert shown["flag"] == ["yes", "no", "yes"]


def test_static_keeps_two_labels_that_escape_alike_as_two_columns():
    frame = pd.DataFrame([[1, 2]], columns=["a", "a"])
    assert tables.static(frame).num_columns == 2


def test_static_is_made_once_per_frame_object():
    frame = pd.DataFrame({"x": ["a"]})
    assert tables.static(frame) is tables.static(frame)
    assert tables.static(pd.DataFrame({"x": ["a"]})) is not tables.static(frame)


def test_static_and_show_refuse_bad_input():
    with pytest.raises(TypeError, match="frame"):
        tables.static({"x": [1]})
    frame = pd.DataFrame({"x": [1]})
    with pytest.raises(ValueError, match="key"):
        tables.show(frame, key="")
    for height in (0, -5, 2.5, "240"):
        with pytest.raises(ValueError, match="height"):
            tables.show(frame, key="rows", height=height)
