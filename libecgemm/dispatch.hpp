// One validated call: plan, scratch, launch (docs/architecture.md).
#pragma once

#include <cstddef>
#include <string>

#include "handle.hpp"
#include "kernels/gemm_args.hpp"

namespace ecgemm::detail {

// Runs one validated, non-degenerate GEMM (m, n, k >= 1) on ctx's stream. `entry` names
// the public function, for ECGEMM_VERBOSE.
ecgemmStatus_t dispatch_sgemm(const ecgemmContext& ctx, const GemmArgs& args, const char* entry);

// The scratch bytes that call would take: the same plan.
size_t workspace_bytes(const ecgemmContext& ctx, const GemmArgs& args);

// The plan that call would run, as dispatch_sgemm's ECGEMM_VERBOSE line says it.
std::string plan_string(const ecgemmContext& ctx, const GemmArgs& args);

}  // namespace ecgemm::detail
