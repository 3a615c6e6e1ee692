// The epilogue every family shares: what an output of C becomes once its sum over K is
// known. The error correction's finish, AUTO's exact unscaling, BLAS's alpha/beta rules,
// and the split-K hand-off (a split stores its raw sum; the reducer applies alpha and
// beta). Which thread holds which output is the mainloop's fragment layout, not this.
// docs/numerics.md says why each rule is what it is.
#pragma once

#include <cstdint>

#include "kernels/common/method.hpp"
#include "kernels/gemm_args.hpp"
#include "split.cuh"

namespace ecgemm::detail {

__device__ __forceinline__ float resolve_alpha(const Scalars& s) {
  return s.device_alpha ? *s.device_alpha : s.alpha;
}
__device__ __forceinline__ float resolve_beta(const Scalars& s) {
  return s.device_beta ? *s.device_beta : s.beta;
}

// alpha * acc, with BLAS's zero rule: alpha = 0 uses no acc (A·B may hold Inf or NaN).
__device__ __forceinline__ float times_alpha(float acc, float alpha) {
  return alpha == 0.0f ? 0.0f : alpha * acc;
}

// C[i,j] = alpha * acc + beta * C[i,j]; beta = 0 reads no C.
__device__ __forceinline__ void store_scaled(float* c, float acc, float alpha, float beta) {
  const float ab = times_alpha(acc, alpha);
  *c = beta == 0.0f ? ab : ab + beta * *c;
}

// An epilogue that reads no C: beta = 0 (the common case), or split-K partials. Its
// store has no load and tests nothing per element (Epilogue::visit).
struct Overwrite {
  bool direct;
  float alpha;
  __device__ __forceinline__ void store(float* dst, float v) const {
    *dst = direct ? times_alpha(v, alpha) : v;  // store_scaled at beta = 0
  }
};

// Where a CTA's finished sums go: into C through alpha and beta when the CTA owns all of
// its tile's K (`direct`), else raw into its split's partials.
struct Epilogue {
  bool direct;
  float alpha, beta;
  // The scalars are read only where they are used: not at all under split-K.
  __device__ __forceinline__ static Epilogue of(const Scalars& s, bool direct) {
    return {direct, direct ? resolve_alpha(s) : 0.0f, direct ? resolve_beta(s) : 0.0f};
  }
  // `dst`: the element of C (direct) or of the split's partials.
  __device__ __forceinline__ void store(float* dst, float v) const {
    if (direct) store_scaled(dst, v, alpha, beta);
    else *dst = v;
  }
  // body(e), e being this epilogue or, where no C is read, an Overwrite with the same
  // results: the tests of alpha and beta per element, which the compiler does not move
  // out of a store loop, cost ~10% of a small product's instructions (H200, fused_mma
  // at 118 x 44 x 131: bench/results/stages-2026-11-23).
  template <typename F>
  __device__ __forceinline__ void visit(F&& body) const {
    if (direct && beta != 0.0f) body(*this);
    else body(Overwrite{direct, alpha});
  }
};

// The finished sum of a Tensor Core method: the hi·hi sum plus the (unscaled) correction.
// An infinite hi·hi sum is what FP32 arithmetic gives; the correction would only add
// Inf·lo terms whose signs follow the remainders' (Inf - Inf = NaN).
template <TcMethod M>
__device__ __forceinline__ float finish_sum(float promoted, float correction) {
  constexpr float kCorrectionScale = M == TcMethod::kHalfHalf ? kHalfLoUnscale : 1.0f;
  float v = promoted;
  if constexpr (scheme_of(M) != Scheme::kOnePass)
    if (!isinf(v)) v += correction * kCorrectionScale;
  return v;
}

// AUTO (gemm_args.hpp): whether this launch's route was not taken (its kernels return).
__device__ __forceinline__ bool route_skipped(const AutoScale& s) {
  return s.route != nullptr && ((*s.route != kAutoScaledRoute) != s.on_fallback);
}
// v * 2^e: exact while the result is a normal FP32 number, one rounding (to a subnormal,
// zero or Inf) where it is not, as an FP32 GEMM rounds such a result. One multiply where
// 2^e is a float, ldexpf beyond.
__device__ __forceinline__ float times_pow2(float v, int e) {
  return e >= -126 && e <= 127 ? v * __int_as_float((e + 127) << 23) : ldexpf(v, e);
}
// Output (row, col) of AUTO's scaled operands brought back to C's scale.
__device__ __forceinline__ float unscale(const AutoScale& s, int64_t row, int64_t col, float v) {
  if (s.row_exp == nullptr || *s.route == kAutoUnscaledRoute) return v;
  return times_pow2(v, -(s.row_exp[row] + s.col_exp[col]));
}

}  // namespace ecgemm::detail
