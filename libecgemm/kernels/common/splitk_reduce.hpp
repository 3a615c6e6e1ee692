// The split-K reduction of the kernels that write unpadded partials (the SIMT family
// and the fused mma.sync family): `splits` column-major m x n planes of raw sums, one
// after another from `partials`.
#pragma once

#include "kernels/gemm_args.hpp"

namespace ecgemm::detail {

// C = alpha * (the planes added in a fixed order: deterministic) + beta * C. `overlap`:
// launched as a programmatic dependent of the kernel before it (common/launch.cuh).
cudaError_t launch_partials_reduce(const GemmArgs& args, const float* partials, int splits,
                                   cudaStream_t stream, bool overlap = false);

}  // namespace ecgemm::detail
