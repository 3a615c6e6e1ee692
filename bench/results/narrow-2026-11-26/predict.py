"""Why call 4's refit lost on small grids: the refitted fused_wgmma/tf32tf32 row (call3/fit_report.md) against
fused_mma's row as compiled, on the cases call 4 moved to fused_wgmma and lost, and on narrow long ones, with the
times call 4 (aligned, H200) and call 1 (H100) measured. The planner's features come from the library
(tools/fit_cost_model.py: Planner, on a described H200):

    ECGEMM_LIBRARY=... PYTHONPATH=.:tests python bench/results/narrow-2026-11-26/predict.py
"""
from tools.fit_cost_model import Planner, abi_call

TMA_TF32 = [0, 1.825, 4.387, 4.043, 0.157, 0.6138]  # call3/fit_report.md, fused_wgmma/tf32tf32
# batch, m, k, n, fused_wgmma measured (us), fused_mma measured (us); None: not measured
CASES = [(3, 408, 464, 56, 23.31, 12.90), (15, 40, 496, 64, 23.26, 13.30), (98, 112, 352, 8, 18.51, 15.36),
         (1, 6288, 864, 24, 26.0, 20.42), (1, 16294, 5900, 104, 397, None), (1, 11450, 15568, 83, 749, None),
         (1, 43, 12601, 15299, 479, None), (1, 40, 6687, 14718, 257, None)]

planner = Planner({"compute_capability": "9.0", "sms": 132})
print("| batch x m x k x n | fused_wgmma: model / measured (us) | fused_mma: model / measured (us) |")
print("|---|---|---|")
for b, m, k, n, wgmma_us, mma_us in CASES:
    row = dict(m=m, k=k, n=n, trans_a=False, trans_b=False, lda=k, ldb=n, **({"batch": b} if b > 1 else {}))
    gemm, batch = abi_call(row)
    _, x = planner.plan("tf32tf32", "fused_wgmma", gemm, batch)
    mma_text, _ = planner.plan("tf32tf32", "fused_mma", gemm, batch)
    est = sum(c * f for c, f in zip(TMA_TF32, x))
    print(f"| {b} x {m} x {k} x {n} | {est:.1f} / {wgmma_us} | {mma_text.split('est=')[1].rstrip('us')} / {mma_us} |")
