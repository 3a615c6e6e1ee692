// The simt family (FP32 SIMT): ECGEMM_MODE_FP32, and the corrected modes' route on shapes
// where pre-splitting the operands for the Tensor Cores costs more than it saves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "kernels/common/grid_shape.hpp"
#include "kernels/gemm_args.hpp"

namespace ecgemm::detail {

// Block tiles. kWide keeps one FP32 accumulator per output (FMA chains as long as
// the split's k). The narrow tiles, used when m or n is small, accumulate 32-long
// k chunks in a second register set and add each chunk into the result: their
// rounding error grows with k / 32 + 32 rather than with k. kStream, for k up to
// kStreamMaxK, is bound by C's bytes, not by arithmetic: one FMA chain per output (what
// the two-level tiles compute at such k), stored 16 bytes at a time.
enum class SimtTile {
  kWide,    // 128 x 128, 8 x 8 outputs per thread
  kTallM,   // 128 x 64: m > 64 >= n, or a two-level tile for m, n > 64
  kTallN,   // 64 x 128: n > 64 >= m
  kSmall,   // 64 x 64
  kSlimM32, // 128 x 32: n <= 32 < m (slim tiles: 4 x 4 outputs per thread, two-level)
  kSlimN32, // 32 x 128: m <= 32 < n
  kSlimM16, // 256 x 16: n <= 16 < m
  kSlimN16, // 16 x 256: m <= 16 < n
  kStream,  // 128 x 64, 4 x 8 outputs per thread, all of k in shared memory: k <= kStreamMaxK
  kDot,     // batches of products with at most kDotMaxOutputs outputs: a warp per product
  kStrips,  // batches of small products, k <= kStreamMaxK: a thread per strip of 4 rows
            // of a column
  kThinM,   // single products with n <= kThinWidth < m and a long k: rows of op(A)
            // streamed through a shared-memory ring, op(B) beside them (simt/thin.hpp)
  kThinN,   // the same with m the thin side: columns of op(B) streamed
  // Small CTAs of 64 or 128 threads, operands through a ring of cp.async stages (simt/piped.hpp):
  // k > kStreamMaxK, single or batched; the planner prices them beside plan_simt's tile (simt_piped_plan).
  kPiped32x32,
  kPiped32x64,
  kPiped64x32,
  kPiped64x64,
  kPiped64x128,
  kPiped128x64,
};

// The dot tile's bound on m x n, each rounded up to a power of two (its outputs are
// registers of every lane).
constexpr int kDotMaxOutputs = 32;
bool dot_shape(int64_t m, int64_t n);

// The largest k the stream tile takes (its panels hold all of k).
constexpr int kStreamMaxK = 32;

// plan_simt's first choice for a batch with k <= kStreamMaxK: the strip tile up to this
// m x n (a quarter of the stream tile's 128 x 64, whose CTAs would compute mostly padding),
// the stream tile beyond; the planner then prices the other too (simt_alternative).
constexpr int64_t kStripMaxOutputs = 2048;

struct SimtPlan {
  SimtTile tile = SimtTile::kWide;
  int splits = 1;        // split-K factor; > 1 needs `bytes` of workspace for partials
  int64_t k_chunk = 0;   // k per split (a multiple of the tile's k step)
  size_t bytes = 0;
};

// Picks the tile and split-K factor for an m x n x k GEMM. `two_level` asks for a
// narrow (two-level accumulating) tile whatever the shape; `max_bytes` caps the
// partials (a user workspace that cannot grow); `batched`: a batch of such products.
SimtPlan plan_simt(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev, bool two_level,
                        size_t max_bytes = SIZE_MAX, bool batched = false);

// The other tile a short product or a batch of them (k <= kStreamMaxK) may take: the strip
// tile for the stream tile and back (the same FMA chain an output, so the same bits), and
// for the dot tile below kFp32GroupMinK (a warp a product, whose lanes past k idle: at k = 4
// a batch of 1 x 12 products ran 0.58x torch.bmm there). The strips sum an output in one
// chain, SGEMM's arithmetic below that k; from it the dot tile's lanes and tree sum are
// the more accurate (k = 9-15: 1.12-1.20x torch.bmm's residual on strips, 1.02-1.09x on
// the dot tile: bench/results/README.md#batch-strips). The planner keeps the cheaper by its
// cost model. None where there is no choice.
std::optional<SimtPlan> simt_alternative(const SimtPlan& plan, int64_t m, int64_t n, int64_t k);

// The call's plan on a piped tile (simt/piped.hpp: kPipedTiles), split as plan_simt splits;
// none at k <= kStreamMaxK. The planner prices each beside plan_simt's tile.
std::optional<SimtPlan> simt_piped_plan(SimtTile tile, int64_t m, int64_t n, int64_t k, const DeviceInfo& dev,
                                        size_t max_bytes = SIZE_MAX);

GridShape simt_grid(const GemmArgs& args, const SimtPlan& plan, const DeviceInfo& dev);

// Runs the plan on the caller's layout (any transpose, ld and alignment).
cudaError_t launch_simt(const GemmArgs& args, const SimtPlan& plan, void* workspace,
                             cudaStream_t stream);

}  // namespace ecgemm::detail
