// How the FP32 routes sum a short k (docs/numerics.md section 3): below kFp32GroupMinK one FMA
// chain an output over k in order, SGEMM's arithmetic, which gave cuBLAS's residual exactly on
// most shapes up to k = 6; from it, chains of kFp32Group k-steps, each from zero, added in k
// order, as SGEMM's kernels beat one chain from k ~ 7 (1.05-1.23x its residual at k 9..16:
// bench/results/tiny-2026-11-25, call 3). fused_mma's FP32 form sums so past two CTAs an SM;
// GEMV's short-k kernel keeps the order with FP64 sums (docs/numerics.md section 3).
#pragma once

namespace ecgemm::detail {

constexpr int kFp32Group = 4;
constexpr int kFp32GroupMinK = 8;

}  // namespace ecgemm::detail
