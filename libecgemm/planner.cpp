// The planner: one plan per call, from the handle's mode and cap and the call's shape
// (planner.hpp). The route rules below are today's measured ones (each cites its
// measurement); a cost model replaces them with the every-shape work (docs/architecture.md).
#include "planner.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "memory.hpp"

namespace ecgemm::detail {
namespace {

bool tensor_core_method(ecgemmMode_t mode, TcMethod* method) {
  switch (mode) {
    case ECGEMM_MODE_TF32TF32: *method = TcMethod::kTf32Tf32; return true;
    case ECGEMM_MODE_HALFHALF: *method = TcMethod::kHalfHalf; return true;
    // AUTO routes as halfhalf; on the plane route it scales (auto_scale.hpp), elsewhere
    // it runs tf32tf32's products (plan_for).
    case ECGEMM_MODE_AUTO: *method = TcMethod::kHalfHalf; return true;
    case ECGEMM_MODE_TF32: *method = TcMethod::kTf32; return true;
    case ECGEMM_MODE_FP16: *method = TcMethod::kFp16; return true;
    case ECGEMM_MODE_MARKIDIS: *method = TcMethod::kMarkidis; return true;
    case ECGEMM_MODE_FP32: return false;
  }
  return false;
}

const char* method_name(TcMethod method) {
  switch (method) {
    case TcMethod::kTf32Tf32: return "tf32tf32";
    case TcMethod::kHalfHalf: return "halfhalf";
    case TcMethod::kTf32: return "tf32";
    case TcMethod::kFp16: return "fp16";
    case TcMethod::kMarkidis: return "markidis";
  }
  return "?";
}

constexpr Family kFamilies[] = {Family::kSimt, Family::kGemv, Family::kPlanes,
                                Family::kFusedWgmma, Family::kFusedMma};

// ECGEMM_FAMILY=<family_name> runs every call that family can run on it (tests, bench);
// read per call (a getenv is noise next to a launch) so that they can switch it.
bool pinned_family(Family* family) {
  const char* pin = std::getenv("ECGEMM_FAMILY");
  if (pin == nullptr || *pin == '\0') return false;
  for (Family f : kFamilies)
    if (std::strcmp(pin, family_name(f)) == 0) {
      *family = f;
      return true;
    }
  return false;
}

// Which family runs a call: `simt`, `planes` (a split pass writes hi/lo planes to the
// scratch, then a Tensor Core mainloop reads them) or `fused_wgmma` (sm_90a: the split
// happens inside the Tensor Core kernel, no planes).
//
// Squares and other large shapes take the planes; the fused family is behind them until
// it is measured faster (H200, C ABI, CUDA events, tools/device.py route-times --layouts, 4096^3,
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
// The corrected modes' skinny and small shapes, measured on all three (tools/device.py
// probe, bench/results/README.md#fused-vs-planes; H200, ms, tf32tf32, halfhalf within 10%):
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
// family, measured later, took most of those small shapes over (preferred()'s table).

constexpr int64_t kSkinnyEdge = 64;
constexpr int64_t kSmallEdge = 128;
constexpr int64_t kFusedLongEdge = 4096;
constexpr int64_t kMmaHalfEdge = 512;  // C at most this wide: halfhalf on the mma.sync family
constexpr int64_t kMmaTf32Edge = 384;  // ... tf32tf32 and AUTO
constexpr int64_t kMmaTf32EdgeSm80 = 1024;  // ... tf32tf32 where the wgmma families are absent


// What the call and handle allow, computed once per plan.
struct Context {
  const ecgemmContext& ctx;
  const GemmArgs& args;
  DeviceInfo dev;
  size_t cap;
  bool tensor_cores;  // the mode has Tensor Core products (all but FP32)
  TcMethod method;
  bool corrected;     // tf32tf32, halfhalf, AUTO: FP32-class products
  bool fused_ok;      // the fused wgmma family can run it
  bool mma_ok;        // the fused mma.sync family can run it (FP32-class where corrected)
};

Context context(const ecgemmContext& ctx, const GemmArgs& args) {
  Context c{ctx, args, device_info(ctx), scratch_cap(ctx), false, TcMethod::kTf32Tf32,
            false, false, false};
  c.tensor_cores = tensor_core_method(ctx.mode, &c.method);
  c.corrected = c.method == TcMethod::kTf32Tf32 || c.method == TcMethod::kHalfHalf;
  c.fused_ok = c.tensor_cores && fused_wgmma_usable(args, c.dev);
  // The fused mma.sync family runs every method. Its k bound (fused_mma.hpp: `fits`)
  // keeps the corrected modes FP32-class; the one-pass modes and Markidis accumulate in
  // the Tensor Core by definition, so it is not theirs.
  c.mma_ok = c.tensor_cores && fused_mma_usable(c.dev) &&
             (!c.corrected || plan_fused_mma(args, c.dev, c.cap).fits);
  return c;
}

bool fp32_class(ecgemmMode_t mode) {
  return mode == ECGEMM_MODE_FP32 || mode == ECGEMM_MODE_TF32TF32 ||
         mode == ECGEMM_MODE_HALFHALF || mode == ECGEMM_MODE_AUTO;
}

bool usable(const Context& c, Family family) {
  switch (family) {
    case Family::kSimt: return true;
    case Family::kGemv: return fp32_class(c.ctx.mode) && gemv_shape(c.args);
    case Family::kPlanes: return c.tensor_cores && !c.args.batch.batched();
    case Family::kFusedWgmma: return c.fused_ok;
    case Family::kFusedMma: return c.mma_ok;
  }
  return false;
}

// The family the measurements favour for this call (no cap, no pin).
Family preferred(const Context& c) {
  const GemmArgs& args = c.args;
  // GEMV-like shapes (one side of C at most 4 wide) are memory-bound on the large
  // operand: FP32 reading it once at DRAM speed is as fast as anything can be there, and
  // as accurate as SGEMM or better (H200, tf32tf32, ms per call, tools/device.py probe,
  // bench/results/README.md#gemv-route; m x k x n as torch's row-major a @ b):
  //   m x k x n          GEMV    tiled SIMT   [cuBLAS SGEMM]
  //   1 x 4096 x 4096    0.029     0.089        [0.028]
  //   4096 x 4096 x 1    0.030     0.091        [0.031]
  //   4096 x 4096 x 4    0.079     0.091        [0.070]
  //   4 x 8192 x 8192    0.099     0.300        [0.128]
  //   1 x 16384 x 16384  0.262     1.146        [0.264]
  if (usable(c, Family::kGemv)) return Family::kGemv;
  if (!c.tensor_cores) return Family::kSimt;
  const bool half_products = c.ctx.mode == ECGEMM_MODE_HALFHALF;
  const bool auto_mode = c.ctx.mode == ECGEMM_MODE_AUTO;
  const int64_t small = std::min(args.m, args.n), large = std::max(args.m, args.n);
  // The fused mma.sync family (64 x 64 tiles, split in the CTA) against the other
  // routes (H200, ms, C ABI, tools/device.py probe with the families
  // pinned in turn, bench/results/README.md#fused-mma; tf32tf32 / halfhalf):
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
  // same shapes 0-20% faster, never slower: bench/results/README.md#fused-mma. The rule stands.)
  // Those small squares were host-bound through the C ABI. In GPU time (the queue
  // prefilled, tools/device.py route-times, bench/results/README.md#small-products; us, tf32tf32 /
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
  // (bench/results/README.md#dependent-launches).
  // So halfhalf takes it for a side of C at most 64 and for C at most 512 wide (batches:
  // products at most 128 wide); tf32tf32, whose TF32 mma.sync runs at half FP16's rate,
  // for C at most 384 wide and a side at most 64 that the wgmma fused family does not
  // take (batches: a side at most 64). AUTO keeps the plane route where its scaling
  // lives and takes this family where it ran SIMT before (a side at most 64, or C at
  // most 128 wide). Where a split's k would exceed what one FP32 accumulator per output
  // holds FP32-class (fused_mma.hpp: a capped user workspace, a long-k batch), the
  // previous routes stay; SIMT keeps FP32 mode and GPUs without mma.sync.
  // (Unbatched, the one-pass modes and Markidis stay on the plane or wgmma routes.)
  //
  // Where the wgmma families are absent (sm_80/86/89, or no sm_90a image) the planes run
  // the mma.sync mainloop instead. Measured with those kernels (libecgemm built for 90-real
  // on an H200, which still adds the fused family's split-K in a cluster; tools/device.py
  // install --archs 90-real, then route-times; bench/results/README.md#sm80-path; GPU time,
  // us; tf32tf32 / halfhalf):
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
    // Without the wgmma families this family is the only Tensor Core route for batches.
    if (!c.fused_ok) return c.mma_ok ? Family::kFusedMma : Family::kSimt;
    if (!c.corrected) return Family::kFusedWgmma;
    return c.mma_ok && small <= (half_products ? 2 : 1) * kSkinnyEdge ? Family::kFusedMma
                                                                       : Family::kFusedWgmma;
  }
  // The one-pass modes and Markidis are the paper's comparison points: always Tensor Cores.
  if (!c.corrected) return Family::kPlanes;
  const bool wgmma_skinny = small <= kSkinnyEdge && large >= kFusedLongEdge && c.fused_ok;
  const int64_t tf32_edge = auto_mode ? kSmallEdge : c.fused_ok ? kMmaTf32Edge : kMmaTf32EdgeSm80;
  const bool mma_shape =
      half_products ? small <= kSkinnyEdge || large <= kMmaHalfEdge
                    : large <= tf32_edge || (small <= kSkinnyEdge && !wgmma_skinny);
  if (c.mma_ok && mma_shape) return Family::kFusedMma;
  if (wgmma_skinny) return Family::kFusedWgmma;
  if (small <= kSkinnyEdge || large <= kSmallEdge) return Family::kSimt;
  return Family::kPlanes;
}

// AUTO's scaling lives in the plane route's split pass and epilogues. On the fused
// family (skinny shapes, batches) it runs tf32tf32's products, which need no scaling:
// there halfhalf is only 3-8% faster (bench/results/README.md#fused-vs-planes), and the fused
// split has no room for a statistics pass.
Plan plan_for(const Context& c, Family family) {
  const GemmArgs& args = c.args;
  Plan p;
  p.family = family;
  const bool auto_mode = c.ctx.mode == ECGEMM_MODE_AUTO;
  p.method = auto_mode && family != Family::kPlanes ? TcMethod::kTf32Tf32 : c.method;
  switch (family) {
    case Family::kSimt: {
      // Two-level accumulation for the corrected modes (FP32 class over any k); plain
      // FP32 may use the wide tile. Batches are not split (their products fill the GPU).
      const SimtPlan s = plan_simt(args.m, args.n, args.k, c.dev, c.tensor_cores,
                                        args.batch.batched() ? 0 : c.cap);
      p.bytes = s.bytes;
      p.detail = s;
      break;
    }
    case Family::kGemv: {
      const GemvPlan g =
          plan_gemv(args.m, args.n, args.k, gemv_layout(args), c.dev, c.cap);
      p.bytes = g.bytes;
      p.detail = g;
      break;
    }
    case Family::kPlanes:
      if (auto_mode) {
        const PlanesAutoPlan a = plan_planes_auto(args.m, args.n, args.k, c.dev, c.cap);
        p.auto_scaled = true;
        p.bytes = a.bytes;
        p.detail = a;
      } else {
        const PlanesPlan w = plan_planes(p.method, args.m, args.n, args.k, c.dev, c.cap);
        p.bytes = w.bytes;
        p.detail = w;
      }
      break;
    case Family::kFusedWgmma: {
      const FusedWgmmaPlan f = plan_fused_wgmma(p.method, args, c.dev, c.cap);
      p.bytes = f.bytes;
      p.detail = f;
      break;
    }
    case Family::kFusedMma: {
      const FusedMmaPlan f = plan_fused_mma(args, c.dev, c.cap);
      p.bytes = f.bytes;
      p.detail = f;
      break;
    }
  }
  return p;
}

struct Launcher {
  const Plan& plan;
  const GemmArgs& args;
  void* scratch;
  const DeviceInfo& dev;
  cudaStream_t stream;
  cudaError_t operator()(const SimtPlan& s) const {
    return launch_simt(args, s, scratch, stream);
  }
  cudaError_t operator()(const GemvPlan& g) const {
    return launch_gemv(args, g, scratch, dev, stream);
  }
  cudaError_t operator()(const PlanesPlan& w) const {
    return launch_planes(plan.method, args, w, scratch, dev, stream);
  }
  cudaError_t operator()(const PlanesAutoPlan& a) const {
    return launch_planes_auto(args, a, scratch, dev, stream);
  }
  cudaError_t operator()(const FusedWgmmaPlan& f) const {
    return launch_fused_wgmma(plan.method, args, f, scratch, dev, stream);
  }
  cudaError_t operator()(const FusedMmaPlan& f) const {
    return launch_fused_mma(plan.method, args, f, scratch, dev, stream);
  }
};

const char* simt_tile_name(SimtTile t) {
  switch (t) {
    case SimtTile::kWide: return "128x128";
    case SimtTile::kTallM: return "128x64";
    case SimtTile::kTallN: return "64x128";
    case SimtTile::kSmall: return "64x64";
  }
  return "?";
}

struct Describer {
  char* out;
  size_t len;
  int operator()(const SimtPlan& s) const {
    return std::snprintf(out, len, "tile=%s splits=%d", simt_tile_name(s.tile), s.splits);
  }
  int operator()(const GemvPlan& g) const { return std::snprintf(out, len, "splits=%d", g.splits); }
  int operator()(const PlanesPlan& w) const {
    return std::snprintf(out, len, "tile=%dx%d splits=%d", kTileM, kTileN, w.splits);
  }
  int operator()(const PlanesAutoPlan& a) const {
    return std::snprintf(out, len, "tile=%dx%d splits=%d/%d", kTileM, kTileN, a.half.splits,
                         a.tf32.splits);
  }
  int operator()(const FusedWgmmaPlan& f) const {
    return std::snprintf(out, len, "tile=%dx128%s splits=%d", 64 * f.consumers,
                         f.swapped ? " swapped" : "", f.splits);
  }
  int operator()(const FusedMmaPlan& f) const {
    return std::snprintf(out, len, "tile=64x64 splits=%d%s", f.splits,
                         f.cluster_reduce ? " cluster" : "");
  }
};

}  // namespace

const char* family_name(Family family) {
  switch (family) {
    case Family::kSimt: return "simt";
    case Family::kGemv: return "gemv";
    case Family::kPlanes: return "planes";
    case Family::kFusedWgmma: return "fused_wgmma";
    case Family::kFusedMma: return "fused_mma";
  }
  return "?";
}

DeviceInfo device_info(const ecgemmContext& ctx) {
  return {ctx.device, ctx.cc_major, ctx.cc_minor, ctx.sm_count, ctx.max_smem_per_block};
}

Plan make_plan(const ecgemmContext& ctx, const GemmArgs& args) {
  const Context c = context(ctx, args);
  Family first = Family::kSimt;
  if (!pinned_family(&first) || !usable(c, first)) first = preferred(c);
  // Within the cap: the preferred family, else the fused families (split-K partials
  // only, fewer where the cap says), else SIMT, which fits any cap.
  for (Family f : {first, Family::kFusedWgmma, Family::kFusedMma, Family::kSimt}) {
    if (!usable(c, f)) continue;
    Plan p = plan_for(c, f);
    if (p.bytes <= c.cap) return p;
  }
  return plan_for(c, Family::kSimt);  // unreachable: SIMT's partials follow the cap
}

cudaError_t launch_plan(const Plan& plan, const GemmArgs& args, void* scratch,
                        const DeviceInfo& dev, cudaStream_t stream) {
  return std::visit(Launcher{plan, args, scratch, dev, stream}, plan.detail);
}

std::string describe(const Plan& plan) {
  const bool tc = plan.family != Family::kSimt && plan.family != Family::kGemv;
  char detail[96];
  std::visit(Describer{detail, sizeof detail}, plan.detail);
  char line[256];
  std::snprintf(line, sizeof line, "family=%s method=%s %s workspace=%zu",
                family_name(plan.family),
                plan.auto_scaled ? "auto" : tc ? method_name(plan.method) : "fp32", detail,
                plan.bytes);
  return line;
}

}  // namespace ecgemm::detail
