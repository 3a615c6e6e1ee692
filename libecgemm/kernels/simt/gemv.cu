// The gemv family (gemv.hpp): GEMV-like products. The large operand is read once, 16 bytes per
// lane where its alignment allows, several loads in flight per warp (along_k_unroll, kUnrollLen).
// Two kernels by which index of the large operand is contiguous in memory:
//   along k: one warp per output line (or 2 ... 8 sharing it), lanes along k, a butterfly
//     over the warp;
//   along the long side: lanes own 4 neighbouring outputs, the block's row groups (8 of 32
//     lanes, or more and narrower) walk interleaved k rows, then add their sums in shared
//     memory in a fixed order.
// Each thread keeps 4 accumulators per thin column (more independent work). Every sum is kept
// in FP64 (GemvSum): a product of two FP32 values is exact there, so an output rounds to FP32
// once, at its end, to the FP32 value nearest its exact sum (within FP64's own rounding): its
// residual is at or below SGEMM's on any data (docs/numerics.md section 3, "FP32 routes and
// SGEMM's residual"). The kernels wait on DRAM or latency, not on arithmetic. Split-K writes each
// output's FP64 partial sums side by side; the common reducer adds them in a fixed order
// (SplitOrder::kLanes): results are deterministic. It is a dependent launch (common/launch.cuh): 1 x 4096 x
// 4096 22.0 -> 21.3 us on an H200 [cuBLAS 19.2]. Measured and not kept (figures:
// bench/results/README.md): adding the splits in the launch itself (the last CTA of an
// output block to count itself in on a counter adds them) ran slower, 29.0 us with a
// compare-and-swap count, 23.9 with atomicInc (against 21.9 in that run), as every CTA
// waits for its count before it retires; the splits as one sm_90 thread-block cluster
// adding through shared memory (at most 8 splits leave one short wave on large shapes.
// H200, bench, x SGEMM: 1 x 16384 x 16384 0.95 -> 0.86, 4096 x 4096 x 1 1.01 -> 0.95,
// 2 x 4096 x 4096 2.28 -> 2.63); one output per lane with a 32-warp block along k and no
// split, 128 bytes a warp and row (1 x 4096 x 4096 22.1 -> 26.3 us, 1 x 16384 x 16384
// 252 -> 341 us in GPU time).
#include <algorithm>
#include <type_traits>

#include "kernels/common/epilogue.cuh"
#include "kernels/common/fp32_chains.hpp"
#include "kernels/common/launch.cuh"
#include "kernels/common/splitk_plan.hpp"
#include "kernels/common/splitk_reduce.hpp"
#include "kernels/common/tile_scheduler.cuh"
#include "kernels/gemv.hpp"

namespace ecgemm::detail {
namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kUnroll = 4;         // along k: 4 x 512 bytes per warp (along_k_unroll)
constexpr int kUnrollLen = 8;      // along the long side: 8 rows x 512 bytes per warp
constexpr int64_t kChunkAlign = 128;  // k per split: whole 16-byte runs of a warp
constexpr int64_t kSpanK = 2048;      // k an unstaged span: 16 loads of 16 bytes per lane
constexpr int64_t kMinWarpK = 512;    // along k: a warp sharing a line keeps a round of loads
constexpr int kMinRowLanes = 8;       // along the long side: a group reads 128 bytes of a row
constexpr double kLatencyBytes = 6e6;  // ~2 us of H100 DRAM time (plan_gemv)
constexpr int64_t kShortMaxK = 16;     // gemv_short_k_kernel
constexpr int64_t kLinesMaxK = 256;    // gemv_lines_kernel: up to 16 lanes a line
constexpr int kLinesPerLane = 16;      // ... each with about this many k of its line
constexpr int kLinesBlocksPerSm = 4;   // ... at most 64 registers a thread
// With one thin column, a grid of many waves streams DRAM: 5 blocks an SM (48 registers) keep a
// quarter more in flight (12999 x 312 x 196 x 1 1457 -> 1312 us, 7162 x 390 x 43 x 1 252 -> 238),
// where a short grid waits longer on each warp's loads (3576 x 14 x 111 x 1, 3 waves: 9.9 -> 10.8
// us): bench/results/README.md#batched-lines, call 7. (With 16-byte loads ptxas spills 8 bytes
// there, counted in those times.) 6 blocks (40 registers) ran slower.
constexpr int kLinesStreamBlocksPerSm = 5;
constexpr int64_t kLinesStreamWaves = 8;  // at kLinesBlocksPerSm
// The lines kernel's blocks an SM for a thin side of R (not streaming): with FP64 sums, 3 or 4 thin
// columns and 16-byte loads spilled 120 bytes at 4 (64 registers), none at 3.
constexpr int lines_blocks(int r) { return r >= 3 ? 3 : kLinesBlocksPerSm; }

// An output's sum (see the top of this file): FP64, the reducer's type (splitk_reduce.hpp), so that
// split sums reach it unrounded too.
using GemvSum = PartialSum;

// acc += a * b, the product exact in FP64.
__device__ __forceinline__ void fma_into(GemvSum& acc, float a, float b) {
  acc = fma(static_cast<GemvSum>(a), static_cast<GemvSum>(b), acc);
}

// The along-k kernel's runs of 512 bytes in flight per warp, and the CTAs an SM its registers must
// allow (0: ptxas's choice), for a thin side of R, loaded or staged (GemvThin). ptxas's own choice
// spilled 48 bytes at R = 3 loaded, kept R = 4 loaded at 88 registers (2 CTAs an SM) and R = 4
// staged at 74 (3). Pinned, most such products ran 1.03-1.24x faster with these, none slower beyond
// run-to-run noise: bench/results/README.md#gemv-registers.
// One warp a line takes its runs in the same order whatever the unroll: C's bits do not change.
constexpr int along_k_unroll(int r, bool loaded) {
  return (r == 2 && loaded) || (r == 4 && !loaded) ? 2 : kUnroll;
}
constexpr int along_k_min_ctas(int r, bool loaded) { return loaded && r >= 3 ? 3 : 0; }
// The along-the-long-side kernel's, for a thin side of R, a warp a row group (kGroups false). ptxas's
// own choice kept R = 2 and 3 at 2-3 CTAs an SM; pinned, R = 2 at 4 ran 1.02-1.09x faster on 9 of 9
// products, R = 3 at 3 1.12-1.36x on 7 of 9 and 0.99x on the other two; R = 1 and 4 gained nothing,
// or lost up to 0.6x (bench/results/README.md#gemv-len). The same loads in the same order: the same bits.
// (With FP64 sums, R = 4 pinned at 3 spilled 28 bytes at 80 registers; ptxas's own choice is 90, 2 CTAs.)
constexpr int along_len_min_ctas(int r, bool groups) { return groups ? 0 : r == 2 ? 4 : r == 3 ? 3 : 0; }

// The large operand as len x k (element (l, kk) at mat[l * mat_l + kk * mat_k]), the
// thin one as width x k, and where output (l, r) goes in C and in a partials plane.
struct GemvProblem {
  const float* mat;
  int64_t mat_l, mat_k;
  const float* vec;
  int64_t vec_r, vec_k;
  int64_t len, k;
  int64_t c_l, c_r;        // C (ldc applied)
  int64_t part_l, part_r;  // output (l, r) as a column-major m x n index
  GemvSum* partials;       // [m * n][splits]; null: no split, the kernel applies alpha and beta
  bool mat_is_a;           // the large operand is op(A) (m >= n), else op(B)^T
};

GemvProblem make_problem(const GemmArgs& g, GemvSum* partials) {
  GemvProblem p{};
  p.k = g.k;
  p.partials = partials;
  p.mat_is_a = g.m >= g.n;
  if (p.mat_is_a) {  // long side m: the large operand is op(A), the thin one op(B)
    p.mat = g.a, p.mat_l = g.trans_a ? g.lda : 1, p.mat_k = g.trans_a ? 1 : g.lda;
    p.vec = g.b, p.vec_r = g.trans_b ? 1 : g.ldb, p.vec_k = g.trans_b ? g.ldb : 1;
    p.len = g.m, p.c_l = 1, p.c_r = g.ldc, p.part_l = 1, p.part_r = g.m;
  } else {  // long side n: the large operand is op(B)^T, the thin one op(A)
    p.mat = g.b, p.mat_l = g.trans_b ? 1 : g.ldb, p.mat_k = g.trans_b ? g.ldb : 1;
    p.vec = g.a, p.vec_r = g.trans_a ? g.lda : 1, p.vec_k = g.trans_a ? 1 : g.lda;
    p.len = g.n, p.c_l = g.ldc, p.c_r = 1, p.part_l = g.m, p.part_r = 1;
  }
  return p;
}

// A batch (never split): grid.z walks its products, whose operands and C replace the
// first product's in this CTA's copies of the problem and the arguments.
__device__ __forceinline__ void select_product(GemvProblem& p, GemmArgs& args) {
  if (!args.batch.batched()) return;
  const int64_t z = args.batch.first + blockIdx.z;
  p.mat = p.mat_is_a ? batch_a(args, z) : batch_b(args, z);
  p.vec = p.mat_is_a ? batch_b(args, z) : batch_a(args, z);
  args.c = batch_c(args, z);
}

__device__ __forceinline__ float thin(const GemvProblem& p, int r, int64_t kk) {
  return __ldg(p.vec + r * p.vec_r + kk * p.vec_k);
}

// The one FP32 rounding of an unsplit output is here (or the reducer's, of a split one).
__device__ __forceinline__ void store(const GemvProblem& p, const GemmArgs& args, int64_t l, int r,
                                      GemvSum sum, float alpha, float beta) {
  if (p.partials)
    p.partials[(l * p.part_l + r * p.part_r) * gridDim.y + blockIdx.y] = sum;
  else
    store_scaled(args.c + l * p.c_l + r * p.c_r, static_cast<float>(sum), alpha, beta);
}

// The thin operand over k rows [span, end), staged in FP64 (converted once a CTA, not once a lane
// and k: conversions to FP64 issue at a quarter of FP64 FMA's rate, and converted in every lane, a
// thin side of 4 ran at 0.66-0.78x its FP32 sums' speed, bench/results/README.md#gemv-fp64) at
// staged[at(r, i)] for i = kk - span. The reads walk whichever index is contiguous in memory, so
// that they coalesce.
template <int R, typename At>
__device__ __forceinline__ void stage_thin(GemvSum* staged, const GemvProblem& p, int64_t span, int64_t end,
                                           At at) {
  // A thread a k, every thin column: coalesced where the columns run along k, R loads a thread
  // elsewhere (no division an element: a 64-bit one by the span's length cost more than the span's FMAs).
  for (int64_t i = threadIdx.x; i < end - span; i += kThreads)
#pragma unroll
    for (int r = 0; r < R; ++r) staged[at(r, i)] = thin(p, r, span + i);
}

// Along k, stage_k<R>() of k a span (32 KiB at R = 2 and 4) as [r][half][i / 4][i % 2] (half = i / 2
// % 2): a lane's four k are two 16-byte shared loads, and a warp's 32 loads of either half are 512
// contiguous bytes (as [r][i], lanes 32 bytes apart would meet two-way bank conflicts). Without
// staging, a thin side of R > 1 issued R * 4 global loads (L1 hits, but issue slots) per 16-byte load
// of the large operand (H200: 4096 x 4096 x 4 ran at 0.44x SGEMM that way):
// bench/results/README.md#gemv-staging. One thin column is not staged: staged, 16384 x 16384 x 1 ran
// 0.90x its loads a lane (call H, #gemv-fp64).
template <int R>
constexpr int64_t stage_k() { return R == 2 ? 2048 : 1024; }
template <int R>
__device__ __forceinline__ int64_t staged_at(int r, int64_t i) {
  return ((2 * r + (i >> 1 & 1)) * (stage_k<R>() / 4) + (i >> 2)) * 2 + (i & 1);
}

// part[r][q] += m[q] * thin(r, kk + q) for four consecutive k of one output line (kk a
// multiple of 4 from `span`); the thin values come from `staged` (from `span`) when it is given,
// else as one 16-byte load a thin column where it is contiguous along k and 16-byte aligned
// (kThinVec). Each accumulator takes one FMA, so the order of r and q is free.
template <int R, bool kThinVec>
__device__ __forceinline__ void fma_run(GemvSum (&part)[R][4], const float4& m, const GemvProblem& p,
                                        int64_t kk, const GemvSum* staged, int64_t span) {
  const GemvSum mq[4] = {m.x, m.y, m.z, m.w};  // converted once for every thin column
#pragma unroll
  for (int r = 0; r < R; ++r) {
    GemvSum t[4];
    if (staged) {
      const GemvSum* at = staged + staged_at<R>(r, kk - span);
      const double2 lo = *reinterpret_cast<const double2*>(at);
      const double2 hi = *reinterpret_cast<const double2*>(at + stage_k<R>() / 2);
      t[0] = lo.x, t[1] = lo.y, t[2] = hi.x, t[3] = hi.y;
    } else if (kThinVec) {
      const float4 v = __ldg(reinterpret_cast<const float4*>(p.vec + r * p.vec_r + kk));
      t[0] = v.x, t[1] = v.y, t[2] = v.z, t[3] = v.w;
    } else {
#pragma unroll
      for (int q = 0; q < 4; ++q) t[q] = thin(p, r, kk + q);
    }
#pragma unroll
    for (int q = 0; q < 4; ++q) part[r][q] = fma(mq[q], t[q], part[r][q]);
  }
}

// Large operand contiguous along k: the block's warps own kWarps / line_warps output lines,
// line_warps warps a line (kShared; else a warp a line), which take the line's runs of k in
// turn and add their sums in shared memory in warp order (gemv.hpp: GemvPlan). A thin side of
// 2-4 is staged in shared memory in FP64 a span at a time (stage_k), unless each thin column is
// contiguous along k and 16-byte aligned (kThinVec, with kVec): then every lane loads its own four
// k of it, and the CTA meets no barrier (bench/results/README.md#gemv-staging).
template <int R, bool kVec, bool kShared, bool kThinVec>
__global__ void __launch_bounds__(kThreads, along_k_min_ctas(R, kThinVec))
gemv_along_k_kernel(GemvProblem p, GemmArgs args, int64_t k_chunk, int shared_warps) {
  wait_for_prior_grids();  // a first kernel launched dependent (common/launch.cuh)
  allow_dependents();  // the first kernel of its call: the reduction may queue up
  select_product(p, args);
  constexpr bool kStage = R > 1 && !kThinVec;
  static_assert(!kThinVec || kVec, "thin 16-byte loads ride on the large operand's");
  __shared__ double2 staged_span[kStage ? R * stage_k<R>() / 2 : 1];  // double2: 16-byte aligned
  __shared__ GemvSum line_sums[kShared ? kWarps : 1][R];
  GemvSum* staged = kStage ? reinterpret_cast<GemvSum*>(staged_span) : nullptr;
  const int line_warps = kShared ? shared_warps : 1;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int share = warp % line_warps;  // this warp's turn among its line's
  const int64_t l = static_cast<int64_t>(blockIdx.x) * (kWarps / line_warps) + warp / line_warps;
  const bool active = l < p.len;  // idle warps still stage and meet the barriers
  const int64_t kb = blockIdx.y * k_chunk, ke = std::min(p.k, kb + k_chunk);
  const float alpha = resolve_alpha(args.scalars), beta = resolve_beta(args.scalars);
  // Unstaged, a span grows with the line's warps: each still has kUnroll runs of it in flight.
  const int64_t span_k = kStage ? stage_k<R>() : kSpanK * line_warps;
  GemvSum acc[R][4] = {};
  if (alpha != 0.0f) {  // alpha = 0: A and B are not referenced (BLAS)
    const float* line = p.mat + (active ? l : 0) * p.mat_l;
    for (int64_t span = kb; span < ke; span += span_k) {
      const int64_t end = std::min(ke, span + span_k);
      if constexpr (kStage) {
        __syncthreads();  // the previous span's values are no longer read
        stage_thin<R>(staged, p, span, end, staged_at<R>);
        __syncthreads();
      }
      if (!active) continue;
      int64_t tail = span;  // where the 16-byte loads end
      if constexpr (kVec) {  // line and span are 16-byte aligned
        constexpr int kRuns = along_k_unroll(R, kThinVec);
        constexpr int64_t kStep = 4 * 32, kRound = kRuns * kStep;
        // Whole rounds of kRuns runs, then single runs, each dealt to the line's warps in turn.
        int64_t kk = span + share * kRound;
        for (; kk + kRound <= end; kk += line_warps * kRound) {
          float4 m[kRuns];
#pragma unroll
          for (int u = 0; u < kRuns; ++u)
            m[u] = __ldg(reinterpret_cast<const float4*>(line + kk + u * kStep) + lane);
#pragma unroll
          for (int u = 0; u < kRuns; ++u)
            fma_run<R, kThinVec>(acc, m[u], p, kk + u * kStep + 4 * lane, staged, span);
        }
        // One warp a line ends each loop where the next begins.
        if constexpr (kShared) kk = span + (end - span) / kRound * kRound + share * kStep;
        for (; kk + kStep <= end; kk += line_warps * kStep)
          fma_run<R, kThinVec>(acc, __ldg(reinterpret_cast<const float4*>(line + kk) + lane), p,
                     kk + 4 * lane, staged, span);
        tail = kShared ? span + (end - span) / kStep * kStep : kk;
      }
      // What 16-byte loads did not cover (all of it for an unaligned line): 32-wide pieces,
      // lane-strided, dealt to the line's warps in turn.
      for (int64_t q = tail + 32 * share + lane; q < end; q += 32 * line_warps) {
        const GemvSum m = __ldg(line + q);
#pragma unroll
        for (int r = 0; r < R; ++r) {
          const GemvSum v = kStage ? staged[staged_at<R>(r, q - span)] : thin(p, r, q);
          acc[r][0] = fma(m, v, acc[r][0]);
        }
      }
    }
  }
  if (!kShared && !active) return;
  GemvSum sums[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    // A butterfly leaves the same sum (same order of additions) in every lane.
    sums[r] = (acc[r][0] + acc[r][1]) + (acc[r][2] + acc[r][3]);
#pragma unroll
    for (int width = 16; width > 0; width /= 2) sums[r] += __shfl_xor_sync(0xffffffffu, sums[r], width);
  }
  if constexpr (kShared) {
    if (lane == 0)
#pragma unroll
      for (int r = 0; r < R; ++r) line_sums[warp][r] = sums[r];
    __syncthreads();
    if (share != 0 || !active) return;
#pragma unroll
    for (int r = 0; r < R; ++r) {
      sums[r] = line_sums[warp][r];
      for (int w = 1; w < line_warps; ++w) sums[r] += line_sums[warp + w][r];
    }
  }
#pragma unroll
  for (int r = 0; r < R; ++r)
    if (lane == r) store(p, args, l, r, sums[r], alpha, beta);
}

// Large operand contiguous along its long side: block b owns outputs b * lines ... (lines =
// 4 * row_lanes); the kThreads / row_lanes groups (kGroups; else 8 groups of 32 lanes, a warp
// each) read k rows kb + g, kb + g + groups, ..., then add their sums in shared memory:
// pairwise down to 8 groups, then in group order. Lane x of a row group outputs 4x .. 4x + 3,
// one 16-byte load a row, where the operand keeps 16-byte alignment (kVec); else x, x + row_lanes,
// x + 2 row_lanes, x + 3 row_lanes, so that each of its four 4-byte loads is a group's
// contiguous run (four loads a lane 16 bytes apart, as this took before, touched each line four
// times, one row in flight: bench/results/README.md#fused-latency). Either way an output's
// products are added in the same order.
// The thin values of kLenSpan rows at a time are staged in FP64 (in the buffer the groups' sums
// take at the end): converted once a CTA, not once a lane and row. Converted in every lane, a thin
// side of 4 ran at 0.66-0.78x its FP32 sums' speed (two conversions an element; conversions to
// FP64 issue at a quarter of FP64 FMA's rate): bench/results/README.md#gemv-fp64.
constexpr int kLenSpan = 4 * kThreads;  // rows a span: the sums' buffer holds R values a row
template <int R, bool kVec, bool kGroups>
__global__ void __launch_bounds__(kThreads, along_len_min_ctas(R, kGroups))
gemv_along_len_kernel(GemvProblem p, GemmArgs args, int64_t k_chunk, int group_lanes) {
  wait_for_prior_grids();  // a first kernel launched dependent (common/launch.cuh)
  allow_dependents();  // the first kernel of its call: the reduction may queue up
  select_product(p, args);
  // [group][r][line] at the end: groups * lines = 4 * kThreads (32 KiB at R = 4); before, the span's
  // thin values as [row][r].
  __shared__ GemvSum sums[R * 4 * kThreads];
  const int row_lanes = kGroups ? group_lanes : 32;
  const int groups = kThreads / row_lanes, lines = 4 * row_lanes;
  const int group = threadIdx.x / row_lanes, x = threadIdx.x % row_lanes;
  const int64_t first = static_cast<int64_t>(blockIdx.x) * lines;
  // This lane's output q, from `first`, and the distance between its outputs' elements.
  const int apart = kVec ? 1 : row_lanes;
  auto out = [&](int q) { return (kVec ? 4 * x : x) + apart * q; };
  const int64_t l0 = first + out(0);
  const int64_t kb = blockIdx.y * k_chunk, ke = std::min(p.k, kb + k_chunk);
  const float alpha = resolve_alpha(args.scalars), beta = resolve_beta(args.scalars);
  GemvSum acc[R][4] = {};
  if (alpha != 0.0f) {  // alpha = 0: A and B are not referenced (BLAS)
    const float* base = p.mat + l0;
    const bool active = l0 < p.len;  // idle lanes still stage and meet the barriers
    // How many of this lane's four outputs lie inside. kVec: all four, or the last partial run
    // (base and mat_k keep each run 16-byte aligned). Else every lane takes the loop below,
    // its loads past the end predicated off: a lane a branch of its own would run the warp's
    // last block down both paths.
    const bool whole = !kVec || l0 + 3 < p.len;
    const int live = kVec ? static_cast<int>(std::min<int64_t>(4, p.len - l0))
                          : 1 + (l0 + apart < p.len) + (l0 + 2 * apart < p.len) + (l0 + 3 * apart < p.len);
    auto four = [&](const float* row) {  // a row's elements of this lane's four outputs
      if constexpr (kVec) return __ldg(reinterpret_cast<const float4*>(row));
      else return make_float4(__ldg(row), live > 1 ? __ldg(row + apart) : 0.0f,
                              live > 2 ? __ldg(row + 2 * apart) : 0.0f, live > 3 ? __ldg(row + 3 * apart) : 0.0f);
    };
    int64_t span = kb;
    auto add_row = [&](const float4& m, int64_t kk) {
      const GemvSum mq[4] = {m.x, m.y, m.z, m.w};
      const GemvSum* v = sums + (kk - span) * R;  // one broadcast a group
#pragma unroll
      for (int r = 0; r < R; ++r)
#pragma unroll
        for (int q = 0; q < 4; ++q) acc[r][q] = fma(mq[q], v[r], acc[r][q]);
    };
    for (; span < ke; span += kLenSpan) {
      const int64_t end = std::min<int64_t>(ke, span + kLenSpan);
      __syncthreads();  // the previous span's values are no longer read
      stage_thin<R>(sums, p, span, end, [](int r, int64_t i) { return i * R + r; });
      __syncthreads();
      if (!active) continue;
      // A span holds a multiple of any group count's rows: group g's rows in it start at span + g.
      int64_t kk = span + group;
      if (whole) {
        for (; kk + (kUnrollLen - 1) * groups < end; kk += kUnrollLen * groups) {
          float4 m[kUnrollLen];
#pragma unroll
          for (int u = 0; u < kUnrollLen; ++u) m[u] = four(base + (kk + u * groups) * p.mat_k);
#pragma unroll
          for (int u = 0; u < kUnrollLen; ++u) add_row(m[u], kk + u * groups);
        }
        for (; kk < end; kk += groups) add_row(four(base + kk * p.mat_k), kk);
      } else {  // the last partial run of four outputs
        for (; kk < end; kk += groups) {
          const float* row = base + kk * p.mat_k;
          const float4 m{__ldg(row), live > 1 ? __ldg(row + apart) : 0.0f,
                         live > 2 ? __ldg(row + 2 * apart) : 0.0f, live > 3 ? __ldg(row + 3 * apart) : 0.0f};
          add_row(m, kk);
        }
      }
    }
    __syncthreads();  // the last span's values are no longer read
  }
  const int plane = R * lines;  // one group's sums
#pragma unroll
  for (int r = 0; r < R; ++r)
#pragma unroll
    for (int q = 0; q < 4; ++q) sums[group * plane + r * lines + out(q)] = acc[r][q];
  __syncthreads();
  if constexpr (kGroups) {
    for (int half = groups / 2; half >= kWarps; half /= 2) {
      for (int t = threadIdx.x; t < half * plane; t += kThreads) sums[t] += sums[t + half * plane];
      __syncthreads();
    }
  }
  for (int t = threadIdx.x; t < plane; t += kThreads) {
    const int r = t / lines, line = t % lines;
    if (first + line >= p.len) continue;
    GemvSum sum = 0.0;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) sum += sums[w * plane + t];
    store(p, args, first + line, r, sum, alpha, beta);
  }
}

// k <= kShortMaxK: from kFp32GroupMinK, kShortLanes lanes a line, lane g the chain of k-steps
// 4g .. 4g + 3, the chains then added in k order; below, a lane a line, one chain. (With FP32
// sums this was the other FP32 routes' order, common/fp32_chains.hpp: the kernels above, adding
// across lanes or row groups, had put 44 of the held-out sample's 75 GEMVs at k <= 16 above
// cuBLAS's residual; a thread a line, one chain after another, ran 0.92x this kernel's speed:
// bench/results/README.md#fp32-form.) A kernel of its own, so that the others keep their registers.
constexpr int kShortLanes = kShortMaxK / kFp32Group;
template <int R, int kLanes>  // kLanes: 1 below kFp32GroupMinK, else kShortLanes
__global__ void __launch_bounds__(kThreads) gemv_short_k_kernel(GemvProblem p, GemmArgs args) {
  wait_for_prior_grids();  // a first kernel launched dependent (common/launch.cuh)
  allow_dependents();
  select_product(p, args);
  const int g = threadIdx.x % kLanes;
  const int64_t l = static_cast<int64_t>(blockIdx.x) * (kThreads / kLanes) + threadIdx.x / kLanes;
  const bool active = l < p.len;  // inactive lanes still take part in the shuffles
  const float alpha = resolve_alpha(args.scalars), beta = resolve_beta(args.scalars);
  const int64_t k0 = kLanes == 1 ? 0 : g * kFp32Group;
  const int64_t k1 = kLanes == 1 ? p.k : std::min<int64_t>(p.k, k0 + kFp32Group);
  GemvSum chain[R] = {};
  if (alpha != 0.0f && active) {  // alpha = 0: A and B are not referenced (BLAS)
    for (int64_t kk = k0; kk < k1; ++kk) {
      const float m = __ldg(p.mat + l * p.mat_l + kk * p.mat_k);
#pragma unroll
      for (int r = 0; r < R; ++r) fma_into(chain[r], m, thin(p, r, kk));
    }
  }
#pragma unroll
  for (int r = 0; r < R; ++r) {
    GemvSum sum = 0.0;  // the chains in k order
#pragma unroll
    for (int j = 0; j < kLanes; ++j) sum += __shfl_sync(0xffffffffu, chain[r], j, kLanes);
    if (active && g == 0) store(p, args, l, r, sum, alpha, beta);
  }
}

// Along k, lines shorter than a warp's round of loads (kShortMaxK < k <= kLinesMaxK): kLanes
// lanes a line (GemvPlan::line_lanes), kThreads / kLanes lines a block, numbered across the
// launch's products, so that a batch of small products shares blocks rather than leaving most
// of a warp a line idle and a block of 8 lines waiting on one round of loads (H100:
// 12552 x 40 x 71 x 1 ran 0.46x torch.bmm so, bench/results/README.md#batched-lines). Lane g
// chains the k of its line g, g + kLanes, ... in order (16-byte runs 4g, 4g + 4 kLanes, ...
// where every line is 16-byte aligned), its loads issued before their FMAs; a butterfly adds
// the group's chains (the same order in every lane).
// kBlocks (GemvPlan::line_blocks) blocks an SM: 8 k of the large operand (4 with 3 or 4 thin
// columns) and their thin values in flight a lane. (All of a lane's 16 k in flight at once, 3
// blocks an SM, ran 1.11x slower on batches: bench/results/README.md#batched-lines.)
template <int R, int kLanes, bool kVec, int kBlocks>
__global__ void __launch_bounds__(kThreads, kBlocks) gemv_lines_kernel(GemvProblem p, GemmArgs args, int64_t lines) {
  wait_for_prior_grids();  // a first kernel launched dependent (common/launch.cuh)
  allow_dependents();
  constexpr int kWidth = kVec ? 4 : 1;                       // k a load
  constexpr int kLoads = kVec ? 2 : R <= 2 ? 8 : 4;          // loads in flight a lane
  constexpr int64_t kStep = kWidth * kLanes;  // k between a lane's loads
  const int g = threadIdx.x % kLanes;
  const int64_t line = static_cast<int64_t>(blockIdx.x) * (kThreads / kLanes) + threadIdx.x / kLanes;
  const bool active = line < lines;  // idle groups still take part in the shuffles
  const int64_t z = active ? line / p.len : 0, l = active ? line - z * p.len : 0;
  const int64_t product = args.batch.first + z;
  const float* mat = (p.mat_is_a ? batch_a(args, product) : batch_b(args, product)) + l * p.mat_l;
  const float* vec = p.mat_is_a ? batch_b(args, product) : batch_a(args, product);
  const float alpha = resolve_alpha(args.scalars), beta = resolve_beta(args.scalars);
  GemvSum chain[R] = {};
  if (alpha != 0.0f && active) {  // alpha = 0: A and B are not referenced (BLAS)
    for (int64_t base = kWidth * g; base < p.k; base += kLoads * kStep) {
      float m[kLoads][kWidth], t[kLoads][kWidth][R];
#pragma unroll
      for (int u = 0; u < kLoads; ++u) {
        const int64_t at = base + u * kStep;
        if (kVec && at + kWidth <= p.k) {
          const float4 q = __ldg(reinterpret_cast<const float4*>(mat + at));
          const float qs[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
          for (int w = 0; w < kWidth; ++w) m[u][w] = qs[w];
        } else {
#pragma unroll
          for (int w = 0; w < kWidth; ++w) m[u][w] = at + w < p.k ? __ldg(mat + at + w) : 0.0f;
        }
#pragma unroll
        for (int w = 0; w < kWidth; ++w)
#pragma unroll
          for (int r = 0; r < R; ++r)
            t[u][w][r] = at + w < p.k ? __ldg(vec + r * p.vec_r + (at + w) * p.vec_k) : 0.0f;
      }
#pragma unroll
      for (int u = 0; u < kLoads; ++u)
#pragma unroll
        for (int w = 0; w < kWidth; ++w)
          if (base + u * kStep + w < p.k)  // past k: no term (0 * Inf would be one)
#pragma unroll
            for (int r = 0; r < R; ++r) fma_into(chain[r], m[u][w], t[u][w][r]);
    }
  }
  float* c = batch_c(args, product);
#pragma unroll
  for (int r = 0; r < R; ++r) {
#pragma unroll
    for (int width = kLanes / 2; width > 0; width /= 2)
      chain[r] += __shfl_xor_sync(0xffffffffu, chain[r], width);
    if (active && g == 0) store_scaled(c + l * p.c_l + r * p.c_r, static_cast<float>(chain[r]), alpha, beta);
  }
}

// Whether an operand starts 16-byte aligned in every product (the vector loads assume it):
// the strides of a strided batch keep the first's alignment if they are multiples of 4;
// pointer arrays are not read on the host, so they take the scalar loads.
bool every_product_aligned(const float* first, int64_t stride, const GemmArgs& g) {
  if (reinterpret_cast<uintptr_t>(first) % 16 != 0) return false;
  if (!g.batch.batched()) return true;
  return !g.batch.pointer_array() && stride % 4 == 0;
}

bool mat_aligned(const GemvProblem& p, const GemmArgs& g) {
  return every_product_aligned(p.mat, p.mat_is_a ? g.batch.stride_a : g.batch.stride_b, g);
}

// The large operand's 16-byte loads along k: every line 16-byte aligned (one line: the operand).
bool mat_vec_along_k(const GemvProblem& p, const GemmArgs& g) {
  return mat_aligned(p, g) && (p.len == 1 || p.mat_l % 4 == 0);
}

// GemvThin::kLoaded: beside those, each thin column contiguous along k and 16-byte aligned in every
// product (fma_run's kThinVec).
bool thin_loaded(const GemvProblem& p, const GemmArgs& g) {
  return mat_vec_along_k(p, g) && p.vec_k == 1 && p.vec_r % 4 == 0 &&
         every_product_aligned(p.vec, p.mat_is_a ? g.batch.stride_b : g.batch.stride_a, g);
}

// Outputs (lines) of one block, and how many of its groups walk one line's k in turn.
int64_t block_lines(const GemvPlan& plan) {
  if (plan.layout == GemvLayout::kAlongLen) return 4 * plan.row_lanes;
  return plan.line_lanes > 0 ? kThreads / plan.line_lanes : kWarps / plan.line_warps;
}
int64_t line_walkers(const GemvPlan& plan) {
  return plan.layout == GemvLayout::kAlongK ? plan.line_warps : kThreads / plan.row_lanes;
}

// f(std::integral_constant<int, lanes>) for the lines kernel's lane counts.
template <typename F>
cudaError_t visit_line_lanes(int lanes, F&& f) {
  switch (lanes) {
    case 2: return f(std::integral_constant<int, 2>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 8: return f(std::integral_constant<int, 8>{});
    case 16: return f(std::integral_constant<int, 16>{});
  }
  return cudaErrorInvalidValue;
}

template <int R>
cudaError_t launch_width(const GemvProblem& p, const GemmArgs& g, const GemvPlan& plan,
                         cudaStream_t stream) {
  if (g.k <= kShortMaxK)  // plan_gemv splits no such k
    return for_each_batch_launch(g, [&](const GemmArgs& part, unsigned products) {
      const int lanes = g.k < kFp32GroupMinK ? 1 : kShortLanes;
      const unsigned blocks = static_cast<unsigned>((p.len * lanes + kThreads - 1) / kThreads);
      return launch(first_kernel({dim3(blocks, 1, products), kThreads, 0, stream}),
                    lanes == 1 ? gemv_short_k_kernel<R, 1> : gemv_short_k_kernel<R, kShortLanes>, p, part);
    });
  const bool aligned = mat_aligned(p, g);
  if (plan.line_lanes > 0) {  // plan_gemv: along k, never split; lines numbered across products
    const bool vec = mat_vec_along_k(p, g);
    return for_each_batch_launch(g, [&](const GemmArgs& part, unsigned products) {
      const int64_t lines = p.len * products, per_block = kThreads / plan.line_lanes;
      const Launch l = first_kernel({static_cast<unsigned>((lines + per_block - 1) / per_block), kThreads, 0, stream});
      return visit_line_lanes(plan.line_lanes, [&](auto lanes) {
        constexpr int kLanes = decltype(lanes)::value;
        constexpr int kStream = R == 1 ? kLinesStreamBlocksPerSm : lines_blocks(R);
        const auto kernel = plan.line_blocks == kStream
                                ? (vec ? gemv_lines_kernel<R, kLanes, true, kStream> : gemv_lines_kernel<R, kLanes, false, kStream>)
                                : (vec ? gemv_lines_kernel<R, kLanes, true, lines_blocks(R)>
                                       : gemv_lines_kernel<R, kLanes, false, lines_blocks(R)>);
        return launch(l, kernel, p, part, lines);
      });
    });
  }
  const unsigned splits = static_cast<unsigned>(plan.splits);
  const int64_t lines = block_lines(plan);
  const unsigned blocks = static_cast<unsigned>((p.len + lines - 1) / lines);
  return for_each_batch_launch(g, [&](const GemmArgs& part, unsigned products) {
    const Launch l = first_kernel({dim3(blocks, splits, products), kThreads, 0, stream});
    if (plan.layout == GemvLayout::kAlongK) {
      const bool vec = mat_vec_along_k(p, g), shared = plan.line_warps > 1;
      auto kernel = vec ? (shared ? gemv_along_k_kernel<R, true, true, false> : gemv_along_k_kernel<R, true, false, false>)
                        : (shared ? gemv_along_k_kernel<R, false, true, false> : gemv_along_k_kernel<R, false, false, false>);
      // The plan's way, where the pointers allow it (they are the ones it was planned for; a plan
      // made for other pointers stages, correct either way). plan_gemv shares a line among warps
      // only for one thin column, which has nothing to stage.
      if constexpr (R > 1)
        if (plan.thin == GemvThin::kLoaded && !shared && thin_loaded(p, g))
          kernel = gemv_along_k_kernel<R, true, false, true>;
      return launch(l, kernel, p, part, plan.k_chunk, plan.line_warps);
    }
    const bool vec = aligned && p.mat_k % 4 == 0, grouped = plan.row_lanes < 32;
    const auto kernel = vec ? (grouped ? gemv_along_len_kernel<R, true, true> : gemv_along_len_kernel<R, true, false>)
                            : (grouped ? gemv_along_len_kernel<R, false, true> : gemv_along_len_kernel<R, false, false>);
    return launch(l, kernel, p, part, plan.k_chunk, plan.row_lanes);
  });
}

}  // namespace

bool gemv_shape(const GemmArgs& args) {
  return std::min(args.m, args.n) <= kGemvMaxWidth;
}

GemvLayout gemv_layout(const GemmArgs& args) {
  // The large operand is op(A) when m >= n, else op(B)^T (make_problem above). Its k is
  // contiguous where its k stride is 1: transposed, or one line stored with ld 1 (a dot
  // product, 1 x k x 1, whose along-the-long-side kernel would walk k in one lane).
  return make_problem(args, nullptr).mat_k == 1 ? GemvLayout::kAlongK : GemvLayout::kAlongLen;
}

GemvPlan plan_gemv(const GemmArgs& args, const DeviceInfo& dev, size_t max_bytes, bool wide) {
  const int64_t m = args.m, n = args.n, k = args.k, batch = args.batch.count;
  const GemvLayout layout = gemv_layout(args);
  // Warps enough for DRAM (each keeps ~2 KiB of loads in flight) over several waves
  // (short idle tail), and enough k per warp that its loads outweigh its prologue and
  // epilogue. Along k a warp owns one output; along the long side 8 warps share 128.
  // H200, ms (bench/results/README.md): one plan for both kernels, counted as
  // along the long side, over-split the along-k kernel (4096 x 4096 x 1: 0.036 with four
  // waves, 0.030 with this); four waves along the long side beat one (1 x 2^20 x 64:
  // 0.101 -> 0.086 with kUnrollLen 8).
  const bool along_k = layout == GemvLayout::kAlongK;
  const int64_t warps_per_sm = along_k ? 2 * 64 : 4 * 64;
  const int64_t min_chunk = along_k ? 1024 : 256;
  constexpr int64_t kMaxSplits = 4096;
  const int64_t len = std::max(m, n), width = std::min(m, n);
  const int64_t target =
      std::max<int64_t>(1, int64_t{dev.sm_count} * warps_per_sm / std::max<int64_t>(1, batch));
  GemvPlan plan;
  plan.layout = layout;
  // The fixed groups' split: walkers (warps along k, row groups along the long side) times
  // splits across CTAs.
  auto walkers = [&] {
    return along_k ? len * plan.line_warps
                   : (len + block_lines(plan) - 1) / block_lines(plan) * line_walkers(plan);
  };
  // Along k, lines of kShortMaxK < k <= kLinesMaxK share warps (gemv_lines_kernel): lanes enough
  // that each walks about kLinesPerLane of its line's k, where a launch's blocks fit a grid.
  // Never split: k is short. The planner prices the fixed groups beside it (`wide`, which
  // "gemv:wide" pins): a warp a line waits less on a few short lines.
  if (along_k && !wide && k > kShortMaxK && k <= kLinesMaxK) {
    int lanes = 2;
    while (lanes < 16 && lanes * kLinesPerLane < k) lanes *= 2;
    const int64_t launch_lines = len * std::min(batch, kMaxBatchPerLaunch);
    if (launch_lines / (kThreads / lanes) < INT32_MAX) {
      plan.line_lanes = lanes;
      const int64_t blocks = (len * batch + kThreads / lanes - 1) / (kThreads / lanes);
      const bool stream = width == 1 && blocks >= kLinesStreamWaves * kLinesBlocksPerSm * dev.sm_count;
      plan.line_blocks = stream ? kLinesStreamBlocksPerSm : lines_blocks(static_cast<int>(width));
      plan.k_chunk = round_up(k, kChunkAlign);
      return plan;
    }
  }
  const int64_t fixed = walkers();
  const size_t outputs_bytes = static_cast<size_t>(m * n) * sizeof(GemvSum);  // one split's partials
  const int64_t fit = static_cast<int64_t>(std::min<size_t>(max_bytes / outputs_bytes, kMaxSplits));
  int64_t want = std::min({(target + fixed - 1) / fixed, k / min_chunk, fit});
  // Where the large operand takes less DRAM time than a split across CTAs costs (partials and
  // a second kernel, about 2 us: kLatencyBytes), the call waits on latency, and k is split
  // inside the CTA instead: a few shared-memory additions, one launch. More walkers a line
  // while the GPU wants more warps and each keeps a round of loads: along k, warps sharing a
  // line of one thin column (each CTA stages a wider thin operand for its fewer lines); along
  // the long side, first the lanes that have no outputs, then narrower row groups down to a
  // 128-byte line of a row. Only where that leaves no split across CTAs, and along k only
  // where it replaces one; else the fixed groups, which ran faster there (0.5-0.9x otherwise,
  // bench/results/README.md#gemv-in-cta).
  if (!wide && 4.0 * static_cast<double>(len) * static_cast<double>(k) * static_cast<double>(batch) <=
                   kLatencyBytes) {
    if (along_k && width == 1 && want > 1) {
      while (plan.line_warps < kWarps && 2 * walkers() <= target && k / (2 * plan.line_warps) >= kMinWarpK)
        plan.line_warps *= 2;
    } else if (!along_k) {
      const int64_t needed = (len + 3) / 4;  // lanes with outputs
      while (plan.row_lanes > 1 && walkers() < target &&
             k * (plan.row_lanes / 2) / kThreads >= kUnrollLen &&
             (plan.row_lanes / 2 >= kMinRowLanes || plan.row_lanes / 2 >= needed))
        plan.row_lanes /= 2;
    }
    if (want > 1 && want * fixed > walkers()) {  // the fixed groups' walkers over k not all in the CTA
      plan.line_warps = 1;
      plan.row_lanes = 32;
    } else {
      want = 1;
    }
  }
  plan.k_chunk = round_up(k, kChunkAlign);
  if (along_k && width > 1 && k > kShortMaxK)  // the short-k kernel stages nothing
    plan.thin = thin_loaded(make_problem(args, nullptr), args) ? GemvThin::kLoaded : GemvThin::kStaged;
  if (want > 1) {
    const KSplit s = split_k(k, want, kChunkAlign);
    plan.k_chunk = s.chunk;
    plan.splits = s.splits;
    if (plan.splits > 1) plan.bytes = static_cast<size_t>(plan.splits) * outputs_bytes;
  }
  return plan;
}

// At k <= kShortMaxK the short-k kernel runs, priced as the fixed groups: the rows' calibration
// timed those shapes on them, and both kernels wait on one short round of loads there.
GridShape gemv_grid(const GemmArgs& args, const GemvPlan& plan, const DeviceInfo& dev) {
  const int64_t len = std::max(args.m, args.n), width = std::min(args.m, args.n);
  const int64_t lines = block_lines(plan);
  GridShape g;
  // The lines kernel numbers its lines across the batch's products.
  g.ctas = plan.line_lanes > 0 ? (len * args.batch.count + lines - 1) / lines
                                : (len + lines - 1) / lines * plan.splits * args.batch.count;
  // Counted as threads allow (8 CTAs an SM), though registers hold most of the other kernels to 2-5
  // (ptxas -v: along k 30-80 registers a thread, along the long side 48-112); the rows' fit absorbs it.
  g.resident = int64_t{dev.sm_count} * (plan.line_lanes > 0 ? plan.line_blocks : 2048 / kThreads);
  g.tile_outputs = lines * width;
  g.k_per_cta = plan.k_chunk;
  g.walk_k = plan.line_lanes > 0 ? (args.k + plan.line_lanes - 1) / plan.line_lanes  // a lane's chain
                                 : plan.k_chunk / line_walkers(plan);
  g.kernels = plan.splits > 1 ? 2 : 1;
  g.extra_bytes = partials_traffic(plan.splits, args.m, args.n, sizeof(GemvSum));
  return g;
}

cudaError_t launch_gemv(const GemmArgs& g, const GemvPlan& plan, void* workspace,
                             const DeviceInfo& dev, cudaStream_t stream) {
  GemvSum* partials = plan.splits > 1 ? static_cast<GemvSum*>(workspace) : nullptr;
  const GemvProblem p = make_problem(g, partials);
  cudaError_t err = cudaErrorInvalidValue;
  switch (std::min(g.m, g.n)) {
    case 1: err = launch_width<1>(p, g, plan, stream); break;
    case 2: err = launch_width<2>(p, g, plan, stream); break;
    case 3: err = launch_width<3>(p, g, plan, stream); break;
    case 4: err = launch_width<4>(p, g, plan, stream); break;
  }
  if (err != cudaSuccess || !partials) return err;
  return launch_splitk_reduce(g, {partials, plan.splits, g.m, g.n, SplitOrder::kLanes}, stream,
                              dev.cc_major >= 9);
}

}  // namespace ecgemm::detail
