#!/usr/bin/env python3
"""Differential test: the `ecmeta` command against the Python model in ecmeta_ref.py.

On random cases it compares canonical bytes (`ecmeta canon`), fold results (`ecmeta aggregate`)
and, for mutated inputs, the verdict and the error's JSON Pointer.

usage: conformance.py PATH/TO/ecmeta [--cases N] [--seed S]
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ecmeta_ref as ref  # noqa: E402

HEX = "0123456789abcdef"


class Cases:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def text(self) -> str:
        r = self.rng
        kind = r.random()
        if kind < 0.6:
            return "".join(r.choice(HEX) for _ in range(r.choice([64, 64, 128, 32, 3])))
        if kind < 0.7:
            return f"lora-{r.randrange(4)}:" + "".join(r.choice(HEX) for _ in range(64))
        # anything Python can write as UTF-8: controls, quotes, non-ASCII, astral
        pools = [(0x20, 0x7F), (0x00, 0x20), (0x7F, 0x100), (0x100, 0xD800), (0xE000, 0x10000), (0x10000, 0x110000)]
        out = []
        for _ in range(r.randrange(0, 12)):
            lo, hi = r.choice(pools)
            out.append(chr(r.randrange(lo, hi)))
        return "".join(out)

    def u64(self) -> int:
        return self.rng.choice([0, 1, 127, 128, 65535, 65536, 2**32, 2**63, 2**64 - 1, self.rng.randrange(2**64)])

    def shape(self) -> tuple[int, ...]:
        return tuple(self.rng.choice([0, 1, 3584, 2**63 - 1, self.rng.randrange(2**63)])
                     for _ in range(self.rng.randrange(0, 4)))

    def load(self) -> ref.ECMooncakeLoadSpec:
        return ref.ECMooncakeLoadSpec(self.text(), self.u64(), self.shape(), self.rng.choice(["bfloat16", "float16", self.text()]),
                                      self.text(), self.rng.random() < 0.3)

    def push(self) -> ref.ECMooncakePushSpec:
        return ref.ECMooncakePushSpec(self.text(), self.u64(), self.shape(), "bfloat16",
                                      f"tcp://10.0.0.{self.rng.randrange(256)}:19019", self.text(),
                                      self.rng.choice(["", "req-1", self.text()]))

    def connector(self) -> ref.ECMooncakeConnectorMetadata:
        r = self.rng
        freed = r.choice([None, [], [self.text() for _ in range(r.randrange(1, 5))]])
        if freed:
            freed.append(freed[0])  # order and repeats are the scheduler's
        return ref.ECMooncakeConnectorMetadata([self.load() for _ in range(r.randrange(0, 4))],
                                               [self.push() for _ in range(r.randrange(0, 4))], freed)

    def worker(self, pool: Optional[list[str]] = None) -> ref.ECMooncakeWorkerMetadata:
        r = self.rng
        pool = pool or [self.text() for _ in range(r.randrange(0, 8))]
        pick = lambda p: {x for x in pool if r.random() < p}  # noqa: E731
        return ref.ECMooncakeWorkerMetadata(pick(0.8), pick(0.1), pick(0.1), r.random() < 0.5,
                                            {f"req-{r.randrange(5)}" for _ in range(r.randrange(0, 3))})

    def value(self, kind: str) -> Any:
        return getattr(self, kind)()

    def scramble(self, doc: Any) -> str:
        """A non-canonical spelling of the same document: key order, set order, spaces, escapes,
        unknown keys."""
        r = self.rng

        def walk(v: Any) -> Any:
            if isinstance(v, dict):
                items = [(k, walk(x)) for k, x in v.items()]
                r.shuffle(items)
                if r.random() < 0.3:
                    items.insert(r.randrange(len(items) + 1), ("num_token", {"deep": [[[1.5, None]]]}))
                return dict(items)
            if isinstance(v, list):
                return [walk(x) for x in v]
            return v

        d = walk(doc)
        return json.dumps(d, ensure_ascii=r.random() < 0.5, indent=r.choice([None, 1, 4]))

    def mutate(self, doc: Any) -> Any:
        """Breaks one value somewhere: a wrong type, a float, a negative or out-of-range
        number, or a required key removed."""
        r = self.rng
        doc = copy.deepcopy(doc)
        spots: list[tuple[Any, Any]] = []

        def collect(v: Any) -> None:
            if isinstance(v, dict):
                for k in v:
                    spots.append((v, k))
                    collect(v[k])
            elif isinstance(v, list):
                for i in range(len(v)):
                    spots.append((v, i))
                    collect(v[i])

        collect(doc)
        if not spots:
            return r.choice([[], "x", 1, None])
        parent, key = r.choice(spots)
        if isinstance(parent, dict) and r.random() < 0.25:
            del parent[key]
        else:
            parent[key] = r.choice([None, True, -1, 8.0, 2**64, "x", [], {}, [1], ["x", 2], 1e300])
        return doc


def run(binary: str, args: list[str], stdin: str) -> tuple[int, str, str]:
    p = subprocess.run([binary, *args], input=stdin.encode(), capture_output=True, timeout=30)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def pointer_of(stderr: str) -> str:
    assert stderr.startswith("ecmeta: ") and stderr.count("\n") == 1, repr(stderr)
    pointer = stderr[len("ecmeta: "):].split(": ", 1)[0]
    return "" if pointer == "(root)" else pointer


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("ecmeta")
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=None)
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else random.randrange(2**32)
    rng = random.Random(seed)
    gen = Cases(rng)
    failures = 0
    checks = 0

    def expect(ok: bool, what: str, detail: str) -> None:
        nonlocal failures, checks
        checks += 1
        if not ok:
            failures += 1
            print(f"MISMATCH ({what}, seed {seed}): {detail}", file=sys.stderr)

    for _ in range(a.cases):
        kind = rng.choice(list(ref.TYPES))
        value = gen.value(kind)
        want = ref.canonical(value)
        # canonical bytes, from a scrambled but equivalent spelling
        code, out, err = run(a.ecmeta, ["canon", kind], gen.scramble(ref.as_dict(value)))
        expect(code == 0 and out == want + "\n", f"canon {kind}", f"want {want!r}, got {code} {out!r} {err!r}")

        # the fold over ranks sharing a pool, some silent
        pool = [gen.text() for _ in range(rng.randrange(0, 10))]
        ranks = [None if rng.random() < 0.2 else gen.worker(pool) for _ in range(rng.randrange(0, 6))]
        folded = ref.fold(ranks)
        want = "null" if folded is None else ref.canonical(folded)
        doc = json.dumps([None if r is None else ref.as_dict(r) for r in ranks], ensure_ascii=False)
        code, out, err = run(a.ecmeta, ["aggregate"], doc)
        expect(code == 0 and out == want + "\n", "aggregate", f"input {doc!r}: want {want!r}, got {out!r} {err!r}")

        # a broken document: same verdict, same pointer
        broken = gen.mutate(ref.as_dict(value))
        text = json.dumps(broken, ensure_ascii=False)
        try:
            verdict: Any = ref.canonical(ref.decode(kind, text))
        except ref.DecodeError as e:
            verdict = e
        code, out, err = run(a.ecmeta, ["canon", kind], text)
        if isinstance(verdict, ref.DecodeError):
            expect(code == 2 and out == "" and pointer_of(err) == verdict.pointer, f"reject {kind}",
                   f"input {text!r}: want error at {verdict.pointer!r}, got {code} {out!r} {err!r}")
        else:
            expect(code == 0 and out == verdict + "\n", f"accept {kind}", f"input {text!r}: got {code} {err!r}")

    print(f"conformance: {checks} checks on {a.cases} cases (seed {seed})")
    print(f"{checks - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
