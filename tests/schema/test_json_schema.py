#!/usr/bin/env python3
"""The exported JSON Schema against what `decode` does, with Python's jsonschema.

usage: test_json_schema.py PATH/TO/ecmeta [--cases N] [--seed S]

- `ecmeta schema TYPE` passes check_schema (draft 2020-12) for the four types and `ranks`.
- Documents: the fuzz corpora of the JSON and MessagePack decoders (the first byte picks the type,
  as the fuzz targets read it), seeded cases of the conformance generator (valid, scrambled and
  mutated), and a few written here for each listed exception.
- Every document `decode` accepts must validate. Every document it refuses must fail validation,
  unless the refusal is one of the exceptions docs/wire-format.md lists under "The JSON Schema"; each
  disagreement is counted by kind, and a kind not in EXCEPTIONS fails the test.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import json
import math
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

import jsonschema
import msgpack

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "conformance"))
import conformance  # noqa: E402
import ecmeta_ref as ref  # noqa: E402

TYPES = ["load", "push", "connector", "worker", "ranks"]  # the fuzz targets' order (tests/fuzz/properties.hpp)

# What the schema cannot say and decode enforces (docs/wire-format.md, "The JSON Schema"): kind -> how to tell.
EXCEPTIONS = {  # kind: (what, a word decode's message has for it)
    "integral float": ("a number with a fraction or exponent where an integer goes (8.0): JSON Schema's "
                       "integer takes it, decode does not", "got float"),
    "lone surrogate": ("a \\ud800 escape that is not half of a pair: Python reads it, decode refuses strings "
                       "that are not valid UTF-8", "surrogate"),
    "duplicate key": ("a key given twice whose earlier value is ill-typed: Python keeps the last, decode checks "
                      "both", "expected"),
    "NaN or Infinity": ("not JSON, but Python's json module reads it", "expected a JSON value"),
    "map key not a string": ("MessagePack only: a map key that is an integer, nil or a boolean", "key"),
    "byte order mark": ("JSON that starts with a UTF-8 byte order mark: decode skips it, as nlohmann does and "
                        "RFC 8259 allows; Python's json refuses it", ""),
    "ignored value not UTF-8": ("MessagePack only: an unknown key's value is skipped unread, so a string in it "
                                "need not be UTF-8; Python's msgpack refuses the whole message", ""),
}


class Reader:
    """How Python reads a document, and what in it the schema cannot see."""

    def __init__(self) -> None:
        self.notes: set[str] = set()

    def _pairs(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        if len({k for k, _ in pairs}) != len(pairs):
            self.notes.add("duplicate key")
        return dict(pairs)

    def _constant(self, name: str) -> float:
        self.notes.add("NaN or Infinity")
        return float(name)

    def _float(self, text: str) -> float:
        value = float(text)
        if math.isfinite(value) and value == int(value):
            self.notes.add("integral float")
        return value

    def json(self, data: bytes) -> Any:
        text = data.decode("utf-8")  # no BOM sniffing or UTF-16, as json.loads(bytes) would do
        doc = json.loads(text, object_pairs_hook=self._pairs, parse_constant=self._constant,
                         parse_float=self._float)
        self._strings(doc)
        return doc

    def msgpack(self, data: bytes) -> Any:
        doc = msgpack.unpackb(data, raw=False, strict_map_key=False)
        self._msgpack_values(doc)
        self._strings(doc)
        return doc

    def _msgpack_values(self, v: Any) -> None:
        if isinstance(v, dict):
            if any(not isinstance(k, str) for k in v):
                self.notes.add("map key not a string")
            for x in v.values():
                self._msgpack_values(x)
        elif isinstance(v, list):
            for x in v:
                self._msgpack_values(x)
        elif isinstance(v, float) and math.isfinite(v) and v == int(v):
            self.notes.add("integral float")

    def _strings(self, v: Any) -> None:
        if isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                self.notes.add("lone surrogate")
        elif isinstance(v, dict):
            for k, x in v.items():
                self._strings(k)
                self._strings(x)
        elif isinstance(v, list):
            for x in v:
                self._strings(x)


def not_utf8_but_ignored(data: bytes) -> bool:
    """MessagePack that Python reads only with its strings left as bytes: decode skips an unknown
    key's value unread, so a string in it that is not UTF-8 goes unseen."""
    try:
        msgpack.unpackb(data, raw=True, strict_map_key=False)
        return True
    except Exception:  # noqa: BLE001: any other reason is not this one
        return False


def decode_verdict(ecmeta: str, kind: str, data: bytes, fmt: str) -> tuple[bool, str]:
    args = ["--from", fmt] + (["aggregate"] if kind == "ranks" else ["canon", kind])
    p = subprocess.run([ecmeta, *args], input=data, capture_output=True, timeout=30)
    if p.returncode not in (0, 2):
        raise SystemExit(f"ecmeta {' '.join(args)} exited {p.returncode}: {p.stderr!r}")
    return p.returncode == 0, p.stderr.decode(errors="replace").strip()


def documents(cases: int, seed: int) -> list[tuple[str, str, str, bytes]]:
    """(origin, type, format, bytes) of every document the test judges."""
    out = []
    corpora = HERE.parent / "fuzz" / "corpus"
    for name, fmt in [("decode_json", "json"), ("json_accept", "json"), ("decode_msgpack", "msgpack")]:
        for f in sorted((corpora / name).iterdir()):
            data = f.read_bytes()
            if data:
                out.append((f"{name}/{f.name}", TYPES[data[0] % 5], fmt, data[1:]))
    rng = random.Random(seed)
    gen = conformance.Cases(rng)
    for i in range(cases):
        kind = rng.choice(TYPES)
        if kind == "ranks":
            doc: Any = [None if rng.random() < 0.2 else ref.as_dict(gen.worker()) for _ in range(rng.randrange(4))]
        else:
            doc = ref.as_dict(gen.value(kind))
        out.append((f"conformance/{i}/valid", kind, "json", gen.scramble(doc).encode()))
        out.append((f"conformance/{i}/mutated", kind, "json",
                    json.dumps(gen.mutate(doc), ensure_ascii=False).encode()))
        try:
            out.append((f"conformance/{i}/msgpack", kind, "msgpack", msgpack.packb(gen.mutate(doc))))
        except OverflowError:  # 2**64 has no MessagePack form
            pass
    load = {"mm_hash": "h", "nbytes": 4, "shape": [2], "dtype": "int16", "transfer_id": "t"}
    written = {  # each schema-expressible refusal, and each exception, at least once
        "wrong type": ("worker", '{"loaded":"a"}'),
        "missing required key": ("load", '{"mm_hash":"h","nbytes":4,"shape":[2],"dtype":"int16"}'),
        "negative integer": ("load", json.dumps({**load, "nbytes": -1})),
        "integer over uint64": ("load", json.dumps({**load, "nbytes": 2**64})),
        "shape over int64": ("load", json.dumps({**load, "shape": [2**63]})),
        "null not allowed": ("connector", '{"loads":null}'),
        "null in ranks": ("ranks", '[null,{"loaded":["a"]}]'),
        "freed null": ("connector", '{"freed":null}'),
        "unknown keys": ("worker", '{"loaded":[],"num_token":{"x":[1.5]}}'),
        "integral float": ("load", json.dumps(load).replace('"nbytes": 4', '"nbytes": 4.0')),
        "lone surrogate": ("worker", '{"loaded":["\\ud800"]}'),
        "duplicate key": ("worker", '{"loaded":5,"loaded":[]}'),
        "NaN or Infinity": ("worker", '{"extra":NaN}'),
    }
    for name, (kind, text) in written.items():
        out.append((f"written/{name}", kind, "json", text.encode()))
    out.append(("written/map key not a string", "worker", "msgpack", msgpack.packb({1: 2, "loaded": []})))
    out.append(("written/byte order mark", "worker", "json", b"\xef\xbb\xbf{}"))
    out.append(("written/ignored value not UTF-8", "worker", "msgpack", b"\x81\xa1x\xa1\xff"))
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("ecmeta")
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=20261204)
    a = ap.parse_args()

    validators = {}
    for kind in TYPES:
        schema = json.loads(subprocess.run([a.ecmeta, "schema", kind], capture_output=True, check=True).stdout)
        jsonschema.Draft202012Validator.check_schema(schema)
        validators[kind] = jsonschema.Draft202012Validator(schema)

    docs = documents(a.cases, a.seed)
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        verdicts = list(pool.map(lambda d: decode_verdict(a.ecmeta, d[1], d[3], d[2]), docs))

    counts: collections.Counter[str] = collections.Counter()
    disagreements: collections.Counter[str] = collections.Counter()
    failures: list[str] = []
    for (origin, kind, fmt, data), (accepted, error) in zip(docs, verdicts):
        reader = Reader()
        try:
            doc: Optional[Any] = reader.json(data) if fmt == "json" else reader.msgpack(data)
        except (ValueError, UnicodeDecodeError, RecursionError, msgpack.ExtraData, msgpack.FormatError,
                msgpack.StackError, TypeError):
            doc = None  # not a document Python reads: decode must refuse it too
        if doc is None:
            counts["unreadable by Python"] += 1
            if accepted and fmt == "msgpack" and not_utf8_but_ignored(data):
                disagreements["ignored value not UTF-8"] += 1
            elif accepted and fmt == "json" and data.startswith(b"\xef\xbb\xbf"):
                disagreements["byte order mark"] += 1
            elif accepted:
                failures.append(f"{origin}: decode accepts what Python cannot read: {data[:80]!r}")
            continue
        valid = validators[kind].is_valid(doc)
        counts[f"{'accepted' if accepted else 'refused'}, {'valid' if valid else 'invalid'}"] += 1
        if accepted == valid:
            continue
        why = sorted(k for k in reader.notes & EXCEPTIONS.keys() if EXCEPTIONS[k][1] in error)
        if accepted or not why:
            failures.append(f"{origin} ({kind}, {fmt}): decode {'accepts' if accepted else 'refuses'} "
                            f"({error or 'ok'}) but the schema says {'valid' if valid else 'invalid'}: {data[:120]!r}")
            continue
        disagreements[why[0]] += 1

    print(f"json_schema: {len(docs)} documents: {dict(sorted(counts.items()))}")
    print(f"  disagreements, each a listed exception: {dict(sorted(disagreements.items()))}")
    for kind in EXCEPTIONS:
        if disagreements[kind] == 0:
            failures.append(f"the exception '{kind}' never occurred: the test no longer shows it")
    for f in failures[:30]:
        print("FAIL", f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
