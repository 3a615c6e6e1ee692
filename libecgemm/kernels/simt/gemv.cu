// The gemv family (gemv.hpp): GEMV-like products. The large operand is read once, 16 bytes per
// lane where its alignment allows, kUnroll loads in flight per warp. Two kernels by
// which index of the large operand is contiguous in memory:
//   along k: one warp per output line, lanes along k, a butterfly over the warp;
//   along the long side: lanes own 4 neighbouring outputs, the block's warps walk
//     interleaved k rows, then add their sums in shared memory in a fixed order.
// Each thread keeps 4 accumulators per thin column (shorter FMA chains: more
// independent work and less rounding error). Split-K writes each output's partial sums
// side by side; the common reducer adds them in a fixed order (SplitOrder::kLanes):
// results are deterministic. It is a dependent launch (common/launch.cuh): 1 x 4096 x
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

#include "kernels/common/epilogue.cuh"
#include "kernels/common/launch.cuh"
#include "kernels/common/splitk_plan.hpp"
#include "kernels/common/splitk_reduce.hpp"
#include "kernels/common/tile_scheduler.cuh"
#include "kernels/gemv.hpp"

namespace ecgemm::detail {
namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kUnroll = 4;         // along k: 4 x 512 bytes per warp
constexpr int kUnrollLen = 8;      // along the long side: 8 rows x 512 bytes per warp
constexpr int64_t kChunkAlign = 128;  // k per split: whole 16-byte runs of a warp
constexpr int kLinesPerBlock = 128;   // outputs of one block of the along-the-long-side kernel
constexpr int64_t kSpanK = 2048;      // k per two-level span: 16 loads of 16 bytes per lane
constexpr int64_t kSpanLen = 256;     // ... 32 rows per warp

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
  float* partials;         // [m * n][splits]; null: no split, the kernel applies alpha and beta
  bool mat_is_a;           // the large operand is op(A) (m >= n), else op(B)^T
};

GemvProblem make_problem(const GemmArgs& g, float* partials) {
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

__device__ __forceinline__ void store(const GemvProblem& p, const GemmArgs& args, int64_t l, int r,
                                      float sum, float alpha, float beta) {
  if (p.partials)
    p.partials[(l * p.part_l + r * p.part_r) * gridDim.y + blockIdx.y] = sum;
  else
    store_scaled(args.c + l * p.c_l + r * p.c_r, sum, alpha, beta);
}

// Two-level accumulation: sums over one span of k (kSpanK or kSpanLen) are added into
// the result, so rounding error grows with k / span + span, not with k, even when a
// user workspace too small for partials leaves k unsplit.
template <int R>
__device__ __forceinline__ void add_into(float (&acc)[R][4], const float (&part)[R][4]) {
#pragma unroll
  for (int r = 0; r < R; ++r)
#pragma unroll
    for (int q = 0; q < 4; ++q) acc[r][q] += part[r][q];
}

// The thin operand over one span of k, staged as [kk][r]: one 16-byte shared load
// gives every thin column at one k. Without it, R > 1 would issue R * 4 global loads
// (L1 hits, but issue slots) per 16-byte load of the large operand (H200: 4096 x 4096
// x 4 ran at 0.44x SGEMM that way).
template <int R>
__device__ __forceinline__ void stage_thin(float4* staged, const GemvProblem& p, int64_t span,
                                           int64_t end) {
  const int64_t count = end - span;
  for (int64_t e = threadIdx.x; e < R * count; e += kThreads) {
    // Walk whichever index is contiguous in memory, so the reads coalesce.
    const bool k_fast = p.vec_k == 1;
    const int r = static_cast<int>(k_fast ? e / count : e % R);
    const int64_t i = k_fast ? e % count : e / R;
    reinterpret_cast<float*>(staged + i)[r] = thin(p, r, span + i);
  }
}

// part[r][q] += m[q] * thin(r, kk + q) for four consecutive k of one output line; the
// thin values come from `staged` (indexed from `span`) when it is given.
template <int R>
__device__ __forceinline__ void fma_run(float (&part)[R][4], const float4& m, const GemvProblem& p,
                                        int64_t kk, const float4* staged, int64_t span) {
  const float mq[4] = {m.x, m.y, m.z, m.w};
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    if (staged) {
      const float4 t = staged[kk + q - span];
      const float tr[4] = {t.x, t.y, t.z, t.w};
#pragma unroll
      for (int r = 0; r < R; ++r) part[r][q] = fmaf(mq[q], tr[r], part[r][q]);
    } else {
#pragma unroll
      for (int r = 0; r < R; ++r) part[r][q] = fmaf(mq[q], thin(p, r, kk + q), part[r][q]);
    }
  }
}

// Large operand contiguous along k: warp w of block b owns output line b * kWarps + w.
template <int R, bool kVec>
__global__ void __launch_bounds__(kThreads)
gemv_along_k_kernel(GemvProblem p, GemmArgs args, int64_t k_chunk) {
  allow_dependents();  // the first kernel of its call: the reduction may queue up
  select_product(p, args);
  constexpr bool kStage = R > 1;
  __shared__ float4 staged_span[kStage ? kSpanK : 1];
  float4* staged = kStage ? staged_span : nullptr;
  const int lane = threadIdx.x % 32;
  const int64_t l = static_cast<int64_t>(blockIdx.x) * kWarps + threadIdx.x / 32;
  const bool active = l < p.len;  // idle warps still stage and meet the barriers
  const int64_t kb = blockIdx.y * k_chunk, ke = std::min(p.k, kb + k_chunk);
  const float alpha = resolve_alpha(args.scalars), beta = resolve_beta(args.scalars);
  float acc[R][4] = {};
  if (alpha != 0.0f) {  // alpha = 0: A and B are not referenced (BLAS)
    const float* line = p.mat + (active ? l : 0) * p.mat_l;
    for (int64_t span = kb; span < ke; span += kSpanK) {
      const int64_t end = std::min(ke, span + kSpanK);
      if constexpr (kStage) {
        __syncthreads();  // the previous span's values are no longer read
        stage_thin<R>(staged, p, span, end);
        __syncthreads();
      }
      if (!active) continue;
      float part[R][4] = {};
      int64_t kk = span;
      if constexpr (kVec) {  // line and span are 16-byte aligned
        constexpr int64_t kStep = 4 * 32;
        for (; kk + kUnroll * kStep <= end; kk += kUnroll * kStep) {
          float4 m[kUnroll];
#pragma unroll
          for (int u = 0; u < kUnroll; ++u)
            m[u] = __ldg(reinterpret_cast<const float4*>(line + kk + u * kStep) + lane);
#pragma unroll
          for (int u = 0; u < kUnroll; ++u)
            fma_run<R>(part, m[u], p, kk + u * kStep + 4 * lane, staged, span);
        }
        for (; kk + kStep <= end; kk += kStep)
          fma_run<R>(part, __ldg(reinterpret_cast<const float4*>(line + kk) + lane), p,
                     kk + 4 * lane, staged, span);
      }
      // What 16-byte loads did not cover (all of it for an unaligned line), lane-strided.
      for (int64_t q = kk + lane; q < end; q += 32) {
        const float m = __ldg(line + q);
#pragma unroll
        for (int r = 0; r < R; ++r) {
          const float v = kStage ? reinterpret_cast<const float*>(staged + (q - span))[r]
                                 : thin(p, r, q);
          part[r][0] = fmaf(m, v, part[r][0]);
        }
      }
      add_into(acc, part);
    }
  }
  if (!active) return;
#pragma unroll
  for (int r = 0; r < R; ++r) {
    // A butterfly leaves the same sum (same order of additions) in every lane.
    float sum = (acc[r][0] + acc[r][1]) + (acc[r][2] + acc[r][3]);
#pragma unroll
    for (int width = 16; width > 0; width /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, width);
    if (lane == r) store(p, args, l, r, sum, alpha, beta);
  }
}

// Large operand contiguous along its long side: lane x of block b owns outputs
// b * 128 + 4x .. +3; warp w reads k rows kb + w, kb + w + kWarps, ...
template <int R, bool kVec>
__global__ void __launch_bounds__(kThreads)
gemv_along_len_kernel(GemvProblem p, GemmArgs args, int64_t k_chunk) {
  allow_dependents();  // the first kernel of its call: the reduction may queue up
  select_product(p, args);
  __shared__ float sums[kWarps][R][kLinesPerBlock];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int64_t first = static_cast<int64_t>(blockIdx.x) * kLinesPerBlock;
  const int64_t l0 = first + 4 * lane;
  const int64_t kb = blockIdx.y * k_chunk, ke = std::min(p.k, kb + k_chunk);
  const float alpha = resolve_alpha(args.scalars), beta = resolve_beta(args.scalars);
  float acc[R][4] = {};
  if (alpha != 0.0f && l0 < p.len) {
    const float* base = p.mat + l0;
    const bool whole = kVec && l0 + 3 < p.len;  // base and mat_k keep each run 16-byte aligned
    const int live = static_cast<int>(std::min<int64_t>(4, p.len - l0));
    for (int64_t span = kb; span < ke; span += kSpanLen) {
      const int64_t end = std::min(ke, span + kSpanLen);
      float part[R][4] = {};
      auto add_row = [&](const float4& m, int64_t kk) {
#pragma unroll
        for (int r = 0; r < R; ++r) {
          const float v = thin(p, r, kk);
          part[r][0] = fmaf(m.x, v, part[r][0]);
          part[r][1] = fmaf(m.y, v, part[r][1]);
          part[r][2] = fmaf(m.z, v, part[r][2]);
          part[r][3] = fmaf(m.w, v, part[r][3]);
        }
      };
      int64_t kk = span + warp;
      if (whole) {
        for (; kk + (kUnrollLen - 1) * kWarps < end; kk += kUnrollLen * kWarps) {
          float4 m[kUnrollLen];
#pragma unroll
          for (int u = 0; u < kUnrollLen; ++u)
            m[u] = __ldg(reinterpret_cast<const float4*>(base + (kk + u * kWarps) * p.mat_k));
#pragma unroll
          for (int u = 0; u < kUnrollLen; ++u) add_row(m[u], kk + u * kWarps);
        }
        for (; kk < end; kk += kWarps)
          add_row(__ldg(reinterpret_cast<const float4*>(base + kk * p.mat_k)), kk);
      } else {  // unaligned, or the last partial run of four outputs
        for (; kk < end; kk += kWarps) {
          const float* row = base + kk * p.mat_k;
          const float4 m{__ldg(row), live > 1 ? __ldg(row + 1) : 0.0f,
                         live > 2 ? __ldg(row + 2) : 0.0f, live > 3 ? __ldg(row + 3) : 0.0f};
          add_row(m, kk);
        }
      }
      add_into(acc, part);
    }
  }
#pragma unroll
  for (int r = 0; r < R; ++r)
#pragma unroll
    for (int q = 0; q < 4; ++q) sums[warp][r][4 * lane + q] = acc[r][q];
  __syncthreads();
  for (int t = threadIdx.x; t < R * kLinesPerBlock; t += kThreads) {
    const int r = t / kLinesPerBlock, x = t % kLinesPerBlock;
    if (first + x >= p.len) continue;
    float sum = 0.0f;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) sum += sums[w][r][x];
    store(p, args, first + x, r, sum, alpha, beta);
  }
}

// Whether every product's large operand starts 16-byte aligned (the vector loads assume
// it): the strides of a strided batch keep the first's alignment if they are multiples of
// 4; pointer arrays are not read on the host, so they take the scalar loads.
bool mat_aligned(const GemvProblem& p, const GemmArgs& g) {
  if (reinterpret_cast<uintptr_t>(p.mat) % 16 != 0) return false;
  if (!g.batch.batched()) return true;
  if (g.batch.pointer_array()) return false;
  return (p.mat_is_a ? g.batch.stride_a : g.batch.stride_b) % 4 == 0;
}

template <int R>
cudaError_t launch_width(const GemvProblem& p, const GemmArgs& g, const GemvPlan& plan,
                         cudaStream_t stream) {
  const bool aligned = mat_aligned(p, g);
  const unsigned splits = static_cast<unsigned>(plan.splits);
  const bool along_k = gemv_layout(g) == GemvLayout::kAlongK;
  const int64_t lines = along_k ? kWarps : kLinesPerBlock;
  const unsigned blocks = static_cast<unsigned>((p.len + lines - 1) / lines);
  return for_each_batch_launch(g, [&](const GemmArgs& part, unsigned products) {
    const Launch l{dim3(blocks, splits, products), kThreads, 0, stream};
    if (along_k)  // 16-byte loads: every line 16-byte aligned (one line: the operand)
      return aligned && (p.len == 1 || p.mat_l % 4 == 0)
                 ? launch(l, gemv_along_k_kernel<R, true>, p, part, plan.k_chunk)
                 : launch(l, gemv_along_k_kernel<R, false>, p, part, plan.k_chunk);
    return aligned && p.mat_k % 4 == 0 ? launch(l, gemv_along_len_kernel<R, true>, p, part, plan.k_chunk)
                                       : launch(l, gemv_along_len_kernel<R, false>, p, part, plan.k_chunk);
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

GemvPlan plan_gemv(int64_t m, int64_t n, int64_t k, GemvLayout layout, const DeviceInfo& dev,
                        size_t max_bytes) {
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
  const int64_t len = std::max(m, n);
  const int64_t warps = along_k ? len : (len + kLinesPerBlock - 1) / kLinesPerBlock * kWarps;
  const int64_t target = static_cast<int64_t>(dev.sm_count) * warps_per_sm;
  const size_t outputs_bytes = static_cast<size_t>(m * n) * sizeof(float);
  const int64_t fit = static_cast<int64_t>(std::min<size_t>(max_bytes / outputs_bytes, kMaxSplits));
  const int64_t want = std::min({(target + warps - 1) / warps, k / min_chunk, fit});
  GemvPlan plan;
  plan.layout = layout;
  plan.k_chunk = round_up(k, kChunkAlign);
  if (want > 1) {
    const KSplit s = split_k(k, want, kChunkAlign);
    plan.k_chunk = s.chunk;
    plan.splits = s.splits;
    if (plan.splits > 1) plan.bytes = static_cast<size_t>(plan.splits) * outputs_bytes;
  }
  return plan;
}

GridShape gemv_grid(const GemmArgs& args, const GemvPlan& plan, const DeviceInfo& dev) {
  const int64_t len = std::max(args.m, args.n), width = std::min(args.m, args.n);
  const int64_t lines = plan.layout == GemvLayout::kAlongK ? kWarps : kLinesPerBlock;
  GridShape g;
  g.ctas = (len + lines - 1) / lines * plan.splits * args.batch.count;
  g.resident = int64_t{dev.sm_count} * (2048 / kThreads);  // threads, not registers, bound it
  g.tile_outputs = lines * width;
  g.k_per_cta = plan.k_chunk;
  g.kernels = plan.splits > 1 ? 2 : 1;
  g.extra_bytes = partials_traffic(plan.splits, args.m, args.n);
  return g;
}

cudaError_t launch_gemv(const GemmArgs& g, const GemvPlan& plan, void* workspace,
                             const DeviceInfo& dev, cudaStream_t stream) {
  float* partials = plan.splits > 1 ? static_cast<float*>(workspace) : nullptr;
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
