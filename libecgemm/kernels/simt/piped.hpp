// simt's piped tiles (SimtTile::kPiped*): small FP32 tiles fed by a ring of cp.async stages.
// Shared by the planner's side (simt.cu: plan_simt, simt_grid) and the kernel (piped.cu).
#pragma once

#include <cstdint>

#include "kernels/gemm_args.hpp"
#include "kernels/simt.hpp"

namespace ecgemm::detail {

// k a stage, and stages in the ring (kPipedStages - 1 in flight while one computes).
constexpr int kPipedStageK = 8;
constexpr int kPipedStages = 4;

// The piped tiles, in the order the planner tries them.
constexpr SimtTile kPipedTiles[] = {SimtTile::kPiped32x32, SimtTile::kPiped32x64, SimtTile::kPiped64x32,
                                    SimtTile::kPiped64x64, SimtTile::kPiped64x128, SimtTile::kPiped128x64};

constexpr bool is_piped(SimtTile t) {
  for (SimtTile p : kPipedTiles)
    if (t == p) return true;
  return false;
}

// CTA tile, a thread's outputs (tm x tn), and the CTAs an SM holds, which the kernel's launch
// bounds ask registers for (4 x 4 a thread: 12 CTAs of 64 threads; 4 x 8: 8; 8 x 8: 4, or 2 of 128
// threads; 8 x 8 at 5 CTAs spilled) and the ring's shared memory allows. The more outputs a thread,
// the fewer instructions beside its FFMAs, the fewer CTAs a grid: cuBLAS's SIMT kernels run 8 x 8
// a thread on large grids, 4 x 4 on the smallest (bench/results/README.md#piped).
struct PipedDims {
  int bm, bn, tm, tn, blocks;
  constexpr int threads() const { return (bm / tm) * (bn / tn); }
  constexpr int blocks_per_sm() const { return blocks; }
};
constexpr PipedDims piped_dims(SimtTile t) {
  switch (t) {
    case SimtTile::kPiped32x32: return {32, 32, 4, 4, 12};
    case SimtTile::kPiped32x64: return {32, 64, 4, 8, 8};
    case SimtTile::kPiped64x32: return {64, 32, 8, 4, 8};
    case SimtTile::kPiped64x64: return {64, 64, 8, 8, 4};
    case SimtTile::kPiped64x128: return {64, 128, 8, 8, 2};
    default: return {128, 64, 8, 8, 2};  // kPiped128x64
  }
}

// Runs a piped plan (split-K partials to `partials` when plan.splits > 1; the caller reduces them).
cudaError_t launch_piped(const GemmArgs& args, const SimtPlan& plan, float* partials, cudaStream_t stream);

}  // namespace ecgemm::detail
