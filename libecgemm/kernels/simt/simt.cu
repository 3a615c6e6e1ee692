// The simt family: FP32 SIMT GEMM on the caller's layout. ECGEMM_MODE_FP32, and the
// corrected modes' route on some skinny shapes (docs/architecture.md: the planner).
//
// A classic register-blocked SGEMM: 256 threads, each owning 4 or 8 x 4 or 8 outputs
// held in registers (a 16 x 16 grid of threads, or 32 x 8 / 64 x 4 and their mirrors on
// the slim tiles, whose thin side is 32 or 16 wide); operand panels are double-buffered in shared memory,
// staged through registers so one barrier per k step suffices. Panels are stored
// k-major ([k][row]) so a thread's fragments are float4 shared loads. The global
// loads read the caller's memory directly (either index may be the contiguous one),
// so no transpose, ld or pointer alignment needs a copy. The narrow tiles (m or n
// small) add 32-long chunks of k into the result (two-level accumulation), which keeps
// their error near cuBLAS's or below at any k: they serve the corrected modes too.
//
// Split-K: when the output tiles cannot fill the GPU, blockIdx.z owns one k range and
// writes its raw sum to a partials plane in the workspace; the common reducer adds the
// planes in a fixed order (deterministic) and applies alpha, beta.
//
// The stream tile (k <= kStreamMaxK): there a GEMM is bound by writing C (and reading it
// when beta != 0), as cuBLAS SGEMM is, so the kernel is built around C's bytes: a warp
// owns 128 contiguous rows of a column (4 per lane), stored as float4 with an
// evict-first hint (where columns start off a 16-byte boundary: shifted between lanes at
// the smallest k, store_shifted; a lane's rows 32 apart at k up to 18, store_lanes); all
// of k is staged once, and each output is one FMA chain.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "kernels/common/epilogue.cuh"
#include "kernels/common/fast_div.cuh"
#include "kernels/common/fp32_chains.hpp"
#include "kernels/common/launch.cuh"
#include "kernels/common/splitk_plan.hpp"
#include "kernels/common/splitk_reduce.hpp"
#include "kernels/common/tile_scheduler.cuh"
#include "kernels/simt.hpp"
#include "kernels/simt/piped.hpp"
#include "kernels/simt/register_tile.cuh"
#include "kernels/simt/thin.hpp"

namespace ecgemm::detail {
namespace {

constexpr int kThreads = 256;
constexpr int kPad = 4;            // row pitch ≡ 4 (mod 32) words: transposed stores spread over banks
constexpr int kPromoteK = 32;      // two-level tiles: k per chunk added into the result

template <int BM, int BN, int BK>
struct Shape {
  // The threads as a kGM x kGN grid: 16 x 16, or a thin side of 4 x 4-output threads.
  static constexpr int kGM = BN < 64 ? 256 / (BN / 4) : BM < 64 ? BM / 4 : 16;
  static constexpr int kGN = 256 / kGM;
  static constexpr int kTM = BM / kGM, kTN = BN / kGN;  // outputs per thread along m and n
  static constexpr bool kTwoLevel = BM * BN < 128 * 128;
  static constexpr int kBlocksPerSm = BM * BN <= 64 * 64 ? 3 : 2;  // register budget: 85 or 128
  // A warp is kWM x kWN threads (8 x 4; 4 x 8 where only 4 span m): a fragment load
  // reads kWM and kWN float4 runs of contiguous bytes.
  static constexpr int kWM = kGM < 8 ? kGM : 8, kWN = 32 / kWM;
  static_assert(kGM * kGN == 256 && kGM % kWM == 0 && kGN % kWN == 0, "whole warps");
  static_assert(kTM % 4 == 0 && kTN % 4 == 0, "fragments are float4 runs");
  static_assert(kPromoteK % BK == 0, "chunks are whole k steps");
};

// One thread's share of a BR x BK panel. Because kThreads is a multiple of both BR and
// BK, a thread's loads are a fixed distance apart: with kAlongK (row index contiguous in
// memory) they walk k within one row and a warp reads 32 consecutive rows of one k;
// otherwise (k contiguous) they walk rows at one k and a warp reads whole BK runs.
template <int BR, int BK, bool kAlongK>
struct PanelLoader {
  static constexpr int kLoads = BR * BK / kThreads;
  static constexpr int kRowStep = kAlongK ? 0 : kThreads / BK;  // between loads, in rows
  static constexpr int kKStep = kAlongK ? kThreads / BR : 0;     // between loads, in k
  static constexpr int kSmemStride = kKStep * (BR + kPad) + kRowStep;
  const float* ptr;     // this thread's first element at the current k step
  int64_t load_stride;  // between loads, in memory
  int64_t step_stride;  // from one k step to the next, in memory
  int64_t k_left;       // load i is in range while i * kKStep < k_left (counts down by BK)
  int rows_left;        // ... and i * kRowStep < rows_left
  int smem_first;

  __device__ PanelLoader(const OperandView& op, int64_t r0, int64_t k_begin, int64_t k_end, int tid) {
    const int r_first = kAlongK ? tid % BR : tid / BK;
    const int k_first = kAlongK ? tid / BR : tid % BK;
    load_stride = kAlongK ? kKStep * op.stride_k : kRowStep * op.stride_r;
    step_stride = BK * op.stride_k;
    k_left = k_end - k_begin - k_first;
    rows_left = static_cast<int>(std::min<int64_t>(op.rows - r0 - r_first, BR));
    smem_first = k_first * (BR + kPad) + r_first;
    // Rows past the edge are never read; clamping keeps even the base address inside A or B.
    const int64_t r = std::min<int64_t>(r0 + r_first, op.rows - 1);
    ptr = op.p + r * op.stride_r + (k_begin + k_first) * op.stride_k;
  }

  __device__ __forceinline__ void load(float (&v)[kLoads]) {
#pragma unroll
    for (int i = 0; i < kLoads; ++i)
      v[i] = i * kRowStep < rows_left && i * kKStep < k_left ? __ldg(ptr + i * load_stride) : 0.0f;
    ptr += step_stride;
    k_left -= BK;
  }

  __device__ __forceinline__ void store(float* panel, const float (&v)[kLoads]) const {
#pragma unroll
    for (int i = 0; i < kLoads; ++i) panel[smem_first + i * kSmemStride] = v[i];
  }
};

struct SplitK {
  int64_t k_chunk;
  float* partials;  // splits planes of m x n, column-major with ld = m; null without split-K
};

template <int BM, int BN, int BK, bool kAlongKA, bool kAlongKB>
__global__ void __launch_bounds__(kThreads, Shape<BM, BN, BK>::kBlocksPerSm)
simt_kernel(OperandView a, OperandView b, GemmArgs args, SplitK split) {
  wait_for_prior_grids();  // a first kernel launched dependent (common/launch.cuh)
  allow_dependents();
  using S = Shape<BM, BN, BK>;
  constexpr int kTM = S::kTM, kTN = S::kTN;
  __shared__ __align__(16) float as[2][BK][BM + kPad];
  __shared__ __align__(16) float bs[2][BK][BN + kPad];

  // grid.y walks the products of a batch (split-K is for single products only).
  const int64_t z = batch_product(args.batch.first);
  a.p = batch_a(args, z);
  b.p = batch_b(args, z);
  args.c = batch_c(args, z);

  const Tile tile = raster_tile((args.m + BM - 1) / BM, (args.n + BN - 1) / BN, BM, BN);
  const int64_t m0 = tile.m0, n0 = tile.n0;
  const int64_t k_begin = blockIdx.z * split.k_chunk;
  const int64_t k_end = std::min<int64_t>(args.k, k_begin + split.k_chunk);

  constexpr int kGM = S::kGM, kGN = S::kGN, kWM = S::kWM, kWarpsM = kGM / kWM;
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int tm = (warp % kWarpsM) * kWM + lane % kWM;  // 0..kGM-1
  const int tn = (warp / kWarpsM) * S::kWN + lane / kWM;  // 0..kGN-1

  float acc[kTM][kTN] = {};
  if (resolve_alpha(args.scalars) != 0.0f) {  // alpha = 0: A and B are not referenced (BLAS)
    PanelLoader<BM, BK, kAlongKA> load_a(a, m0, k_begin, k_end, tid);
    PanelLoader<BN, BK, kAlongKB> load_b(b, n0, k_begin, k_end, tid);
    float va[decltype(load_a)::kLoads], vb[decltype(load_b)::kLoads];
    load_a.load(va);
    load_b.load(vb);
    load_a.store(&as[0][0][0], va);
    load_b.store(&bs[0][0][0], vb);
    __syncthreads();

    float chunk[S::kTwoLevel ? kTM : 1][S::kTwoLevel ? kTN : 1] = {};
    const int64_t steps = (k_end - k_begin + BK - 1) / BK;
    for (int64_t s = 0; s < steps; ++s) {
      const int buf = s % 2;
      const bool more = s + 1 < steps;
      if (more) {  // global loads in flight while this step computes
        load_a.load(va);
        load_b.load(vb);
      }
#pragma unroll
      for (int kk = 0; kk < BK; ++kk) {
        if constexpr (S::kTwoLevel) fma_line<kTM, kTN, kGM, kGN>(&as[buf][kk][0], &bs[buf][kk][0], tm, tn, chunk);
        else fma_line<kTM, kTN, kGM, kGN>(&as[buf][kk][0], &bs[buf][kk][0], tm, tn, acc);
      }
      if constexpr (S::kTwoLevel) {
        if ((s + 1) % (kPromoteK / BK) == 0 || !more) promote(acc, chunk);
      }
      if (more) {  // the other buffer was last read before the previous barrier
        load_a.store(&as[buf ^ 1][0][0], va);
        load_b.store(&bs[buf ^ 1][0][0], vb);
      }
      __syncthreads();
    }
  }

  const float alpha = resolve_alpha(args.scalars), beta = resolve_beta(args.scalars);
  float* partial = split.partials ? split.partials + blockIdx.z * args.m * args.n : nullptr;
  const Epilogue epi{partial == nullptr, alpha, beta};
  epi.visit([&](const auto& e) {
    for_each_output<kTM, kTN, kGM, kGN>(m0, n0, tm, tn, args.m, args.n, acc, [&](int64_t row, int64_t col, float v) {
      e.store(partial ? partial + col * args.m + row : args.c + col * args.ldc + row, v);
    });
  });
}

// --- the stream tile (k <= kStreamMaxK) ---------------------------------------------

constexpr int kStreamM = 128, kStreamN = 64;  // lane l: rows 4l..4l+3; warp w: columns w + 8j
constexpr int kStreamWarps = kThreads / 32;
constexpr int kStreamCols = kStreamN / kStreamWarps;  // columns per thread
static_assert(kStreamM == 4 * 32, "a warp's lanes cover the tile's rows, 4 each");
constexpr int kStreamBlocksPerSm = 4;  // 64 registers a thread, no spills (ptxas -v)

// Where column j of the B panel sits in shared memory: warp w's columns w, w + 8, ...,
// w + 56 side by side, so that a thread reads its 8 as two float4 broadcasts.
__device__ __forceinline__ int stream_slot_b(int j) {
  return j % kStreamWarps * kStreamCols + j / kStreamWarps;
}

constexpr int log2_of(int x) { return x > 1 ? 1 + log2_of(x / 2) : 0; }

// Rows r0..r0 + R - 1 and k 0..k-1 of `op` into panel[kk * kPitch + slot(r)]; rows past
// the edge are never read (zeros stand in). Consecutive threads take consecutive
// elements along the index that is contiguous in memory, in runs of R rows (kAlongK)
// or of k padded to a power of two (a shift, not a division), so that a warp reads 32
// consecutive floats however small k is; each thread keeps its place in the run and
// steps along the other index. All loads are issued before the first shared store.
template <int R, bool kAlongK, typename Slot>
__device__ __forceinline__ void stage_panel(const OperandView& op, int64_t r0, int k, float* panel,
                                            Slot slot) {
  constexpr int kPitch = R + kPad;
  constexpr int kLoads = R * kStreamMaxK / kThreads;
  static_assert(kThreads % R == 0 && kThreads % kStreamMaxK == 0, "whole runs per step");
  const int log_run = kAlongK ? log2_of(R) : 32 - __clz(k - 1);  // k <= 32
  const int in_run = threadIdx.x & ((1 << log_run) - 1), first = threadIdx.x >> log_run;
  const int step = kThreads >> log_run;
  float v[kLoads];
#pragma unroll
  for (int i = 0; i < kLoads; ++i) {
    const int r = kAlongK ? in_run : first + i * step, kk = kAlongK ? first + i * step : in_run;
    v[i] = kk < k && r < R && r0 + r < op.rows
               ? __ldg(op.p + (r0 + r) * op.stride_r + kk * op.stride_k)
               : 0.0f;
  }
#pragma unroll
  for (int i = 0; i < kLoads; ++i) {
    const int r = kAlongK ? in_run : first + i * step, kk = kAlongK ? first + i * step : in_run;
    if (kk < k && r < R) panel[kk * kPitch + slot(r)] = v[i];
  }
}

// Four consecutive rows of one column of C: one 16-byte access when all four are in C
// and the address is 16-byte aligned, else one access per row in C. Both forms feed the
// same arithmetic, so they give the same bits.
struct Quad {
  float* p;
  int rows;  // rows of the four inside C; 0: the column is past C's last
  bool vec;
  __device__ __forceinline__ void load(float (&v)[4]) const {
    if (vec) {
      const float4 t = __ldcs(reinterpret_cast<const float4*>(p));
      v[0] = t.x, v[1] = t.y, v[2] = t.z, v[3] = t.w;
    } else {
#pragma unroll
      for (int i = 0; i < 4; ++i)
        if (i < rows) v[i] = __ldcs(p + i);
    }
  }
  __device__ __forceinline__ void store(const float (&v)[4]) const {
    if (vec) {
      __stcs(reinterpret_cast<float4*>(p), make_float4(v[0], v[1], v[2], v[3]));
    } else {
#pragma unroll
      for (int i = 0; i < 4; ++i)
        if (i < rows) __stcs(p + i, v[i]);
    }
  }
};

using StreamAcc = float[4][kStreamCols];

// The stream tile's outputs where every column of C starts on a 16-byte boundary: each
// lane's own four rows of a column, one float4 (the quads cut by m: one access a row).
__device__ __forceinline__ void store_own(const StreamAcc& acc, float* c, const GemmArgs& args,
                                          const Tile& tile, float alpha, float beta) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int64_t row = tile.m0 + 4 * lane;
  if (row >= args.m) return;
  const int rows = static_cast<int>(std::min<int64_t>(args.m - row, 4));
  // Two columns at a time: their C loads are both in flight before the first store (the
  // compiler cannot move a load past a store to C), within the 64 registers.
  constexpr int kGroup = 2;
#pragma unroll
  for (int g = 0; g < kStreamCols; g += kGroup) {
    Quad q[kGroup];
    float v[kGroup][4] = {};
#pragma unroll
    for (int jj = 0; jj < kGroup; ++jj) {
      const int64_t col = tile.n0 + warp + kStreamWarps * (g + jj);
      q[jj].p = c + col * args.ldc + row;
      q[jj].rows = col < args.n ? rows : 0;
      q[jj].vec = rows == 4 && reinterpret_cast<uintptr_t>(q[jj].p) % 16 == 0;
      if (beta != 0.0f && q[jj].rows > 0) q[jj].load(v[jj]);  // beta = 0: C is not read
    }
#pragma unroll
    for (int jj = 0; jj < kGroup; ++jj) {
      if (q[jj].rows == 0) continue;
#pragma unroll
      for (int i = 0; i < 4; ++i) store_scaled(&v[jj][i], acc[i][g + jj], alpha, beta);
      q[jj].store(v[jj]);
    }
  }
}

// Where a column's tile rows start o floats past a 16-byte boundary (o = 1..3: ldc or C's
// base not a multiple of 4), its quads are shifted by 4 - o rows, so that each whole one is
// still one aligned float4: lane l stores rows 4l + 4 - o .. 4l + 7 - o of the tile, its
// own last o and lane l + 1's first 4 - o (a shuffle); lane 0 also its first 4 - o rows,
// lane 31 only its own. The same values from other lanes: the same bits as store_own.
// (As four 4-byte accesses 16 bytes apart, such columns ran 1.2-1.4x slower than aligned
// ones at k = 1: bench/results/README.md#wide-side.) A column at a time: two at once
// spilled at 64 registers. (ptxas still spills 64 bytes where neither operand's rows are
// contiguous: written without the spills, the shifted values overwriting the lane's own,
// every layout ran 0.98x: bench/results/shortk-2026-11-27, call 9.)
__device__ __forceinline__ void store_shifted(const StreamAcc& acc, float* c, const GemmArgs& args,
                                              const Tile& tile, float alpha, float beta) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
  for (int j = 0; j < kStreamCols; ++j) {
    const int64_t col = tile.n0 + warp + kStreamWarps * j;  // warp-uniform, and so is o
    float* const top = c + col * args.ldc + tile.m0;
    const int o = static_cast<int>(reinterpret_cast<uintptr_t>(top) / 4 % 4);
    float s[4], v[4] = {};
    if (o == 0) {
#pragma unroll
      for (int i = 0; i < 4; ++i) s[i] = acc[i][j];
    } else {
      float eight[8];  // the lane's four rows, then lane + 1's
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        eight[i] = acc[i][j];
        eight[4 + i] = __shfl_down_sync(~0u, acc[i][j], 1);
      }
#pragma unroll
      for (int i = 0; i < 4; ++i)
        s[i] = o == 1 ? eight[3 + i] : o == 2 ? eight[2 + i] : eight[1 + i];
    }
    const int64_t first = tile.m0 + 4 * lane + (o == 0 ? 0 : 4 - o);
    int rows = col < args.n ? static_cast<int>(std::clamp<int64_t>(args.m - first, 0, 4)) : 0;
    if (o != 0 && lane == 31) rows = std::min(rows, o);  // the rest is the next tile's
    float* const p = top + (first - tile.m0);
    const Quad q{p, rows, rows == 4 && reinterpret_cast<uintptr_t>(p) % 16 == 0};
    if (rows > 0) {
      if (beta != 0.0f) q.load(v);  // beta = 0: C is not read
#pragma unroll
      for (int i = 0; i < 4; ++i) store_scaled(&v[i], s[i], alpha, beta);
      q.store(v);
    }
    if (o != 0 && lane == 0 && col < args.n) {
      const Quad head{top, static_cast<int>(std::min<int64_t>(4 - o, args.m - tile.m0)), false};
      float h[4] = {};
      if (beta != 0.0f) head.load(h);
#pragma unroll
      for (int i = 0; i < 4; ++i) store_scaled(&h[i], acc[i][j], alpha, beta);
      head.store(h);
    }
  }
}

// The largest k store_shifted runs at. Against four 4-byte accesses a quad, on C with columns
// off a 16-byte boundary it ran 1.14-1.27x faster at k = 1 and 2, 1.09-1.21x at k = 4,
// 0.99-1.10x at k = 8 and 0.92-1.01x at k = 16 .. 32: its shuffles' registers come out of
// the products' loop (bench/results/README.md#wide-side, call 6).
constexpr int kShiftedMaxK = 4;

// Where C's columns start off a 16-byte boundary at kShiftedMaxK < k <= kLanesMaxK, lane l
// owns rows l, l + 32, l + 64 and l + 96 of the tile: each of a warp's 4-byte stores then
// covers 128 contiguous bytes, as cuBLAS's do there. (Four consecutive rows a lane, as four
// 4-byte accesses 16 bytes apart, wrote 1.49x the L2 sectors the aligned tile does and ran
// 1.44x its time at 3950 x 8 x 3687; bench/results/shortk-2026-11-27, calls 6-7.) The A
// fragment is then four 4-byte shared loads in place of one float4: the same FMA chains,
// the same bits, but three more instructions a step, which cost more than the stores save
// beyond kLanesMaxK.
constexpr int kLanesMaxK = 18;

__device__ __forceinline__ void store_lanes(const StreamAcc& acc, float* c, const GemmArgs& args,
                                            const Tile& tile, float alpha, float beta) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
  for (int j = 0; j < kStreamCols; ++j) {
    const int64_t col = tile.n0 + warp + kStreamWarps * j;  // warp-uniform
    if (col >= args.n) break;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int64_t row = tile.m0 + lane + 32 * i;
      if (row >= args.m) break;
      float* const p = c + col * args.ldc + row;
      float v = beta == 0.0f ? 0.0f : __ldcs(p);  // beta = 0: C is not read
      store_scaled(&v, acc[i][j], alpha, beta);
      __stcs(p, v);
    }
  }
}

// How the stream tile's lanes own C's rows and store them (launch_stream picks).
enum class StreamStore {
  own,      // 4 consecutive rows a lane, float4 where aligned: store_own
  shifted,  // the same rows, quads shifted between lanes: store_shifted
  lanes,    // rows lane + 32i: store_lanes
};

template <bool kAlongKA, bool kAlongKB, StreamStore kStore>
__global__ void __launch_bounds__(kThreads, kStreamBlocksPerSm)
simt_stream_kernel(OperandView a, OperandView b, GemmArgs args) {
  wait_for_prior_grids();  // a first kernel launched dependent (common/launch.cuh)
  allow_dependents();
  __shared__ __align__(16) float as[kStreamMaxK][kStreamM + kPad];
  __shared__ __align__(16) float bs[kStreamMaxK][kStreamN + kPad];

  const int64_t z = batch_product(args.batch.first);
  a.p = batch_a(args, z);
  b.p = batch_b(args, z);
  float* const c = batch_c(args, z);

  const Tile tile = raster_tile((args.m + kStreamM - 1) / kStreamM,
                                (args.n + kStreamN - 1) / kStreamN, kStreamM, kStreamN);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int k = static_cast<int>(args.k);
  const float alpha = resolve_alpha(args.scalars), beta = resolve_beta(args.scalars);

  float acc[4][kStreamCols] = {};
  if (alpha != 0.0f) {  // alpha = 0: A and B are not referenced (BLAS)
    stage_panel<kStreamM, kAlongKA>(a, tile.m0, k, &as[0][0], [](int r) { return r; });
    stage_panel<kStreamN, kAlongKB>(b, tile.n0, k, &bs[0][0], [](int j) { return stream_slot_b(j); });
    __syncthreads();
    // One chain per output, k in increasing order. Unrolled further, ptxas spills at
    // kStreamBlocksPerSm's 64 registers.
#pragma unroll 2
    for (int kk = 0; kk < k; ++kk) {
      float fra[4];
      if constexpr (kStore == StreamStore::lanes) {
#pragma unroll
        for (int i = 0; i < 4; ++i) fra[i] = as[kk][lane + 32 * i];
      } else {
        const float4 fa = *reinterpret_cast<const float4*>(&as[kk][4 * lane]);
        fra[0] = fa.x, fra[1] = fa.y, fra[2] = fa.z, fra[3] = fa.w;
      }
      const float4 b0 = *reinterpret_cast<const float4*>(&bs[kk][kStreamCols * warp]);
      const float4 b1 = *reinterpret_cast<const float4*>(&bs[kk][kStreamCols * warp + 4]);
      const float frb[kStreamCols] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < kStreamCols; ++j) acc[i][j] = fmaf(fra[i], frb[j], acc[i][j]);
    }
  }

  if constexpr (kStore == StreamStore::lanes)
    store_lanes(acc, c, args, tile, alpha, beta);
  else if constexpr (kStore == StreamStore::shifted)
    store_shifted(acc, c, args, tile, alpha, beta);
  else
    store_own(acc, c, args, tile, alpha, beta);
}

cudaError_t launch_stream(const OperandView& a, const OperandView& b, const GemmArgs& g,
                          cudaStream_t stream) {
  const int64_t tiles = ((g.m + kStreamM - 1) / kStreamM) * ((g.n + kStreamN - 1) / kStreamN);
  if (tiles > INT32_MAX || g.k > kStreamMaxK) return cudaErrorInvalidConfiguration;
  const bool a_along_k = a.stride_r == 1, b_along_k = b.stride_r == 1;
  // store_own where every column of every product starts on a 16-byte boundary (the tiles'
  // first rows are multiples of 128). Else store_shifted at k <= kShiftedMaxK, store_lanes
  // up to kLanesMaxK, and store_own (a 4-byte access a row) beyond. A pointer array's
  // alignment is unknown here: store_own tests each quad there above kShiftedMaxK.
  const bool known = !g.batch.pointer_array();
  const bool aligned = known && reinterpret_cast<uintptr_t>(g.c) % 16 == 0 && g.ldc % 4 == 0 &&
                       g.batch.stride_c % 4 == 0;
  const StreamStore store = aligned                        ? StreamStore::own
                            : g.k <= kShiftedMaxK          ? StreamStore::shifted
                            : known && g.k <= kLanesMaxK   ? StreamStore::lanes
                                                           : StreamStore::own;
  auto pick = [&](auto tag) {  // tag: std::integral_constant<StreamStore, ...>
    constexpr StreamStore kStore = decltype(tag)::value;
    return a_along_k && b_along_k ? simt_stream_kernel<true, true, kStore>
           : a_along_k            ? simt_stream_kernel<true, false, kStore>
           : b_along_k            ? simt_stream_kernel<false, true, kStore>
                                  : simt_stream_kernel<false, false, kStore>;
  };
  using Own = std::integral_constant<StreamStore, StreamStore::own>;
  using Shifted = std::integral_constant<StreamStore, StreamStore::shifted>;
  using Lanes = std::integral_constant<StreamStore, StreamStore::lanes>;
  auto kernel = store == StreamStore::own       ? pick(Own{})
                : store == StreamStore::shifted ? pick(Shifted{})
                                                : pick(Lanes{});
  return for_each_batch_launch(g, [&](const GemmArgs& part, unsigned products) {
    const dim3 grid(static_cast<unsigned>(tiles), products);
    return launch(first_kernel({grid, kThreads, 0, stream}), kernel, a, b, part);
  });
}

// --- the strip tile (batches of small products, k <= kStreamMaxK) ----------------------

// A thread owns kStripRows rows of one column of one product, one FMA chain an output over
// k in increasing order (what the stream tile computes, so a product gives the same bits in
// a batch as alone). Nothing is padded past a product: a batch of 16 x 7 products on the
// stream tile's 128 x 64 CTAs stored 1.4% of what they computed
// (bench/results/README.md#strip-tile). A product's A and B are read by all of its
// threads, from L1. Which rows (launch_strips picks):
// - consecutive (kInterleaved false): rows 4t .. 4t + 3 of strip t, one float4 load of A a
//   k step and one float4 store where aligned;
// - interleaved: rows t, t + S, t + 2S, t + 3S (S strips a column), where those float4s
//   cannot be had (A's rows contiguous but its columns off 16 bytes, or C's). Then a warp's
//   4-byte loads of A cover contiguous rows, one or two L1 wavefronts each instead of four.
//   The same chains, the same bits.
constexpr int kStripRows = 4;
// The k from which rows are interleaved: where A's 4k loads a thread outweigh its 4 stores.
// Interleaved, strip batches ran 1.10x (0.98-1.44x) at k >= 8, but 0.92x at k <= 3 and
// 1.04x (0.87-1.34x) at k = 4..7 (bench/results/README.md#strip-rows).
constexpr int kStripInterleaveMinK = 8;
static_assert(kStripRows == 4, "a strip is stored as one Quad of four rows");

// A launch's products and their strips: thread id -> (product, strip) with two FastDivs
// (ids below 2^31: launch_strips cuts the batch so).
struct StripGrid {
  FastDiv slots;   // strips a product: strips_m * n
  FastDiv strips;  // strips a column: strips_m
  uint32_t products;
};

template <bool kInterleaved>
__global__ void __launch_bounds__(kThreads)
simt_strip_kernel(OperandView a, OperandView b, GemmArgs args, StripGrid grid) {
  wait_for_prior_grids();  // a first kernel launched dependent (common/launch.cuh)
  allow_dependents();
  const uint32_t id = blockIdx.x * kThreads + threadIdx.x;
  const uint32_t local = grid.slots.div(id);
  if (local >= grid.products) return;
  const uint32_t slot = id - local * grid.slots.d, col = grid.strips.div(slot);
  const int64_t strip = slot - col * grid.strips.d;
  // Row i of the strip is row0 + i * pitch.
  const int64_t row0 = kInterleaved ? strip : strip * kStripRows;
  const int64_t pitch = kInterleaved ? int64_t{grid.strips.d} : 1;
  int rows = 0;  // of the strip inside C (compares: a 64-bit division a thread made this kernel issue-bound)
#pragma unroll
  for (int i = 0; i < kStripRows; ++i) rows += row0 + i * pitch < args.m;
  const int64_t z = args.batch.first + local;
  const float* pa = batch_a(args, z) + row0 * a.stride_r;
  const int64_t a_pitch = pitch * a.stride_r;
  const float* pb = batch_b(args, z) + col * b.stride_r;
  float* pc = batch_c(args, z) + col * args.ldc + row0;
  const float alpha = resolve_alpha(args.scalars), beta = resolve_beta(args.scalars);
  float acc[kStripRows] = {};
  if (alpha != 0.0f) {  // alpha = 0: A and B are not referenced (BLAS)
    const int k = static_cast<int>(args.k);  // <= kStreamMaxK
    // The strip's four A values of each k as one float4 where they are contiguous and aligned.
    const bool vec_a = !kInterleaved && rows == kStripRows && a.stride_r == 1 && a.stride_k % 4 == 0 &&
                       reinterpret_cast<uintptr_t>(pa) % 16 == 0;
#pragma unroll 4
    for (int kk = 0; kk < k; ++kk, pa += a.stride_k, pb += b.stride_k) {
      const float bv = __ldg(pb);
      float av[kStripRows];
      if (vec_a) {
        const float4 t = __ldg(reinterpret_cast<const float4*>(pa));
        av[0] = t.x, av[1] = t.y, av[2] = t.z, av[3] = t.w;
      } else {
#pragma unroll
        for (int i = 0; i < kStripRows; ++i) av[i] = i < rows ? __ldg(pa + i * a_pitch) : 0.0f;
      }
#pragma unroll
      for (int i = 0; i < kStripRows; ++i) acc[i] = fmaf(av[i], bv, acc[i]);
    }
  }
  float v[kStripRows] = {};
  if constexpr (kInterleaved) {
#pragma unroll
    for (int i = 0; i < kStripRows; ++i) {
      if (i >= rows) break;
      float* const p = pc + i * pitch;
      if (beta != 0.0f) v[i] = __ldcs(p);  // beta = 0: C is not read
      store_scaled(&v[i], acc[i], alpha, beta);
      __stcs(p, v[i]);
    }
  } else {
    // The strip as one Quad: a float4 where it is whole and 16-byte aligned (the same bits).
    const Quad q{pc, rows, rows == kStripRows && reinterpret_cast<uintptr_t>(pc) % 16 == 0};
    if (beta != 0.0f) q.load(v);  // beta = 0: C is not read
#pragma unroll
    for (int i = 0; i < kStripRows; ++i) store_scaled(&v[i], acc[i], alpha, beta);
    q.store(v);
  }
}

int64_t strips_m(int64_t m) { return (m + kStripRows - 1) / kStripRows; }
// A product's strips at most 2^30, so that a launch holds one at least (launch_strips).
bool strips_fit(int64_t m, int64_t n) { return strips_m(m) * n <= (int64_t{1} << 30); }

cudaError_t launch_strips(const OperandView& a, const OperandView& b, const GemmArgs& g,
                          cudaStream_t stream) {
  const int64_t slots = strips_m(g.m) * g.n;
  if (g.k > kStreamMaxK || !strips_fit(g.m, g.n)) return cudaErrorInvalidConfiguration;
  // Rows interleaved from k = kStripInterleaveMinK where a float4 of A or of C cannot be had;
  // consecutive elsewhere.
  const bool interleaved = g.k >= kStripInterleaveMinK && (g.ldc % 4 != 0 || (a.stride_r == 1 && a.stride_k % 4 != 0));
  const auto kernel = interleaved ? simt_strip_kernel<true> : simt_strip_kernel<false>;
  // Products a launch, so that every thread id stays below 2^31 (FastDiv).
  const int64_t per_launch = ((int64_t{1} << 31) - kThreads) / slots;
  GemmArgs part = g;
  for (part.batch.first = 0; part.batch.first < g.batch.count; part.batch.first += per_launch) {
    const int64_t products = std::min(per_launch, g.batch.count - part.batch.first);
    const StripGrid grid{FastDiv(static_cast<uint32_t>(slots)), FastDiv(static_cast<uint32_t>(strips_m(g.m))),
                         static_cast<uint32_t>(products)};
    const unsigned blocks = static_cast<unsigned>((products * slots + kThreads - 1) / kThreads);
    const cudaError_t err = launch(first_kernel({blocks, kThreads, 0, stream}), kernel, a, b, part, grid);
    if (err != cudaSuccess) return err;
  }
  return cudaSuccess;
}

// --- the dot tile (batches of products with at most kDotMaxOutputs outputs) ------------

// One warp per product, eight to a block; lane l takes k = l, l + 32, ... for every
// output, a chain of at most kDotChain products added into the result (two-level), then
// a butterfly adds the lanes (the same order in every lane). MM x NN bound m x n: the
// outputs are registers with compile-time indices, the bounds are powers of two.
constexpr int kDotChain = 32;

template <int MM, int NN>
__global__ void __launch_bounds__(kThreads)
simt_dot_kernel(OperandView a, OperandView b, GemmArgs args) {
  wait_for_prior_grids();  // a first kernel launched dependent (common/launch.cuh)
  allow_dependents();
  const int lane = threadIdx.x % 32;
  const int64_t z = static_cast<int64_t>(blockIdx.x) * (kThreads / 32) + threadIdx.x / 32;
  if (z >= args.batch.count) return;  // whole warps: no barriers below
  const float* pa = batch_a(args, z);
  const float* pb = batch_b(args, z);
  float* pc = batch_c(args, z);
  const int m = static_cast<int>(args.m), n = static_cast<int>(args.n);
  const float alpha = resolve_alpha(args.scalars), beta = resolve_beta(args.scalars);
  float acc[MM][NN] = {};
  if (alpha != 0.0f) {  // alpha = 0: A and B are not referenced (BLAS)
    float part[MM][NN] = {};
    int chain = 0;
    for (int64_t kk = lane; kk < args.k; kk += 32) {
      float av[MM], bv[NN];
#pragma unroll
      for (int i = 0; i < MM; ++i) av[i] = i < m ? __ldg(pa + i * a.stride_r + kk * a.stride_k) : 0.0f;
#pragma unroll
      for (int j = 0; j < NN; ++j) bv[j] = j < n ? __ldg(pb + j * b.stride_r + kk * b.stride_k) : 0.0f;
#pragma unroll
      for (int i = 0; i < MM; ++i)
#pragma unroll
        for (int j = 0; j < NN; ++j) part[i][j] = fmaf(av[i], bv[j], part[i][j]);
      if (++chain == kDotChain) {
        chain = 0;
#pragma unroll
        for (int i = 0; i < MM; ++i)
#pragma unroll
          for (int j = 0; j < NN; ++j) acc[i][j] += part[i][j], part[i][j] = 0.0f;
      }
    }
#pragma unroll
    for (int i = 0; i < MM; ++i)
#pragma unroll
      for (int j = 0; j < NN; ++j) acc[i][j] += part[i][j];
  }
#pragma unroll
  for (int i = 0; i < MM; ++i)
#pragma unroll
    for (int j = 0; j < NN; ++j) {
      float sum = acc[i][j];
#pragma unroll
      for (int width = 16; width > 0; width /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, width);
      // Output (i, j) is stored by lane (i * NN + j) % 32: the stores spread over lanes.
      if (i < m && j < n && lane == (i * NN + j) % 32)
        store_scaled(pc + j * args.ldc + i, sum, alpha, beta);
    }
}

// The smallest power of two >= x (x >= 1).
constexpr int64_t pow2_ceil(int64_t x) {
  int64_t p = 1;
  while (p < x) p *= 2;
  return p;
}

template <int MM, int NN>
cudaError_t launch_dot_bounded(const OperandView& a, const OperandView& b, const GemmArgs& g,
                               cudaStream_t stream) {
  const int64_t blocks = (g.batch.count + kThreads / 32 - 1) / (kThreads / 32);
  if (blocks > INT32_MAX) return cudaErrorInvalidConfiguration;
  return launch(first_kernel({static_cast<unsigned>(blocks), kThreads, 0, stream}), simt_dot_kernel<MM, NN>, a,
                b, g);
}

// Instantiates the bounds NN = 1, 2, 4, ... for one MM, with MM * NN <= kDotMaxOutputs.
template <int MM, int NN = 1>
cudaError_t launch_dot_n(const OperandView& a, const OperandView& b, const GemmArgs& g,
                         int64_t nn, cudaStream_t stream) {
  if constexpr (MM * NN > kDotMaxOutputs) {
    return cudaErrorInvalidConfiguration;
  } else {
    if (nn == NN) return launch_dot_bounded<MM, NN>(a, b, g, stream);
    return launch_dot_n<MM, NN * 2>(a, b, g, nn, stream);
  }
}

template <int MM = 1>
cudaError_t launch_dot_m(const OperandView& a, const OperandView& b, const GemmArgs& g,
                         int64_t mm, int64_t nn, cudaStream_t stream) {
  if constexpr (MM > kDotMaxOutputs) {
    return cudaErrorInvalidConfiguration;
  } else {
    if (mm == MM) return launch_dot_n<MM>(a, b, g, nn, stream);
    return launch_dot_m<MM * 2>(a, b, g, mm, nn, stream);
  }
}

cudaError_t launch_dot(const OperandView& a, const OperandView& b, const GemmArgs& g,
                       cudaStream_t stream) {
  return launch_dot_m(a, b, g, pow2_ceil(g.m), pow2_ceil(g.n), stream);
}

// --- planning ------------------------------------------------------------------------

struct TileDims {
  int bm, bn, bk, blocks_per_sm;  // blocks_per_sm: the occupancy the registers allow
};

// BK 16 on the narrow tiles: each row of a k-contiguous operand is read 64 bytes at a time.
constexpr TileDims dims(SimtTile t) {
  switch (t) {
    case SimtTile::kWide: return {128, 128, 8, 2};
    case SimtTile::kTallM: return {128, 64, 16, 2};
    case SimtTile::kTallN: return {64, 128, 16, 2};
    case SimtTile::kSmall: return {64, 64, 16, 3};
    case SimtTile::kSlimM32: return {128, 32, 16, 3};
    case SimtTile::kSlimN32: return {32, 128, 16, 3};
    case SimtTile::kSlimM16: return {256, 16, 16, 3};
    case SimtTile::kSlimN16: return {16, 256, 16, 3};
    case SimtTile::kStream: return {kStreamM, kStreamN, kStreamMaxK, kStreamBlocksPerSm};
    case SimtTile::kDot: return {1, 1, 32, 4};  // per product; eight products a block
    case SimtTile::kStrips: return {kStripRows, 1, kStreamMaxK, 8};  // per thread
    // kThinRows rows of the long side a CTA at the thin side's kThinWidth (simt_tiles).
    case SimtTile::kThinM: return {kThinRows, kThinWidth, 32, kThinBlocksPerSm};
    case SimtTile::kThinN: return {kThinWidth, kThinRows, 32, kThinBlocksPerSm};
    default: break;
  }
  if (is_piped(t)) {  // every piped tile, from one table (simt/piped.hpp)
    const PipedDims p = piped_dims(t);
    return {p.bm, p.bn, kPipedStageK, p.blocks_per_sm()};
  }
  return {128, 128, 8, 2};
}

template <int BM, int BN, int BK>
cudaError_t launch_tile(const OperandView& a, const OperandView& b, const GemmArgs& g, const SimtPlan& plan,
                        float* partials, cudaStream_t stream) {
  const int64_t tiles = ((g.m + BM - 1) / BM) * ((g.n + BN - 1) / BN);
  if (tiles > INT32_MAX) return cudaErrorInvalidConfiguration;
  const SplitK split{plan.k_chunk, plan.splits > 1 ? partials : nullptr};
  // Which index of each operand is contiguous in memory picks the load pattern.
  const bool a_along_k = a.stride_r == 1, b_along_k = b.stride_r == 1;
  auto kernel = a_along_k && b_along_k ? simt_kernel<BM, BN, BK, true, true>
                : a_along_k            ? simt_kernel<BM, BN, BK, true, false>
                : b_along_k            ? simt_kernel<BM, BN, BK, false, true>
                                       : simt_kernel<BM, BN, BK, false, false>;
  return for_each_batch_launch(g, [&](const GemmArgs& part, unsigned products) {
    const dim3 grid(static_cast<unsigned>(tiles), products, static_cast<unsigned>(plan.splits));
    return launch(first_kernel({grid, kThreads, 0, stream}), kernel, a, b, part, split);
  });
}

// Output tiles of a plan's tile: a thin tile's CTA takes kThinRows rows of the long side.
int64_t simt_tiles(SimtTile t, int64_t m, int64_t n) {
  if (t == SimtTile::kThinM) return (m + kThinRows - 1) / kThinRows;
  if (t == SimtTile::kThinN) return (n + kThinRows - 1) / kThinRows;
  const TileDims d = dims(t);
  return ((m + d.bm - 1) / d.bm) * ((n + d.bn - 1) / d.bn);
}

// The thin tiles serve k from here on (below it the slim tiles' shorter CTAs win).
constexpr int64_t kThinMinK = 256;

// `p`'s tile split along k where its tiles cannot fill the GPU: as many splits as the SMs hold
// more of its CTAs, each at least kMinSplitK of k (so that a CTA's prologue and epilogue stay
// small next to its mainloop), and partials within max_bytes (0 for a batch: its products
// fill the GPU).
SimtPlan with_splits(SimtPlan p, int64_t m, int64_t n, int64_t k, const DeviceInfo& dev, size_t max_bytes) {
  constexpr int64_t kMinSplitK = 256;
  constexpr int kMaxSplits = 4096;
  const TileDims d = dims(p.tile);
  const int64_t tiles = simt_tiles(p.tile, m, n);
  const int64_t resident = static_cast<int64_t>(dev.sm_count) * d.blocks_per_sm;
  const size_t plane_bytes = static_cast<size_t>(m * n) * 4;
  const int64_t fit = static_cast<int64_t>(std::min<size_t>(max_bytes / plane_bytes, kMaxSplits));
  const int64_t want = std::min({resident / tiles, k / kMinSplitK, fit});
  p.k_chunk = round_up(k, d.bk);
  if (want > 1) {
    const KSplit s = split_k(k, want, d.bk);
    p.k_chunk = s.chunk;
    p.splits = s.splits;
    p.bytes = static_cast<size_t>(p.splits) * plane_bytes;
  }
  return p;
}

}  // namespace

bool dot_shape(int64_t m, int64_t n) {
  return m >= 1 && n >= 1 && pow2_ceil(m) * pow2_ceil(n) <= kDotMaxOutputs;
}

SimtPlan plan_simt(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev, bool two_level,
                        size_t max_bytes, bool batched) {
  SimtPlan p;
  // A batch of products with a few outputs each: a warp per product, not a block.
  if (batched && dot_shape(m, n)) {
    p.tile = SimtTile::kDot;
    p.k_chunk = k;
    return p;
  }
  // A batch of small products with a short k: a thread a strip of rows, no tile padding.
  if (batched && k <= kStreamMaxK && m * n <= kStripMaxOutputs) {
    p.tile = SimtTile::kStrips;
    p.k_chunk = k;
    return p;
  }
  // k <= kStreamMaxK: C's bytes bound the call, whatever m, n and the batch; never split.
  // One chain per output is what the two-level tiles compute at such k, so it serves
  // every mode.
  if (k <= kStreamMaxK) {
    p.tile = SimtTile::kStream;
    p.k_chunk = k;  // its CTAs run exactly k steps
    return p;
  }
  // A thin side of at most 32 against a long one: a slim tile, so that the long
  // operand is read once and no FMA is spent on the padding of a 64-wide tile; at most
  // kThinWidth with a long k, the thin tile (thin.hpp).
  if (m <= 64 && n <= 64) p.tile = SimtTile::kSmall;
  else if (!batched && k >= kThinMinK && std::min(m, n) <= kThinWidth)
    p.tile = n <= m ? SimtTile::kThinM : SimtTile::kThinN;
  else if (n <= 16) p.tile = SimtTile::kSlimM16;
  else if (m <= 16) p.tile = SimtTile::kSlimN16;
  else if (n <= 32) p.tile = SimtTile::kSlimM32;
  else if (m <= 32) p.tile = SimtTile::kSlimN32;
  else if (n <= 64) p.tile = SimtTile::kTallM;
  else if (m <= 64) p.tile = SimtTile::kTallN;
  else p.tile = two_level ? SimtTile::kTallM : SimtTile::kWide;
  return with_splits(p, m, n, k, dev, max_bytes);
}

std::optional<SimtPlan> simt_piped_plan(SimtTile tile, int64_t m, int64_t n, int64_t k, const DeviceInfo& dev,
                                        size_t max_bytes) {
  if (!is_piped(tile) || k <= kStreamMaxK) return std::nullopt;
  SimtPlan p;
  p.tile = tile;
  return with_splits(p, m, n, k, dev, max_bytes);
}

std::optional<SimtPlan> simt_alternative(const SimtPlan& plan, int64_t m, int64_t n, int64_t k) {
  if (k > kStreamMaxK) return std::nullopt;
  SimtPlan other = plan;
  switch (plan.tile) {
    case SimtTile::kDot:  // where one chain an output is SGEMM's arithmetic (fp32_chains.hpp)
      if (k >= kFp32GroupMinK) return std::nullopt;
      [[fallthrough]];
    case SimtTile::kStream: other.tile = SimtTile::kStrips; break;
    case SimtTile::kStrips: other.tile = SimtTile::kStream; break;
    default: return std::nullopt;
  }
  if (other.tile == SimtTile::kStrips && !strips_fit(m, n)) return std::nullopt;
  return other;
}

GridShape simt_grid(const GemmArgs& args, const SimtPlan& plan, const DeviceInfo& dev) {
  const TileDims d = dims(plan.tile);
  GridShape g;
  if (plan.tile == SimtTile::kDot) {  // kThreads / 32 products a block
    constexpr int64_t kPerBlock = kThreads / 32;
    g.ctas = (args.batch.count + kPerBlock - 1) / kPerBlock;
    g.resident = int64_t{dev.sm_count} * d.blocks_per_sm;
    g.tile_outputs = kPerBlock * args.m * args.n;
    g.k_per_cta = (args.k + 31) / 32;  // each lane's chain
    g.kernels = 1;
    return g;
  }
  if (plan.tile == SimtTile::kStrips) {  // kThreads strips a block
    g.ctas = (args.batch.count * strips_m(args.m) * args.n + kThreads - 1) / kThreads;
    g.resident = int64_t{dev.sm_count} * d.blocks_per_sm;
    g.tile_outputs = int64_t{kThreads} * kStripRows;
    g.k_per_cta = args.k;
    g.kernels = 1;
    return g;
  }
  g.ctas = simt_tiles(plan.tile, args.m, args.n) * plan.splits * args.batch.count;
  g.resident = int64_t{dev.sm_count} * d.blocks_per_sm;
  g.tile_outputs = int64_t{d.bm} * d.bn;
  g.k_per_cta = plan.k_chunk;
  g.kernels = plan.splits > 1 ? 2 : 1;
  g.extra_bytes = partials_traffic(plan.splits, args.m, args.n);
  return g;
}

cudaError_t launch_simt(const GemmArgs& g, const SimtPlan& plan, void* workspace,
                             cudaStream_t stream) {
  const OperandView a = view_a(g), b = view_b(g);
  float* partials = static_cast<float*>(workspace);
  cudaError_t err = cudaErrorInvalidValue;
  switch (plan.tile) {
    case SimtTile::kWide: err = launch_tile<128, 128, 8>(a, b, g, plan, partials, stream); break;
    case SimtTile::kTallM: err = launch_tile<128, 64, 16>(a, b, g, plan, partials, stream); break;
    case SimtTile::kTallN: err = launch_tile<64, 128, 16>(a, b, g, plan, partials, stream); break;
    case SimtTile::kSmall: err = launch_tile<64, 64, 16>(a, b, g, plan, partials, stream); break;
    case SimtTile::kSlimM32: err = launch_tile<128, 32, 16>(a, b, g, plan, partials, stream); break;
    case SimtTile::kSlimN32: err = launch_tile<32, 128, 16>(a, b, g, plan, partials, stream); break;
    case SimtTile::kSlimM16: err = launch_tile<256, 16, 16>(a, b, g, plan, partials, stream); break;
    case SimtTile::kSlimN16: err = launch_tile<16, 256, 16>(a, b, g, plan, partials, stream); break;
    case SimtTile::kStream: err = launch_stream(a, b, g, stream); break;
    case SimtTile::kDot: err = launch_dot(a, b, g, stream); break;
    case SimtTile::kStrips: err = launch_strips(a, b, g, stream); break;
    case SimtTile::kThinM: case SimtTile::kThinN: err = launch_thin(g, plan, partials, stream); break;
    default:
      if (is_piped(plan.tile)) err = launch_piped(g, plan, partials, stream);
      break;
  }
  if (err != cudaSuccess || plan.splits == 1) return err;
  return launch_splitk_reduce(g, {partials, plan.splits, g.m, g.n, SplitOrder::kRuns}, stream,
                              programmatic_launches());
}

}  // namespace ecgemm::detail
