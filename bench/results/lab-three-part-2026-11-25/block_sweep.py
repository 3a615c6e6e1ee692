"""The two-level promotion's block size (docs/numerics.md, section 11): tf32tf32 with
promote_block = 2 … 32 against one promotion chain, at 64 x 1024 x 64 on the block study's data
(seed 26). Output: block_sweep.txt."""
import numpy as np

from ecgemm.numerics import gemm
from ecgemm.numerics.experiments import BLOCK_STUDY_DATA, _errors

m, k, n = 64, 1024, 64
names = [entry[0] for entry in BLOCK_STUDY_DATA]
for name in ("type 1", "type 2", "type 4", "urand(-1, 1)"):
    index = names.index(name)
    a, b = BLOCK_STUDY_DATA[index][2](m, k, n, np.random.default_rng([26, m, k, n, index]))
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    ref, magnitude = a64 @ b64, np.abs(a64) @ np.abs(b64)
    base = _errors(gemm(a, b, "tf32tf32"), ref, magnitude)[0]
    ratios = [_errors(gemm(a, b, "tf32tf32", promote_block=B), ref, magnitude)[0] / base
              for B in (2, 4, 8, 16, 32)]
    print(f"{name}: tf32tf32 {base:.2e}; B = 2, 4, 8, 16, 32: " + " ".join(f"{r:.2f}" for r in ratios))
