// A thread's TM x TN outputs of simt's register-blocked tiles (simt.cu's square, narrow and slim
// tiles, piped.cu's piped tiles): the CTA's threads form a kGM x kGN grid, and thread (tm, tn)
// holds rows tm*4 + 4*kGM*c + (0..3) and the same pattern of columns, so that its fragments are
// float4 loads of one k-line of each shared-memory panel and a warp's loads spread over banks.
#pragma once

#include <cstdint>

namespace ecgemm::detail {

// out += the outer product of this thread's fragments of one k-line of A's and B's panels.
template <int TM, int TN, int kGM, int kGN>
__device__ __forceinline__ void fma_line(const float* a_line, const float* b_line, int tm, int tn,
                                         float (&out)[TM][TN]) {
  static_assert(TM % 4 == 0 && TN % 4 == 0, "fragments are float4 runs");
  float fa[TM], fb[TN];
#pragma unroll
  for (int c = 0; c < TM / 4; ++c)
    *reinterpret_cast<float4*>(&fa[4 * c]) = *reinterpret_cast<const float4*>(&a_line[c * 4 * kGM + tm * 4]);
#pragma unroll
  for (int c = 0; c < TN / 4; ++c)
    *reinterpret_cast<float4*>(&fb[4 * c]) = *reinterpret_cast<const float4*>(&b_line[c * 4 * kGN + tn * 4]);
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) out[i][j] = fmaf(fa[i], fb[j], out[i][j]);
}

// Two-level accumulation: a finished chunk of k joins the result, and the chunk starts anew.
template <int TM, int TN>
__device__ __forceinline__ void promote(float (&acc)[TM][TN], float (&chunk)[TM][TN]) {
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      acc[i][j] += chunk[i][j];
      chunk[i][j] = 0.0f;
    }
}

// Each of the thread's outputs inside m x n, with its row and column in the product, to `store`.
template <int TM, int TN, int kGM, int kGN, typename Store>
__device__ __forceinline__ void for_each_output(int64_t m0, int64_t n0, int tm, int tn, int64_t m, int64_t n,
                                                const float (&acc)[TM][TN], Store&& store) {
#pragma unroll
  for (int j = 0; j < TN; ++j) {
    const int64_t col = n0 + (j / 4) * 4 * kGN + tn * 4 + j % 4;
    if (col >= n) continue;
#pragma unroll
    for (int i = 0; i < TM; ++i) {
      const int64_t row = m0 + (i / 4) * 4 * kGM + tm * 4 + i % 4;
      if (row >= m) continue;
      store(row, col, acc[i][j]);
    }
  }
}

}  // namespace ecgemm::detail
