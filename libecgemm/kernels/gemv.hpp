// The gemv family: GEMV-like products, one side of C at most kGemvMaxWidth wide (1 x k x n,
// m x k x 1, and a few vectors at once). They are memory-bound on the one large operand,
// so the Tensor Cores cannot help and a tiled GEMM wastes its tile on the thin side:
// these kernels read the large operand once, with wide loads and enough of them in
// flight to reach DRAM bandwidth. Every sum is kept in FP64 and each output rounded to FP32
// once: the FP32 value nearest its exact sum, at or below SGEMM's error on every output.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/grid_shape.hpp"
#include "kernels/gemm_args.hpp"

namespace ecgemm::detail {

constexpr int64_t kGemvMaxWidth = 4;

// Which index of the large operand is contiguous in memory picks the kernel, and the
// kernels differ in warps per output, so in how far k is split.
enum class GemvLayout { kAlongK, kAlongLen };

// Along k with a thin side of 2-4 (not the short-k or lines kernels): staged in shared memory a
// span of k at a time, two barriers a span; or, where each thin column is contiguous along k and
// 16-byte aligned, loaded 16 bytes a lane beside the large operand, no barrier.
enum class GemvThin { kNone, kStaged, kLoaded };

// k may be split inside the CTA (its warps add their sums in shared memory: no partials, one
// launch) and across CTAs (`splits`: partials and a second kernel). The fixed groups (a warp a
// line, 32 lanes a row) are the kernels' own form wherever the grid fills the GPU.
struct GemvPlan {
  GemvLayout layout = GemvLayout::kAlongK;
  int splits = 1;        // split-K factor; > 1 writes partials (`bytes` of workspace)
  int64_t k_chunk = 0;   // k per split, a multiple of 128
  int line_warps = 1;    // along k: warps sharing one output line's k (1, 2, 4, 8)
  int line_lanes = 0;    // along k, short lines: lanes of one line (2 ... 16), the lines numbered
                         // across a batch's products (they share blocks); 0: the kernels above
  int line_blocks = 0;   // ... and its blocks an SM (3 or 4 by the thin side, 5 streaming one: gemv.cu)
  int row_lanes = 32;    // along the long side: lanes of a row group, 4 outputs each (1 ... 32)
  // Along k, how the kernel reads a thin side of 2-4 (gemv_along_k_kernel), each priced by a cost
  // row of its own (planner.cpp: cost_row; bench/results/README.md#gemv-staging).
  GemvThin thin = GemvThin::kNone;
  size_t bytes = 0;
};

GemvLayout gemv_layout(const GemmArgs& args);

// True for the products these kernels take (min(m, n) <= kGemvMaxWidth), single or
// batched (a batch is never split: grid.z walks its products).
bool gemv_shape(const GemmArgs& args);

// Split-K so that the large operand's reads fill the GPU (a batch's products share it),
// inside the CTA first where the grid alone leaves it idle; `max_bytes` caps the partials
// (a user workspace that cannot grow). `wide`: the fixed groups only (the "gemv:wide" pin,
// to measure against).
GemvPlan plan_gemv(const GemmArgs& args, const DeviceInfo& dev, size_t max_bytes = SIZE_MAX, bool wide = false);

GridShape gemv_grid(const GemmArgs& args, const GemvPlan& plan, const DeviceInfo& dev);

// Any transpose, ld and alignment (16-byte loads where the large operand allows them).
// Split-K adds up in a second kernel, a dependent launch (common/launch.cuh) on cc >= 9.0.
cudaError_t launch_gemv(const GemmArgs& args, const GemvPlan& plan, void* workspace,
                             const DeviceInfo& dev, cudaStream_t stream);

}  // namespace ecgemm::detail
