#include "dispatch.hpp"

#include "kernels/simt_fp32.hpp"
#include "kernels/tc_config.hpp"

namespace ecgemm::detail {
namespace {

bool tensor_core_method(ecgemmMode_t mode, TcMethod* method) {
  switch (mode) {
    case ECGEMM_MODE_TF32TF32: *method = TcMethod::kTf32x3; return true;
    case ECGEMM_MODE_HALFHALF: *method = TcMethod::kHalfx3; return true;
    case ECGEMM_MODE_TF32: *method = TcMethod::kTf32x1; return true;
    case ECGEMM_MODE_FP16: *method = TcMethod::kHalfx1; return true;
    case ECGEMM_MODE_MARKIDIS: *method = TcMethod::kMarkidis; return true;
    case ECGEMM_MODE_FP32: return false;
  }
  return false;
}

ecgemmStatus_t from_cuda(cudaError_t err) {
  switch (err) {
    case cudaSuccess: return ECGEMM_STATUS_SUCCESS;
    case cudaErrorMemoryAllocation: return ECGEMM_STATUS_ALLOC_FAILED;
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorUnsupportedPtxVersion: return ECGEMM_STATUS_ARCH_MISMATCH;
    default: return ECGEMM_STATUS_EXECUTION_FAILED;
  }
}

}  // namespace

DeviceInfo device_info(const ecgemmContext& ctx) {
  return {ctx.cc_major, ctx.cc_minor, ctx.sm_count, ctx.max_smem_per_block};
}

size_t workspace_bytes(const ecgemmContext& ctx, int64_t m, int64_t n, int64_t k) {
  TcMethod method;
  if (!tensor_core_method(ctx.mode, &method) || m <= 0 || n <= 0 || k <= 0) return 0;
  return plan_tc_workspace(method, m, n, k, device_info(ctx)).bytes;
}

ecgemmStatus_t dispatch_sgemm(ecgemmContext& ctx, const GemmArgs& args) {
  TcMethod method;
  if (!tensor_core_method(ctx.mode, &method)) return from_cuda(launch_simt_fp32(args, ctx.stream));
  const DeviceInfo dev = device_info(ctx);
  const TcWorkspace plan = plan_tc_workspace(method, args.m, args.n, args.k, dev);
  const ecgemmStatus_t status = reserve_workspace(ctx, plan.bytes);
  if (status != ECGEMM_STATUS_SUCCESS) return status;
  return from_cuda(launch_tc_gemm(method, args, plan, ctx.workspace, dev, ctx.stream));
}

}  // namespace ecgemm::detail
