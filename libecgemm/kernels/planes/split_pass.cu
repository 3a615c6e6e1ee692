// The planes family's split pass: reads op(A) and op(B) once in whatever layout the caller has
// (transposed or not, any ld, any alignment) and writes hi/lo planes in the one
// layout the mainloop wants: K-major rows, zero-padded to whole tiles. This is the
// only kernel that sees user strides, so the mainloop needs no bounds checks.
//
// It is a pure streaming pass (read 4 bytes, write 4 or 8 per element), so it is
// written for DRAM bandwidth: one launch covers both operands, each block moves one
// 64 x 64 tile, every thread issues all its loads (16 bytes each where the layout
// allows) before it uses any, and the planes are written with 8- or 16-byte stores.
#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>

#include "kernels/common/epilogue.cuh"
#include "kernels/common/launch.cuh"
#include "kernels/planes/parts.hpp"
#include "split.cuh"

namespace ecgemm::detail {
namespace {

// A block's tile is kTile rows x kTile k. Rows are padded to kTileM, a multiple of
// kTile; k_pad is a multiple of 32 (TF32) or 64 (FP16), so quads past k_pad are skipped.
constexpr int kTile = 64;
constexpr int kThreads = 256;
// A quad is 4 consecutive elements along one index; a warp covers two 256-byte segments.
constexpr int kQuadsPerLine = kTile / 4;
constexpr int kQuads = kTile * kQuadsPerLine / kThreads;  // per thread: 64 bytes in flight
static_assert(kTileM % kTile == 0 && kTileN % kTile == 0 && kThreads % kQuadsPerLine == 0);

// Element (r, kk) of the logical operand (rows x k) is p[kk * ld + r] when r is the
// contiguous index (along_r), else p[r * ld + kk]. AUTO scales row r by 2^row_exp[r]
// (exact) before the split (null: no scaling).
struct Source {
  const float* p;
  int64_t ld, rows, k;
  const int* row_exp;
  bool along_r;
  bool aligned;  // p and ld allow 16-byte loads of quads that start at a multiple of 4
};

// One operand's planes: rows x k_pad, K-major.
struct Planes {
  void* hi;
  void* lo;
  int64_t k_pad;
};

// One operand of a launch. Its tiles are numbered k-fastest, tiles_k of them a row band.
struct Operand {
  Source src;
  Planes out;
  Planes tf32_out;  // AUTO only: the fallback route's planes (`out` holds halfhalf's)
  int64_t tiles_k;
};

// Quad i of this thread: line (a row, or a column when along_r) and offset along it.
// The 16 lanes of a half-warp cover one line, so loads and stores coalesce.
__device__ __forceinline__ int quad_line(int i) {
  return (i * kThreads + static_cast<int>(threadIdx.x)) / kQuadsPerLine;
}
__device__ __forceinline__ int quad_offset() {
  return static_cast<int>(threadIdx.x) % kQuadsPerLine * 4;
}

// Four elements along the contiguous index from (line, c), zero outside the operand: one
// 16-byte load where the caller's layout allows it and all four are inside, else four.
__device__ __forceinline__ float4 load_quad(const Source& s, int64_t line, int64_t c) {
  const int64_t lines = s.along_r ? s.k : s.rows, extent = s.along_r ? s.rows : s.k;
  if (line >= lines) return make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  const float* at = s.p + line * s.ld + c;
  if (s.aligned && c + 4 <= extent) return __ldg(reinterpret_cast<const float4*>(at));
  float v[4];
  for (int j = 0; j < 4; ++j) v[j] = c + j < extent ? __ldg(at + j) : 0.0f;
  return make_float4(v[0], v[1], v[2], v[3]);
}

// Loads the tile at (r0, k0) so that quad i holds row r0 + quad_line(i), k from
// k0 + quad_offset(). The lane reads along whichever index is contiguous in memory; when
// that is r, the tile turns through shared memory (one float of padding a line keeps
// bank conflicts at two-way).
__device__ __forceinline__ void load_tile(const Source& s, int64_t r0, int64_t k0,
                                          float4 (&q)[kQuads], float (&t)[kTile][kTile + 1]) {
  const int c = quad_offset();
#pragma unroll
  for (int i = 0; i < kQuads; ++i)  // all loads first: bytes in flight are the bandwidth
    q[i] = s.along_r ? load_quad(s, k0 + quad_line(i), r0 + c)
                     : load_quad(s, r0 + quad_line(i), k0 + c);
  if (!s.along_r) return;
#pragma unroll
  for (int i = 0; i < kQuads; ++i) {  // t[kk][r]
    float* line = t[quad_line(i)] + c;
    line[0] = q[i].x, line[1] = q[i].y, line[2] = q[i].z, line[3] = q[i].w;
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < kQuads; ++i) {
    const int r = quad_line(i);
    q[i] = make_float4(t[c][r], t[c + 1][r], t[c + 2][r], t[c + 3][r]);
  }
}

// Two FP16 splits: packed conversions where both values are plain (split.cuh), else
// split_for per value, so that Inf, NaN and overflow keep their exact bits.
template <TcMethod M>
__device__ __forceinline__ HalfPair split_pair(float x0, float x1) {
  if (half_plain(x0) && half_plain(x1))
    return split_half_pair_plain<M != TcMethod::kMarkidis>(x0, x1);
  const SplitValue s0 = split_for<M>(x0), s1 = split_for<M>(x1);
  return {__halves2half2(__float2half_rn(s0.hi), __float2half_rn(s1.hi)),
          __halves2half2(__float2half_rn(s0.lo), __float2half_rn(s1.lo))};
}

__device__ __forceinline__ uint32_t half2_bits(__half2 h) {
  uint32_t u;
  memcpy(&u, &h, sizeof u);
  return u;
}

// Splits a quad (4 consecutive k of one row) into planes[at .. at + 3]: one 8-byte
// (FP16) or 16-byte (FP32) store a plane. Rows are 128-byte aligned (k_pad, 256-byte
// plane offsets), so every quad is aligned. (__stwb: a plain store, which nvcc would
// otherwise issue as four scalar ones.)
template <TcMethod M>
__device__ __forceinline__ void store_quad(const Planes& out, int64_t at, float4 v) {
  if constexpr (uses_half(M)) {
    const HalfPair a = split_pair<M>(v.x, v.y), b = split_pair<M>(v.z, v.w);
    __stwb(reinterpret_cast<uint2*>(static_cast<__half*>(out.hi) + at),
           make_uint2(half2_bits(a.hi), half2_bits(b.hi)));
    if constexpr (uses_lo(M))
      __stwb(reinterpret_cast<uint2*>(static_cast<__half*>(out.lo) + at),
             make_uint2(half2_bits(a.lo), half2_bits(b.lo)));
  } else {
    const SplitValue x = split_for<M>(v.x), y = split_for<M>(v.y);
    const SplitValue z = split_for<M>(v.z), w = split_for<M>(v.w);
    __stwb(reinterpret_cast<float4*>(static_cast<float*>(out.hi) + at),
           make_float4(x.hi, y.hi, z.hi, w.hi));
    if constexpr (uses_lo(M))
      __stwb(reinterpret_cast<float4*>(static_cast<float*>(out.lo) + at),
             make_float4(x.lo, y.lo, z.lo, w.lo));
  }
}

// AUTO's exponents of the rows this thread stores (quad_line(i)), loaded beside the data
// so that their latency hides behind it (0 past the operand's rows, and when not scaled).
__device__ __forceinline__ void load_exponents(const Source& s, int64_t r0, int (&e)[kQuads]) {
#pragma unroll
  for (int i = 0; i < kQuads; ++i) {
    const int64_t r = r0 + quad_line(i);
    e[i] = s.row_exp && r < s.rows ? __ldg(s.row_exp + r) : 0;
  }
}

// Scales (times_pow2, exact where it is not an overflow or underflow), splits and stores.
template <TcMethod M>
__device__ __forceinline__ void store_tile(const Planes& out, int64_t r0, int64_t k0,
                                           float4 (&q)[kQuads], bool scaled,
                                           const int (&e)[kQuads]) {
  const int64_t kk = k0 + quad_offset();
  if (kk >= out.k_pad) return;  // TF32's k_pad is a multiple of 32 only
#pragma unroll
  for (int i = 0; i < kQuads; ++i) {
    float4 v = q[i];
    if (scaled)
      v = make_float4(times_pow2(v.x, e[i]), times_pow2(v.y, e[i]), times_pow2(v.z, e[i]),
                      times_pow2(v.w, e[i]));
    store_quad<M>(out, (r0 + quad_line(i)) * out.k_pad + kk, v);
  }
}

// Blocks [0, a_tiles) take op(A)'s tiles, the rest op(B)^T's: f(operand, r0, k0). Two
// calls rather than one on a selected reference, which would copy both kernel parameters
// to local memory.
template <typename F>
__device__ __forceinline__ void for_block_tile(const Operand& a, const Operand& b,
                                               int64_t a_tiles, F&& f) {
  const int64_t block = blockIdx.x;
  if (block < a_tiles) f(a, block / a.tiles_k * kTile, block % a.tiles_k * kTile);
  else f(b, (block - a_tiles) / b.tiles_k * kTile, (block - a_tiles) % b.tiles_k * kTile);
}

// kScaled: the operands carry row exponents (the plain kernel keeps no registers for them).
template <TcMethod M, bool kScaled>
__global__ void __launch_bounds__(kThreads)
split_planes_kernel(Operand a, Operand b, int64_t a_tiles) {
  __shared__ float t[kTile][kTile + 1];
  // The first kernel of its call, launched dependent (common/launch.cuh): it waits for the
  // stream's previous kernel; then the mainloop may set up while the planes are written.
  wait_for_prior_grids();
  allow_dependents();
  for_block_tile(a, b, a_tiles, [&](const Operand& op, int64_t r0, int64_t k0) {
    float4 q[kQuads];
    int e[kQuads] = {};
    if constexpr (kScaled) load_exponents(op.src, r0, e);
    load_tile(op.src, r0, k0, q, t);
    store_tile<M>(op.out, r0, k0, q, kScaled && op.src.row_exp, e);
  });
}

// AUTO (gemm_args.hpp): the route word the device wrote picks halfhalf's planes of the
// scaled rows, or tf32tf32's of the scaled or the unscaled rows. The loads do not depend
// on it, so its latency hides behind theirs.
__global__ void __launch_bounds__(kThreads)
split_planes_auto_kernel(Operand a, Operand b, int64_t a_tiles, const int* route) {
  __shared__ float t[kTile][kTile + 1];
  const int word = *route;
  for_block_tile(a, b, a_tiles, [&](const Operand& op, int64_t r0, int64_t k0) {
    float4 q[kQuads];
    int e[kQuads];
    load_exponents(op.src, r0, e);
    load_tile(op.src, r0, k0, q, t);
    const bool scaled = word != kAutoUnscaledRoute;
    if (word == kAutoScaledRoute) store_tile<TcMethod::kHalfHalf>(op.out, r0, k0, q, scaled, e);
    else store_tile<TcMethod::kTf32Tf32>(op.tf32_out, r0, k0, q, scaled, e);
  });
}

Source source(const float* p, int64_t ld, bool along_r, int64_t rows, int64_t k,
              const int* row_exp) {
  const bool aligned = ld % 4 == 0 && reinterpret_cast<uintptr_t>(p) % 16 == 0;
  return {p, ld, rows, k, row_exp, along_r, aligned};
}
// op(A) is m x k: A is column-major m x k (N: m contiguous) or k x m (T: k contiguous).
Source source_a(const GemmArgs& g) {
  return source(g.a, g.lda, !g.trans_a, g.m, g.k, g.scale.row_exp);
}
// op(B)^T is n x k: B is column-major k x n (N: k contiguous) or n x k (T: n contiguous).
Source source_b(const GemmArgs& g) {
  return source(g.b, g.ldb, g.trans_b, g.n, g.k, g.scale.col_exp);
}

Planes planes_a(const PlanesPlan& w, char* ws) { return {ws + w.a_hi, ws + w.a_lo, w.k_pad}; }
Planes planes_b(const PlanesPlan& w, char* ws) { return {ws + w.b_hi, ws + w.b_lo, w.k_pad}; }

// rows_pad x k_pad (AUTO: the wider of its two plans' k_pad) in tiles.
Operand operand(const Source& s, const Planes& out, const Planes& tf32_out, int64_t k_pad) {
  return {s, out, tf32_out, (k_pad + kTile - 1) / kTile};
}
int64_t tiles(const Operand& op, int64_t rows_pad) { return rows_pad / kTile * op.tiles_k; }

}  // namespace

cudaError_t launch_split_pass(TcMethod method, const GemmArgs& args, const PlanesPlan& plan,
                              char* workspace, cudaStream_t stream) {
  const Operand a = operand(source_a(args), planes_a(plan, workspace), {}, plan.k_pad);
  const Operand b = operand(source_b(args), planes_b(plan, workspace), {}, plan.k_pad);
  const int64_t a_tiles = tiles(a, plan.m_pad);
  const auto blocks = static_cast<unsigned>(a_tiles + tiles(b, plan.n_pad));
  const bool scaled = args.scale.row_exp || args.scale.col_exp;
  return visit_method(method, [&](auto m) {
    constexpr TcMethod M = decltype(m)::value;
    const Launch l = first_kernel({blocks, kThreads, 0, stream});
    return scaled ? launch(l, split_planes_kernel<M, true>, a, b, a_tiles)
                  : launch(l, split_planes_kernel<M, false>, a, b, a_tiles);
  });
}

cudaError_t launch_split_pass_auto(const GemmArgs& args, const PlanesPlan& half,
                                   const PlanesPlan& tf32, const int* route, char* ws,
                                   cudaStream_t stream) {
  // Both plans pad rows alike (kTileM); halfhalf's k_pad is the wider.
  const int64_t k_pad = half.k_pad > tf32.k_pad ? half.k_pad : tf32.k_pad;
  const Operand a = operand(source_a(args), planes_a(half, ws), planes_a(tf32, ws), k_pad);
  const Operand b = operand(source_b(args), planes_b(half, ws), planes_b(tf32, ws), k_pad);
  const int64_t a_tiles = tiles(a, half.m_pad);
  const auto blocks = static_cast<unsigned>(a_tiles + tiles(b, half.n_pad));
  return launch({blocks, kThreads, 0, stream}, split_planes_auto_kernel, a, b, a_tiles, route);
}

}  // namespace ecgemm::detail
