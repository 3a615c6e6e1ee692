// (mode, architecture, shape, batch, transposes, scratch cap) -> one Plan: the kernel
// family, the Tensor Core products it computes, its own tile/split plan and the scratch
// it needs. The same function answers a call and the workspace query, so the query
// reports exactly what the call will take (docs/architecture.md).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <variant>

#include "cost_model.hpp"
#include "handle.hpp"
#include "kernels/gemm_args.hpp"
#include "kernels/simt.hpp"
#include "kernels/gemv.hpp"
#include "kernels/fused_mma.hpp"
#include "kernels/fused_wgmma.hpp"
#include "kernels/planes.hpp"

namespace ecgemm::detail {

// One name per family, used in code, ECGEMM_FAMILY, ECGEMM_VERBOSE, ecgemm.explain and bench.
enum class Family {
  kSimt,        // FP32 SIMT tiles (ECGEMM_MODE_FP32, and fallbacks)
  kGemv,        // FP32, one side of C at most kGemvMaxWidth wide
  kPlanes,      // split pass writes hi/lo planes, then a wgmma or mma.sync mainloop
  kFusedWgmma,  // sm_90a: split inside the CTA, wgmma
  kFusedMma,    // sm_80+: split inside the CTA, mma.sync
};
const char* family_name(Family family);

// A family, and the tile where a family offers several (0: the planner's choice). Spelt
// "<family_name>" or "<family_name>:<tile>" in ECGEMM_FAMILY (fused_mma:32, fused_mma:64),
// with "/tf32tf32" or "/halfhalf" after it for AUTO's products on fused_mma (its two forms;
// other modes ignore it), or "/fp32" for fused_mma's FP32 form (every stage in FP32, the
// corrected modes, the 32-wide tile: FusedMmaPlan::fp32), or "/unsplit" for fused_mma with k
// not split (fused_mma_unsplit; the planner prices it beside the split plan); "gemv:wide" pins
// gemv's fixed groups, "gemv:lines" its lines kernel where it applies (GemvPlan::line_lanes);
// "fused_wgmma:narrow" its narrow tiles where the call has a side they take (fused_wgmma_narrow);
// "simt:stream", "simt:strips" and "simt:dot" simt's short-k tiles where the call may take the
// one named (simt_alternative: the head-to-head calibration of their rows); "planes:walk" and
// "planes:plain" the plane route's wgmma mainloop as persistent CTAs or one CTA a tile
// (PlanesPlan::walk) where that mainloop runs.
enum class GemvForm { kAny, kWide, kLines };
struct FamilyPin {
  Family family = Family::kSimt;
  int tile = 0;
  std::optional<TcMethod> auto_products;
  bool fp32 = false;
  bool unsplit = false;
  bool narrow = false;  // fused_wgmma's narrow tiles
  GemvForm gemv_form = GemvForm::kAny;  // kWide: the fixed groups, no split inside the CTA (plan_gemv's `wide`)
  std::optional<SimtTile> simt_tile;    // kStream, kStrips or kDot; with `piped`, one piped tile
  bool piped = false;                   // simt's piped tiles: the named one, else the cheapest
  std::optional<bool> walk;             // planes: the walking mainloop, or one CTA a tile
};

struct Plan {
  Family family = Family::kSimt;
  TcMethod method = TcMethod::kTf32Tf32;  // the Tensor Core products (kPlanes, kFused*)
  bool auto_scaled = false;             // ECGEMM_MODE_AUTO's scaling (kPlanes only)
  std::variant<SimtPlan, GemvPlan, PlanesPlan, PlanesAutoPlan, FusedWgmmaPlan, FusedMmaPlan> detail;
  size_t bytes = 0;  // scratch
  double estimate_us = 0.0;  // the cost model's GPU time (cost_model.hpp): the fit, or the floor
  double fitted_us = 0.0;    // the fit alone (estimate_us), which orders plans on the same floor
  int64_t chain_k = 0;       // k one CTA accumulates (GridShape::k_per_cta)
  int64_t ctas = 0;          // CTAs of the main kernel
};

// The plan for one validated, non-degenerate GEMM (m, n, k >= 1) on this handle, within
// scratch_cap(ctx) (memory.hpp): the cheapest plan by the cost model among those within the
// cap (families plan fewer split-K steps under a cap; SIMT always fits).
Plan make_plan(const ecgemmContext& ctx, const GemmArgs& args);

cudaError_t launch_plan(const Plan& plan, const GemmArgs& args, void* scratch,
                        const DeviceInfo& dev, cudaStream_t stream);

// "family=fused_mma method=tf32tf32 tile=64x64 splits=4 workspace=0 est=7.1us", for
// ECGEMM_VERBOSE and ecgemm.explain.
std::string describe(const Plan& plan);

// The plan one family would run (the planner's choice of family skipped), within the
// cap; false where the family cannot run the call. For the cost model's calibration.
bool plan_family(const ecgemmContext& ctx, const GemmArgs& args, const FamilyPin& pin, Plan* plan);
bool family_by_name(const char* name, FamilyPin* pin);

// The cost model's inputs for a plan (tools/fit_cost_model.py reads them).
CostRow cost_row(const Plan& plan, bool batched);
CostFeatures plan_features(const Plan& plan, const GemmArgs& args, const DeviceInfo& dev);

}  // namespace ecgemm::detail
