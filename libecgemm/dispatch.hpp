// Mode x architecture x shape -> kernel family.
#pragma once

#include "handle.hpp"
#include "kernels/gemm_args.hpp"

namespace ecgemm::detail {

// Runs one validated, non-degenerate GEMM (m, n, k >= 1) on ctx's stream.
ecgemmStatus_t dispatch_sgemm(ecgemmContext& ctx, const GemmArgs& args);

// Workspace the call would need in ctx's current mode.
size_t workspace_bytes(const ecgemmContext& ctx, int64_t m, int64_t n, int64_t k);

DeviceInfo device_info(const ecgemmContext& ctx);

}  // namespace ecgemm::detail
