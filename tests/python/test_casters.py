"""The pybind11 casters (<ecmeta/pybind11.hpp>) through a test extension whose functions hand back
what they take, and the module `ecmeta` on them: round trips, the fold against the Python fold,
the wire forms against the reference's canonical JSON and msgpack.packb, the classes built, and
every kind of bad input with its message and pointer."""

from __future__ import annotations

import dataclasses
import sys
import types

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ecmeta
import ecmeta_casters as ext
import ecmeta_ref as ref
import strategies as s


# ---- round trips ----------------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(st.data())
def test_every_type_comes_back_equal_from_any_of_its_shapes(data):
    for strategy, call in [(s.load, ext.load), (s.push, ext.push), (s.connector, ext.connector),
                           (s.worker, ext.worker), (s.ranks, ext.ranks)]:
        value = data.draw(strategy)
        back = call(data.draw(s.disguised(value)))
        assert ref.as_dict(back) == ref.as_dict(value)


@given(s.worker)
def test_back_as_ecmeta_dataclasses_with_sets_and_tuples(value):
    back = ext.worker(value)
    assert type(back) is ecmeta.ECMooncakeWorkerMetadata
    assert back == ecmeta.ECMooncakeWorkerMetadata(**{f: getattr(value, f) for f in value.__dataclass_fields__})
    assert type(back.loaded) is set


def test_shapes_are_tuples_ids_sets_lists_lists():
    step = ext.connector(ref.ECMooncakeConnectorMetadata(
        loads=[ref.ECMooncakeLoadSpec("h", 4, [2], "bfloat16", "t")], freed=("x",)))
    assert type(step.loads) is list and type(step.loads[0].shape) is tuple and type(step.freed) is list
    assert ext.ids(frozenset({"b", "a"})) == {"a", "b"}


def test_lists_and_optionals_beside_stl_casters():
    w = ecmeta.ECMooncakeWorkerMetadata(loaded={"a"})
    assert ext.maybe_worker(None) is None
    assert ext.maybe_worker(w) == w
    assert ext.reports((w, w)) == [w, w]
    assert ext.ranks([None, w]) == [None, w]
    load = ecmeta.ECMooncakeLoadSpec("h", 4, (2,), "bfloat16", "t")
    assert ext.loads([load]) == [load]  # ecmeta's list caster, where stl.h would take it otherwise
    assert ext.maybe_connector(None) is None


def test_integers_through_index_and_torch_size_like_shapes():
    class Index:  # NumPy's and torch's scalars have __index__
        def __init__(self, n):
            self.n = n

        def __index__(self):
            return self.n

    class Size(tuple):  # torch.Size is a tuple
        pass

    load = ext.load(types.SimpleNamespace(mm_hash="h", nbytes=Index(8), shape=Size((Index(2), 2)), dtype="bfloat16",
                                          transfer_id="t"))
    assert load.nbytes == 8 and load.shape == (2, 2) and load.local is False


def test_missing_fields_take_their_defaults_and_other_attributes_are_ignored():
    w = ext.worker(types.SimpleNamespace(loaded=["a"], extra=object()))
    assert w == ecmeta.ECMooncakeWorkerMetadata(loaded={"a"})
    assert ext.connector({"freed": None, "unknown": [1, 2]}) == ecmeta.ECMooncakeConnectorMetadata()


def test_conversion_reads_what_cpp_sees():
    step = ref.ECMooncakeConnectorMetadata(loads=[ref.ECMooncakeLoadSpec("h", 4, (2,), "bfloat16", "t")])
    assert ext.canonical_connector(step) == ref.canonical(step)


# ---- the module -------------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(s.ranks)
def test_aggregate_is_the_python_fold(reports):
    folded = ecmeta.aggregate(reports)
    expected = ref.fold(reports)
    assert (folded is None) == (expected is None)
    if expected is not None:
        assert ref.as_dict(folded) == ref.as_dict(expected)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_encode_is_the_canonical_json_and_msgpack_packb(data):
    for strategy in [s.load, s.push, s.connector, s.worker]:
        value = data.draw(strategy)
        assert ecmeta.encode(value) == ref.canonical(value)
        assert ecmeta.encode_msgpack(value) == msgpack.packb(ref.as_dict(value))
        assert ref.as_dict(ecmeta.decode(ref.canonical(value), type(value))) == ref.as_dict(value)
        assert ref.as_dict(ecmeta.decode_msgpack(msgpack.packb(ref.as_dict(value)), type(value).__name__)) == ref.as_dict(value)
    reports = data.draw(s.ranks)
    assert ecmeta.encode(reports) == "[" + ",".join("null" if r is None else ref.canonical(r) for r in reports) + "]"


def test_type_by_class_or_name_and_dicts_need_one():
    w = {"loaded": ["a"]}
    assert ecmeta.encode([w, None], "ranks") == ecmeta.encode([w, None])
    assert ecmeta.encode(w, "ECMooncakeWorkerMetadata") == ecmeta.encode(w, ref.ECMooncakeWorkerMetadata)
    with pytest.raises(TypeError, match="pass type="):
        ecmeta.encode(w)
    with pytest.raises(TypeError, match="no type named 'nope'"):
        ecmeta.encode(w, "nope")


def test_validate_and_json_schema():
    load = ecmeta.ECMooncakeLoadSpec("", 5, (2,), "torch.bfloat16", "t")
    assert ecmeta.validate(load) == [
        ("/mm_hash", 'expected a non-empty item id, got ""'),
        ("/dtype", 'expected a torch dtype name such as "bfloat16", got "torch.bfloat16" (drop the "torch." prefix)'),
    ]
    assert ecmeta.validate([None, ecmeta.ECMooncakeWorkerMetadata(loaded={"a"}, failed_loads={"a"})]) == [
        ("/1/failed_loads/0", 'expected an id not also in loaded, got "a" in both')]
    assert '"title":"ECMooncakeWorkerMetadata"' in ecmeta.json_schema("ECMooncakeWorkerMetadata")


def test_decode_errors_carry_pointer_and_offset():
    with pytest.raises(ecmeta.DecodeError) as e:
        ecmeta.decode('{"loaded": [1]}', ecmeta.ECMooncakeWorkerMetadata)
    assert str(e.value) == "/loaded/0: expected string, got integer 1" and e.value.pointer == "/loaded/0"
    with pytest.raises(ecmeta.DecodeError) as e:
        ecmeta.decode(b'{"loaded": [', ecmeta.ECMooncakeWorkerMetadata)
    assert e.value.offset == 12 and isinstance(e.value, ValueError)


# ---- the classes built ------------------------------------------------------------------------

def test_vllm_classes_when_vllm_is_loaded(vllm):
    back = ext.worker({"loaded": ["a"]})
    assert type(back) is vllm.ECMooncakeWorkerMetadata
    assert type(ecmeta.aggregate([back]).loaded) is set
    assert type(ecmeta.decode('{"loads": [], "pushes": []}', vllm.ECMooncakeConnectorMetadata)) is vllm.ECMooncakeConnectorMetadata


def test_chosen_classes_and_classes_without_a_dict():
    @dataclasses.dataclass(slots=True)
    class Worker:  # no __dict__: built by calling the class
        loaded: set = dataclasses.field(default_factory=set)
        failed_loads: set = dataclasses.field(default_factory=set)
        reclaimed: set = dataclasses.field(default_factory=set)
        pending_saves: bool = False
        failed_saves: set = dataclasses.field(default_factory=set)

    ecmeta.use_classes(ref.ECMooncakeLoadSpec, ref.ECMooncakePushSpec, ref.ECMooncakeConnectorMetadata, Worker)
    back = ext.worker({"loaded": ["a"]})
    assert type(back) is Worker and back.loaded == {"a"}
    assert type(ext.load({"mm_hash": "h", "nbytes": 0, "shape": [], "dtype": "x", "transfer_id": "t"})) is \
        ref.ECMooncakeLoadSpec


def test_a_string_that_is_not_utf8_from_cpp():
    with pytest.raises(ecmeta.EncodeError) as e:
        ext.bad_utf8()
    assert e.value.pointer == "/freed/1"
    assert str(e.value) == "/freed/1: expected a UTF-8 string, got invalid UTF-8"


# ---- bad input ----------------------------------------------------------------------------------

LOAD = {"mm_hash": "h", "nbytes": 4, "shape": [2], "dtype": "bfloat16", "transfer_id": "t"}


def with_load(**changes):
    load = dict(LOAD, **changes)
    return {"loads": [LOAD, LOAD, {k: v for k, v in load.items() if v is not ...}]}


BAD = [
    # (input, error, message)
    (with_load(nbytes=-1), ecmeta.DecodeError, "/loads/2/nbytes: expected non-negative integer, got integer -1"),
    (with_load(nbytes=2**64), ecmeta.DecodeError,
     "/loads/2/nbytes: expected non-negative integer, got integer out of range 18446744073709551616"),
    (with_load(nbytes=True), TypeError, "/loads/2/nbytes: expected non-negative integer, got true"),
    (with_load(nbytes=4.0), TypeError, "/loads/2/nbytes: expected non-negative integer, got float 4.0"),
    (with_load(nbytes="4"), TypeError, "/loads/2/nbytes: expected non-negative integer, got string"),
    (with_load(shape=[2**63]), ecmeta.DecodeError,
     "/loads/2/shape/0: expected non-negative integer that fits int64, got integer 9223372036854775808"),
    (with_load(shape="22"), TypeError, "/loads/2/shape: expected array of non-negative integers, got string"),
    (with_load(mm_hash="\udc80"), ecmeta.DecodeError, "/loads/2/mm_hash: expected a UTF-8 string, got invalid UTF-8"),
    (with_load(mm_hash=b"h"), TypeError, "/loads/2/mm_hash: expected string, got bytes object"),
    (with_load(mm_hash=...), ecmeta.DecodeError,
     "/loads/2/mm_hash: expected string, got nothing (required key missing)"),
    (with_load(local=1), TypeError, "/loads/2/local: expected true or false, got integer 1"),
    ({"loads": 5}, TypeError, "/loads: expected array of objects, got integer 5"),
    ({"loads": [None]}, TypeError, "/loads/0: expected object, got null"),
    ({"freed": [3]}, TypeError, "/freed/0: expected string, got integer 3"),
    ({1: []}, TypeError, "(root): expected a string key"),
]


@pytest.mark.parametrize("value, error, message", BAD)
def test_bad_input_names_its_place(value, error, message):
    with pytest.raises(error) as e:
        ext.connector(value)
    assert str(e.value) == message
    assert e.value.pointer == message.split(":")[0].replace("(root)", "")
    if error is TypeError:
        assert not isinstance(e.value, ValueError)


def test_bad_ids_and_rank_lists():
    with pytest.raises(TypeError) as e:
        ext.ranks([None, {"loaded": ["a", 5]}])
    assert str(e.value) == "/1/loaded/1: expected string, got integer 5"
    with pytest.raises(TypeError, match=r"\(root\): expected array of objects or nulls, got object"):
        ecmeta.aggregate({"loaded": []})


class Raising:
    """A report whose `loaded` raises, as a property of the object's own code may."""

    @property
    def loaded(self):
        raise KeyError("inside")


def test_an_exception_inside_is_raised_again():
    with pytest.raises(KeyError, match="inside"):
        ext.worker(Raising())


def test_nothing_half_converted_escapes():
    before = ecmeta.ECMooncakeWorkerMetadata(loaded={"kept"})
    with pytest.raises(TypeError):
        ext.worker({"loaded": ["a", 5]})
    assert ext.worker(before) == before


def test_stubs_name_every_function():
    import ast
    from pathlib import Path
    stub = Path(ecmeta.__file__).with_name("_ecmeta.pyi").read_text()
    named = {n.name for n in ast.parse(stub).body if isinstance(n, ast.FunctionDef)}
    public = {n for n in dir(sys.modules["ecmeta._ecmeta"]) if not n.startswith("_")}
    assert named == public


# ---- by pybind11's rules: overloads, lists and optionals -------------------------------------

def test_what_is_no_message_falls_through_to_the_next_overload():
    load = ecmeta.ECMooncakeLoadSpec("h", 4, (2,), "bfloat16", "t")
    push = ecmeta.ECMooncakePushSpec("h", 4, (2,), "bfloat16", "tcp://a:1", "t")
    assert ext.which(5) == "int" and ext.which(Scalar()) == "int"
    assert ext.which("x") == "str"
    assert ext.which(None) == "None"
    assert ext.which(ecmeta.ECMooncakeWorkerMetadata()) == "worker"
    assert ext.which({"loaded": ["a"]}) == "worker"  # a dict is message-shaped: the first message overload
    assert ext.which(load) == "load" and ext.which(ref.ECMooncakeLoadSpec("h", 4, (2,), "x", "t")) == "load"
    assert ext.which(push) == "push"
    assert ext.which([load]) == "loads" and ext.which((load,)) == "loads"


class Scalar:  # as NumPy's and torch's integer scalars are
    def __index__(self):
        return 3


@pytest.mark.parametrize("value", [None, True, 7, 2.5, 1j, Scalar(), "s", b"b", bytearray(b"b"), memoryview(b"b"), [], (),
                                   set(), frozenset()])
def test_a_message_caster_declines_what_is_no_message(value):
    with pytest.raises(TypeError, match="incompatible function arguments") as e:
        ext.connector(value)
    assert not hasattr(e.value, "pointer")


@pytest.mark.parametrize("value", [None, 7, "abc", b"ab", {"a": 1}])
def test_list_and_id_set_casters_decline_what_is_no_list(value):
    for call in (ext.loads, ext.ranks, ext.ids):
        with pytest.raises(TypeError, match="incompatible function arguments"):
            call(value)


def test_a_message_shaped_object_with_a_bad_field_still_raises():
    with pytest.raises(ecmeta.DecodeError, match="^/loads/0/nbytes: expected non-negative integer, got integer -1$"):
        ext.connector({"loads": [dict(LOAD, nbytes=-1)]})


def test_the_index_of_a_list_element_stays_in_the_pointer():
    good = dict(LOAD)
    with pytest.raises(ecmeta.DecodeError) as e:
        ext.loads([good, dict(LOAD, nbytes=-1)])
    assert str(e.value) == "/1/nbytes: expected non-negative integer, got integer -1" and e.value.pointer == "/1/nbytes"
    with pytest.raises(TypeError, match=r"^/0/transfer_id: expected string, got integer 3$"):
        ext.pushes([dict(LOAD, consumer_zmq="tcp://a:1", transfer_id=3)])
    with pytest.raises(TypeError, match=r"^/1/loads/0/local: expected true or false, got integer 1$"):
        ext.steps([{}, {"loads": [dict(LOAD, local=1)]}])
    with pytest.raises(TypeError, match=r"^/shape: expected array of non-negative integers, got string$"):
        ext.maybe_load(dict(LOAD, shape="22"))
    assert ext.maybe_load(None) is None
    assert ext.loads((good,)) == [ecmeta.ECMooncakeLoadSpec("h", 4, (2,), "bfloat16", "t")]
    assert ext.steps([]) == []


# ---- validate ---------------------------------------------------------------------------------

def test_validate_returns_what_does_not_convert_as_one_problem():
    assert ecmeta.validate(with_load(nbytes=-1), "ECMooncakeConnectorMetadata") == [
        ("/loads/2/nbytes", "expected non-negative integer, got integer -1")]
    assert ecmeta.validate([None, {"loaded": ["a", 5]}]) == [("/1/loaded/1", "expected string, got integer 5")]
    assert ecmeta.validate(7, "ECMooncakeWorkerMetadata") == [("", "expected object, got integer 7")]


def test_validate_raises_what_the_object_itself_raises():
    with pytest.raises(KeyError, match="inside"):
        ecmeta.validate(Raising(), "ECMooncakeWorkerMetadata")
