// The fused_mma family (mma.sync, sm_80 and newer): FP32 tiles of op(A) and op(B) staged
// in shared memory and split into hi/lo there, once per value (split inside the CTA). No
// planes: the only workspace is split-K partials. Host-side planning and launch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "kernels/common/grid_shape.hpp"
#include "kernels/common/method.hpp"
#include "kernels/gemm_args.hpp"

namespace ecgemm::detail {

struct FusedMmaPlan {
  int tile = 64;        // the CTA's T x T tile of C: 64, or 32 for the corrected methods
  int splits = 1;       // split-K factor (deterministic reduction); 1 for batches
  int64_t k_chunk = 0;  // k per split, a whole number of the kernel's k stage
  // sm_90: the splits (at most 8) of a tile form a cluster and add their sums in
  // shared memory; no workspace, no reduction kernel.
  bool cluster_reduce = false;
  size_t bytes = 0;     // workspace: splits planes of m x n partial sums, unless clustered
  // Whether every split's k is short enough for the kernel's one FP32 accumulator per
  // output (a product added each k-step) to stay FP32-class: false where the workspace
  // cap (or a batch, which is not split) leaves longer ones; the planner then goes elsewhere.
  bool fits = true;
  // AUTO (tf32tf32's products): a 32 x 32 block of C takes a stage's products in FP32
  // where its operands span too many binades for the two parts (common/wide_runs.cuh).
  bool wide_fp32 = false;
  // AUTO with halfhalf's products: each stage's values scaled by a power of two per row of
  // op(A) and per column of op(B) (fused_mma.cu: StageForm::kScaled); wide_fp32 as well.
  bool scaled = false;
  // Every stage in FP32, SGEMM's arithmetic (fused_mma.cu: StageForm::kFp32): the corrected
  // modes where k is too short for their products to be FP32-class (planner.cpp:
  // kFp32RouteMaxK). 32-wide tile; the plan's method is tf32tf32 (no products run).
  bool fp32 = false;
  // The FP32 form with every output's sum in FP64 (a product of two FP32 values is exact there),
  // rounded to FP32 once: the FP32 value nearest the exact sum, at or below SGEMM's error on every
  // output (fused_mma.cu: StageForm::kFp64Sums). Where its FP64 FMAs hide: fp64_sums_hide.
  bool fp64_sums = false;
};

// The k the FP32 form runs (and ECGEMM_FAMILY=fused_mma/fp32 pins it) up to: one of the
// kernel's k stages (fused_mma.cu: kBK). The planner offers it at k <= kFp32RouteMaxK.
constexpr int64_t kFp32FormMaxK = 32;

// Whether the GPU has mma.sync (cc >= 8.0); the family runs every Tensor Core method.
// Dispatch sends it the corrected methods, and every method's batches where the wgmma
// families are absent.
bool fused_mma_usable(const DeviceInfo& dev);

// `max_bytes` caps the partials (a user workspace that cannot grow). `tile` 0: 64.
FusedMmaPlan plan_fused_mma(const GemmArgs& args, const DeviceInfo& dev,
                            size_t max_bytes = SIZE_MAX, int tile = 0);

// `plan` with k not split, where every k fits one CTA's chain (kMaxChainK): the plan the
// planner prices beside a split one (each split's CTAs wait on a reduction: two cluster
// barriers, or partials and a second launch), and ECGEMM_FAMILY=fused_mma:<tile>/unsplit pins.
// At short k in sub-wave grids the unsplit plan ran up to 1.8x faster
// (bench/results/README.md#cluster).
std::optional<FusedMmaPlan> fused_mma_unsplit(const FusedMmaPlan& plan, const GemmArgs& args);

// The 32-wide plan the planner may price beside a 64-wide `plan` (each tile has its cost
// row; the cheapest of both tiles, split or not, runs), for the corrected methods where it
// can win: a side of C at most 32 wide (the 64-wide tile computes twice what it stores), or
// a latency-bound plan (the 64-wide tile's CTAs fit one wave). Elsewhere it lost on the
// calibration sample, 1.3-1.9x the 64-wide tile's time, where the cost model's fit does not
// separate the two (bench/results/latency-2026-11-25, call 2). Offered in one-wave grids
// even where it runs a longer k a CTA: the routes that moved ran 1.25x faster (tf32tf32;
// bench/results/README.md#pdl, call 6).
std::optional<FusedMmaPlan> fused_mma_alternative(TcMethod method, const FusedMmaPlan& plan,
                                                  const GemmArgs& args, const DeviceInfo& dev,
                                                  size_t max_bytes);

// Whether the FP32 form's sums in FP64 cost no time: a grid of at most two CTAs an SM
// (bench/results/README.md#gemv-fp64, call I). Every FP32-form product of the random sample
// above SGEMM's residual was such a grid; elsewhere the FP32 chains run.
bool fp64_sums_hide(const GemmArgs& args, const FusedMmaPlan& plan, const DeviceInfo& dev);

GridShape fused_mma_grid(const GemmArgs& args, const FusedMmaPlan& plan, const DeviceInfo& dev);

cudaError_t launch_fused_mma(TcMethod method, const GemmArgs& args, const FusedMmaPlan& plan,
                              void* workspace, const DeviceInfo& dev, cudaStream_t stream);

}  // namespace ecgemm::detail
