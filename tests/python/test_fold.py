"""ecmeta.aggregate on Python report objects: their own sets folded with CPython's set API. It
equals the Python fold, returns the first report's class, and never changes or hands back an
input's set."""

from __future__ import annotations

import copy
import dataclasses
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ecmeta
import ecmeta_ref as ref
import strategies as s


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_equals_the_python_fold_and_leaves_its_inputs_alone(data):
    reports = data.draw(s.ranks)
    given_reports = [None if r is None else data.draw(s.disguised(r)) for r in reports]
    before = copy.deepcopy(given_reports)
    folded = ecmeta.aggregate(given_reports)
    expected = ref.fold(reports)
    assert (folded is None) == (expected is None)
    assert given_reports == before
    if expected is None:
        return
    assert ref.as_dict(folded) == ref.as_dict(expected)
    for f in dataclasses.fields(folded):
        value = getattr(folded, f.name)
        if f.name == "pending_saves":
            assert type(value) is bool
            continue
        assert type(value) is set  # a new one: never an input's
        assert all(value is not (r.get(f.name) if isinstance(r, dict) else getattr(r, f.name, None))
                   for r in given_reports if r is not None)


def test_no_report_one_report_and_empty_sets():
    assert ecmeta.aggregate([]) is None and ecmeta.aggregate([None, None]) is None
    one = ecmeta.ECMooncakeWorkerMetadata(loaded={"a"}, failed_saves={"r"})
    folded = ecmeta.aggregate([None, one])
    assert folded == one and folded is not one and folded.loaded is not one.loaded
    assert ecmeta.aggregate([one, ecmeta.ECMooncakeWorkerMetadata()]).loaded == set()
    assert ecmeta.aggregate([one, {"failed_loads": ["x"]}]) == ecmeta.ECMooncakeWorkerMetadata(
        failed_loads={"x"}, failed_saves={"r"})


def test_returns_the_first_reports_class():
    a = ref.ECMooncakeWorkerMetadata(loaded={"a", "b"})
    b = ecmeta.ECMooncakeWorkerMetadata(loaded={"b"}, pending_saves=True)
    assert type(ecmeta.aggregate([None, a, b])) is ref.ECMooncakeWorkerMetadata
    assert type(ecmeta.aggregate((b, a))) is ecmeta.ECMooncakeWorkerMetadata
    # Not a dataclass: the class in use.
    assert type(ecmeta.aggregate([types.SimpleNamespace(loaded=["b"]), a])) is ecmeta.ECMooncakeWorkerMetadata
    assert type(ecmeta.aggregate([{"loaded": ("b",)}, a])) is ecmeta.ECMooncakeWorkerMetadata


def test_does_not_call_the_classes_own_aggregate():
    @dataclasses.dataclass
    class ECMooncakeWorkerMetadata(ref.ECMooncakeWorkerMetadata):
        def aggregate(self, other):
            raise AssertionError("called")

    folded = ecmeta.aggregate([ECMooncakeWorkerMetadata(loaded={"a"}), ECMooncakeWorkerMetadata(loaded={"a"})])
    assert type(folded) is ECMooncakeWorkerMetadata and folded.loaded == {"a"}


def test_a_report_that_empties_the_list_while_read_stops_the_fold_at_its_end():
    reports = []

    class Emptying:  # a report whose field empties the list being folded
        @property
        def loaded(self):
            reports.clear()
            return {"a"}

    reports.extend([Emptying(), ecmeta.ECMooncakeWorkerMetadata(loaded={"a"}), None])
    assert ecmeta.aggregate(reports).loaded == {"a"}  # the second report is gone before it is read


@pytest.mark.parametrize("reports, error, message", [
    ([None, {"pending_saves": 1}], TypeError, "/1/pending_saves: expected true or false, got integer 1"),
    ([{"loaded": "ab"}], TypeError, "/0/loaded: expected array of strings, got string"),
    ({"loaded": []}, TypeError, "(root): expected array of objects or nulls, got object"),
    ([7], TypeError, "/0: expected object or null, got integer 7"),
])
def test_what_is_off_the_fold_raises_as_conversion_does(reports, error, message):
    with pytest.raises(error) as e:
        ecmeta.aggregate(reports)
    assert str(e.value) == message
