#!/usr/bin/env python3
"""The engine step over ZeroMQ, with a peer ecmeta did not write: pyzmq, Python's msgpack and the
reference dataclasses of the conformance tests (tests/conformance/ecmeta_ref.py).

usage: test_zmq_step.py CASE --scheduler BIN --worker BIN --cli BIN

CASE is one of:
  python_scheduler  a Python scheduler drives C++ workers; its reference fold of their replies must
                    equal the C++ fold (`ecmeta aggregate`) of the same replies, step by step
  python_worker     Python workers answer the C++ scheduler; its fold must equal the reference
                    fold of what they sent
  killed_worker     a worker killed mid-run: the scheduler goes on and names the silent rank
  garbage           a peer sending truncated, mistyped and oversized reports, and replies for
                    the wrong step: one log line each, counted silent, the run goes on
  slow_worker       replies past the deadline: silent for the step, dropped by step number
  restart           a worker killed and started again is folded again
Everything runs on tcp://127.0.0.1 with ports the OS picks, and stops by itself.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Optional

import msgpack
import zmq

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
import ecmeta_ref as ref  # noqa: E402

TIMEOUT = 60.0  # seconds for any one case, everything included
STEP_LINE = re.compile(r"^step (\d+) reported (\S+) none (\S+) silent (\S+) round_trip_ms \S+(?: aggregate (.*))?$")


def ranks(field: str) -> set[int]:
    return set() if field == "-" else {int(r) for r in field.split(",")}


class Failed(Exception):
    pass


def check(ok: bool, what: str) -> None:
    if not ok:
        raise Failed(what)


# ---- the wire, as examples/zmq_step/README.md states it ----------------------------

def encode(obj: Any, fmt: str) -> bytes:
    doc = ref.as_dict(obj)
    return json.dumps(doc, ensure_ascii=False).encode() if fmt == "json" else msgpack.packb(doc)


def decode_report(body: bytes, fmt: str) -> ref.ECMooncakeWorkerMetadata:
    doc = json.loads(body) if fmt == "json" else msgpack.unpackb(body, raw=False)
    return ref._object(ref.ECMooncakeWorkerMetadata, doc, "")


def decode_step(body: bytes, fmt: str) -> ref.ECMooncakeConnectorMetadata:
    doc = json.loads(body) if fmt == "json" else msgpack.unpackb(body, raw=False)
    return ref._object(ref.ECMooncakeConnectorMetadata, doc, "")


def canonical_or_null(w: Optional[ref.ECMooncakeWorkerMetadata]) -> str:
    return "null" if w is None else ref.canonical(w)


# ---- processes ----------------------------------------------------------------------------

class Programs:
    def __init__(self, a: argparse.Namespace):
        self.a = a
        self.children: list[subprocess.Popen] = []

    def worker(self, endpoint: str, rank: int, *extra: str) -> subprocess.Popen:
        p = subprocess.Popen([self.a.worker, "--connect", endpoint, "--rank", str(rank), "--idle-ms", "20000",
                              *extra], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.children.append(p)
        return p

    def scheduler(self, *args: str, bind: str = "tcp://127.0.0.1:*") -> tuple[subprocess.Popen, str]:
        p = subprocess.Popen([self.a.scheduler, "--bind", bind, *args], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, bufsize=1)
        self.children.append(p)
        first = p.stdout.readline()
        check(first.startswith("listening on tcp://"), f"scheduler's first line: {first!r}")
        return p, first.split()[-1]

    def kill_all(self) -> None:
        for p in self.children:
            if p.poll() is None:
                p.kill()
            p.wait()


class Run:
    """A scheduler's output, read as it comes: step lines (parsed), other lines, and stderr."""

    def __init__(self, p: subprocess.Popen):
        self.p = p
        self.steps: list[dict] = []
        self.other: list[str] = []
        self.log: list[str] = []
        self.new_step = threading.Condition()
        self.readers = [threading.Thread(target=self._read, daemon=True),
                        threading.Thread(target=lambda: self.log.extend(l.rstrip("\n") for l in p.stderr), daemon=True)]
        for t in self.readers:
            t.start()

    @property
    def stderr(self) -> str:
        return "\n".join(self.log)

    def _read(self) -> None:
        for line in self.p.stdout:
            m = STEP_LINE.match(line.rstrip("\n"))
            with self.new_step:
                if m:
                    self.steps.append({"step": int(m[1]), "reported": ranks(m[2]), "none": ranks(m[3]),
                                       "silent": ranks(m[4]), "aggregate": m[5]})
                else:
                    self.other.append(line.rstrip("\n"))
                self.new_step.notify_all()

    def wait_for_step(self, n: int, until: float) -> None:
        with self.new_step:
            while len(self.steps) < n:
                check(self.p.poll() is None, f"scheduler exited before step {n}")
                check(time.monotonic() < until, f"no step {n} in time")
                self.new_step.wait(0.1)

    def finish(self, until: float) -> None:
        try:
            self.p.wait(timeout=max(0.1, until - time.monotonic()))
        except subprocess.TimeoutExpired:
            raise Failed("the scheduler did not finish in time")
        for t in self.readers:
            t.join(timeout=5)
        check(self.p.returncode == 0, f"scheduler exit status {self.p.returncode}: {self.stderr}")


# ---- a Python scheduler driving C++ workers ----------------------------------------------

def random_step(rng: random.Random, pool: list[str]) -> ref.ECMooncakeConnectorMetadata:
    if rng.random() < 0.1:
        return ref.ECMooncakeConnectorMetadata(freed=rng.choice([None, []]))  # idle: nothing to report
    loads = [ref.ECMooncakeLoadSpec(mm_hash=rng.choice(pool), nbytes=rng.randrange(2**40), shape=(16, 4096),
                                    dtype="bfloat16", transfer_id=f"t{rng.randrange(1000)}", local=rng.random() < 0.3)
             for _ in range(rng.randrange(0, 24))]
    pushes = [ref.ECMooncakePushSpec(mm_hash=rng.choice(pool), nbytes=rng.randrange(2**40), shape=(8,), dtype="int8",
                                     consumer_zmq="tcp://127.0.0.1:1", transfer_id="t", request_id=f"req-{rng.randrange(9)}")
              for _ in range(rng.randrange(0, 6))]
    freed = rng.choice([None, [rng.choice(pool) for _ in range(rng.randrange(0, 6))]])
    return ref.ECMooncakeConnectorMetadata(loads=loads, pushes=pushes, freed=freed)


def python_scheduler(progs: Programs, until: float) -> None:
    workers, steps = 3, 300
    ctx = zmq.Context.instance()
    router = ctx.socket(zmq.ROUTER)
    router.linger = 0
    port = router.bind_to_random_port("tcp://127.0.0.1")
    endpoint = f"tcp://127.0.0.1:{port}"
    for rank in range(workers):
        progs.worker(endpoint, rank, "--format", "json" if rank == 2 else "msgpack")
    peers: dict[int, bytes] = {}
    while len(peers) < workers:
        check(router.poll(int(max(1, (until - time.monotonic()) * 1000))) != 0, "workers did not say hello")
        frames = router.recv_multipart()
        check(frames[1] == b"hello", f"expected hello, got {frames[1:]!r}")
        peers[int(frames[2])] = frames[0]

    rng = random.Random(20261203)
    pool = [f"{rng.getrandbits(64):016x}" for _ in range(40)] + ["é", "a\"b\\c", "\u2028", "\x00nul", "k" * 70]
    seen = {"report": 0, "none": 0, "json": 0, "failed_loads": 0, "loaded": 0}
    folds = []  # (step, the replies as a JSON array for `ecmeta aggregate`, the reference fold)
    for step in range(1, steps + 1):
        fmt = "json" if step % 3 == 0 else "msgpack"
        body = encode(random_step(rng, pool), fmt)
        for rank in range(workers):
            router.send_multipart([peers[rank], b"step", str(step).encode(), fmt.encode(), body])
        replies: list[Optional[ref.ECMooncakeWorkerMetadata]] = [None] * workers
        answered = set()
        while len(answered) < workers:
            check(router.poll(int(max(1, (until - time.monotonic()) * 1000))) != 0, f"step {step}: no reply in time")
            frames = router.recv_multipart()
            kind, number, rank = frames[1].decode(), int(frames[2]), int(frames[3])
            check(number == step and peers[rank] == frames[0] and rank not in answered,
                  f"step {step}: unexpected reply {frames[1:4]!r}")
            answered.add(rank)
            seen[kind] += 1
            if kind == "report":
                seen["json"] += frames[4] == b"json"
                replies[rank] = decode_report(frames[5], frames[4].decode())
        expected = ref.fold(replies)
        if expected is not None:
            seen["failed_loads"] += bool(expected.failed_loads)
            seen["loaded"] += bool(expected.loaded)
        ranks_json = "[" + ",".join(canonical_or_null(r) for r in replies) + "]"
        folds.append((step, ranks_json, canonical_or_null(expected)))
    # Steps a worker cannot read go unanswered, and the next one is answered as usual.
    unreadable = [(b"msgpack", encode(random_step(rng, pool), "msgpack")[:-2]), (b"yaml", b"loads: []")]
    for number, (fmt, body) in enumerate(unreadable, start=steps + 1):
        for rank in range(workers):
            router.send_multipart([peers[rank], b"step", str(number).encode(), fmt, body])
    check(router.poll(300) == 0, "a worker answered a step it cannot read")
    for rank in range(workers):
        router.send_multipart([peers[rank], b"step", str(steps + 3).encode(), b"json", b"{}"])
    for _ in range(workers):
        check(router.poll(5000) != 0, "a worker did not answer after the unreadable steps")
        check(router.recv_multipart()[1:3] == [b"none", str(steps + 3).encode()], "an idle step is answered none")
    for rank in range(workers):
        router.send_multipart([peers[rank], b"stop"])
    for w in progs.children:
        _, err = w.communicate(timeout=max(1.0, until - time.monotonic()))
        check(w.returncode == 0 and f"step {steps + 1}: " in err and f'step {steps + 2}: format "yaml"' in err,
              f"a worker's exit status {w.returncode}, or its log of the unreadable steps: {err!r}")

    for step, ranks_json, expected in folds:
        got = subprocess.run([progs.a.cli, "aggregate"], input=ranks_json, capture_output=True, text=True,
                             timeout=max(1.0, until - time.monotonic()))
        check(got.returncode == 0, f"step {step}: ecmeta aggregate failed: {got.stderr}")
        check(got.stdout.strip() == expected,
              f"step {step}: C++ fold {got.stdout.strip()} != reference fold {expected} of {ranks_json}")
    check(seen["none"] > 0 and seen["json"] > 0 and seen["failed_loads"] > 0 and seen["loaded"] > 0,
          f"the run did not exercise every kind of reply: {seen}")
    print(f"python_scheduler: {steps} steps x {workers} C++ workers, {seen}; every fold equal")


# ---- Python workers answering the C++ scheduler ------------------------------------------

def random_report(rng: random.Random, step: ref.ECMooncakeConnectorMetadata) -> Optional[ref.ECMooncakeWorkerMetadata]:
    if rng.random() < 0.1:
        return None
    hashes = [l.mm_hash for l in step.loads]
    odd = ["é", "a\"b", "\u2028", "\x00", "z" * 9]
    pick = lambda k: {x for x in hashes if rng.random() < k}  # noqa: E731
    return ref.ECMooncakeWorkerMetadata(
        loaded=pick(0.9) | ({rng.choice(odd)} if rng.random() < 0.2 else set()),
        failed_loads=pick(0.1), reclaimed=set((step.freed or [])[:rng.randrange(3)]),
        pending_saves=rng.random() < 0.5, failed_saves={f"req-{rng.randrange(4)}" for _ in range(rng.randrange(3))})


def python_worker(progs: Programs, until: float) -> None:
    workers, steps = 3, 200
    p, endpoint = progs.scheduler("--workers", str(workers), "--steps", str(steps), "--loads", "12",
                                  "--deadline-ms", "5000", "--seed", "7")
    run = Run(p)
    ctx = zmq.Context.instance()
    sockets = []
    for rank in range(workers):
        s = ctx.socket(zmq.DEALER)
        s.linger = 0
        s.connect(endpoint)
        s.send_multipart([b"hello", str(rank).encode()])
        sockets.append(s)
    poller = zmq.Poller()
    for s in sockets:
        poller.register(s, zmq.POLLIN)
    sent: dict[int, list[Optional[ref.ECMooncakeWorkerMetadata]]] = {}
    stopped: set[int] = set()
    rng = random.Random(99)
    while len(stopped) < workers:
        check(time.monotonic() < until, "the scheduler never said stop")
        for s, _ in poller.poll(100):
            rank = sockets.index(s)
            frames = s.recv_multipart()
            if frames[0] == b"stop":
                stopped.add(rank)
                continue
            _, number, fmt, body = frames
            step = decode_step(body, fmt.decode())
            mine = random_report(rng, step)
            sent.setdefault(int(number), [None] * workers)[rank] = mine
            if mine is None:
                s.send_multipart([b"none", number, str(rank).encode()])
            else:
                out = "json" if rank == 1 else "msgpack"
                s.send_multipart([b"report", number, str(rank).encode(), out.encode(), encode(mine, out)])
    run.finish(until)
    check(len(run.steps) == steps, f"{len(run.steps)} step lines, expected {steps}")
    for line in run.steps:
        expected = canonical_or_null(ref.fold(sent[line["step"]]))
        check(line["silent"] == set(), f"step {line['step']}: silent ranks {line['silent']}")
        check(line["aggregate"] == expected,
              f"step {line['step']}: C++ fold {line['aggregate']} != reference fold {expected}")
    print(f"python_worker: {steps} steps x {workers} Python workers; every C++ fold equals the reference")


# ---- faults -------------------------------------------------------------------------------

def kill_rank_1_after_step_5(progs: Programs, workers: int, steps: int, until: float) -> tuple[Run, str]:
    """A scheduler of 40 ms steps with C++ workers, rank 1 killed (SIGKILL) once step 5 is out."""
    p, endpoint = progs.scheduler("--workers", str(workers), "--steps", str(steps), "--interval-ms", "40",
                                  "--deadline-ms", "300", "--quiet")
    run = Run(p)
    victims = [progs.worker(endpoint, rank) for rank in range(workers)]
    run.wait_for_step(5, until)
    victims[1].send_signal(signal.SIGKILL)
    victims[1].wait()
    return run, endpoint


def killed_worker(progs: Programs, until: float) -> None:
    run, _ = kill_rank_1_after_step_5(progs, 3, 30, until)
    run.finish(until)
    check(len(run.steps) == 30, f"{len(run.steps)} steps")
    check(all(s["silent"] == set() for s in run.steps[:5]), "silence before the kill")
    check(all(s["silent"] == {1} and s["reported"] | s["none"] == {0, 2} for s in run.steps[8:]),
          "after the kill, rank 1 is silent and ranks 0 and 2 are folded")
    check(any(line.startswith("rank 1 silent in") for line in run.other), f"no summary names rank 1: {run.other}")
    print("killed_worker:", [line for line in run.other if line.startswith("rank")])


def garbage(progs: Programs, until: float) -> None:
    steps = 9
    p, endpoint = progs.scheduler("--workers", "3", "--steps", str(steps), "--deadline-ms", "400", "--loads", "4")
    run = Run(p)
    for rank in range(2):
        progs.worker(endpoint, rank)
    ctx = zmq.Context.instance()
    s = ctx.socket(zmq.DEALER)
    s.linger = 0
    s.connect(endpoint)
    s.send_multipart([b"hello", b"2"])
    good = msgpack.packb(ref.as_dict(ref.ECMooncakeWorkerMetadata(loaded={"x"}, failed_saves={"req-1"})))
    bad = {  # step -> (format, body, what the log line must name)
        1: ("msgpack", good[:-3], "decode_error at /failed_saves"),            # truncated
        2: ("msgpack", msgpack.packb({"loaded": 5}), "decode_error at /loaded"),  # a wrong type
        3: ("msgpack", b"\x81\xa6loaded\xdd\xff\xff\xff\xff", "decode_error at /loaded"),  # a 4 GiB length
        4: ("json", b'{"loaded":["a",1]}', "decode_error at /loaded/1"),
        5: ("msgpack", b"\xc1", "decode_error at (root)"),                       # never used
        6: ("yaml", good, "is not msgpack or json"),
    }
    wrong_step = 7  # replies, for step 6, only: dropped by its number
    malformed = 8   # a report with its body frame missing
    while True:
        check(time.monotonic() < until, "the scheduler never said stop")
        if not s.poll(100):
            continue
        frames = s.recv_multipart()
        if frames[0] == b"stop":
            break
        number = int(frames[1])
        if number in bad:
            fmt, body, _ = bad[number]
            s.send_multipart([b"report", frames[1], b"2", fmt.encode(), body])
        elif number == wrong_step:
            s.send_multipart([b"report", str(number - 1).encode(), b"2", b"msgpack", good])
        elif number == malformed:
            s.send_multipart([b"report", frames[1], b"2", b"msgpack"])
        else:
            s.send_multipart([b"report", frames[1], b"2", b"msgpack", good])
    run.finish(until)
    check(len(run.steps) == steps, f"{len(run.steps)} steps")
    log = run.log
    for line in run.steps:
        step = line["step"]
        folded = step not in bad and step not in (wrong_step, malformed)
        check((2 in line["reported"]) == folded and (2 in line["silent"]) != folded,
              f"step {step}: rank 2 folded {2 in line['reported']}, expected {folded}")
        check(line["reported"] | line["none"] >= {0, 1}, f"step {step}: ranks 0 and 1 answered: {line}")
        if step in bad:
            want = bad[step][2]
            hits = [l for l in log if l.startswith(f"ecmeta-scheduler: rank 2 step {step}:") and want in l]
            check(len(hits) == 1, f"step {step}: one log line naming rank 2 and '{want}', got {log}")
    check(any(f"rank 2: reply for step {wrong_step - 1} dropped (step {wrong_step} is running)" in l for l in log),
          f"the wrong-step reply was not dropped by number: {log}")
    want = f'ecmeta-scheduler: rank 2 step {malformed}: a message of 4 frames starting "report" (a report has 5): dropped'
    check(want in log, f"the malformed report's line names its rank and step: {log}")
    print("garbage:", *[l for l in log if "rank 2" in l], sep="\n  ")


def slow_worker(progs: Programs, until: float) -> None:
    steps = 8
    p, endpoint = progs.scheduler("--workers", "2", "--steps", str(steps), "--deadline-ms", "100", "--quiet")
    run = Run(p)
    progs.worker(endpoint, 0)
    progs.worker(endpoint, 1, "--slow-ms", "250")
    run.finish(until)
    check(len(run.steps) == steps, f"{len(run.steps)} steps")
    check(all(s["silent"] == {1} and 0 in s["reported"] | s["none"] for s in run.steps),
          f"the slow rank is silent every step, the other folded: {run.steps}")
    late = [l for l in run.stderr.splitlines() if re.search(r"rank 1: reply for step \d+ dropped", l)]
    check(late, f"no late reply was dropped by its step number: {run.stderr}")
    print("slow_worker:", *late, sep="\n  ")


def restart(progs: Programs, until: float) -> None:
    run, endpoint = kill_rank_1_after_step_5(progs, 2, 60, until)
    run.wait_for_step(12, until)
    restarted_at = len(run.steps)
    progs.worker(endpoint, 1)
    run.finish(until)
    check(any(s["silent"] == {1} for s in run.steps[5:restarted_at]), "rank 1 was silent while it was down")
    check(all(s["silent"] == set() for s in run.steps[restarted_at + 10:]),
          f"rank 1 is folded again after its restart: {run.steps[restarted_at:]}")
    hellos = [l for l in run.log if re.search(r"rank 1: (connected|said hello again)$", l)]
    check(len(hellos) == 2, f"the scheduler did not see rank 1 say hello twice: {run.stderr}")
    print(f"restart: rank 1 down from step 6, restarted after step {restarted_at}, folded again")


def hello_between_steps(progs: Programs, until: float) -> None:
    """A peer that says hello between two steps gets the next step, not the one after."""
    p, endpoint = progs.scheduler("--workers", "1", "--steps", "4", "--interval-ms", "600", "--deadline-ms", "300",
                                  "--quiet")
    run = Run(p)
    ctx = zmq.Context.instance()
    a = ctx.socket(zmq.DEALER)
    a.linger = 0
    a.connect(endpoint)
    a.send_multipart([b"hello", b"0"])
    b = ctx.socket(zmq.DEALER)
    b.linger = 0
    got: dict[bytes, list[int]] = {b"a": [], b"b": []}
    while True:
        check(time.monotonic() < until, "the scheduler never said stop")
        for name, sock in ((b"a", a), (b"b", b)):
            if sock.closed or not sock.poll(20):
                continue
            frames = sock.recv_multipart()
            if frames[0] == b"stop":
                run.finish(until)
                check(got[b"a"] == [1, 2], f"peer A got steps {got[b'a']}, expected 1 and 2")
                check(got[b"b"] == [3, 4], f"peer B got steps {got[b'b']}, expected 3 and 4")
                print("hello_between_steps: B said hello after step 2 and got step 3")
                return
            number = int(frames[1])
            got[name].append(number)
            sock.send_multipart([b"none", frames[1], b"0"])
            if name == b"a" and number == 2:
                time.sleep(0.1)  # step 2 is answered; step 3 comes about 0.6 s later
                b.connect(endpoint)
                b.send_multipart([b"hello", b"0"])


def scheduler_restart(progs: Programs, until: float) -> None:
    """A scheduler killed mid-run and started again on the same endpoint gets its running workers
    back, folded from its first step, without restarting them."""
    first, endpoint = progs.scheduler("--workers", "3", "--steps", "1000", "--interval-ms", "20",
                                      "--deadline-ms", "500", "--quiet")
    run = Run(first)
    workers = [progs.worker(endpoint, rank) for rank in range(3)]
    run.wait_for_step(5, until)
    first.send_signal(signal.SIGKILL)
    first.wait()
    second, again = progs.scheduler("--workers", "3", "--steps", "10", "--deadline-ms", "500",
                                    "--startup-ms", "20000", "--quiet", bind=endpoint)
    check(again == endpoint, f"the new scheduler listens on {again}, not {endpoint}")
    rerun = Run(second)
    rerun.finish(until)
    check(len(rerun.steps) == 10, f"{len(rerun.steps)} steps")
    for line in rerun.steps:
        check(line["silent"] == set() and line["reported"] | line["none"] == {0, 1, 2},
              f"step {line['step']} of the new scheduler did not fold every rank: {line}")
    check(all(w.poll() is None or w.returncode == 0 for w in workers), "a worker died")
    print("scheduler_restart: the scheduler was killed after step 5; its successor folded ranks 0-2 from step 1")


CASES = {f.__name__: f for f in (python_scheduler, python_worker, killed_worker, garbage, slow_worker, restart,
                                 hello_between_steps, scheduler_restart)}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=sorted(CASES))
    ap.add_argument("--scheduler", required=True)
    ap.add_argument("--worker", required=True)
    ap.add_argument("--cli", required=True)
    a = ap.parse_args()
    progs = Programs(a)
    try:
        CASES[a.case](progs, time.monotonic() + TIMEOUT)
    except Failed as e:
        print(f"FAILED {a.case}: {e}", file=sys.stderr)
        return 1
    finally:
        progs.kill_all()
        zmq.Context.instance().destroy(linger=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
