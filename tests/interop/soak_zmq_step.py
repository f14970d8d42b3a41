#!/usr/bin/env python3
"""A chaos soak of the engine step over ZeroMQ, checked against the reference fold.

usage: soak_zmq_step.py --scheduler BIN --worker BIN [--seconds S] [--seed N] [--keep DIR]

The C++ scheduler drives four C++ workers (ranks 0-3) and one Python worker (rank 4) on loopback,
writing its trace (--trace, one JSON line per step). From the seed, faults are injected at random:
a worker SIGKILLed and restarted, a worker SIGSTOPped past the deadline and continued, garbage
replies (truncated, a lying length, a 1 MiB body of the wrong type, bad JSON, an unknown format,
frames missing or not a message at all), a reply for the wrong step, a peer taking a rank that
is taken, and the scheduler itself SIGKILLed and started again on the same endpoint.

Then every line of every trace is checked:
  - the aggregate is the reference fold (tests/conformance/ecmeta_ref.py) of the reports the
    line says were accepted, in rank order;
  - each accepted report is the reply to that step and no other: a C++ worker's equals its rule
    (examples/zmq_step/rule.hpp, play) applied to the step's body, found by the body's FNV-1a among the bodies
    the Python worker received; a Python reply carries a nonce, accepted once, for that step;
  - a garbage or wrong-step reply is never accepted, and the step's log names its rank;
  - no C++ worker's reply is ever dropped as malformed;
  - the scheduler never exits on its own, and after a warm-up (10 s, in which every kind of bad
    reply comes twice) its resident memory and open file descriptors settle within the bounds
    below: a high-water mark (the median of the last five samples against that of the first five)
    that has stopped rising (against the five at the middle of its life).
It prints its figures at the end. --seconds (or ECMETA_SOAK_SECONDS) sets the length: 60 by
default, as ctest runs it; hours for a long soak.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Optional

import msgpack
import zmq
import zmq.utils.monitor

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
import ecmeta_ref as ref  # noqa: E402

CXX_RANKS, PY_RANK = 4, 4
WORKERS = CXX_RANKS + 1
WARM_UP = 10.0           # seconds of a scheduler's life before its memory and descriptors are judged
RSS_BOUND = 2 << 20      # bytes its resident memory may still grow by in the second half of its life
HIGH_WATER = 16 << 20    # bytes it may settle higher than after the warm-up: a high-water mark, not growth
FD_BOUND = 4             # descriptors it may gain after the warm-up: a connection per restarted peer
DEADLINE_MS = 250


class Failed(Exception):
    pass


# ---- what the C++ worker answers (rule.hpp: mix and play) ---------------------------------

M64 = (1 << 64) - 1


def mix(id_: str, rank: int) -> int:
    def finish(h: int) -> int:
        h = ((h ^ (h >> 30)) * 0xBF58476D1CE4E5B9) & M64
        h = ((h ^ (h >> 27)) * 0x94D049BB133111EB) & M64
        return h ^ (h >> 31)

    b = id_.encode()
    h = (((rank + 1) * 0x9E3779B97F4A7C15) & M64) ^ len(b)
    i = 0
    while i + 8 <= len(b):
        h = finish(h ^ int.from_bytes(b[i:i + 8], "little"))
        i += 8
    return finish(h ^ int.from_bytes(b[i:], "little"))


def play(step: ref.ECMooncakeConnectorMetadata, rank: int) -> Optional[ref.ECMooncakeWorkerMetadata]:
    if not step.loads and not step.pushes and not step.freed:
        return None
    rolls = {l.mm_hash: mix(l.mm_hash, rank) % 16 for l in step.loads}
    return ref.ECMooncakeWorkerMetadata(
        loaded={l.mm_hash for l in step.loads if l.local or rolls[l.mm_hash] > 1},
        failed_loads={l.mm_hash for l in step.loads if not l.local and rolls[l.mm_hash] == 0},
        reclaimed={i for i in step.freed or [] if mix(i, rank) % 4 == 0},
        pending_saves=any(mix(p.mm_hash, rank) % 2 == 0 for p in step.pushes),
        failed_saves={p.request_id for p in step.pushes if mix(p.mm_hash, rank) % 32 == 1})


def fnv1a(data: bytes) -> str:
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & M64
    return f"{h:016x}"


def answer_digest(report: Optional[ref.ECMooncakeWorkerMetadata]) -> bytes:
    """A report, kept small: an hour's soak sees some 100,000 steps."""
    return hashlib.blake2b(("null" if report is None else ref.canonical(report)).encode(), digest_size=16).digest()


def decode(body: bytes, fmt: str) -> Any:
    return json.loads(body) if fmt == "json" else msgpack.unpackb(body, raw=False)


def encode(obj: Any, fmt: str) -> bytes:
    doc = ref.as_dict(obj)
    return json.dumps(doc, ensure_ascii=False).encode() if fmt == "json" else msgpack.packb(doc)


# ---- the Python peers: rank 4 always, and an impostor now and then ---------------------------

GARBAGE = {  # kind -> the frames after "report", step, rank (or the whole message, for "frames")
    "truncated": lambda good: [b"msgpack", good[:-3]],
    "length_lie": lambda good: [b"msgpack", b"\x81\xa6loaded\xdd\xff\xff\xff\xff"],
    "oversized": lambda good: [b"json", b'{"loaded":[' + b'"x",' * (1 << 18) + b"1]}"],
    "bad_json": lambda good: [b"json", b'{"loaded":["a",1]}'],
    "unknown_format": lambda good: [b"yaml", good],
    "missing_frame": lambda good: [b"msgpack"],
    "frames": None,  # not a message of the protocol at all
}


class Peers(threading.Thread):
    """Rank 4, answering every step with a report that carries a nonce, or with the fault it is
    asked for; and, when asked, an impostor that says hello as a C++ rank and answers a few steps."""

    def __init__(self, endpoint: str, seed: int):
        super().__init__(daemon=True)
        self.ctx = zmq.Context.instance()
        self.rng = random.Random(seed)
        self.endpoint = endpoint
        self.lock = threading.Lock()
        self.asked: collections.deque[str] = collections.deque()  # faults for rank 4's next replies
        self.impostor_rank: Optional[int] = None
        self.impostor_steps = 0
        self.impostor_done = threading.Event()
        self.quit = threading.Event()
        self.expected: dict[str, tuple[bytes, ...]] = {}  # step body FNV-1a -> each C++ rank's answer, hashed
        self.nonces: dict[str, tuple[int, str, int]] = {}  # nonce -> (step, body FNV-1a, rank)
        self.faulted: list[tuple[int, str, str]] = []      # (step, body FNV-1a, kind) not to be folded
        self.error: Optional[BaseException] = None

    def ask(self, kind: str) -> None:
        with self.lock:
            self.asked.append(kind)

    def impersonate(self, rank: int, steps: int) -> None:
        self.impostor_done.clear()
        with self.lock:
            self.impostor_rank, self.impostor_steps = rank, steps

    def _reply(self, sock: zmq.Socket, frames: list[bytes], rank: int, fault: Optional[str]) -> None:
        _, number, fmt, body = frames
        digest = fnv1a(body)
        step = ref._object(ref.ECMooncakeConnectorMetadata, decode(body, fmt.decode()), "")
        answers = tuple(answer_digest(play(step, r)) for r in range(CXX_RANKS))
        with self.lock:
            self.expected[digest] = answers
        nonce = f"nonce-{len(self.nonces)}-{self.rng.getrandbits(32):08x}"
        hashes = [l.mm_hash for l in step.loads]
        mine = ref.ECMooncakeWorkerMetadata(
            loaded={h for h in hashes if self.rng.random() < 0.9},
            failed_loads={h for h in hashes if self.rng.random() < 0.05},
            reclaimed=set((step.freed or [])[:self.rng.randrange(3)]),
            pending_saves=self.rng.random() < 0.5, failed_saves={nonce})
        out = self.rng.choice(["msgpack", "json"])
        good = encode(mine, out)
        head = [b"report", number, str(rank).encode()]
        if fault is None:
            with self.lock:
                self.nonces[nonce] = (int(number), digest, rank)
            sock.send_multipart(head + [out.encode(), good])
            return
        self.faulted.append((int(number), digest, fault))
        if fault == "wrong_step":
            with self.lock:  # a good report, but for the step before: never to be folded
                self.nonces[nonce] = (int(number) - 1, "wrong step", rank)
            sock.send_multipart([b"report", str(int(number) - 1).encode(), str(rank).encode(), out.encode(), good])
        elif fault == "frames":
            sock.send_multipart([bytes(self.rng.getrandbits(8) for _ in range(self.rng.randrange(1, 8)))])
        else:
            sock.send_multipart(head + GARBAGE[fault](good))

    def run(self) -> None:
        try:
            self._run()
        except BaseException as e:  # noqa: BLE001: reported by the main thread
            self.error = e

    def _run(self) -> None:
        sock = self.ctx.socket(zmq.DEALER)
        sock.linger = 0
        monitor = sock.get_monitor_socket(zmq.EVENT_CONNECTED)
        sock.connect(self.endpoint)
        impostor: Optional[zmq.Socket] = None
        while not self.quit.is_set():
            with self.lock:
                if self.impostor_rank is not None and impostor is None:
                    impostor = self.ctx.socket(zmq.DEALER)
                    impostor.linger = 0
                    impostor.connect(self.endpoint)
                    impostor.send_multipart([b"hello", str(self.impostor_rank).encode()])
            poller = zmq.Poller()
            for s in (sock, monitor, impostor):
                if s is not None:
                    poller.register(s, zmq.POLLIN)
            for s, _ in poller.poll(50):
                if s is monitor:  # every (re)connection: say hello, as ecmeta-worker does
                    if zmq.utils.monitor.recv_monitor_message(monitor)["event"] == zmq.EVENT_CONNECTED:
                        sock.send_multipart([b"hello", str(PY_RANK).encode()])
                    continue
                frames = s.recv_multipart()
                if frames[0] != b"step" or len(frames) != 4:
                    continue
                if s is sock:
                    with self.lock:
                        fault = self.asked.popleft() if self.asked else None
                    self._reply(sock, frames, PY_RANK, fault)
                else:
                    assert impostor is not None and self.impostor_rank is not None
                    self._reply(impostor, frames, self.impostor_rank, None)
                    self.impostor_steps -= 1
                    if self.impostor_steps == 0:
                        impostor.close()
                        impostor = None
                        with self.lock:
                            self.impostor_rank = None
                        self.impostor_done.set()
        sock.close()
        monitor.close()


# ---- processes ----------------------------------------------------------------------------

class Soak:
    def __init__(self, a: argparse.Namespace, workdir: Path):
        self.a = a
        self.dir = workdir
        self.rng = random.Random(a.seed)
        self.workers: list[Optional[subprocess.Popen]] = [None] * CXX_RANKS
        self.stopped: set[int] = set()
        self.schedulers: list[subprocess.Popen] = []
        self.faults: collections.Counter[str] = collections.Counter()
        self.samples: list[list[tuple[float, int, int]]] = []  # per scheduler: (age, rss bytes, fds)
        self.endpoint = "tcp://127.0.0.1:*"
        self.unexpected_exits: list[str] = []
        self.logs: list[list[str]] = []

    def start_scheduler(self) -> None:
        n = len(self.schedulers)
        p = subprocess.Popen(
            [self.a.scheduler, "--bind", self.endpoint, "--workers", str(WORKERS), "--steps", "1000000000",
             "--loads", "8", "--interval-ms", "20", "--deadline-ms", str(DEADLINE_MS), "--startup-ms", "3000",
             "--seed", str(self.a.seed * 1000 + n), "--format", "json" if n % 2 else "msgpack", "--quiet",
             "--trace", str(self.dir / f"trace-{n}.jsonl")],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace", bufsize=1)
        first = p.stdout.readline()
        if not first.startswith("listening on tcp://"):
            raise Failed(f"scheduler {n}'s first line: {first!r}")
        self.endpoint = first.split()[-1]
        log: list[str] = []
        # Its output is read and dropped (the trace is what is checked), so that a pipe never fills.
        threading.Thread(target=lambda: [None for _ in p.stdout], daemon=True).start()
        threading.Thread(target=lambda: log.extend(p.stderr), daemon=True).start()
        self.schedulers.append(p)
        self.samples.append([])
        self.logs.append(log)
        self.born = time.monotonic()

    def start_worker(self, rank: int) -> None:
        self.workers[rank] = subprocess.Popen(
            [self.a.worker, "--connect", self.endpoint, "--rank", str(rank), "--idle-ms", "60000",
             "--format", "json" if rank == 2 else "msgpack"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def kill_worker(self, rank: int) -> None:
        w = self.workers[rank]
        assert w is not None
        if rank in self.stopped:
            w.send_signal(signal.SIGCONT)
            self.stopped.discard(rank)
        if w.poll() is not None:
            self.unexpected_exits.append(f"worker {rank} exited with {w.returncode}")
        w.kill()
        w.wait()

    def sample(self) -> None:
        p = self.schedulers[-1]
        try:
            status = Path(f"/proc/{p.pid}/status").read_text()
            rss = next(int(l.split()[1]) * 1024 for l in status.splitlines() if l.startswith("VmRSS:"))
            fds = len(os.listdir(f"/proc/{p.pid}/fd"))
        except (OSError, StopIteration):
            return
        self.samples[-1].append((time.monotonic() - self.born, rss, fds))

    def alive_check(self) -> None:
        p = self.schedulers[-1]
        if p.poll() is not None:
            raise Failed(f"scheduler {len(self.schedulers) - 1} exited by itself ({p.returncode}): "
                         + "".join(self.logs[-1][-5:]))

    def warm_up(self, peers: Peers) -> None:
        """Every kind of bad reply, twice, early in a scheduler's warm-up: memory is judged after the
        process has seen each, so growth after that is a leak, not the first sight of a big message.
        Twice, because glibc maps the first 1 MiB body's memory and hands it back, then raises its
        mapping threshold, so the second is served from the heap, which keeps it for reuse."""
        for kind in [*sorted(GARBAGE), "wrong_step"] * 2:
            peers.ask(kind)
            self.faults[kind if kind == "wrong_step" else f"garbage_{kind}"] += 1

    def run(self, peers_seed: int) -> "Peers":
        self.start_scheduler()
        peers = Peers(self.endpoint, peers_seed)
        peers.start()
        for rank in range(CXX_RANKS):
            self.start_worker(rank)
        self.warm_up(peers)
        end = time.monotonic() + self.a.seconds
        # The scheduler is killed on a schedule rather than at random: often enough to be seen, seldom
        # enough that each one lives long enough to judge its memory.
        scheduler_every = self.a.scheduler_every or max(20.0, min(300.0, self.a.seconds / 2))
        next_scheduler_kill = time.monotonic() + scheduler_every
        next_fault = time.monotonic() + 3.0
        while time.monotonic() < end:
            time.sleep(0.25)
            self.alive_check()
            if peers.error:
                raise Failed(f"the Python peers failed: {peers.error!r}")
            if len(self.samples[-1]) == 0 or time.monotonic() - self.born - self.samples[-1][-1][0] >= 1.0:
                self.sample()
            now = time.monotonic()
            if now >= next_scheduler_kill and now < end - 10:
                self.faults["scheduler_killed"] += 1
                self.schedulers[-1].kill()
                self.schedulers[-1].wait()
                self.start_scheduler()
                self.warm_up(peers)
                next_scheduler_kill = now + scheduler_every
                continue
            if now < next_fault:
                continue
            next_fault = now + self.rng.uniform(1.0, 3.0)
            kind = self.rng.choice(["worker_killed", "worker_stopped", "garbage", "wrong_step", "impostor"])
            rank = self.rng.randrange(CXX_RANKS)
            if kind == "worker_killed":
                self.kill_worker(rank)
                time.sleep(self.rng.uniform(0.0, 0.5))
                self.start_worker(rank)
            elif kind == "worker_stopped":
                self.workers[rank].send_signal(signal.SIGSTOP)
                self.stopped.add(rank)
                time.sleep(self.rng.uniform(0.3, 1.0))
                self.workers[rank].send_signal(signal.SIGCONT)
                self.stopped.discard(rank)
            elif kind == "garbage":
                kind = "garbage_" + self.rng.choice(sorted(GARBAGE))
                peers.ask(kind.removeprefix("garbage_"))
            elif kind == "wrong_step":
                peers.ask("wrong_step")
            else:  # a peer takes rank R from its worker for a few steps; the worker is restarted to get it back
                peers.impersonate(rank, self.rng.randrange(2, 6))
                if not peers.impostor_done.wait(10):
                    raise Failed(f"the impostor of rank {rank} got no steps")
                self.kill_worker(rank)
                self.start_worker(rank)
            self.faults[kind] += 1
        self.alive_check()
        time.sleep(1.0)  # the faults asked for last are answered
        peers.quit.set()
        peers.join(5)
        return peers

    def stop(self) -> None:
        for p in [*self.schedulers, *(w for w in self.workers if w is not None)]:
            if p.poll() is None:
                p.send_signal(signal.SIGCONT)
                p.kill()
            p.wait()


# ---- the checks -------------------------------------------------------------------------------

def check(soak: Soak, peers: Peers) -> dict[str, Any]:
    mismatches: list[str] = []
    figures: collections.Counter[str] = collections.Counter()
    accepted_nonces: set[str] = set()
    faulted = {(number, digest): kind for number, digest, kind in peers.faulted}
    faulted_seen = 0

    def bad(what: str) -> None:
        if len(mismatches) < 20:
            mismatches.append(what)
        figures["mismatches"] += 1

    for n in range(len(soak.schedulers)):
        lines = (soak.dir / f"trace-{n}.jsonl").read_text().split("\n")
        # A scheduler killed mid-write may leave one unfinished line at the end; nothing else may be.
        complete = lines[:-1]
        for number, text in enumerate(complete, start=1):
            t = json.loads(text)
            where = f"scheduler {n} step {t['step']}"
            if t["step"] != number:
                bad(f"{where}: line {number} of the trace")
            ranks = {int(r) for r in t["reports"]} | set(t["none"]) | set(t["silent"])
            if ranks != set(range(WORKERS)) or len(t["reports"]) + len(t["none"]) + len(t["silent"]) != WORKERS:
                bad(f"{where}: ranks {ranks} are not each listed once")
            reports = [ref._object(ref.ECMooncakeWorkerMetadata, t["reports"][str(r)], "")
                       if str(r) in t["reports"] else None for r in range(WORKERS)]
            expected = ref.fold(reports)
            got = None if t["aggregate"] is None else ref._object(ref.ECMooncakeWorkerMetadata, t["aggregate"], "")
            figures["folds_checked"] += 1
            if got != expected:
                bad(f"{where}: aggregate {t['aggregate']} != reference fold {ref.canonical(expected)}")
            answers = peers.expected.get(t["body_fnv1a"])
            for rank, report in enumerate(reports):
                if report is None:
                    continue
                nonces = [x for x in report.failed_saves if x.startswith("nonce-")]
                if nonces:  # a Python peer's reply: to this step, from this rank, accepted once
                    figures["python_reports_checked"] += 1
                    sent = peers.nonces.get(nonces[0])
                    if len(nonces) != 1 or sent != (t["step"], t["body_fnv1a"], rank) or nonces[0] in accepted_nonces:
                        bad(f"{where}: rank {rank}'s report {nonces} was sent as {sent}")
                    accepted_nonces.add(nonces[0])
                elif rank == PY_RANK:
                    bad(f"{where}: rank {PY_RANK}'s report has no nonce")
                elif answers is None:
                    figures["cxx_reports_unverifiable"] += 1  # rank 4 never saw this body
                else:
                    figures["cxx_reports_checked"] += 1
                    if answer_digest(report) != answers[rank]:
                        bad(f"{where}: rank {rank} reported {ref.canonical(report)}, not what its rule gives")
            if (t["step"], t["body_fnv1a"]) in faulted:
                faulted_seen += 1
                kind = faulted[(t["step"], t["body_fnv1a"])]
                if str(PY_RANK) in t["reports"] or not any(f"rank {PY_RANK}" in l for l in t["log"]):
                    bad(f"{where}: {kind} from rank {PY_RANK} was folded, or not logged: {t['log']}")
            for line in t["log"]:
                figures["lines_logged"] += 1
                named = line.split(":")[0].split(" step ")[0]
                if named in {f"rank {r}" for r in range(CXX_RANKS)} and (
                        "bad report" in line or "a message of" in line or "is not msgpack or json" in line):
                    bad(f"{where}: a C++ worker's reply was dropped as malformed: {line}")
    figures["faulted_replies_checked"] = faulted_seen
    figures["steps"] = figures["folds_checked"]
    return {"figures": figures, "mismatches": mismatches}


def memory(soak: Soak, judge_rss: bool) -> dict[str, Any]:
    """Where each scheduler's memory settles: the median of its last five samples against the median
    of the five after its warm-up (its high-water mark, bounded by HIGH_WATER) and against the median
    of the five at the middle of its life (growth: a leak keeps rising there, a high-water mark has
    stopped; bounded by RSS_BOUND). Handling one 1 MiB body lifts the resident set for a moment,
    which the peak reports and the bounds ignore."""
    out: dict[str, Any] = {"peak_rss_mib": 0.0, "rss_growth_kib": 0, "late_growth_kib": 0, "fd_growth": 0,
                           "judged": 0, "failures": [], "series": []}
    for n, samples in enumerate(soak.samples):
        if samples:
            out["peak_rss_mib"] = max(out["peak_rss_mib"], max(s[1] for s in samples) / 2**20)
        settled = [s for s in samples if s[0] >= WARM_UP]
        if len(settled) < 10:
            continue
        out["judged"] += 1
        rss0, fd0 = statistics.median(s[1] for s in settled[:5]), statistics.median(s[2] for s in settled[:5])
        last = statistics.median(s[1] for s in settled[-5:])
        growth = int(last - rss0)
        middle = len(settled) // 2
        late_growth = int(last - statistics.median(s[1] for s in settled[middle - 2:middle + 3]))
        fd_growth = int(statistics.median(s[2] for s in settled[-5:]) - fd0)
        out["rss_growth_kib"] = max(out["rss_growth_kib"], growth // 1024)
        out["late_growth_kib"] = max(out["late_growth_kib"], late_growth // 1024)
        out["fd_growth"] = max(out["fd_growth"], fd_growth)
        every = max(1, len(settled) // 12)
        series = ", ".join(f"{age:.0f} s {rss >> 10}" for age, rss, _ in settled[::every])
        out["series"].append(f"scheduler {n}, resident KiB by age: {series}")
        if (judge_rss and (growth > HIGH_WATER or late_growth > RSS_BOUND)) or fd_growth > FD_BOUND:
            out["failures"].append(f"scheduler {n}: resident memory settled {growth // 1024} KiB higher, "
                                   f"{late_growth // 1024} KiB of it in the second half, descriptors {fd_growth} "
                                   f"more, over {settled[-1][0]:.0f} s ({series})")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scheduler", required=True)
    ap.add_argument("--worker", required=True)
    ap.add_argument("--seconds", type=float, default=float(os.environ.get("ECMETA_SOAK_SECONDS", 60)))
    ap.add_argument("--seed", type=int, default=int(os.environ.get("ECMETA_SOAK_SEED", 20261204)))
    ap.add_argument("--keep", help="keep the traces in this directory")
    ap.add_argument("--scheduler-every", type=float, default=0.0,
                    help="seconds between scheduler kills (default: half the run, at most 300)")
    ap.add_argument("--sanitized", action="store_true",
                    help="the programs run under AddressSanitizer, whose quarantine holds freed memory: "
                         "resident memory is reported, not judged")
    a = ap.parse_args()
    workdir = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="ecmeta-soak-"))
    workdir.mkdir(parents=True, exist_ok=True)
    soak = Soak(a, workdir)
    started = time.monotonic()
    try:
        peers = soak.run(a.seed + 1)
        soak.stop()
        result = check(soak, peers)
        mem = memory(soak, judge_rss=not a.sanitized)
    except Failed as e:
        print(f"FAILED soak (seed {a.seed}): {e}", file=sys.stderr)
        return 1
    finally:
        soak.stop()
        zmq.Context.instance().destroy(linger=0)
    f = result["figures"]
    faults = dict(sorted(soak.faults.items()))
    print(f"soak: {time.monotonic() - started:.0f} s, seed {a.seed}, {len(soak.schedulers)} scheduler runs, "
          f"{f['steps']} steps")
    print(f"  faults injected: {sum(faults.values())} {faults}")
    print(f"  folds checked against the reference: {f['folds_checked']}; reports checked: "
          f"{f['cxx_reports_checked']} C++ (their rule), {f['python_reports_checked']} Python (nonces), "
          f"{f['cxx_reports_unverifiable']} unverifiable; faulty replies seen refused: {f['faulted_replies_checked']}")
    print(f"  mismatches: {f['mismatches']}")
    print(f"  scheduler: peak RSS {mem['peak_rss_mib']:.1f} MiB; after {WARM_UP:.0f} s of warm-up, settled at most "
          f"{mem['rss_growth_kib']} KiB higher (bound {HIGH_WATER >> 10}), {mem['late_growth_kib']} KiB of it in the "
          f"second half (bound {RSS_BOUND >> 10}), with at most {mem['fd_growth']} more "
          f"descriptors (bound {FD_BOUND}), over {mem['judged']} runs")
    if mem["series"] and (a.seconds >= 600 or a.keep):
        print("  " + "\n  ".join(mem["series"][:3]))
    if a.sanitized:
        print("  (sanitized build: resident memory not judged)")
    failures = [*result["mismatches"], *mem["failures"], *soak.unexpected_exits]
    if f["folds_checked"] < 10 * len(soak.schedulers) or f["python_reports_checked"] == 0 \
            or f["cxx_reports_checked"] == 0 or f["faulted_replies_checked"] == 0:
        failures.append(f"the soak exercised too little: {dict(f)}")
    if f["cxx_reports_unverifiable"] > f["cxx_reports_checked"] // 100 + 8:
        failures.append(f"{f['cxx_reports_unverifiable']} C++ reports could not be checked")
    if failures:
        print("FAILED soak:", *failures, sep="\n  ", file=sys.stderr)
        print(f"  the traces are kept in {workdir}", file=sys.stderr)
        return 1
    if not a.keep:
        shutil.rmtree(workdir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
