// The one split-K reducer. A family that splits K has each split write its raw sums
// (common/epilogue.cuh) as partials; this adds each output's partials in a fixed order
// (deterministic: the same bits on every run and every launch shape) and applies the
// epilogue: alpha, beta, AUTO's unscaling.
#pragma once

#include <cstdint>

#include "kernels/gemm_args.hpp"

namespace ecgemm::detail {

// The order in which an output's partials are added fixes the result's bits, so it is
// part of the partials' description; each family keeps the order it was validated with
// (tests/ and the bench figures in bench/results/README.md). The first two read
// split-major planes: split s's sums are a rows x cols column-major plane at
// data + s * rows * cols (rows >= m, cols >= n where the planes are padded).
enum class SplitOrder {
  kSerial,  // one thread an output adds splits 0, 1, 2, ... in turn
  // Unpadded planes. Fewer than kManySplits splits: kSerial. More: eight contiguous runs
  // of splits, each added in turn, then a fixed tree over the eight sums, so that many
  // splits of a small output still use every SM's load bandwidth.
  kRuns,
  // Output-major FP64 partials (PartialSum: the gemv family keeps its sums so): output (i, j)'s
  // lie side by side at data + (j * m + i) * splits. A warp an output (a block from
  // kBlockSplits splits on) strides over them, then a butterfly and, for a block, a fixed sum
  // over its warps.
  kLanes,
};

// What an output's partials are added in, before one rounding to FP32 (splitk_reduce.cu).
using PartialSum = double;

struct Partials {
  const void* data = nullptr;  // FP32 planes; PartialSum values for kLanes
  int splits = 1;
  int64_t rows = 0, cols = 0;  // one plane's extents (the planes' orders)
  SplitOrder order = SplitOrder::kSerial;
};

// C = alpha * (the partials, added in `p.order`) + beta * C over the call's m x n.
// `dependent`: launched as a programmatic dependent of the kernel that wrote them
// (common/launch.cuh).
cudaError_t launch_splitk_reduce(const GemmArgs& args, const Partials& p, cudaStream_t stream,
                                 bool dependent);

}  // namespace ecgemm::detail
