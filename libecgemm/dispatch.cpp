#include "dispatch.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>

#include "memory.hpp"
#include "planner.hpp"

namespace ecgemm::detail {
namespace {

ecgemmStatus_t from_cuda(cudaError_t err) {
  switch (err) {
    case cudaSuccess: return ECGEMM_STATUS_SUCCESS;
    case cudaErrorMemoryAllocation: return ECGEMM_STATUS_ALLOC_FAILED;
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorUnsupportedPtxVersion: return ECGEMM_STATUS_ARCH_MISMATCH;
    default: return ECGEMM_STATUS_EXECUTION_FAILED;
  }
}

// ECGEMM_VERBOSE=1: one line per call on stderr (read per call, like the family pin).
// "captured" marks a call recorded into a CUDA graph: its replays print nothing.
void trace(const ecgemmContext& ctx, const GemmArgs& args, const char* entry, const Plan& plan) {
  const char* verbose = std::getenv("ECGEMM_VERBOSE");
  if (verbose == nullptr || *verbose == '\0' || *verbose == '0') return;
  std::fprintf(stderr,
               "ecgemm: %s %c%c m=%" PRId64 " n=%" PRId64 " k=%" PRId64 " batch=%" PRId64
               " mode=%s stream=%p%s %s\n",
               entry, args.trans_a ? 'T' : 'N', args.trans_b ? 'T' : 'N', args.m, args.n, args.k,
               args.batch.count, ecgemm_get_mode_name(ctx.mode),
               static_cast<void*>(ctx.stream), capturing(ctx.stream) ? " captured" : "",
               describe(plan).c_str());
}

}  // namespace

ecgemmStatus_t dispatch_sgemm(const ecgemmContext& ctx, const GemmArgs& args, const char* entry) {
  const Plan plan = make_plan(ctx, args);
  trace(ctx, args, entry, plan);
  // The scratch goes back on the call's stream after the last launch (Scratch's
  // destructor), whatever the launches returned.
  Scratch scratch(ctx);
  if (const ecgemmStatus_t status = scratch.acquire(plan.bytes); status != ECGEMM_STATUS_SUCCESS)
    return status;
  return from_cuda(launch_plan(plan, args, scratch.data(), ctx.dev, ctx.stream));
}

size_t workspace_bytes(const ecgemmContext& ctx, const GemmArgs& args) {
  return make_plan(ctx, args).bytes;
}

std::string plan_string(const ecgemmContext& ctx, const GemmArgs& args) {
  return describe(make_plan(ctx, args));
}

}  // namespace ecgemm::detail
