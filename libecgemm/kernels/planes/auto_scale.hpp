// ECGEMM_MODE_AUTO: halfhalf's products on data of any exponent range, by exact
// power-of-two scaling of each row of op(A) and column of op(B), chosen on the device.
//
// One memory-bound pass records, per row of op(A) and per column of op(B), the largest
// and the smallest non-zero magnitude (and whether NaN/Inf occur). Row i is then scaled
// by 2^s_i with s_i = kAutoTopExponent - e_max(i), so that its largest element lies in
// [2^14, 2^15): FP16's hi part cannot round up to Inf, and hi·hi products (<= 2^30)
// and their sums stay far inside FP32. hi + lo·2^-11 represents a scaled value to within
// half of lo's subnormal step, 2^-25 / 2^11 = 2^-36 absolute: 2^-21 = 8u relative at
// 2^-15 = 2^kAutoBottomExponent, the per-product error halfhalf has anyway (the dropped
// lo·lo and each part's rounding; MAGMA's bound with c = 8 accepts it), and the range
// plain halfhalf handles in the paper's type-1 data ([2^-15, 2^15)). One binade lower
// doubles it. A row or column whose smallest non-zero element would fall below
// 2^kAutoBottomExponent after scaling (a spread of more than 29 binades), or with NaN/Inf, makes
// the whole call run tf32tf32's products: on the same scaled operands when too wide
// (which keeps its low parts and corrections clear of FP32's underflow), on the operands
// as they are with NaN/Inf (gemm_args.hpp says why) or where scaling would push a row's
// smallest element below 2^kAutoWideBottomExponent (a spread of more than 129 binades):
// there tf32tf32's low part, at most 2^-11 of it, would be subnormal (from 2^-126 on) and
// the element itself is lost below 2^-149, where the operands as they are lose nothing
// that SGEMM keeps (2^100 * 2^-100 + 2^-66 * 2^66 is 2, not 0). The choice is made per
// call on the device, whose kernels of the other route return at once.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/gemm_args.hpp"

namespace ecgemm::detail {

constexpr int kAutoTopExponent = 14;
constexpr int kAutoBottomExponent = -15;
constexpr int kAutoWideBottomExponent = -115;  // 2^-126 / 2^-11: lo stays normal
// The route word's values: kAutoScaledRoute, kAutoWideRoute, kAutoUnscaledRoute
// (gemm_args.hpp).

// Where AUTO's scale data live in a workspace (offsets from its start, 256-aligned):
// per-row/column statistics, the chosen exponents and the route word.
struct AutoScaleLayout {
  size_t stats_a = 0, stats_b = 0, row_exp = 0, col_exp = 0, route = 0;
  size_t begin = 0, bytes = 0;  // the region [begin, begin + bytes) is cleared per call
};

// The layout for an m x n product, placed at `offset` (256-aligned).
AutoScaleLayout plan_auto_scale(int64_t m, int64_t n, size_t offset);

// Clears the statistics, measures op(A) and op(B) and writes row_exp, col_exp and the
// route word. Stream-ordered; no host synchronisation.
cudaError_t launch_auto_scale(const GemmArgs& args, const AutoScaleLayout& layout, char* workspace,
                              const DeviceInfo& dev, cudaStream_t stream);

}  // namespace ecgemm::detail
