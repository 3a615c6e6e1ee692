// What a call with k = 0 or alpha = 0 runs instead of a family (no product to add).
#pragma once

#include "kernels/gemm_args.hpp"

namespace ecgemm::detail {
// C = beta * C over the m x n part (k = 0 or alpha = 0); beta = 0 writes zeros unread.
cudaError_t launch_scale_c(const GemmArgs& args, int sm_count, cudaStream_t stream);
}  // namespace ecgemm::detail
