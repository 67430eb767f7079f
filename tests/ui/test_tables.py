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
