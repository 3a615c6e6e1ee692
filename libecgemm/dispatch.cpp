#include "dispatch.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "kernels/simt_fp32.hpp"
#include "kernels/sm90_fused.hpp"
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

// Skinny shapes in the corrected modes. The Tensor Core family first writes hi and lo
// planes of op(A) and op(B), padded to 128 rows: a memory-bound pass over (m + n)·k
// elements, then 3·2mnk Tensor Core flops. When m or n is small, that pass costs more
// than the whole product does in FP32 FMA on the SIMT cores, which read op(A) and op(B)
// once; the SIMT route is as accurate (its narrow tiles accumulate in two levels, and
// split-K sums long k in pieces), so such shapes take it.
// Measured (tools/probe.py --shapes, H200, median of 10, ms; Tensor Core tf32tf32 /
// halfhalf vs SIMT, the same for both; cuBLAS SGEMM in brackets):
//   m x k x n           TC tf32x3  TC halfx3   SIMT   [SGEMM]
//   64 x 2^20 x 64        1.476     1.143     0.304   [0.346]
//   64 x 2^18 x 64        0.410     0.316     0.095   [0.104]
//   32 x 8192 x 8192      0.499     0.372     0.306   [0.207]
//   64 x 8192 x 8192      0.503     0.376     0.319   [0.211]
//   8192 x 8192 x 64      0.543     0.387     0.317   [0.221]
//   64 x 1024 x 16384     0.151     0.121     0.121   [0.083]
//   128 x 2^18 x 128      0.454     0.349     0.315   [0.212]
//   128 x 8192 x 8192     0.511     0.387     0.604   [0.358]  <- Tensor Cores again
//   192 x 2^18 x 192      0.815     0.643     0.833   [0.521]
//   512 x 16384 x 512     0.222     0.150     0.300   [0.194]
// So: SIMT when the smaller of m, n is at most 64, or when both are at most 128.
constexpr int64_t kSkinnyEdge = 64;
constexpr int64_t kSmallEdge = 128;

// ECGEMM_CORRECTED_ROUTE=tc or =simt pins the corrected modes to one family, to
// measure the rule above and to test both families on every shape. Read per call
// (a getenv is noise next to a launch) so tests can switch it in-process.
enum class Route { kRule, kTensorCore, kSimt };

Route route_override() {
  const char* env = std::getenv("ECGEMM_CORRECTED_ROUTE");
  if (env && std::strcmp(env, "tc") == 0) return Route::kTensorCore;
  if (env && std::strcmp(env, "simt") == 0) return Route::kSimt;
  return Route::kRule;
}

bool corrected_on_simt(TcMethod method, int64_t m, int64_t n) {
  // The one-pass modes and Markidis are the paper's comparison points: always Tensor Cores.
  if (method != TcMethod::kTf32x3 && method != TcMethod::kHalfx3) return false;
  switch (route_override()) {
    case Route::kTensorCore: return false;
    case Route::kSimt: return true;
    case Route::kRule: break;
  }
  return std::min(m, n) <= kSkinnyEdge || std::max(m, n) <= kSmallEdge;
}

// Which family runs an m x n x k call in ctx's mode. The corrected modes get the
// two-level SIMT tiles (FP32 class over any k); plain FP32 may use the wide tile.
bool runs_on_simt(const ecgemmContext& ctx, int64_t m, int64_t n, TcMethod* method,
                  bool* two_level) {
  if (!tensor_core_method(ctx.mode, method)) {
    *two_level = false;
    return true;
  }
  *two_level = true;
  return corrected_on_simt(*method, m, n);
}

// Tensor Core calls take the plane family (split pass writing hi/lo planes, then a
// mainloop over them); ECGEMM_TC_KERNEL=fused takes the fused family (split inside the
// kernel, no planes) where it can run. The fused family stays behind the planes until
// it is measured faster. H200, C ABI, CUDA events (tools/fused_layouts.py), 4096^3,
// TFLOP/s; the four transpose combinations agree within 10%:
//                   planes   fused   fused without its split   its split alone
//   tf32tf32          113      65             123                  ~98 (as if)
//   halfhalf          190      72             180                 ~101 (as if)
// The split runs on one transform warpgroup, one warp per scheduler, at ~2600 cycles
// per 32-wide K unit of a 128 x 128 tile, against ~2060 for the consumers' products,
// and sharing the schedulers with the consumers' promotion adds it barely overlaps
// them. An unaligned operand (global loads instead of TMA) runs at ~23 in both modes.
bool fused_route(const GemmArgs& args, const DeviceInfo& dev) {
  const char* env = std::getenv("ECGEMM_TC_KERNEL");
  return env && std::strcmp(env, "fused") == 0 && sm90_fused_usable(args, dev);
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
  return {ctx.device, ctx.cc_major, ctx.cc_minor, ctx.sm_count, ctx.max_smem_per_block};
}

size_t workspace_bytes(const ecgemmContext& ctx, int64_t m, int64_t n, int64_t k) {
  if (m <= 0 || n <= 0 || k <= 0) return 0;
  TcMethod method;
  bool two_level;
  if (runs_on_simt(ctx, m, n, &method, &two_level))
    return plan_simt_fp32(m, n, k, device_info(ctx), two_level).bytes;
  GemmArgs shape;
  shape.m = m, shape.n = n, shape.k = k;
  if (fused_route(shape, device_info(ctx)))
    return plan_sm90_fused(method, shape, device_info(ctx)).bytes;
  return plan_tc_workspace(method, m, n, k, device_info(ctx)).bytes;
}

ecgemmStatus_t dispatch_sgemm(ecgemmContext& ctx, const GemmArgs& args) {
  const DeviceInfo dev = device_info(ctx);
  TcMethod method;
  bool two_level;
  if (runs_on_simt(ctx, args.m, args.n, &method, &two_level)) {
    // A user workspace cannot grow: split k no further than its partials fit.
    const size_t cap = ctx.workspace_is_user ? ctx.workspace_bytes : SIZE_MAX;
    const SimtPlan plan = plan_simt_fp32(args.m, args.n, args.k, dev, two_level, cap);
    const ecgemmStatus_t status = reserve_workspace(ctx, plan.bytes);
    if (status != ECGEMM_STATUS_SUCCESS) return status;
    return from_cuda(launch_simt_fp32(args, plan, ctx.workspace, ctx.stream));
  }
  if (fused_route(args, dev)) {
    const FusedPlan plan = plan_sm90_fused(method, args, dev);
    const ecgemmStatus_t status = reserve_workspace(ctx, plan.bytes);
    if (status != ECGEMM_STATUS_SUCCESS) return status;
    return from_cuda(launch_sm90_fused(method, args, plan, ctx.workspace, dev, ctx.stream));
  }
  const TcWorkspace plan = plan_tc_workspace(method, args.m, args.n, args.k, dev);
  const ecgemmStatus_t status = reserve_workspace(ctx, plan.bytes);
  if (status != ECGEMM_STATUS_SUCCESS) return status;
  return from_cuda(launch_tc_gemm(method, args, plan, ctx.workspace, dev, ctx.stream));
}

}  // namespace ecgemm::detail
