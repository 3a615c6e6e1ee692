// AUTO's statistics pass and scale choice (auto_scale.hpp). Magnitudes are compared as
// the bit patterns of |x| (monotonic for non-negative floats), so the per-row extremes
// are two atomicMax words per row: max|x|, and ~min|x| over non-zero x (a cleared word
// means "no non-zero element"). NaN and Inf have bit patterns above every finite value.
#include <algorithm>
#include <climits>
#include <cstdint>

#include "kernels/common/launch.cuh"
#include "kernels/planes/auto_scale.hpp"

namespace ecgemm::detail {
namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr unsigned kInfBits = 0x7f800000u;

__device__ __forceinline__ unsigned magnitude_bits(float x) { return __float_as_uint(x) & 0x7fffffffu; }

struct Extremes {
  unsigned max_bits = 0;
  unsigned min_bits = 0xffffffffu;  // over non-zero elements
  __device__ __forceinline__ void add(float x) {
    const unsigned b = magnitude_bits(x);
    max_bits = max(max_bits, b);
    if (b != 0) min_bits = min(min_bits, b);
  }
  __device__ __forceinline__ void publish(unsigned* stats) const {
    if (max_bits != 0) atomicMax(stats, max_bits);
    if (min_bits != 0xffffffffu) atomicMax(stats + 1, ~min_bits);
  }
};

// Rows contiguous in memory: lane l of every warp of block b covers rows
// kRowsPerBlock b + kRows l .. + kRows - 1 (16-byte loads when kRows is 4), warp w the
// k of its range congruent to w modulo kWarps; the warps' extremes meet in shared
// memory, so each row costs one pair of atomics per block, not per thread.
template <int kRows>
__device__ __forceinline__ void stats_along_rows(const OperandView& op, int64_t k, int64_t k_chunk,
                                                 unsigned* stats, int64_t bx, int64_t by) {
  constexpr int kRowsPerBlock = 32 * kRows;
  __shared__ unsigned top[kWarps][kRowsPerBlock], bottom[kWarps][kRowsPerBlock];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int64_t r0 = bx * kRowsPerBlock + kRows * lane;
  const int64_t kb = by * k_chunk, ke = std::min(k, kb + k_chunk);
  const float* p = op.p + r0;
  Extremes e[kRows];
  bool whole = false;
  if constexpr (kRows == 4) {
    whole = r0 + 3 < op.rows;
    if (whole) {
#pragma unroll 8
      for (int64_t kk = kb + warp; kk < ke; kk += kWarps) {
        const float4 v = __ldg(reinterpret_cast<const float4*>(p + kk * op.stride_k));
        e[0].add(v.x);
        e[1].add(v.y);
        e[2].add(v.z);
        e[3].add(v.w);
      }
    }
  }
  if (!whole) {  // one row per lane, or the last rows of a 4-row run
    for (int64_t kk = kb + warp; kk < ke; kk += kWarps)
#pragma unroll
      for (int i = 0; i < kRows; ++i)
        if (r0 + i < op.rows) e[i].add(__ldg(p + kk * op.stride_k + i));
  }
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
    top[warp][kRows * lane + i] = e[i].max_bits;
    bottom[warp][kRows * lane + i] = e[i].min_bits;
  }
  __syncthreads();
  for (int x = threadIdx.x; x < kRowsPerBlock; x += kThreads) {
    const int64_t r = bx * kRowsPerBlock + x;
    if (r >= op.rows) continue;
    Extremes all;
    for (int w = 0; w < kWarps; ++w) {
      all.max_bits = max(all.max_bits, top[w][x]);
      all.min_bits = min(all.min_bits, bottom[w][x]);
    }
    all.publish(stats + 2 * r);
  }
}

// k contiguous in memory: warp w of block b owns row 8 b + w, lanes along k (16 bytes
// each where the row is aligned).
__device__ __forceinline__ void stats_along_k(const OperandView& op, int64_t k, int64_t k_chunk,
                                              unsigned* stats, int64_t bx, int64_t by) {
  const int lane = threadIdx.x % 32;
  const int64_t r = bx * kWarps + threadIdx.x / 32;
  if (r >= op.rows) return;  // whole warps
  const int64_t kb = by * k_chunk, ke = std::min(k, kb + k_chunk);
  const float* row = op.p + r * op.stride_r;
  Extremes e;
  int64_t kk = kb;
  if (reinterpret_cast<uintptr_t>(row + kb) % 16 == 0) {
#pragma unroll 8
    for (; kk + 128 <= ke; kk += 128) {
      const float4 v = __ldg(reinterpret_cast<const float4*>(row + kk) + lane);
      e.add(v.x);
      e.add(v.y);
      e.add(v.z);
      e.add(v.w);
    }
  }
  for (int64_t q = kk + lane; q < ke; q += 32) e.add(__ldg(row + q));
  e.max_bits = __reduce_max_sync(0xffffffffu, e.max_bits);
  e.min_bits = __reduce_min_sync(0xffffffffu, e.min_bits);
  if (lane == 0) e.publish(stats + 2 * r);
}

// One operand's share of the statistics launch: blocks_x x (blocks / blocks_x) blocks
// of one layout.
enum class Layout { kRowsWide, kRows, kAlongK };
struct StatsJob {
  OperandView op;
  int64_t k, k_chunk;
  unsigned* stats;
  int64_t blocks_x, blocks;
  Layout layout;
};

__device__ __forceinline__ void run_stats_block(const StatsJob& job, int64_t id) {
  const int64_t bx = id % job.blocks_x, by = id / job.blocks_x;
  switch (job.layout) {
    case Layout::kRowsWide: stats_along_rows<4>(job.op, job.k, job.k_chunk, job.stats, bx, by); break;
    case Layout::kRows: stats_along_rows<1>(job.op, job.k, job.k_chunk, job.stats, bx, by); break;
    case Layout::kAlongK: stats_along_k(job.op, job.k, job.k_chunk, job.stats, bx, by); break;
  }
}

// Both operands in one launch: A's blocks, then B's (one launch fewer, and B's first
// blocks fill A's tail).
__global__ void __launch_bounds__(kThreads) stats_kernel(StatsJob a, StatsJob b) {
  if (blockIdx.x < a.blocks) run_stats_block(a, blockIdx.x);
  else run_stats_block(b, blockIdx.x - a.blocks);
}

// The unbiased binary exponent of a positive finite non-zero float given by its bits.
__device__ __forceinline__ int exponent_of(unsigned bits) {
  const int field = static_cast<int>(bits >> 23);
  return field ? field - 127 : (31 - __clz(static_cast<int>(bits))) - 149;  // subnormal
}

// The scale exponent of one row/column, and the route it asks for (auto_scale.hpp).
__device__ __forceinline__ int choose_scale(const unsigned* stats, int* s) {
  const unsigned max_bits = stats[0], min_inverted = stats[1];
  *s = 0;
  if (max_bits >= kInfBits) return kAutoUnscaledRoute;  // NaN or Inf
  if (max_bits == 0) return kAutoScaledRoute;           // all zero
  *s = kAutoTopExponent - exponent_of(max_bits);
  const int bottom = exponent_of(~min_inverted) + *s;
  return bottom >= kAutoBottomExponent       ? kAutoScaledRoute
         : bottom >= kAutoWideBottomExponent ? kAutoWideRoute
                                             : kAutoUnscaledRoute;
}

__global__ void __launch_bounds__(kThreads)
decide_kernel(const unsigned* stats_a, const unsigned* stats_b, int64_t m, int64_t n,
              int* row_exp, int* col_exp, int* route) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (i >= m + n) return;
  int s;
  const int wants = i < m ? choose_scale(stats_a + 2 * i, &s) : choose_scale(stats_b + 2 * (i - m), &s);
  (i < m ? row_exp[i] : col_exp[i - m]) = s;
  if (wants != kAutoScaledRoute) atomicMax(route, wants);  // unscaled outranks wide
}

// One operand's blocks: enough for DRAM (8 per SM), each keeping at least a few loads
// per thread. The pass reads both operands at the rate a plain reduction reaches (H200,
// 4096^3: 38 us for 128 MiB, 3.5 TB/s; torch.amax of 64 MiB 2.9 TB/s, of 256 MiB 3.9;
// 2, 4, 8 or 16 blocks an SM and an L2::256B prefetch hint all ran within 1 us of it;
// bench/results/README.md).
StatsJob plan_stats(const OperandView& op, int64_t k, unsigned* stats, const DeviceInfo& dev) {
  const int64_t target = static_cast<int64_t>(dev.sm_count) * 8;
  const bool along_rows = op.stride_r == 1;
  const bool wide = along_rows && reinterpret_cast<uintptr_t>(op.p) % 16 == 0 && op.stride_k % 4 == 0;
  const int64_t per_block = along_rows ? 32 * (wide ? 4 : 1) : kWarps;
  const int64_t min_chunk = along_rows ? 128 : 1024;
  const int64_t blocks_x = (op.rows + per_block - 1) / per_block;
  const int64_t splits = std::clamp<int64_t>((target + blocks_x - 1) / blocks_x, 1,
                                             std::max<int64_t>(1, k / min_chunk));
  const int64_t chunk = ((k + splits - 1) / splits + 127) / 128 * 128;  // 16-byte runs stay aligned
  const Layout layout = wide ? Layout::kRowsWide : along_rows ? Layout::kRows : Layout::kAlongK;
  return {op, k, chunk, stats, blocks_x, blocks_x * ((k + chunk - 1) / chunk), layout};
}

constexpr size_t kAlign = 256;
constexpr size_t aligned(size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

}  // namespace

AutoScaleLayout plan_auto_scale(int64_t m, int64_t n, size_t offset) {
  AutoScaleLayout w;
  w.begin = aligned(offset);
  size_t at = w.begin;
  auto take = [&](size_t bytes) {
    const size_t here = at;
    at += aligned(bytes);
    return here;
  };
  w.stats_a = take(2 * sizeof(unsigned) * static_cast<size_t>(m));
  w.stats_b = take(2 * sizeof(unsigned) * static_cast<size_t>(n));
  w.row_exp = take(sizeof(int) * static_cast<size_t>(m));
  w.col_exp = take(sizeof(int) * static_cast<size_t>(n));
  w.route = take(sizeof(int));
  w.bytes = at - w.begin;
  return w;
}

cudaError_t launch_auto_scale(const GemmArgs& g, const AutoScaleLayout& w, char* ws,
                              const DeviceInfo& dev, cudaStream_t stream) {
  cudaError_t err = cudaMemsetAsync(ws + w.begin, 0, w.bytes, stream);
  if (err != cudaSuccess) return err;
  auto* stats_a = reinterpret_cast<unsigned*>(ws + w.stats_a);
  auto* stats_b = reinterpret_cast<unsigned*>(ws + w.stats_b);
  const StatsJob job_a = plan_stats(view_a(g), g.k, stats_a, dev);
  const StatsJob job_b = plan_stats(view_b(g), g.k, stats_b, dev);
  if (job_a.blocks + job_b.blocks > INT32_MAX) return cudaErrorInvalidValue;
  err = launch({static_cast<unsigned>(job_a.blocks + job_b.blocks), kThreads, 0, stream},
               stats_kernel, job_a, job_b);
  if (err != cudaSuccess) return err;
  const int64_t total = g.m + g.n;
  return launch({static_cast<unsigned>((total + kThreads - 1) / kThreads), kThreads, 0, stream},
                decide_kernel, stats_a, stats_b, g.m, g.n, reinterpret_cast<int*>(ws + w.row_exp),
                reinterpret_cast<int*>(ws + w.col_exp), reinterpret_cast<int*>(ws + w.route));
}

}  // namespace ecgemm::detail
