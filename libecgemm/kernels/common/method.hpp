// The Tensor Core methods (one per mode that uses the Tensor Cores), which products each
// computes and which split it stores: what every Tensor Core family is templated on.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

#include "split.cuh"

namespace ecgemm::detail {

enum class TcMethod {
  kTf32Tf32,    // tf32tf32: hi·hi promoted with an FP32 RN add, lo·hi + hi·lo in the TC
  kHalfHalf,    // halfhalf: the same on FP16 parts, lo scaled by 2^11
  kTf32,    // one TF32 pass
  kFp16,    // one FP16 pass
  kMarkidis,  // FP16 parts, unscaled lo, all four products accumulated inside the TC
};

// Calls f(std::integral_constant<TcMethod, M>{}) for the run-time `method`: the one
// switch behind every kernel family that is templated on the method.
template <typename F>
cudaError_t visit_method(TcMethod method, F&& f) {
  using std::integral_constant;
  switch (method) {
    case TcMethod::kTf32Tf32: return f(integral_constant<TcMethod, TcMethod::kTf32Tf32>{});
    case TcMethod::kHalfHalf: return f(integral_constant<TcMethod, TcMethod::kHalfHalf>{});
    case TcMethod::kTf32: return f(integral_constant<TcMethod, TcMethod::kTf32>{});
    case TcMethod::kFp16: return f(integral_constant<TcMethod, TcMethod::kFp16>{});
    case TcMethod::kMarkidis: return f(integral_constant<TcMethod, TcMethod::kMarkidis>{});
  }
  return cudaErrorInvalidValue;
}

constexpr bool uses_half(TcMethod m) {
  return m == TcMethod::kHalfHalf || m == TcMethod::kFp16 || m == TcMethod::kMarkidis;
}
constexpr bool uses_lo(TcMethod m) {
  return m == TcMethod::kTf32Tf32 || m == TcMethod::kHalfHalf || m == TcMethod::kMarkidis;
}
constexpr size_t element_bytes(TcMethod m) { return uses_half(m) ? 2 : 4; }

enum class Scheme {
  kCorrected,     // hi·hi promoted by FP32 RN adds; lo·hi + hi·lo in the TC
  kOnePass,       // hi·hi only, in the TC
  kFourProducts,  // Markidis: hi·hi and the three lo products, all accumulated in the TC
};

constexpr Scheme scheme_of(TcMethod m) {
  return m == TcMethod::kMarkidis ? Scheme::kFourProducts
         : uses_lo(m)             ? Scheme::kCorrected
                                  : Scheme::kOnePass;
}

// The split a method stores: TF32 parts, FP16 parts with lo scaled by 2^11, or
// Markidis's unscaled FP16 parts (split.cuh: the one definition of the numerics).
template <TcMethod M>
ECGEMM_HD SplitValue split_for(float x) {
  if constexpr (M == TcMethod::kTf32Tf32 || M == TcMethod::kTf32) return split_tf32(x);
  else if constexpr (M == TcMethod::kMarkidis) return split_markidis(x);
  else return split_half(x);
}

}  // namespace ecgemm::detail
