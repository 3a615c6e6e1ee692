// simt's thin tiles (SimtTile::kThinM, kThinN): one side of C at most kThinWidth wide
// against a long one, k long. Shared by the planner's side (simt.cu: plan_simt, simt_grid)
// and the kernel (thin.cu).
#pragma once

#include <cstdint>

#include "kernels/gemm_args.hpp"
#include "kernels/simt.hpp"

namespace ecgemm::detail {

// The thin side's bound. Wider sides ran slower than the slim tiles (16 wide 0.86x, 32 wide
// 0.42-0.61x; bench/results/README.md#ring), so they stay there.
constexpr int kThinWidth = 8;
constexpr int kThinRows = 256;  // rows of the long side a CTA: a thread a row
constexpr int kThinBlocksPerSm = 2;  // two CTAs' stage rings fit an SM's shared memory

// Runs the thin plan (split-K partials to `partials` when plan.splits > 1; the caller
// reduces them).
cudaError_t launch_thin(const GemmArgs& args, const SimtPlan& plan, float* partials,
                        cudaStream_t stream);

}  // namespace ecgemm::detail
