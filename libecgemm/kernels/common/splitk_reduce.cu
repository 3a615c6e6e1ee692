// Split-K epilogues: each split wrote its raw sum to its own partials plane
// (column-major); these add the planes in a fixed order (deterministic) and apply alpha
// and beta. The plane mainloops write m_pad x n_pad planes, the kernels that read the
// caller's operands directly (SIMT, fused mma.sync) m x n ones.
#include <algorithm>

#include "kernels/common/epilogue.cuh"
#include "kernels/common/launch.cuh"
#include "kernels/common/splitk_reduce.hpp"
#include "kernels/tc_config.hpp"

namespace ecgemm::detail {
namespace {

// The reduction of few splits walks C as a 2-D grid: x over blocks of rows (coalesced
// in the column-major planes), y over columns; a flat index split by 64-bit division
// per element made it compute-bound (1024^3, two planes: 7.9 us, and 33 us for the
// grouped kernel below).
constexpr int kColumnThreads = 256;
constexpr int64_t kMaxGridY = 65535;

dim3 column_grid(int64_t m, int64_t n) {
  return dim3(static_cast<unsigned>((m + kColumnThreads - 1) / kColumnThreads),
              static_cast<unsigned>(std::min(n, kMaxGridY)));
}

__global__ void __launch_bounds__(kColumnThreads)
reduce_splits_kernel(const float* __restrict__ partials, int splits, int64_t m_pad,
                     int64_t n_pad, GemmArgs args) {
  wait_for_prior_grids();  // the mainloop's partials
  if (route_skipped(args.scale)) return;  // AUTO: the other route runs
  const Epilogue epi = Epilogue::of(args.scalars, true);
  const int64_t row = blockIdx.x * static_cast<int64_t>(kColumnThreads) + threadIdx.x;
  if (row >= args.m) return;
  for (int64_t col = blockIdx.y; col < args.n; col += gridDim.y) {
    float sum = 0.0f;
    for (int s = 0; s < splits; ++s) sum += partials[s * m_pad * n_pad + col * m_pad + row];
    epi.store(args.c + col * args.ldc + row, unscale(args.scale, row, col, sum));
  }
}

// 32 outputs per block, 8 warps each adding a contiguous eighth of the planes in order,
// then a fixed tree over the eight sums: many splits of a small output still use every
// SM's load bandwidth.
constexpr int kReduceThreads = 256;
constexpr int kReduceOutputs = 32;
constexpr int kReduceGroups = kReduceThreads / kReduceOutputs;

__global__ void __launch_bounds__(kReduceThreads)
reduce_partials_kernel(const float* __restrict__ partials, int splits, GemmArgs args) {
  __shared__ float sums[kReduceGroups][kReduceOutputs];
  wait_for_prior_grids();
  const int lane = threadIdx.x % kReduceOutputs, group = threadIdx.x / kReduceOutputs;
  const int64_t plane = args.m * args.n;
  const int64_t idx = static_cast<int64_t>(blockIdx.x) * kReduceOutputs + lane;
  float sum = 0.0f;
  if (idx < plane) {
    const int first = splits * group / kReduceGroups, last = splits * (group + 1) / kReduceGroups;
#pragma unroll 4
    for (int s = first; s < last; ++s) sum += partials[s * plane + idx];
  }
  sums[group][lane] = sum;
  __syncthreads();
#pragma unroll
  for (int width = kReduceGroups / 2; width > 0; width /= 2) {
    if (group < width) sums[group][lane] += sums[group + width][lane];
    __syncthreads();
  }
  if (group == 0 && idx < plane)
    Epilogue::of(args.scalars, true).store(args.c + idx / args.m * args.ldc + idx % args.m, sums[0][lane]);
}

}  // namespace

cudaError_t launch_splitk_reduce(const GemmArgs& args, const TcWorkspace& w, const char* ws,
                                 cudaStream_t stream, bool overlap) {
  return launch({column_grid(args.m, args.n), kColumnThreads, 0, stream, overlap},
                reduce_splits_kernel, reinterpret_cast<const float*>(ws + w.partials), w.splits,
                w.m_pad, w.n_pad, args);
}

// Few splits: one thread an output adds them all; many splits of a small output: the
// grouped kernel spreads each output's planes over eight warps.
constexpr int kGroupedSplits = 16;

cudaError_t launch_partials_reduce(const GemmArgs& args, const float* partials, int splits,
                                   cudaStream_t stream, bool overlap) {
  if (splits < kGroupedSplits)  // unpadded: the plane route's reduction with m x n planes
    return launch({column_grid(args.m, args.n), kColumnThreads, 0, stream, overlap},
                  reduce_splits_kernel, partials, splits, args.m, args.n, args);
  const int64_t blocks = (args.m * args.n + kReduceOutputs - 1) / kReduceOutputs;
  if (blocks > INT32_MAX) return cudaErrorInvalidConfiguration;
  return launch({static_cast<unsigned>(blocks), kReduceThreads, 0, stream, overlap},
                reduce_partials_kernel, partials, splits, args);
}

}  // namespace ecgemm::detail
