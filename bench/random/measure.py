"""Measuring the random sample on the GPU: ecgemm's modes beside cuBLAS on the same operands, in one process.

Per case and method: the first call's output (poisoned with NaN first) against the FP64 product of the same
FP32 operands; the GPU time of back-to-back calls (CUDA events around rounds of calls queued behind a GPU sleep
that outlasts issuing them, so that the caller's cost per call drops out; the median of the rounds issued within
their sleep); the end-to-end
time of one call from Python (issue, run, synchronise, from an idle GPU: what a user waits for); and, for
ecgemm, the plan `ecgemm.explain` names. cuBLAS is torch.matmul (2-D) or torch.bmm (batches) with TF32 off.

Padding of a sliced operand is filled with NaN: a kernel that reads it instead of skipping it shows a NaN
residual. Operands stay where they are between calls (in L2 when they fit, for cuBLAS and ecgemm alike).
"""
import os
import statistics
import sys
import time

from bench.inputs import case_seed
from bench.methods import set_tf32
from bench.random import sample as smp
from bench.timing import GPU_CYCLES_PER_MS

CUBLAS = "cublas"                  # the reference method's key in every row
FAMILY_PIN = "ECGEMM_FAMILY"       # libecgemm's pin of one kernel family (read per call: planner.cpp)
NAN = float("nan")
EMPTY_CACHE_BYTES = 2 * 2**30      # hand cached blocks back after a case this large
WARMUP_S = 0.5                     # back-to-back SGEMMs before the first case, so that clocks have risen
WARMUP_N = 4096


class Measurer:
    """Measures cases one by one; a method that raises is recorded as an error and the others go on."""

    def __init__(self, torch, ecgemm, modes, positive, seed, device="cuda", families=()):
        self.torch, self.ecgemm, self.modes = torch, ecgemm, tuple(modes)
        self.positive, self.seed, self.device = positive, seed, device
        self.families = tuple(families)
        self.explain = getattr(ecgemm, "explain", None)
        os.environ.pop(FAMILY_PIN, None)   # a caller's pin would make "the planner's route" a pinned one
        set_tf32(torch, False)

    # ------------------------------------------------------------------------------------------ operands
    def _generator(self, case, operand):
        return self.torch.Generator(device=self.device).manual_seed(case_seed(self.seed, case.id, operand))

    def _fill(self, view, generator):
        lo = 0.0 if self.positive else -1.0
        view.uniform_(lo, 1.0, generator=generator)

    def _matrix(self, case, operand, stored, pad, trans):
        """A (rows × cols) row-major array with ld = cols + pad (padding NaN), or its transpose as a view."""
        torch = self.torch
        rows, cols = stored
        store = torch.full((rows, cols + pad), NAN, device=self.device, dtype=torch.float32)
        view = store[:, :cols]
        self._fill(view, self._generator(case, operand))
        return view.t() if trans else view

    def gemm_operands(self, case):
        a = self._matrix(case, "A", case.stored_a, case.pad_a, case.trans_a)
        b = self._matrix(case, "B", case.stored_b, case.pad_b, case.trans_b)
        return a, b

    def batched_operands(self, case):
        torch = self.torch
        a = torch.empty((case.batch, case.m, case.k), device=self.device, dtype=torch.float32)
        b = torch.empty((case.batch, case.k, case.n), device=self.device, dtype=torch.float32)
        self._fill(a, self._generator(case, "A"))
        self._fill(b, self._generator(case, "B"))
        return a, b

    # ------------------------------------------------------------------------------------------ cases
    def gemm_case(self, case):
        torch = self.torch
        t0 = time.perf_counter()
        a, b = self.gemm_operands(case)
        out = torch.empty((case.m, case.n), device=self.device, dtype=torch.float32)
        ref = torch.matmul(a.double(), b.double())
        return self._case(case, t0, a, b, out, ref, lambda: torch.matmul(a, b, out=out))

    def batched_case(self, case):
        torch = self.torch
        t0 = time.perf_counter()
        a, b = self.batched_operands(case)
        out = torch.empty((case.batch, case.m, case.n), device=self.device, dtype=torch.float32)
        ref = torch.bmm(a.double(), b.double())
        return self._case(case, t0, a, b, out, ref, lambda: torch.bmm(a, b, out=out))

    def _case(self, case, t0, a, b, out, ref, cublas_call):
        """The row of one case; its tensors are freed when the caller returns (see release)."""
        torch = self.torch
        ref_norm = torch.linalg.vector_norm(ref).item()
        methods = {CUBLAS: self._method(cublas_call, out, ref, ref_norm)}
        for mode in self.modes:
            entry = self._method(lambda mode=mode: self.ecgemm.matmul(a, b, out=out, mode=mode), out, ref, ref_norm)
            entry["route"] = self._route(a, b, mode)
            methods[mode] = entry
        for mode in self.modes:
            for family in self.families:
                methods[pinned_name(mode, family)] = self._pinned(a, b, out, ref, ref_norm, mode, family)
        return {**case.as_dict(), "estimated_s": smp.case_seconds(case, smp.methods_of(self.modes)),
                "measured_s": time.perf_counter() - t0, "methods": methods}

    def release(self, case):
        """After a large case, hand torch's cached blocks back, so that ecgemm's own pool can grow."""
        if case.device_bytes() > EMPTY_CACHE_BYTES:
            self.torch.cuda.empty_cache()

    def _pinned(self, a, b, out, ref, ref_norm, mode, family):
        """One mode with one kernel family pinned (the planner's cost-model calibration): residual and GPU time,
        or "skipped" where the family cannot run the call (the pin then falls through to another family)."""
        os.environ[FAMILY_PIN] = family
        try:
            route = self._route(a, b, mode)
            # "fused_mma:32": a family's tile; "fused_mma/halfhalf": AUTO's products there;
            # "fused_mma/fp32": its FP32 form, which the route names as its method; "fused_mma:64/unsplit":
            # k not split, timed only where the plain pin's plan splits it (else the same plan).
            # "fused_wgmma:narrow": its narrow tiles, where the call has a side they take; "simt:stream",
            # "simt:strips": simt's short-k tiles, where the call may take either.
            if f"family={family.split('/')[0].split(':')[0]} " not in route + " " or (
                    family.endswith("/fp32") and " method=fp32 " not in route) or (
                    family == "fused_wgmma:narrow" and "x128 " in route) or (
                    family.startswith("simt:") and f" tile={family.split(':')[1]} " not in route + " "):
                return {"skipped": route}
            if family.endswith("/unsplit"):
                os.environ[FAMILY_PIN] = family.rsplit("/", 1)[0]
                split = " splits=1 " not in self._route(a, b, mode)
                os.environ[FAMILY_PIN] = family
                if not split:
                    return {"skipped": route}
            call = lambda: self.ecgemm.matmul(a, b, out=out, mode=mode)  # noqa: E731
            return {**self._method(call, out, ref, ref_norm, e2e=False), "route": route}
        finally:
            os.environ.pop(FAMILY_PIN, None)

    def _route(self, a, b, mode):
        if self.explain is None:
            return "unknown"
        try:
            return str(self.explain(a, b, mode=mode))
        except Exception as exc:  # noqa: BLE001  (the plan is a label; its absence must not lose the timing)
            return f"unknown ({type(exc).__name__}: {exc})"[:200]

    # ------------------------------------------------------------------------------------------ one method
    def _method(self, call, out, ref, ref_norm, e2e=True):
        torch = self.torch
        try:
            out.fill_(NAN)                 # an element the method does not write makes the residual NaN
            call()                         # the first call plans, allocates and is the one checked
            torch.cuda.synchronize()
            residual = _relative_residual(torch, out, ref, ref_norm)
            estimate_ms, issue_ms = self._one_call(call)
            calls, rounds, reps = smp.timing_plan(estimate_ms)
            entry = {"residual": residual, **self._gpu_time(call, calls, rounds, issue_ms)}
            if e2e:
                entry.update(self._e2e(call, reps))
        except Exception as exc:  # noqa: BLE001  (one broken method must not stop the others)
            torch.cuda.synchronize()       # a sticky CUDA error raises here and ends the run
            return {"error": f"{type(exc).__name__}: {exc}"[:300]}
        return entry

    def _events(self):
        return self.torch.cuda.Event(enable_timing=True), self.torch.cuda.Event(enable_timing=True)

    def _one_call(self, call, tries=3):
        """(GPU ms of one call from an idle queue, host ms to issue it), the fastest of `tries`: the plan's estimate,
        which sets the calls a round (one slow try, the host descheduled, would leave a 2 µs call one a round)."""
        best = None
        for _ in range(tries):
            start, end = self._events()
            self.torch.cuda.synchronize()
            start.record()
            t0 = time.perf_counter()
            call()
            issue = (time.perf_counter() - t0) * 1e3
            end.record()
            end.synchronize()
            timed = (start.elapsed_time(end), issue)
            best = timed if best is None else (min(best[0], timed[0]), min(best[1], timed[1]))
        return best

    def _gpu_time(self, call, calls, rounds, issue_ms):
        """Median GPU ms per call over `rounds` rounds of `calls` back-to-back calls, each round queued behind a
        GPU sleep of twice the time issuing it takes (the longest issue seen so far). A round whose two events and
        calls were not all issued within its sleep may time the caller's gaps (the host slower than the sleep, or
        descheduled between the events): it is counted in host_paced_rounds, left out of the median and timed
        again, up to `rounds` more times; where no round was clean, the median is of all."""
        host = max(smp.HOST_MS_PER_CALL, issue_ms)
        clean, paced, issues = [], [], []
        for _ in range(2 * rounds):
            if len(clean) >= rounds:
                break
            sleep_ms = smp.prefill_ms(calls, host)
            start, end = self._events()
            self.torch.cuda._sleep(int(sleep_ms * GPU_CYCLES_PER_MS))
            t0 = time.perf_counter()
            start.record()
            for _ in range(calls):
                call()
            end.record()
            window = (time.perf_counter() - t0) * 1e3
            end.synchronize()
            (paced if window >= sleep_ms else clean).append(start.elapsed_time(end) / calls)
            issues.append(window / calls)
            host = max(host, window / calls)
        samples = clean or paced
        return {"gpu_ms": statistics.median(samples), "gpu_samples_ms": samples, "calls_per_round": calls,
                "host_ms_per_call": statistics.median(issues), "host_paced_rounds": len(paced)}

    def _e2e(self, call, reps):
        """Median wall ms of one call and a synchronisation, from an idle GPU."""
        torch = self.torch
        samples = []
        for _ in range(reps):
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            call()
            torch.cuda.synchronize()
            samples.append((time.perf_counter() - t0) * 1e3)
        return {"e2e_ms": statistics.median(samples), "e2e_samples_ms": samples}


def pinned_name(mode, family):
    """The methods key of a mode run with one family pinned: "tf32tf32@fused_mma"."""
    return f"{mode}@{family}"


def _relative_residual(torch, c, ref, ref_norm):
    """‖c − ref‖_F / ‖ref‖_F in FP64; NaN or Inf anywhere in c comes out non-finite."""
    diff = c.double()
    diff.sub_(ref)
    return torch.linalg.vector_norm(diff).item() / ref_norm


def warm_up(torch, seconds=WARMUP_S):
    """Back-to-back SGEMMs for `seconds`, so the first cases are not timed at idle clocks."""
    x = torch.ones((WARMUP_N, WARMUP_N), device="cuda")
    y = torch.empty_like(x)
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(4):
            torch.matmul(x, x, out=y)
        torch.cuda.synchronize()
    del x, y
    torch.cuda.empty_cache()


def progress(t0, msg):
    t = int(time.monotonic() - t0)
    print(f"[bench.random {t // 60:02d}:{t % 60:02d}] {msg}", file=sys.stderr, flush=True)


def summary_line(row, modes):
    """One progress line: the case and each mode's ratio to cuBLAS."""
    if "error" in row:
        return f"{row['id']} error: {row['error']}"
    ref = row["methods"][CUBLAS]
    parts = [f"{row['id']} {row.get('op', '')} cuBLAS {ref['gpu_ms'] * 1e3:.1f} µs" if "gpu_ms" in ref
             else f"{row['id']} cuBLAS error"]
    for mode in modes:
        e = row["methods"][mode]
        parts.append(f"{mode} {ref['gpu_ms'] / e['gpu_ms']:.2f}×" if "gpu_ms" in e and "gpu_ms" in ref
                     else f"{mode} error")
    return "  ".join(parts)
