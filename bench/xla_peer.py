"""Parent side of the XLA peer: start bench/xla_worker.py in a subprocess, stream its progress, merge its rows."""
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from bench.accuracy import accuracy_cases
from bench.methods import XLA_PRESETS
from bench.profiles import gemm_flops

REPO_ROOT = Path(__file__).resolve().parents[1]
GRACE_S = 90   # past the worker's own deadline (import, compile, the case in flight) before it is stopped


def worker_spec(ctx, names, sections, budget_s):
    p = ctx.profile
    measured = [r["shape"] for r in ctx.results["throughput"]]
    return {
        "presets": {name: XLA_PRESETS[name] for name in names},
        # only the shapes the in-process methods could run (memory and time skips apply to the peer too)
        "throughput": [list(s) for s in p.shapes if list(s) in measured],
        "accuracy": list(accuracy_cases(p)) if "accuracy" in sections else [],
        "energy": {"n": p.energy_n, "seconds": p.energy_seconds}
        if "energy" in sections and ctx.nvml is not None else None,
        "case_budget_s": p.case_budget_s,
        "warmup_s": p.warmup_s,
        "l2_bytes": ctx.l2_bytes,
        "pci_bus_id": ctx.pci_bus_id,
        "deadline_s": budget_s,
    }


def run_xla(ctx, names, sections):
    """Measure the XLA presets `names` in a worker, for the given sections, within a share of the time left."""
    budget_s = ctx.deadline.remaining() * ctx.xla_share
    if budget_s <= 0:
        ctx.note("XLA peers skipped: time budget spent")
        return
    env = dict(os.environ, XLA_PYTHON_CLIENT_PREALLOCATE="false", PYTHONUNBUFFERED="1")
    with tempfile.TemporaryDirectory(prefix="ecgemm-bench-xla-") as tmp:
        spec_path, out_path = os.path.join(tmp, "spec.json"), os.path.join(tmp, "out.json")
        with open(spec_path, "w") as f:
            json.dump(worker_spec(ctx, names, sections, budget_s), f)
        proc = subprocess.Popen([sys.executable, "-m", "bench.xla_worker", spec_path, out_path], cwd=REPO_ROOT,
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        timer = threading.Timer(budget_s + GRACE_S, proc.kill)
        timer.start()
        try:
            for line in proc.stdout:
                ctx.progress("xla | " + line.rstrip())
            code = proc.wait()
        finally:
            timer.cancel()
        if code != 0:
            ctx.note(f"XLA worker exited with status {code}; keeping what it wrote")
        try:
            with open(out_path) as f:
                found = json.load(f)
        except (OSError, ValueError) as exc:
            ctx.note(f"XLA peers: no results ({exc})")
            return
    merge(ctx.results, found)


def merge(results, found):
    """Add the worker's rows to `results` (throughput rows get TFLOP/s like the in-process ones)."""
    results["env"]["xla"] = found.get("env")
    for row in found.get("throughput", []):
        if row.get("ms"):
            row["tflops"] = gemm_flops(row["shape"]) / row["ms"] / 1e9
        results["throughput"].append(row)
    for section in ("accuracy", "exp_types", "energy"):
        results[section].extend(found.get(section, []))
    results["notes"].extend(found.get("notes", []))
