#pragma once

#include "gemm_args.hpp"

namespace ecgemm::detail {
// ECGEMM_MODE_FP32 (no workspace).
cudaError_t launch_simt_fp32(const GemmArgs& args, cudaStream_t stream);
}  // namespace ecgemm::detail
