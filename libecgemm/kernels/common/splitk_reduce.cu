// The split-K reducer (splitk_reduce.hpp): one kernel per order of addition, each
// applying the shared epilogue. Partials are added in FP64 (PartialSum) and rounded to
// FP32 once: the sum of a few thousand FP32 partials keeps nearly all its bits there, so
// an output rounds once where FP32 adds rounded once a split. The order still fixes the
// bits (an FP64 rounding can decide the FP32 one). FP32 adds had put AUTO 0.006% above
// SGEMM on one 2^40 value a row at 256 x 1024 x 256, 32 splits
// (bench/results/README.md#fp64-reduce).
#include <algorithm>
#include <cstdint>

#include "kernels/common/epilogue.cuh"
#include "kernels/common/launch.cuh"
#include "kernels/common/splitk_reduce.hpp"

namespace ecgemm::detail {
namespace {

// kSerial walks C as a 2-D grid: x over blocks of rows (coalesced in the column-major
// planes), y over columns; a flat index split by 64-bit division per element made it
// compute-bound (1024^3, two planes: 7.9 us, and 33 us for kRuns's kernel). A block is
// R rows x 256 / R columns, R the rows rounded up to a warp (at most 256): a block a
// column left most threads idle where C is short (12 x 1352: 1352 blocks of 12 live
// threads, 6.7 us; bench/results/latency-2026-11-25).
constexpr int kSerialThreads = 256;
constexpr int64_t kMaxGridY = 65535;

struct SerialShape {
  dim3 grid, block;
};

SerialShape serial_shape(int64_t m, int64_t n) {
  const int rows = static_cast<int>(std::min<int64_t>(kSerialThreads, (m + 31) / 32 * 32));
  const int cols = kSerialThreads / rows;
  return {dim3(static_cast<unsigned>((m + rows - 1) / rows),
               static_cast<unsigned>(std::min((n + cols - 1) / cols, kMaxGridY))),
          dim3(static_cast<unsigned>(rows), static_cast<unsigned>(cols))};
}

__global__ void __launch_bounds__(kSerialThreads)
reduce_serial_kernel(const float* __restrict__ partials, int splits, int64_t m_pad,
                     int64_t n_pad, GemmArgs args) {
  wait_for_prior_grids();  // the mainloop's partials
  if (route_skipped(args.scale)) return;  // AUTO: the other route runs
  const Epilogue epi = Epilogue::of(args.scalars, true);
  const int64_t row = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (row >= args.m) return;
  const int64_t col_step = static_cast<int64_t>(gridDim.y) * blockDim.y;
  for (int64_t col = blockIdx.y * static_cast<int64_t>(blockDim.y) + threadIdx.y; col < args.n;
       col += col_step) {
    PartialSum sum = 0.0;
    // Unrolled so that the loads are in flight together; the adds keep split order.
#pragma unroll 4
    for (int s = 0; s < splits; ++s) sum += partials[s * m_pad * n_pad + col * m_pad + row];
    epi.store(args.c + col * args.ldc + row, unscale(args.scale, row, col, static_cast<float>(sum)));
  }
}

// kRuns: 32 outputs per block, 8 warps each adding a contiguous eighth of the planes in
// order, then a fixed tree over the eight sums.
constexpr int kRunsThreads = 256;
constexpr int kRunsOutputs = 32;
constexpr int kRunsGroups = kRunsThreads / kRunsOutputs;

__global__ void __launch_bounds__(kRunsThreads)
reduce_runs_kernel(const float* __restrict__ partials, int splits, GemmArgs args) {
  __shared__ PartialSum sums[kRunsGroups][kRunsOutputs];
  wait_for_prior_grids();
  const int lane = threadIdx.x % kRunsOutputs, group = threadIdx.x / kRunsOutputs;
  const int64_t plane = args.m * args.n;
  const int64_t idx = static_cast<int64_t>(blockIdx.x) * kRunsOutputs + lane;
  PartialSum sum = 0.0;
  if (idx < plane) {
    const int first = splits * group / kRunsGroups, last = splits * (group + 1) / kRunsGroups;
#pragma unroll 4
    for (int s = first; s < last; ++s) sum += partials[s * plane + idx];
  }
  sums[group][lane] = sum;
  __syncthreads();
#pragma unroll
  for (int width = kRunsGroups / 2; width > 0; width /= 2) {
    if (group < width) sums[group][lane] += sums[group + width][lane];
    __syncthreads();
  }
  if (group == 0 && idx < plane)
    Epilogue::of(args.scalars, true)
        .store(args.c + idx / args.m * args.ldc + idx % args.m, static_cast<float>(sums[0][lane]));
}

// kLanes: G threads per output add its partials (contiguous), strided and then by a
// fixed tree. Many splits take a whole block per output, so that no thread walks a long
// chain of dependent-latency loads.
constexpr int kLanesThreads = 256;
constexpr int kLanesWarps = kLanesThreads / 32;

template <int G>
__global__ void __launch_bounds__(kLanesThreads)
reduce_lanes_kernel(const PartialSum* __restrict__ partials, int splits, GemmArgs args) {
  static_assert(G == 32 || G == kLanesThreads, "a warp or the block per output");
  __shared__ PartialSum warp_sums[kLanesWarps];
  wait_for_prior_grids();  // the partial sums
  const int j = threadIdx.x % G, lane = threadIdx.x % 32;
  const int64_t idx = static_cast<int64_t>(blockIdx.x) * (kLanesThreads / G) + threadIdx.x / G;
  const bool live = idx < args.m * args.n;
  PartialSum sum = 0.0;
  if (live)
    for (int s = j; s < splits; s += G) sum += partials[idx * splits + s];
#pragma unroll
  for (int width = 16; width > 0; width /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, width);
  if constexpr (G > 32) {
    if (lane == 0) warp_sums[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x != 0) return;
    sum = 0.0;
#pragma unroll
    for (int w = 0; w < kLanesWarps; ++w) sum += warp_sums[w];
  } else if (lane != 0) {
    return;
  }
  if (live)
    store_scaled(args.c + idx / args.m * args.ldc + idx % args.m, static_cast<float>(sum),
                 resolve_alpha(args.scalars), resolve_beta(args.scalars));
}

// kRuns takes its tree from this many splits on; kLanes a block per output.
constexpr int kManySplits = 16;
constexpr int kBlockSplits = 512;

}  // namespace

cudaError_t launch_splitk_reduce(const GemmArgs& args, const Partials& p, cudaStream_t stream,
                                 bool dependent) {
  switch (p.order) {
    case SplitOrder::kRuns:
      if (p.splits < kManySplits) break;  // kSerial's kernel
      if (p.rows != args.m || p.cols != args.n) return cudaErrorInvalidValue;
      {
        const int64_t blocks = (args.m * args.n + kRunsOutputs - 1) / kRunsOutputs;
        if (blocks > INT32_MAX) return cudaErrorInvalidConfiguration;
        return launch({static_cast<unsigned>(blocks), kRunsThreads, 0, stream, dependent},
                      reduce_runs_kernel, static_cast<const float*>(p.data), p.splits, args);
      }
    case SplitOrder::kLanes: {
      const int64_t outputs = args.m * args.n;
      if (p.splits >= kBlockSplits)
        return launch({static_cast<unsigned>(outputs), kLanesThreads, 0, stream, dependent},
                      reduce_lanes_kernel<kLanesThreads>, static_cast<const PartialSum*>(p.data), p.splits, args);
      return launch({static_cast<unsigned>((outputs + kLanesWarps - 1) / kLanesWarps),
                     kLanesThreads, 0, stream, dependent},
                    reduce_lanes_kernel<32>, static_cast<const PartialSum*>(p.data), p.splits, args);
    }
    case SplitOrder::kSerial: break;
  }
  const SerialShape shape = serial_shape(args.m, args.n);
  return launch({shape.grid, shape.block, 0, stream, dependent}, reduce_serial_kernel, static_cast<const float*>(p.data),
                p.splits, p.rows, p.cols, args);
}

}  // namespace ecgemm::detail
