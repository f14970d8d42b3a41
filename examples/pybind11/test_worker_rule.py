"""worker_rule.report from Python: a step's reports for four ranks, folded as vLLM's executor folds
them, agree with the rule (a local load always lands; an idle step has nothing to say), and bad
input is refused with the place named."""

import ecmeta
import worker_rule

loads = [ecmeta.ECMooncakeLoadSpec(f"{i:064x}", 7340032, (1024, 3584), "bfloat16", f"t{i}", local=i % 3 == 0)
         for i in range(64)]
pushes = [ecmeta.ECMooncakePushSpec(f"p{i}", 4, (2,), "bfloat16", "tcp://10.0.0.2:19019", f"u{i}", f"r{i}")
          for i in range(8)]
step = ecmeta.ECMooncakeConnectorMetadata(loads=loads, pushes=pushes, freed=["a", "b", "c"])

reports = [worker_rule.report(step, rank) for rank in range(4)]
assert all(type(r) is ecmeta.ECMooncakeWorkerMetadata for r in reports)
folded = ecmeta.aggregate(reports + [None])
python_fold = reports[0]
for r in reports[1:]:
    python_fold = python_fold.aggregate(r)
assert folded == python_fold
assert {l.mm_hash for l in loads if l.local} <= folded.loaded
assert folded.loaded.isdisjoint(folded.failed_loads)
assert worker_rule.report(ecmeta.ECMooncakeConnectorMetadata(), 0) is None

try:
    worker_rule.report({"loads": [{"mm_hash": "h"}]}, 0)
except ecmeta.DecodeError as e:
    assert e.pointer == "/loads/0/nbytes", e.pointer
else:
    raise AssertionError("a load without nbytes was taken")
print(f"4 ranks: {len(folded.loaded)} loaded everywhere, {len(folded.failed_loads)} failed somewhere")
