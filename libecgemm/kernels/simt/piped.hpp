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
                                    SimtTile::kPiped64x64};

constexpr bool is_piped(SimtTile t) {
  return t == SimtTile::kPiped32x32 || t == SimtTile::kPiped32x64 || t == SimtTile::kPiped64x32 ||
         t == SimtTile::kPiped64x64;
}

// Threads an SM holds of a piped kernel: its launch bounds ask registers for this many (at
// most 85 a thread), and the ring's shared memory allows it.
constexpr int kPipedThreadsPerSm = 768;

// CTA tile, threads, and the CTAs an SM holds.
struct PipedDims {
  int bm, bn, threads;
  constexpr int blocks_per_sm() const { return kPipedThreadsPerSm / threads; }
};
constexpr PipedDims piped_dims(SimtTile t) {
  switch (t) {
    case SimtTile::kPiped32x32: return {32, 32, 64};
    case SimtTile::kPiped32x64: return {32, 64, 128};
    case SimtTile::kPiped64x32: return {64, 32, 128};
    default: return {64, 64, 256};  // kPiped64x64; each thread 4 x 4 outputs
  }
}

// Runs a piped plan (split-K partials to `partials` when plan.splits > 1; the caller reduces them).
cudaError_t launch_piped(const GemmArgs& args, const SimtPlan& plan, float* partials, cudaStream_t stream);

}  // namespace ecgemm::detail
