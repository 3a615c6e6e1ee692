#include "dispatch.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "kernels/simt_fp32.hpp"
#include "kernels/simt_gemv.hpp"
#include "kernels/sm80_fused.hpp"
#include "kernels/sm90_fused.hpp"
#include "kernels/tc_config.hpp"

namespace ecgemm::detail {
namespace {

bool tensor_core_method(ecgemmMode_t mode, TcMethod* method) {
  switch (mode) {
    case ECGEMM_MODE_TF32TF32: *method = TcMethod::kTf32x3; return true;
    case ECGEMM_MODE_HALFHALF: *method = TcMethod::kHalfx3; return true;
    // AUTO routes as halfhalf; on the plane route it scales (auto_scale.hpp), elsewhere
    // it runs tf32tf32's products (auto_method below).
    case ECGEMM_MODE_AUTO: *method = TcMethod::kHalfx3; return true;
    case ECGEMM_MODE_TF32: *method = TcMethod::kTf32x1; return true;
    case ECGEMM_MODE_FP16: *method = TcMethod::kHalfx1; return true;
    case ECGEMM_MODE_MARKIDIS: *method = TcMethod::kMarkidis; return true;
    case ECGEMM_MODE_FP32: return false;
  }
  return false;
}

// Which family runs a call: the FP32 SIMT kernel, the plane family (a split pass writes
// hi/lo planes to the workspace, then a Tensor Core mainloop reads them) or the fused
// family (sm_90a: the split happens inside the Tensor Core kernel, no planes).
//
// Squares and other large shapes take the planes; the fused family is behind them until
// it is measured faster (H200, C ABI, CUDA events, tools/fused_layouts.py, 4096^3,
// TFLOP/s; the four transpose combinations agree within 10%):
//                   planes   fused   fused without its split   its split alone
//   tf32tf32          113      65             123                  ~98 (as if)
//   halfhalf          190      72             180                 ~101 (as if)
// The fused split runs on one transform warpgroup, one warp per scheduler, at ~2600
// cycles per 32-wide K unit of a 128 x 128 tile, against ~2060 for the consumers'
// products, and sharing the schedulers with the consumers' promotion adds it barely
// overlaps them. Two transform warpgroups there (32 registers each, spilling) gave 66
// and 85: not kept. An unaligned operand (global loads instead of TMA) runs at ~23.
//
// The corrected modes' skinny and small shapes, measured on all three (tools/probe.py
// --shapes, bench/results/fused-2026-11-22; H200, ms, tf32tf32, halfhalf within 10%):
//   m x k x n          planes     SIMT    fused    [cuBLAS SGEMM]
//   64 x 8192 x 8192    0.503    0.321    0.227    [0.207]   <- fused
//   8192 x 8192 x 64    0.543    0.322    0.226    [0.220]   <- fused
//   32 x 8192 x 8192    0.499    0.308    0.222    [0.201]   <- fused
//   64 x 4096 x 16384     -      0.336    0.180    [0.201]   <- fused
//   64 x 1024 x 16384   0.151    0.124    0.073    [0.083]   <- fused
//   64 x 65536 x 4096     -      1.162    0.988    [0.739]   <- fused
//   64 x 2^20 x 64      1.476    0.295    0.368*   [0.346]
//   128 x 16384 x 128   0.454    0.052    0.062*   [0.023]
//   1 x 4096 x 4096       -      0.077    0.110*   [0.019]
//   128 x 8192 x 8192   0.511    0.604      -      [0.358]   <- planes again
//   512 x 16384 x 512   0.222    0.300      -      [0.194]
// (* before the 64-row fused tile got its second transform warpgroup.) So: one side at
// most 64 against another of at least 4096 takes the fused family where it exists;
// otherwise the smaller side at most 64, or both at most 128, took SIMT (two-level
// accumulation: FP32 class over any k); the rest takes the planes. The fused mma.sync
// family, measured later, took most of those small shapes over (choose_route's table).
constexpr int64_t kSkinnyEdge = 64;
constexpr int64_t kSmallEdge = 128;
constexpr int64_t kFusedLongEdge = 4096;
constexpr int64_t kMmaHalfEdge = 512;  // C at most this wide: halfhalf on the mma.sync family
constexpr int64_t kMmaTf32Edge = 384;  // ... tf32tf32 and AUTO
constexpr int64_t kMmaTf32EdgeSm80 = 1024;  // ... tf32tf32 where the wgmma families are absent

enum class Route { kSimt, kGemv, kPlanes, kFused, kMmaFused };

// The most workspace a plan may ask for: a user workspace cannot grow.
size_t workspace_cap(const ecgemmContext& ctx) {
  return ctx.workspace_is_user ? ctx.workspace_bytes : SIZE_MAX;
}

// ECGEMM_CORRECTED_ROUTE=tc|simt pins the corrected modes to the Tensor Cores or to
// SIMT; ECGEMM_TC_KERNEL=fused|planes|mma picks the Tensor Core family (mma: the fused
// mma.sync family, any Tensor Core mode). Read per call (a getenv is noise next to a
// launch) so that tests and bench/ can switch them.
Route choose_route(const ecgemmContext& ctx, const GemmArgs& args, TcMethod* method,
                   bool* two_level) {
  *two_level = true;
  // GEMV-like shapes (one side of C at most 4 wide) are memory-bound on the large
  // operand: FP32 reading it once at DRAM speed is as fast as anything can be there, and
  // as accurate as SGEMM or better (H200, tf32tf32, ms per call, tools/probe.py,
  // bench/results/gemv-2026-11-23; m x k x n as torch's row-major a @ b):
  //   m x k x n          GEMV    tiled SIMT   [cuBLAS SGEMM]
  //   1 x 4096 x 4096    0.029     0.089        [0.028]
  //   4096 x 4096 x 1    0.030     0.091        [0.031]
  //   4096 x 4096 x 4    0.079     0.091        [0.070]
  //   4 x 8192 x 8192    0.099     0.300        [0.128]
  //   1 x 16384 x 16384  0.262     1.146        [0.264]
  // ECGEMM_CORRECTED_ROUTE=simt keeps the corrected modes on the tiled kernel.
  const char* pin = std::getenv("ECGEMM_CORRECTED_ROUTE");
  const bool pin_tc = pin && std::strcmp(pin, "tc") == 0;
  const bool pin_simt = pin && std::strcmp(pin, "simt") == 0;
  const bool fp32_class = ctx.mode == ECGEMM_MODE_FP32 || ctx.mode == ECGEMM_MODE_TF32TF32 ||
                          ctx.mode == ECGEMM_MODE_HALFHALF || ctx.mode == ECGEMM_MODE_AUTO;
  if (fp32_class && simt_gemv_shape(args) && !pin_tc && !pin_simt) {
    tensor_core_method(ctx.mode, method);
    return Route::kGemv;
  }
  if (!tensor_core_method(ctx.mode, method)) {
    *two_level = false;  // plain FP32 may use the wide tile
    return Route::kSimt;
  }
  const bool fused_ok = sm90_fused_usable(args, device_info(ctx));
  const char* kernel = std::getenv("ECGEMM_TC_KERNEL");
  const bool pinned_planes = kernel && std::strcmp(kernel, "planes") == 0;
  const bool pinned_fused = kernel && std::strcmp(kernel, "fused") == 0;
  const bool pinned_mma = kernel && std::strcmp(kernel, "mma") == 0;
  const Route tensor_cores = fused_ok && pinned_fused ? Route::kFused : Route::kPlanes;
  const bool corrected = *method == TcMethod::kTf32x3 || *method == TcMethod::kHalfx3;
  // The fused mma.sync family runs every method. Its k bound (sm80_fused.hpp: `fits`)
  // keeps the corrected modes FP32-class; the one-pass modes and Markidis accumulate in
  // the Tensor Core by definition, so it is not theirs.
  const bool mma_ok =
      sm80_fused_usable(device_info(ctx)) &&
      (!corrected || plan_sm80_fused(args, device_info(ctx), workspace_cap(ctx)).fits);
  // AUTO runs tf32tf32's products off the plane route (auto_method), so it takes their rule.
  const bool half_products = ctx.mode == ECGEMM_MODE_HALFHALF;
  const bool auto_mode = ctx.mode == ECGEMM_MODE_AUTO;
  const int64_t small = std::min(args.m, args.n), large = std::max(args.m, args.n);
  if (pinned_mma && !pin_simt && mma_ok) return Route::kMmaFused;
  // The fused mma.sync family (64 x 64 tiles, split in the CTA) against the other
  // routes (H200, ms, C ABI, tools/probe.py via tools/mma_check.sh with the routes
  // pinned in turn, bench/results/mma-2026-11-23; tf32tf32 / halfhalf):
  //   m x k x n            mma.sync        SIMT / planes / wgmma fused   [cuBLAS SGEMM]
  //   256 x 256 x 256      0.022 / 0.019   planes 0.026 / 0.024          [0.022]
  //   384 x 384 x 384      0.027 / 0.022   planes 0.027 / 0.027          [0.024]
  //   512 x 512 x 512      0.031 / 0.027   planes 0.029 / 0.028          [0.026]
  //   1024 x 1024 x 1024   0.066 / 0.052   planes 0.058 / 0.047          [0.069]
  //   256 x 16384 x 256    0.070 / 0.054   planes 0.076 / 0.061          [0.064]
  //   128 x 16384 x 128    0.028 / 0.025   SIMT 0.033 / 0.033            [0.031]
  //   128 x 65536 x 128    0.068 / 0.052   SIMT 0.090 / 0.091            [0.073]
  //   64 x 2^20 x 64       0.228 / 0.172   SIMT 0.303 / 0.305            [0.366]
  //   64 x 8192 x 8192     0.246 / 0.186   wgmma 0.229 / 0.214           [0.205]
  //   8192 x 8192 x 64     0.246 / 0.189   wgmma 0.227 / 0.208           [0.230]
  //   64 x 65536 x 4096    0.827 / 0.595   wgmma 0.986 / 0.902           [0.740]
  //   batch x (m x k x n), strided                                       [torch.bmm]
  //   4096 x 64^3          0.095 / 0.085   SIMT 0.126 / 0.130            [0.092]
  //   16384 x 32^3         0.216 / 0.193   SIMT 0.223 / 0.227            [0.086]
  //   2048 x 96^3          0.204 / 0.168   wgmma 0.207 / 0.214           [0.161]
  //   1024 x 128^3         0.138 / 0.113   wgmma 0.135 / 0.124           [0.135]
  //   512 x 256^3          0.442 / 0.337   wgmma 0.381 / 0.342           [0.388]
  // (The kernel's fourth version; the fifth, one FP32 stage and four CTAs an SM, ran the
  // same shapes 0-20% faster, never slower: probe_v5_one_stage.txt. The rule stands.)
  // Those small squares were host-bound through the C ABI. In GPU time (the queue
  // prefilled, tools/route_times.py, bench/results/small-2026-11-23; us, tf32tf32 /
  // halfhalf), once this family reduced split-K in a cluster, with splits down to 32 of k:
  //   m x k x n            mma.sync        planes          [cuBLAS SGEMM]
  //   256 x 256 x 256       7.4 /  6.9     15.1 / 13.9     [8.2]
  //   384 x 384 x 384      11.5 / 10.6     16.0 / 16.0     [11.0]
  //   512 x 512 x 512      16.7 / 14.1     16.7 / 16.2     [14.2]
  //   640 x 640 x 640      22.2 / 18.8     19.9 / 19.0     [23.8]
  //   768 x 768 x 768      34.4 / 27.6     25.0 / 20.0     [34.3]
  //   256 x 16384 x 256    59.1 / 45.8     59.2 / 39.3     [55.7]
  // The rule stands (at 256 x 16384 x 256 halfhalf's planes are 14% faster: left). With
  // the plane route's three kernels as dependent launches (kernels/dependent_launch.cuh)
  // 512^3 tf32tf32 there took 14.1 us [14.2] and 1024^3 35.3 / 24.8 [56.5]
  // (bench/results/launch-2026-11-23).
  // So halfhalf takes it for a side of C at most 64 and for C at most 512 wide (batches:
  // products at most 128 wide); tf32tf32, whose TF32 mma.sync runs at half FP16's rate,
  // for C at most 384 wide and a side at most 64 that the wgmma fused family does not
  // take (batches: a side at most 64). AUTO keeps the plane route where its scaling
  // lives and takes this family where it ran SIMT before (a side at most 64, or C at
  // most 128 wide). Where a split's k would exceed what one FP32 accumulator per output
  // holds FP32-class (sm80_fused.hpp: a capped user workspace, a long-k batch), the
  // previous routes stay; SIMT keeps FP32 mode and GPUs without mma.sync.
  // (Unbatched, the one-pass modes and Markidis stay on the plane or wgmma routes.)
  //
  // Where the wgmma families are absent (sm_80/86/89, or no sm_90a image) the planes run
  // the mma.sync mainloop instead. Measured with those kernels (libecgemm built for 90-real
  // on an H200, which still adds the fused family's split-K in a cluster;
  // tools/sm80_path_check.sh, bench/results/squares-2026-11-23/sm80; GPU time, us;
  // tf32tf32 / halfhalf):
  //   m x k x n            mma.sync fused         planes + mma.sync
  //   768^3                 33.5 /    26.9          37.5 /    26.2
  //   1024^3                59.7 /    46.5          64.5 /    40.8
  //   2048^3               383.2 /   278.6         380.3 /   204.5
  //   4096^3               2926 /    2143          2825 /    1458
  //   8192^3              23802 /   17849         21757 /   11387
  //   16384 x 256 x 16384   3130 /    2399          3389 /    2111
  //   64 x 8192 x 8192     201.6 /   152.9         SIMT 294 / 294
  // So there tf32tf32 takes the fused family for C up to 1024 wide (its planes hold 4-byte
  // parts, twice halfhalf's, so their pass and loads weigh more at small sizes); large
  // squares keep the planes, whose 128 x 128 tiles beat the fused family's 64 x 64.
  if (args.batch.batched()) {
    if (corrected && pin_simt) return Route::kSimt;
    // Without the wgmma families this family is the only Tensor Core route for batches.
    if (!fused_ok) return mma_ok ? Route::kMmaFused : Route::kSimt;
    if (!corrected || pin_tc) return Route::kFused;
    return mma_ok && small <= (half_products ? 2 : 1) * kSkinnyEdge ? Route::kMmaFused
                                                                     : Route::kFused;
  }
  // The one-pass modes and Markidis are the paper's comparison points: always Tensor Cores.
  if (!corrected || pin_tc) return tensor_cores;
  if (pin_simt) return Route::kSimt;
  const bool wgmma_skinny = small <= kSkinnyEdge && large >= kFusedLongEdge && fused_ok;
  const int64_t tf32_edge = auto_mode ? kSmallEdge : fused_ok ? kMmaTf32Edge : kMmaTf32EdgeSm80;
  const bool mma_shape =
      half_products ? small <= kSkinnyEdge || large <= kMmaHalfEdge
                    : large <= tf32_edge || (small <= kSkinnyEdge && !wgmma_skinny);
  if (mma_ok && mma_shape && !pinned_planes && !pinned_fused) return Route::kMmaFused;
  if (wgmma_skinny && !pinned_planes) return Route::kFused;
  if (small <= kSkinnyEdge || large <= kSmallEdge) return Route::kSimt;
  return tensor_cores;
}

// AUTO's scaling lives in the plane route's split pass and epilogues. On the fused
// family (skinny shapes, batches) it runs tf32tf32's products, which need no scaling:
// there halfhalf is only 3-8% faster (bench/results/fused-2026-11-22), and the fused
// split has no room for a statistics pass.
TcMethod auto_method(const ecgemmContext& ctx, TcMethod method) {
  return ctx.mode == ECGEMM_MODE_AUTO ? TcMethod::kTf32x3 : method;
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
  GemmArgs shape;
  shape.m = m, shape.n = n, shape.k = k;
  TcMethod method;
  bool two_level;
  const DeviceInfo dev = device_info(ctx);
  switch (choose_route(ctx, shape, &method, &two_level)) {
    case Route::kSimt: return plan_simt_fp32(m, n, k, dev, two_level).bytes;
    case Route::kGemv:  // the call's transposes pick the layout: room for either
      return std::max(plan_simt_gemv(m, n, k, GemvLayout::kAlongK, dev).bytes,
                      plan_simt_gemv(m, n, k, GemvLayout::kAlongLen, dev).bytes);
    case Route::kFused: return plan_sm90_fused(auto_method(ctx, method), shape, dev).bytes;
    case Route::kMmaFused: return plan_sm80_fused(shape, dev).bytes;
    case Route::kPlanes: break;
  }
  if (ctx.mode == ECGEMM_MODE_AUTO) return plan_tc_auto(m, n, k, dev).bytes;
  return plan_tc_workspace(method, m, n, k, dev).bytes;
}

ecgemmStatus_t dispatch_sgemm(ecgemmContext& ctx, const GemmArgs& args) {
  const DeviceInfo dev = device_info(ctx);
  TcMethod method;
  bool two_level;
  switch (choose_route(ctx, args, &method, &two_level)) {
    case Route::kSimt: {
      // A user workspace cannot grow: split k no further than its partials fit.
      // Batches are not split (their products fill the GPU).
      const size_t cap = args.batch.batched() ? 0 : workspace_cap(ctx);
      const SimtPlan plan = plan_simt_fp32(args.m, args.n, args.k, dev, two_level, cap);
      const ecgemmStatus_t status = reserve_workspace(ctx, plan.bytes);
      if (status != ECGEMM_STATUS_SUCCESS) return status;
      return from_cuda(launch_simt_fp32(args, plan, ctx.workspace, ctx.stream));
    }
    case Route::kGemv: {
      const size_t cap = workspace_cap(ctx);
      const GemvPlan plan =
          plan_simt_gemv(args.m, args.n, args.k, simt_gemv_layout(args), dev, cap);
      const ecgemmStatus_t status = reserve_workspace(ctx, plan.bytes);
      if (status != ECGEMM_STATUS_SUCCESS) return status;
      return from_cuda(launch_simt_gemv(args, plan, ctx.workspace, dev, ctx.stream));
    }
    case Route::kFused: {
      method = auto_method(ctx, method);
      const FusedPlan plan = plan_sm90_fused(method, args, dev);
      const ecgemmStatus_t status = reserve_workspace(ctx, plan.bytes);
      if (status != ECGEMM_STATUS_SUCCESS) return status;
      return from_cuda(launch_sm90_fused(method, args, plan, ctx.workspace, dev, ctx.stream));
    }
    case Route::kMmaFused: {
      const size_t cap = workspace_cap(ctx);
      const MmaFusedPlan plan = plan_sm80_fused(args, dev, cap);
      const ecgemmStatus_t status = reserve_workspace(ctx, plan.bytes);
      if (status != ECGEMM_STATUS_SUCCESS) return status;
      return from_cuda(
          launch_sm80_fused(auto_method(ctx, method), args, plan, ctx.workspace, dev, ctx.stream));
    }
    case Route::kPlanes: break;
  }
  if (ctx.mode == ECGEMM_MODE_AUTO) {
    const TcAutoPlan plan = plan_tc_auto(args.m, args.n, args.k, dev);
    const ecgemmStatus_t status = reserve_workspace(ctx, plan.bytes);
    if (status != ECGEMM_STATUS_SUCCESS) return status;
    return from_cuda(launch_tc_auto(args, plan, ctx.workspace, dev, ctx.stream));
  }
  const TcWorkspace plan = plan_tc_workspace(method, args.m, args.n, args.k, dev);
  const ecgemmStatus_t status = reserve_workspace(ctx, plan.bytes);
  if (status != ECGEMM_STATUS_SUCCESS) return status;
  return from_cuda(launch_tc_gemm(method, args, plan, ctx.workspace, dev, ctx.stream));
}

}  // namespace ecgemm::detail
