"""Which classes values come back as, in the orders a deployment meets vLLM's module (loaded after
a first conversion, removed, reloaded, still importing), and every dataclass checked against the
schema before it is used: a made-up shape that no release has, differing field by field, is
refused with what differs, whether values are read from it or built as it."""

from __future__ import annotations

import dataclasses
import sys
import types
from dataclasses import dataclass, field
from typing import Optional

import pytest

import ecmeta
import ecmeta_casters as ext
import ecmeta_ref as ref
from conftest import VLLM_MODULE

CLASSES = ["ECMooncakeLoadSpec", "ECMooncakePushSpec", "ECMooncakeConnectorMetadata", "ECMooncakeWorkerMetadata"]
REF_SOURCE = __import__("inspect").getsource(ref).split("def fold(")[0]


@pytest.fixture
def vllm_module():
    """An empty module under vLLM's name, as an import makes it; removed after the test."""
    module = types.ModuleType(VLLM_MODULE)
    yield module
    sys.modules.pop(VLLM_MODULE, None)


def fill(module, source=REF_SOURCE):
    """Defines the classes in `module`, as importing or reloading it does: in sys.modules meanwhile."""
    held = sys.modules.get(VLLM_MODULE)
    sys.modules[VLLM_MODULE] = module
    try:
        exec(compile(source, VLLM_MODULE, "exec"), module.__dict__)
    finally:
        if held is None:
            del sys.modules[VLLM_MODULE]
        else:
            sys.modules[VLLM_MODULE] = held
    return module


def worker_back():
    return type(ext.worker({"loaded": ["a"]}))


# ---- the classes follow what is loaded ----------------------------------------------------------

def test_a_fold_before_vllm_is_loaded_and_one_after(vllm_module):
    report = ecmeta.ECMooncakeWorkerMetadata(loaded={"a"})
    assert type(ext.ranks([report])[0]) is ecmeta.ECMooncakeWorkerMetadata
    sys.modules[VLLM_MODULE] = fill(vllm_module)
    assert type(ext.ranks([report])[0]) is vllm_module.ECMooncakeWorkerMetadata
    assert type(ecmeta.aggregate([{"loaded": ["a"]}])) is vllm_module.ECMooncakeWorkerMetadata
    assert type(ecmeta.decode('{"loads":[{"mm_hash":"h","nbytes":0,"shape":[],"dtype":"x","transfer_id":"t"}]}',
                              "ECMooncakeConnectorMetadata").loads[0]) is vllm_module.ECMooncakeLoadSpec


def test_vllm_removed_gives_ecmeta_classes_again(vllm_module):
    sys.modules[VLLM_MODULE] = fill(vllm_module)
    assert worker_back() is vllm_module.ECMooncakeWorkerMetadata
    del sys.modules[VLLM_MODULE]
    assert worker_back() is ecmeta.ECMooncakeWorkerMetadata


def test_a_reloaded_module_gives_its_new_classes(vllm_module):
    sys.modules[VLLM_MODULE] = fill(vllm_module)
    before = worker_back()
    fill(vllm_module)  # what importlib.reload does: the same module object, its classes made again
    after = worker_back()
    assert after is vllm_module.ECMooncakeWorkerMetadata and after is not before


def test_a_module_replaced_in_sys_modules_is_chosen_again(vllm_module):
    sys.modules[VLLM_MODULE] = fill(vllm_module)
    assert worker_back() is vllm_module.ECMooncakeWorkerMetadata
    other = fill(types.ModuleType(VLLM_MODULE))
    sys.modules[VLLM_MODULE] = other
    assert worker_back() is other.ECMooncakeWorkerMetadata


def test_a_module_still_importing_is_skipped_without_an_error(vllm_module):
    sys.modules[VLLM_MODULE] = vllm_module  # as during its import: in sys.modules, no classes yet
    assert worker_back() is ecmeta.ECMooncakeWorkerMetadata
    vllm_module.ECMooncakeLoadSpec = ref.ECMooncakeLoadSpec  # half-way: one class of four
    assert worker_back() is ecmeta.ECMooncakeWorkerMetadata
    fill(vllm_module)
    assert worker_back() is vllm_module.ECMooncakeWorkerMetadata


def test_use_classes_stays_until_changed(vllm_module):
    ecmeta.use_classes(ref.ECMooncakeLoadSpec, ref.ECMooncakePushSpec, ref.ECMooncakeConnectorMetadata,
                       ref.ECMooncakeWorkerMetadata)
    sys.modules[VLLM_MODULE] = fill(vllm_module)
    assert worker_back() is ref.ECMooncakeWorkerMetadata
    ecmeta.use_default_classes()
    assert worker_back() is vllm_module.ECMooncakeWorkerMetadata


# ---- every class checked against the schema -------------------------------------------------------

@dataclass
class Step:  # stands for ECMooncakeConnectorMetadata, as dataclasses named so below
    loads: list = field(default_factory=list)
    pushes: list = field(default_factory=list)
    freed: Optional[list] = None


def shaped(name, fields):
    """A dataclass named `name` with these (name, default or dataclasses.MISSING) fields."""
    return dataclasses.make_dataclass(name, [
        (n, object) if d is dataclasses.MISSING else (n, object, field(default_factory=d) if callable(d) else d)
        for n, d in fields])


M = dataclasses.MISSING
LOAD_FIELDS = [("mm_hash", M), ("nbytes", M), ("shape", M), ("dtype", M), ("transfer_id", M), ("local", False)]
WORKER_FIELDS = [("loaded", set), ("failed_loads", set), ("reclaimed", set), ("pending_saves", False),
                 ("failed_saves", set)]

# A made-up shape of each kind of difference (no release has these), and what the refusal says.
MISMATCHES = [
    ("ECMooncakeWorkerMetadata", WORKER_FIELDS + [("rank", 0)],
     "ECMooncakeWorkerMetadata: the class has rank, which ecmeta's type has not"),
    ("ECMooncakeWorkerMetadata", WORKER_FIELDS[:4],
     "ECMooncakeWorkerMetadata: the class lacks failed_saves, which ecmeta's type has"),
    ("ECMooncakeWorkerMetadata", [("loaded", set), ("failed_loads", set), ("reclaimed", set), ("failed_saves", set),
                                  ("pending_saves", False)],
     "ECMooncakeWorkerMetadata: the fields are in another order: loaded, failed_loads, reclaimed, failed_saves, "
     "pending_saves there, loaded, failed_loads, reclaimed, pending_saves, failed_saves here"),
    ("ECMooncakeWorkerMetadata", WORKER_FIELDS[:3] + [("pending_saves", True), ("failed_saves", set)],
     "ECMooncakeWorkerMetadata: pending_saves defaults to True there and to False here"),
    ("ECMooncakeWorkerMetadata", [("loaded", M)] + WORKER_FIELDS[1:],
     "ECMooncakeWorkerMetadata: loaded is required there and has a default here (set())"),
    ("ECMooncakeLoadSpec", LOAD_FIELDS[:4] + [("transfer_id", ""), ("local", False)],
     "ECMooncakeLoadSpec: transfer_id has a default there and is required here"),
    ("ECMooncakeLoadSpec", [("mm_hash", M), ("tokens", M)] + LOAD_FIELDS[1:4] + [("transfer_id", ""), ("local", False)],
     "ECMooncakeLoadSpec: the class has tokens, which ecmeta's type has not; "
     "transfer_id has a default there and is required here"),
]
IDS = [m[2].split(": ", 1)[1][:40] for m in MISMATCHES]


def an_instance(cls):
    return cls(**{f.name: ({"mm_hash": "h", "nbytes": 0, "shape": (), "dtype": "x", "transfer_id": "t"}.get(f.name, 1))
                  for f in dataclasses.fields(cls) if f.default is M and f.default_factory is M})


@pytest.mark.parametrize("name, fields, message", MISMATCHES, ids=IDS)
def test_reading_an_instance_of_a_mismatching_class_is_refused(name, fields, message):
    cls = shaped(name, fields)
    value = an_instance(cls)
    call = ext.worker if name == "ECMooncakeWorkerMetadata" else ext.load
    for _ in range(2):  # at the first conversion and every later one
        with pytest.raises(TypeError) as e:
            call(value)
        assert str(e.value) == "(root): " + message and e.value.pointer == ""
    if name == "ECMooncakeLoadSpec":
        with pytest.raises(TypeError, match="^/loads/1: " + message.replace("(", r"\(").replace(")", r"\)")):
            ext.connector({"loads": [ecmeta.ECMooncakeLoadSpec("h", 0, (), "x", "t"), value]})
    else:
        with pytest.raises(TypeError, match="^/2: "):
            ecmeta.aggregate([None, ecmeta.ECMooncakeWorkerMetadata(), value])


@pytest.mark.parametrize("name, fields, message", MISMATCHES, ids=IDS)
def test_building_as_a_mismatching_vllm_class_is_refused(name, fields, message, vllm_module):
    fill(vllm_module)
    setattr(vllm_module, name, shaped(name, fields))
    sys.modules[VLLM_MODULE] = vllm_module
    for _ in range(2):
        with pytest.raises(TypeError, match="^" + message.replace("(", r"\(").replace(")", r"\)") + "$"):
            ext.worker({"loaded": ["a"]})
    with pytest.raises(TypeError, match="^" + message.replace("(", r"\(").replace(")", r"\)") + "$"):
        ecmeta.use_classes(*[getattr(vllm_module, n) for n in CLASSES])


def test_the_other_upstream_shape_is_refused_never_half_built(vllm_module):
    other = """
from dataclasses import dataclass, field
@dataclass
class ECMooncakeLoadSpec:
    mm_hash: str
    num_token: int
    nbytes: int
    shape: tuple
    dtype: str
    pushed: bool = False
    transfer_id: str = ""
    reservation_id: str = ""
    local: bool = False
from ecmeta_ref import ECMooncakePushSpec  # the same in both shapes
@dataclass
class ECMooncakeConnectorMetadata:
    loads: list = field(default_factory=list)
    pushes: list = field(default_factory=list)
@dataclass
class ECMooncakeWorkerMetadata:
    loaded: set = field(default_factory=set)
    failed_loads: set = field(default_factory=set)
    reclaimed: set = field(default_factory=set)
    pending_loads: bool = False
    pending_saves: bool = False
"""
    sys.modules[VLLM_MODULE] = fill(vllm_module, other)
    step = vllm_module.ECMooncakeConnectorMetadata(loads=[vllm_module.ECMooncakeLoadSpec("h", 3, 0, (), "x")])
    with pytest.raises(TypeError) as e:
        ext.connector(step)
    assert str(e.value) == (
        "(root): ECMooncakeConnectorMetadata: the class lacks freed, which ecmeta's type has")
    with pytest.raises(TypeError, match="^/0: ECMooncakeWorkerMetadata: the class has pending_loads, which ecmeta's "
                                        "type has not; the class lacks failed_saves, which ecmeta's type has$"):
        ecmeta.aggregate([vllm_module.ECMooncakeWorkerMetadata(pending_loads=True)])
    with pytest.raises(TypeError, match="ECMooncakeLoadSpec: the class has num_token, pushed, reservation_id, which "
                                        "ecmeta's type has not; transfer_id has a default there and is required here"):
        ext.load({"mm_hash": "h", "nbytes": 0, "shape": [], "dtype": "x", "transfer_id": "t"})


def test_objects_that_are_no_dataclass_are_read_by_attribute_or_key():
    assert ext.worker(types.SimpleNamespace(loaded={"a"}, rank=3)) == ecmeta.ECMooncakeWorkerMetadata(loaded={"a"})
    assert ext.worker({"loaded": ["a"], "rank": 3}) == ecmeta.ECMooncakeWorkerMetadata(loaded={"a"})

    class Plain:  # a class of its own, not a dataclass
        loaded = {"b"}

    assert ext.worker(Plain()) == ecmeta.ECMooncakeWorkerMetadata(loaded={"b"})


def test_matching_dataclasses_of_any_module_are_read(vllm_module):
    fill(vllm_module)
    assert ext.worker(vllm_module.ECMooncakeWorkerMetadata(loaded={"a"})) == ecmeta.ECMooncakeWorkerMetadata(
        loaded={"a"})
    assert ext.connector(Step()) == ecmeta.ECMooncakeConnectorMetadata()
