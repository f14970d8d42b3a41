"""Hypothesis strategies: the four types as the reference dataclasses, and the many Python
shapes one value may arrive in (dataclass, SimpleNamespace, dict; set, frozenset, list or tuple
for ids; list or tuple for a shape)."""

from __future__ import annotations

import types
from typing import Any

from hypothesis import strategies as st

import ecmeta_ref as ref

# Text Python can hold and UTF-8 can carry: no lone surrogates.
text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
# Ids from a small pool, so that sets overlap and folds keep something.
ids = st.sets(st.sampled_from([f"{c}{n}" for c in "abcdef" for n in range(4)] + ["é", "\u2603", ""]), max_size=8)
u64 = st.integers(0, 2**64 - 1)
extent = st.integers(0, 2**63 - 1)
shape = st.lists(extent, max_size=4).map(tuple)

load = st.builds(ref.ECMooncakeLoadSpec, mm_hash=text, nbytes=u64, shape=shape, dtype=text, transfer_id=text,
                 local=st.booleans())
push = st.builds(ref.ECMooncakePushSpec, mm_hash=text, nbytes=u64, shape=shape, dtype=text, consumer_zmq=text,
                 transfer_id=text, request_id=text)
connector = st.builds(ref.ECMooncakeConnectorMetadata, loads=st.lists(load, max_size=3),
                      pushes=st.lists(push, max_size=3), freed=st.none() | st.lists(text, max_size=3))
worker = st.builds(ref.ECMooncakeWorkerMetadata, loaded=ids, failed_loads=ids, reclaimed=ids,
                   pending_saves=st.booleans(), failed_saves=ids)
ranks = st.lists(st.none() | worker, max_size=6)


@st.composite
def disguised(draw: Any, value: Any) -> Any:
    """value in another of the shapes the casters take: the same fields as attributes of a
    SimpleNamespace or as a dict's keys, ids as any collection, shapes as a list."""
    if isinstance(value, (set, frozenset)):
        kind = draw(st.sampled_from([set, frozenset, list, tuple]))
        return kind(sorted(value))
    if isinstance(value, tuple):
        return draw(st.sampled_from([tuple, list]))(value)
    if isinstance(value, list):
        return [draw(disguised(v)) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        fields = {name: draw(disguised(getattr(value, name))) for name in value.__dataclass_fields__}
        form = draw(st.sampled_from(["same", "namespace", "dict"]))
        if form == "namespace":
            return types.SimpleNamespace(**fields)
        if form == "dict":
            return fields
        return type(value)(**fields)
    return value
