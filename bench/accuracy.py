"""Accuracy against an FP64 product of the same FP32 inputs: the paper's Figure 1 (64×k×64, urand(−1, 1),
k = 2^8 … 2^20) and its exponent-range types 1–4. Residuals are recorded raw; bench/guards.py judges them."""
from bench import inputs


def to_device(torch, array):
    return torch.from_numpy(array).cuda()


def fp64_reference(torch, a, b):
    """C = A·B in FP64 on the GPU (a host FP64 product of a 16384³ case takes minutes)."""
    return torch.matmul(a.double(), b.double())


def relative_residual(torch, c, ref, ref_norm=None):
    """‖c − ref‖_F / ‖ref‖_F in FP64; NaN or Inf anywhere in c comes out as a non-finite residual."""
    if ref_norm is None:
        ref_norm = torch.linalg.vector_norm(ref).item()
    diff = c.double()
    diff.sub_(ref)
    return torch.linalg.vector_norm(diff).item() / ref_norm


def residuals(ctx, a, b, names):
    """{name: (residual or None, error or None)} for each in-process method on the operands a, b."""
    torch = ctx.torch
    ref = fp64_reference(torch, a, b)
    ref_norm = torch.linalg.vector_norm(ref).item()
    out = torch.empty((a.shape[0], b.shape[1]), device=a.device, dtype=torch.float32)
    found = {}
    for name in names:
        out.fill_(float("nan"))  # poison: an element the method does not write makes the residual NaN
        try:
            ctx.methods.bind(name, a, b, out)()
            torch.cuda.synchronize()
            found[name] = (relative_residual(torch, out, ref, ref_norm), None)
        except Exception as exc:  # noqa: BLE001  (one broken method must not stop the others)
            found[name] = (None, f"{type(exc).__name__}: {exc}"[:300])
    return found


def accuracy_cases(profile):
    """Every accuracy case of a profile, as JSON-ready dicts (the XLA worker gets the same list)."""
    for e in profile.acc_log2_k:
        shape = [64, 1 << e, 64]
        for seed in range(profile.acc_seeds):
            yield {"section": "accuracy", "shape": shape, "seed": seed,
                   "input_seed": inputs.case_seed("accuracy", *shape, seed)}
    shape = list(profile.exp_shape)
    for exp_type in inputs.EXP_TYPES:
        for seed in range(profile.exp_seeds):
            yield {"section": "exp_types", "exp_type": exp_type, "shape": shape, "seed": seed,
                   "input_seed": inputs.case_seed("exp", exp_type, *shape, seed)}


def residual_rows(case, found):
    """One result row per method for `case`, from {method: (residual, error or None)}."""
    keys = {k: case[k] for k in ("shape", "seed", "exp_type") if k in case}
    rows = []
    for name, (res, err) in found.items():
        row = {"method": name, **keys, "residual": res}
        if err:
            row["error"] = err
        rows.append(row)
    return rows


def case_inputs(case):
    """The case's operands as float32 NumPy arrays, bit-identical in every process."""
    if case["section"] == "exp_types":
        return inputs.exp_pair(case["exp_type"], *case["shape"], seed=case["input_seed"])
    return inputs.urand_pair(*case["shape"], seed=case["input_seed"])


def run_accuracy(ctx):
    """Figure 1 (64×k×64) and the exponent types, every in-process method on the same operands."""
    for case in accuracy_cases(ctx.profile):
        title = _title(case)
        if ctx.deadline.expired():
            ctx.note(f"{title} seed {case['seed']} skipped: time budget spent")
            continue
        a, b = (to_device(ctx.torch, x) for x in case_inputs(case))
        found = residuals(ctx, a, b, ctx.methods.names)
        ctx.results[case["section"]].extend(residual_rows(case, found))
        if case["seed"] == 0:
            ctx.progress(f"{title}: " + ", ".join(
                f"{name} {res:.2e}" if res is not None else f"{name} error" for name, (res, _) in found.items()))


def _title(case):
    m, k, n = case["shape"]
    if case["section"] == "exp_types":
        return f"exponent type {case['exp_type']} ({m}×{k}×{n})"
    return f"accuracy {m}×2^{k.bit_length() - 1}×{n}"
