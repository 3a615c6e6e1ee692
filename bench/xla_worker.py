"""XLA's multi-pass FP32 presets, measured in their own process (so that JAX's allocator and torch's do not
compete for the GPU). Run by bench/xla_peer.py as `python -m bench.xla_worker SPEC.json OUT.json`.

It rebuilds the parent's seeded inputs bit for bit (bench/inputs.py), so its residuals are on the same operands
as every other method's; the FP64 reference is XLA's own FP64 product on the GPU. OUT.json is rewritten after
every case, so a worker stopped at its deadline still leaves what it measured.
"""
import json
import os
import sys
import time

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


class Worker:
    def __init__(self, spec, out_path):
        import jax
        jax.config.update("jax_enable_x64", True)   # for the FP64 reference only; every operand is float32
        import jax.numpy as jnp
        self.jax, self.jnp, self.spec, self.out_path = jax, jnp, spec, out_path
        self.t0 = time.perf_counter()
        self.out = {"env": self._env(), "throughput": [], "accuracy": [], "exp_types": [], "energy": [], "notes": []}
        presets = jax.lax.DotAlgorithmPreset
        self.fns = {}
        for name, preset in spec["presets"].items():
            if hasattr(presets, preset):
                self.fns[name] = jax.jit(self._matmul(getattr(presets, preset)))
            else:
                self.out["notes"].append(f"{name}: this JAX has no DotAlgorithmPreset.{preset}")
        f64 = jnp.float64
        self.reference = jax.jit(lambda a, b: jnp.matmul(a.astype(f64), b.astype(f64),
                                                         precision=jax.lax.Precision.HIGHEST))
        self.residual = jax.jit(lambda c, ref: jnp.linalg.norm(c.astype(f64) - ref) / jnp.linalg.norm(ref))

    def _matmul(self, preset):
        jnp = self.jnp
        return lambda a, b: jnp.matmul(a, b, precision=preset, preferred_element_type=jnp.float32)

    def _env(self):
        jax = self.jax
        env = {"jax": jax.__version__, "devices": [str(d) for d in jax.devices()]}
        try:
            import jaxlib
            env["jaxlib"] = jaxlib.__version__
            env["platform_version"] = jax.devices()[0].client.platform_version
        except Exception as exc:  # noqa: BLE001  (informational only)
            env["platform_version"] = f"unknown ({type(exc).__name__})"
        return env

    def expired(self):
        return time.perf_counter() - self.t0 > self.spec["deadline_s"]

    def save(self):
        with open(self.out_path + ".tmp", "w") as f:
            json.dump(self.out, f, allow_nan=True)
        os.replace(self.out_path + ".tmp", self.out_path)

    def put(self, array):
        return self.jax.device_put(array)

    def residuals(self, a, b):
        ref = self.reference(a, b)
        found = {}
        for name, fn in self.fns.items():
            try:
                found[name] = (float(self.residual(fn(a, b), ref)), None)
            except Exception as exc:  # noqa: BLE001
                found[name] = (None, f"{type(exc).__name__}: {exc}"[:300])
        return found

    def throughput(self):
        from bench import inputs
        from bench.timing import rotation_sets, time_host
        for m, k, n in self.spec["throughput"]:
            if self.expired():
                self.out["notes"].append(f"xla throughput {m}×{k}×{n} skipped: time budget spent")
                continue
            sets = rotation_sets(4 * (m * k + k * n + m * n), self.spec["l2_bytes"])
            pairs = [inputs.throughput_pair(m, k, n)]
            pairs += [inputs.urand_pair(m, k, n, seed=inputs.case_seed("rotation", m, k, n, i))
                      for i in range(1, sets)]
            operands = [(self.put(a), self.put(b)) for a, b in pairs]
            del pairs
            found = self.residuals(*operands[0])
            for name, fn in self.fns.items():
                row = {"method": name, "shape": [m, k, n], "residual": found[name][0]}
                try:
                    if found[name][1]:
                        raise RuntimeError(found[name][1])
                    calls = [(lambda a=a, b=b, fn=fn: fn(a, b)) for a, b in operands]
                    timing = time_host(calls, lambda h: h.block_until_ready(), self.spec["case_budget_s"],
                                       self.spec["warmup_s"])
                    row.update(ms=timing.median_ms, timing=timing.as_dict())
                    log(f"{name:16s} {m}×{k}×{n}  {timing.median_ms:9.3f} ms  residual {row['residual']:.2e}")
                except Exception as exc:  # noqa: BLE001
                    row["error"] = f"{type(exc).__name__}: {exc}"[:300]
                    log(f"{name:16s} {m}×{k}×{n}  error: {row['error']}")
                self.out["throughput"].append(row)
            del operands
            self.save()

    def accuracy(self):
        from bench.accuracy import case_inputs, residual_rows
        for case in self.spec["accuracy"]:
            if self.expired():
                self.out["notes"].append(f"xla {case['section']} {case['shape']} skipped: time budget spent")
                continue
            found = self.residuals(*(self.put(x) for x in case_inputs(case)))
            self.out[case["section"]].extend(residual_rows(case, found))
            log(f"{case['section']} {case['shape']} " + ", ".join(f"{k} {v[0]}" for k, v in found.items()))
            self.save()

    def energy(self):
        from bench import inputs
        from bench.energy import Nvml, measure_energy
        e = self.spec.get("energy")
        if not e:
            return
        n = e["n"]
        try:
            nvml = Nvml(self.spec.get("pci_bus_id"))
        except Exception as exc:  # noqa: BLE001
            self.out["notes"].append(f"xla energy skipped: NVML not usable ({exc})")
            return
        a, b = (self.put(x) for x in inputs.energy_pair(n))
        for name, fn in self.fns.items():
            if self.expired():
                self.out["notes"].append(f"xla energy {name} skipped: time budget spent")
                continue
            row = {"method": name, "n": n}
            try:
                call, wait = _call_and_wait(fn, a, b)
                row.update(measure_energy(nvml, call, wait, e["seconds"], 2.0 * n ** 3))
                log(f"energy {name:16s} {row['gflop_per_joule']:.1f} GFLOP/J  {row['watts']:.1f} W")
            except Exception as exc:  # noqa: BLE001
                row["error"] = f"{type(exc).__name__}: {exc}"[:300]
            self.out["energy"].append(row)
            self.save()


def _call_and_wait(fn, a, b):
    """measure_energy's call() and sync() for JAX: sync waits for the last result (one stream, in order)."""
    last = []

    def call():
        last[:] = [fn(a, b)]

    return call, lambda: last[0].block_until_ready()


def main(argv):
    spec_path, out_path = argv
    with open(spec_path) as f:
        spec = json.load(f)
    worker = Worker(spec, out_path)
    worker.save()
    for section in ("throughput", "accuracy", "energy"):
        getattr(worker, section)()
    worker.save()
    log(f"done in {time.perf_counter() - worker.t0:.0f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
