// The planner: one plan per call, from the handle's mode and cap and the call's shape
// (planner.hpp). Every family that may run the call plans it; the cost model
// (cost_model.hpp) estimates each plan's GPU time and the cheapest within the cap runs
// (docs/architecture.md: the planner). ECGEMM_FAMILY pins a family for tests and bench.
#include "planner.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string_view>

#include "kernels/common/splitk_plan.hpp"
#include "kernels/simt/piped.hpp"
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

// ECGEMM_FAMILY=<family_name>[:<tile>] runs every call that family can run on it (tests,
// bench), with that tile where the family has several; read per call (a getenv is noise
// next to a launch) so that they can switch it.
bool pinned_family(FamilyPin* pin) {
  const char* text = std::getenv("ECGEMM_FAMILY");
  return text != nullptr && family_by_name(text, pin);
}

// The corrected modes' Tensor Core products need k above this to be FP32-class: at
// smaller k their own error (two parts keep ~22 of FP32's 24 bits, lo·lo dropped) is no
// longer outweighed by SGEMM's accumulation error. On the calibration sample (H200,
// bench/results/README.md#cost-model; residual over SGEMM's, geometric mean, all three
// Tensor Core families alike) it was 2.0 at k = 1, 1.35 at k 5..8, 1.15 at 9..16 and
// 0.95 at 17..32; the FP32 routes (simt's stream tile, gemv) gave 1.00 up to k = 8 and
// ran 0.88-1.1x SGEMM's speed there, faster than every Tensor Core family. At 17..32 the
// products still ran up to 1.24x SGEMM's residual (H100, held-out sample), fused_mma's FP32
// form 0.80x (max 1.05) at 0.92x their speed (bench/results/README.md#fp32-form). At 33..48
// the FP32 form (two stages) took their worst held-out residual from 1.18 to 1.01x SGEMM's but
// ran 0.80-0.91x their speed, most of those shapes then below 0.95x SGEMM (#calibrated, call 6).
// Above 32 fused_mma's 32-wide tile compensates its promotion instead (fused_mma.cu:
// kCompensated; bench/results/README.md#promotion).
constexpr int64_t kFp32RouteMaxK = 32;

// What the call and handle allow, computed once per plan.
struct Context {
  const ecgemmContext& ctx;
  const GemmArgs& args;
  const DeviceInfo& dev;  // the handle's (ecgemmContext::dev)
  size_t cap;
  bool tensor_cores;  // the mode has Tensor Core products (all but FP32)
  TcMethod method;
  bool corrected;     // tf32tf32, halfhalf, AUTO: FP32-class products
  bool fused_ok;      // the fused wgmma family can run it
  bool mma_ok;        // the fused mma.sync family can run it (FP32-class where corrected)
};

Context context(const ecgemmContext& ctx, const GemmArgs& args) {
  Context c{ctx, args, ctx.dev, scratch_cap(ctx), false, TcMethod::kTf32Tf32,
            false, false, false};
  c.tensor_cores = tensor_core_method(ctx.mode, &c.method);
  c.corrected = c.method == TcMethod::kTf32Tf32 || c.method == TcMethod::kHalfHalf;
  // AUTO's products there are tf32tf32's, with FP32 stages where the data are too wide for
  // them (FusedWgmmaPlan::wide_fp32, docs/numerics.md section 12).
  c.fused_ok = c.tensor_cores && fused_wgmma_usable(args, c.dev);
  // The fused mma.sync family runs every method. Its k bound (fused_mma.hpp: `fits`)
  // keeps the corrected modes FP32-class; the one-pass modes and Markidis accumulate in
  // the Tensor Core by definition, so it is not theirs.
  c.mma_ok = c.tensor_cores && fused_mma_usable(c.dev) &&
             (!c.corrected || plan_fused_mma(args, c.dev, c.cap).fits);
  return c;
}

// simt and gemv compute in FP32; the other families on Tensor Cores.
bool tensor_core_family(Family family) { return family != Family::kSimt && family != Family::kGemv; }

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

// A pinned tile the call's products can take (fused_mma's 32 runs the corrected methods;
// AUTO's products there are tf32tf32's; its FP32 form is the corrected modes', 32-wide, one
// stage: k <= kFp32FormMaxK, which the planner offers up to kFp32RouteMaxK).
bool pin_fits(const Context& c, const FamilyPin& pin) {
  const bool scaled = c.ctx.mode == ECGEMM_MODE_AUTO && pin.auto_products == TcMethod::kHalfHalf;
  const bool fp32_form = c.corrected && c.mma_ok && pin.tile != 64 && c.args.k <= kFp32FormMaxK;
  const bool narrow = fused_wgmma_narrow(c.method, c.args, c.dev, c.cap).has_value();
  return (pin.tile != 32 || c.corrected) && !(scaled && pin.tile == 64) && (!pin.fp32 || fp32_form) &&
         (!pin.narrow || narrow);
}

// The products a pin names, where they apply: AUTO's on fused_mma (FamilyPin).
std::optional<TcMethod> pinned_products(const Context& c, const FamilyPin& pin) {
  if (!pin.auto_products || c.ctx.mode != ECGEMM_MODE_AUTO || pin.family != Family::kFusedMma)
    return std::nullopt;
  return pin.auto_products;
}

struct GridOf {
  const Plan& plan;
  const GemmArgs& args;
  const DeviceInfo& dev;
  GridShape operator()(const SimtPlan& s) const { return simt_grid(args, s, dev); }
  GridShape operator()(const GemvPlan& g) const { return gemv_grid(args, g, dev); }
  GridShape operator()(const PlanesPlan& w) const { return planes_grid(plan.method, w, dev); }
  GridShape operator()(const PlanesAutoPlan& a) const {
    return planes_auto_grid(a, args.m, args.n, args.k, dev);
  }
  GridShape operator()(const FusedWgmmaPlan& f) const { return fused_wgmma_grid(args, f, dev); }
  GridShape operator()(const FusedMmaPlan& f) const { return fused_mma_grid(args, f, dev); }
};

// A plan's grid and the cost model's estimate of its GPU time.
void price(const Context& c, Plan& p) {
  const GridShape grid = std::visit(GridOf{p, c.args, c.dev}, p.detail);
  p.chain_k = grid.k_per_cta;
  p.ctas = grid.ctas;
  const CostFeatures f = cost_features(grid, c.args);
  p.fitted_us = estimate_us(cost_row(p, c.args.batch.batched()), f);
  // AUTO's guard on the fused families (cost_model.hpp: kFusedWgmmaGuardCost, kFusedMmaGuardCost); fused_mma's
  // FP32 form has none, and its scaled form (halfhalf's products) is pinned only. fused_mma's plan gets its
  // wide_fp32 flag after plan_for has chosen among its tiles, so the mode decides here, alike for every tile.
  if (const auto* w = std::get_if<FusedWgmmaPlan>(&p.detail); w != nullptr && w->wide_fp32)
    p.fitted_us *= kFusedWgmmaGuardCost;
  if (const auto* mma = std::get_if<FusedMmaPlan>(&p.detail);
      mma != nullptr && !mma->fp32 && c.ctx.mode == ECGEMM_MODE_AUTO && p.method == TcMethod::kTf32Tf32)
    p.fitted_us *= kFusedMmaGuardCost;
  if (const auto* w = std::get_if<PlanesPlan>(&p.detail); w != nullptr && w->walk)
    p.fitted_us *= kPlanesWalkCost;
  p.estimate_us = std::max(p.fitted_us, dram_floor_us(f, c.dev));
}

// `q` priced below `p`: by the estimate, and where both stand on the same DRAM floor (the
// same traffic), by the fit.
bool cheaper(const Plan& q, const Plan& p) {
  return q.estimate_us < p.estimate_us ||
         (q.estimate_us == p.estimate_us && q.fitted_us < p.fitted_us);
}

// `p` with its family's plan replaced by `detail`, priced.
template <class Detail>
Plan replanned(const Context& c, Plan p, const Detail& detail) {
  p.detail = detail;
  p.bytes = detail.bytes;
  price(c, p);
  return p;
}

// `p` replaced by its family's other plan where the cost model prices that one lower
// within the cap (simt_alternative, fused_mma_alternative, fused_mma_unsplit).
template <class Detail>
void keep_cheaper(const Context& c, Plan& p, const std::optional<Detail>& other) {
  if (!other) return;
  const Plan q = replanned(c, p, *other);
  if (q.bytes <= c.cap && cheaper(q, p)) p = q;
}

// A plane-route or fused_wgmma plan on a grid that fills the GPU but ends on a partial wave: the
// cheapest K split that finishes whole waves sooner (splitk_plan.hpp: splits_fill_waves), kept
// where the cost model prices it at least kFullGridSplitGain below `p` unsplit or, where one
// CTA's chain would pass kMaxChainK, no higher (the accuracy bound, kept on full grids where it
// costs nothing). The margin is the model's error on this class: plane-route splits it priced
// 0.7-7% lower ran 0.95-1.02x (H100, bench/results/README.md#full-grid-splits, call 1).
constexpr double kFullGridSplitGain = 0.05;

// `p`'s family plan with `splits` K splits (the families' one-CTA-an-SM grids), or nullopt.
std::optional<Plan> resplit(const Context& c, const Plan& p, int splits) {
  const GemmArgs& a = c.args;
  if (std::holds_alternative<PlanesAutoPlan>(p.detail))
    return replanned(c, p, plan_planes_auto(a.m, a.n, a.k, c.dev, c.cap, splits));
  if (std::holds_alternative<PlanesPlan>(p.detail))
    return replanned(c, p, plan_planes(p.method, a.m, a.n, a.k, c.dev, c.cap, splits));
  if (const auto* f = std::get_if<FusedWgmmaPlan>(&p.detail))
    return replanned(c, p, fused_wgmma_resplit(*f, p.method, a, c.dev, c.cap, splits));
  return std::nullopt;
}

// Output tiles of a plane-route or fused_wgmma plan; 0 for others and for batches.
int64_t split_tiles(const Context& c, const Plan& p) {
  const GemmArgs& a = c.args;
  if (a.batch.batched()) return 0;
  if (const auto* w = std::get_if<PlanesPlan>(&p.detail)) return planes_tiles(*w);
  if (const auto* w = std::get_if<PlanesAutoPlan>(&p.detail)) return planes_tiles(w->half);
  if (const auto* f = std::get_if<FusedWgmmaPlan>(&p.detail)) return fused_wgmma_tiles(a, *f);
  return 0;
}

void keep_full_grid_split(const Context& c, Plan& p) {
  const int64_t tiles = split_tiles(c, p);
  std::optional<Plan> best;
  for (int s = 2; s <= kMaxFullGridSplits; ++s) {
    if (!splits_fill_waves(tiles, c.dev.sm_count, s)) continue;
    const std::optional<Plan> q = resplit(c, p, s);
    if (q && q->bytes <= c.cap && (!best || cheaper(*q, *best))) best = q;
  }
  if (!best) return;
  const bool gains = best->estimate_us <= (1.0 - kFullGridSplitGain) * p.estimate_us;
  const bool bounds = p.chain_k > kMaxChainK && !cheaper(p, *best);
  if (gains || bounds) p = *best;
}

// fused_mma's FP32 form (FusedMmaPlan::fp32) for a corrected mode: the 32-wide tile, every
// stage in FP32. Its own cost row prices it.
Plan fp32_form_plan(const Context& c) {
  Plan p;
  p.family = Family::kFusedMma;
  p.method = TcMethod::kTf32Tf32;  // no products run; the kernel is instantiated for these
  FusedMmaPlan f = plan_fused_mma(c.args, c.dev, c.cap, 32);
  f.fp32 = true;
  f.fp64_sums = fp64_sums_hide(c.args, f, c.dev);
  p.bytes = f.bytes;
  p.detail = f;
  price(c, p);
  return p;
}

// The call's plan on one of simt's piped tiles (kernels/simt/piped.hpp), `simt` being the family's
// plan it stands beside; none at k <= kStreamMaxK. A batch never splits k.
std::optional<Plan> piped_tile_plan(const Context& c, const Plan& simt, SimtTile tile) {
  const std::optional<SimtPlan> s =
      simt_piped_plan(tile, c.args.m, c.args.n, c.args.k, c.dev, c.args.batch.batched() ? 0 : c.cap);
  return s ? std::optional<Plan>(replanned(c, simt, *s)) : std::nullopt;
}

// The cost row of a piped tile: one per shape, mirrored tiles sharing theirs, and a batch's apart
// (cost_model.hpp).
CostRow piped_row(SimtTile t, bool batched) {
  switch (t) {
    case SimtTile::kPiped32x32: return batched ? CostRow::kSimtPiped32x32Batched : CostRow::kSimtPiped32x32;
    case SimtTile::kPiped32x64: case SimtTile::kPiped64x32:
      return batched ? CostRow::kSimtPiped32x64Batched : CostRow::kSimtPiped32x64;
    case SimtTile::kPiped64x64: return batched ? CostRow::kSimtPiped64x64Batched : CostRow::kSimtPiped64x64;
    default: return batched ? CostRow::kSimtPiped64x128Batched : CostRow::kSimtPiped64x128;  // and 128 x 64
  }
}

// Whether the planner offers a piped tile beside simt's others: once its row is calibrated
// (a new tile lands behind the old routes until a calibration prices it: cost_model.hpp).
bool piped_offered(SimtTile t, bool batched) { return calibrated(piped_row(t, batched)); }

// The cheapest plan on simt's piped tiles within the cap: of all six for the family's pin, of
// the offered ones beside simt's other tiles.
std::optional<Plan> piped_plan(const Context& c, const Plan& simt, bool offered_only) {
  std::optional<Plan> best;
  for (SimtTile t : kPipedTiles) {
    if (offered_only && !piped_offered(t, c.args.batch.batched())) continue;
    const std::optional<Plan> q = piped_tile_plan(c, simt, t);
    if (q && q->bytes <= c.cap && (!best || cheaper(*q, *best))) best = q;
  }
  return best;
}

// One family's plan for the call. AUTO's scaling lives in the plane route's split pass
// and epilogues; elsewhere AUTO runs tf32tf32's products, which need no scaling (the
// fused splits have no room for a statistics pass), and so may the plane route
// (`method`: the products, where they are not the mode's own).
Plan plan_for(const Context& c, Family family, std::optional<TcMethod> method = std::nullopt,
              int tile = 0, GemvForm gemv_form = GemvForm::kAny,
              std::optional<SimtTile> simt_tile = std::nullopt) {
  const GemmArgs& args = c.args;
  Plan p;
  p.family = family;
  const bool auto_mode = c.ctx.mode == ECGEMM_MODE_AUTO;
  const bool auto_scaled = auto_mode && family == Family::kPlanes && !method;
  p.method = method ? *method : auto_mode && !auto_scaled ? TcMethod::kTf32Tf32 : c.method;
  switch (family) {
    case Family::kSimt: {
      // Two-level accumulation for the corrected modes (FP32 class over any k); plain
      // FP32 may use the wide tile. Batches are not split (their products fill the GPU).
      const SimtPlan s = plan_simt(args.m, args.n, args.k, c.dev, c.tensor_cores,
                                        args.batch.batched() ? 0 : c.cap, args.batch.batched());
      p.bytes = s.bytes;
      p.detail = s;
      break;
    }
    case Family::kGemv: {
      // Batches are not split (grid.z walks their products).
      const GemvPlan g = plan_gemv(args, c.dev, args.batch.batched() ? 0 : c.cap, gemv_form == GemvForm::kWide);
      p.bytes = g.bytes;
      p.detail = g;
      break;
    }
    case Family::kPlanes:
      if (auto_scaled) {
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
      FusedWgmmaPlan f = plan_fused_wgmma(p.method, args, c.dev, c.cap);
      // AUTO: a stage of the tile whose operands are too wide takes FP32's products.
      f.wide_fp32 = auto_mode;
      p.bytes = f.bytes;
      p.detail = f;
      break;
    }
    case Family::kFusedMma: {
      // AUTO's scaled form runs on the 32-wide tile only (fused_mma.cu: launch_guarded).
      if (auto_mode && p.method == TcMethod::kHalfHalf) tile = 32;
      const FusedMmaPlan f = plan_fused_mma(args, c.dev, c.cap, tile);
      p.bytes = f.bytes;
      p.detail = f;
      break;
    }
  }
  price(c, p);
  // A short product, or a batch of them, may take another of simt's short-k tiles (the
  // named one, where a pin names one); a corrected fused_mma product either tile where the
  // 32-wide one can win (unless one is pinned). Each plan has its calibrated row.
  if (const auto* s = std::get_if<SimtPlan>(&p.detail)) {
    const std::optional<SimtPlan> other = simt_alternative(*s, args.m, args.n, args.k);
    if (!simt_tile) keep_cheaper(c, p, other);
    else if (s->tile != *simt_tile && other && other->tile == *simt_tile) p = replanned(c, p, *other);
    if (!simt_tile)
      if (const std::optional<Plan> q = piped_plan(c, p, true); q && cheaper(*q, p)) p = *q;
  }
  // Each tile also with k not split, where the reduction costs more than the split saves:
  // the four plans are priced alike, so that a split plan of one tile does not hide the
  // other tile's unsplit one (64 x 64 cluster plans had run at 0.63-0.78x SGEMM where the
  // 32 tile unsplit ran 1.3-1.6x faster: bench/results/README.md#pdl, calls 5-6).
  if (const auto* f = std::get_if<FusedMmaPlan>(&p.detail); f != nullptr && tile == 0) {
    const FusedMmaPlan first = *f;
    const std::optional<FusedMmaPlan> other =
        fused_mma_alternative(p.method, first, args, c.dev, c.cap);
    keep_cheaper(c, p, fused_mma_unsplit(first, args));
    if (other) {
      keep_cheaper(c, p, other);
      keep_cheaper(c, p, fused_mma_unsplit(*other, args));
    }
  }
  keep_full_grid_split(c, p);
  // Short lines along k: the lines kernel, or a warp a line where that is cheaper (a few short
  // lines: gemv.cu, plan_gemv), unless a pin names one.
  if (const auto* g = std::get_if<GemvPlan>(&p.detail);
      g != nullptr && g->line_lanes > 0 && gemv_form == GemvForm::kAny)
    keep_cheaper(c, p, std::optional<GemvPlan>(plan_gemv(args, c.dev, args.batch.batched() ? 0 : c.cap, true)));
  // AUTO's products off the planes are tf32tf32's; on fused_mma a block whose operands are
  // too wide for them takes FP32's (docs/numerics.md section 12). Or, on fused_mma,
  // halfhalf's on values scaled a row and a column a stage (section 13).
  if (auto* f = std::get_if<FusedMmaPlan>(&p.detail)) {
    f->wide_fp32 = auto_mode;
    f->scaled = auto_mode && p.method == TcMethod::kHalfHalf;
  }
  return p;
}

// fused_wgmma's narrow tiles (fused_wgmma_narrow), where the call has a side they take: a
// plan of its own beside the family's wide tiles, with its own cost row, as the pin
// "fused_wgmma:narrow" names it ("fused_wgmma" pins the wide tiles).
// `wide`: the family's plan for the call (plan_for).
std::optional<Plan> narrow_plan(const Context& c, const Plan& wide) {
  std::optional<FusedWgmmaPlan> narrow = fused_wgmma_narrow(wide.method, c.args, c.dev, c.cap);
  if (!narrow) return std::nullopt;
  narrow->wide_fp32 = std::get<FusedWgmmaPlan>(wide.detail).wide_fp32;  // AUTO's, as plan_for's
  Plan p = replanned(c, wide, *narrow);
  keep_full_grid_split(c, p);
  return p;
}

// Families whose products are FP32-class for this call. At small k the corrected modes'
// own error (two parts keep ~22 of FP32's 24 bits, lo·lo dropped) is no longer outweighed
// by SGEMM's accumulation error, so there FP32 routes run them (bench/results/README.md#cost-model).
bool allowed(const Context& c, Family family) {
  if (!usable(c, family)) return false;
  const bool fp32_family = !tensor_core_family(family);
  if (!c.tensor_cores) return fp32_family;
  if (!c.corrected) return !fp32_family;  // the one-pass modes and Markidis: Tensor Cores by definition
  return fp32_family || c.args.k > kFp32RouteMaxK;
}

// Every plan the call may take, the cheapest by the cost model (cost_model.hpp) within
// the cap. AUTO's scaling lives on the plane route; every other route runs tf32tf32's
// products for it, and so may the plane route, where the scaling's own passes cost more
// than halfhalf's products save.
Plan cheapest(const Context& c) {
  Plan best;
  bool found = false;
  auto consider = [&](const Plan& p) {
    if (p.bytes > c.cap) return;
    // The accuracy bound (splitk_plan.hpp: kMaxChainK). The families split k to keep it;
    // a plan still over it here is one whose partials the cap cut.
    if (c.corrected && tensor_core_family(p.family) && p.chain_k > kMaxChainK && p.ctas < c.dev.sm_count) return;
    // And fused_wgmma's on a thin C (splitk_plan.hpp: kThinMaxChainSteps), on every grid of one
    // product (a batch's k is not split).
    if (c.corrected && p.family == Family::kFusedWgmma && !c.args.batch.batched() &&
        thin_output(c.args.m, c.args.n) && p.chain_k > thin_max_chain_k(uses_half(p.method)))
      return;
    if (!found || cheaper(p, best)) best = p, found = true;
  };
  for (Family f : kFamilies) {
    if (!allowed(c, f)) continue;
    const Plan p = plan_for(c, f);
    consider(p);
    if (f == Family::kPlanes && c.ctx.mode == ECGEMM_MODE_AUTO) consider(plan_for(c, f, TcMethod::kTf32Tf32));
    if (f == Family::kFusedWgmma)
      if (const std::optional<Plan> narrow = narrow_plan(c, p)) consider(*narrow);
  }
  // fused_mma's FP32 form: SGEMM's arithmetic at the family's latency, one more FP32 route
  // where k is too short for the corrected modes' products (one stage: kFp32FormMaxK).
  static_assert(kFp32RouteMaxK <= kFp32FormMaxK, "the FP32 form serves every k the FP32 routes take");
  if (c.corrected && c.args.k <= kFp32RouteMaxK && c.mma_ok) consider(fp32_form_plan(c));
  return found ? best : plan_for(c, Family::kSimt, std::nullopt);  // SIMT's partials follow the cap
}

// The plan a pin names (pin_fits: the call can take it); none where the call has no such simt tile.
std::optional<Plan> pinned_plan(const Context& c, const FamilyPin& pin) {
  if (pin.fp32) return fp32_form_plan(c);
  if (pin.piped)
    return pin.simt_tile ? piped_tile_plan(c, plan_for(c, Family::kSimt), *pin.simt_tile)
                         : piped_plan(c, plan_for(c, Family::kSimt), false);
  Plan p = plan_for(c, pin.family, pinned_products(c, pin), pin.tile, pin.gemv_form, pin.simt_tile);
  if (pin.simt_tile)  // plan_for took the named short-k tile where the call may take it
    return std::get<SimtPlan>(p.detail).tile == *pin.simt_tile ? std::optional<Plan>(p) : std::nullopt;
  if (const auto* f = std::get_if<FusedMmaPlan>(&p.detail); f != nullptr && pin.unsplit)
    if (const std::optional<FusedMmaPlan> whole = fused_mma_unsplit(*f, c.args))
      return replanned(c, p, *whole);
  if (pin.narrow)
    if (const std::optional<Plan> narrow = narrow_plan(c, p)) p = *narrow;
  // "planes/unsplit", "fused_wgmma[:narrow]/unsplit": k in one split (the A/B of full-grid splits).
  if (pin.unsplit && (p.family == Family::kPlanes || p.family == Family::kFusedWgmma))
    if (const std::optional<Plan> whole = resplit(c, p, 1)) return *whole;
  if (const auto* w = std::get_if<PlanesPlan>(&p.detail); w != nullptr && pin.walk) {
    PlanesPlan v = *w;
    v.walk = *pin.walk && planes_can_walk(p.method, v, c.dev);
    return replanned(c, p, v);
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
    case SimtTile::kSlimM32: return "128x32";
    case SimtTile::kSlimN32: return "32x128";
    case SimtTile::kSlimM16: return "256x16";
    case SimtTile::kSlimN16: return "16x256";
    case SimtTile::kStream: return "stream";
    case SimtTile::kDot: return "dot";
    case SimtTile::kStrips: return "strips";
    case SimtTile::kThinM: return "thin_m";
    case SimtTile::kThinN: return "thin_n";
    case SimtTile::kPiped32x32: return "piped32x32";
    case SimtTile::kPiped32x64: return "piped32x64";
    case SimtTile::kPiped64x32: return "piped64x32";
    case SimtTile::kPiped64x64: return "piped64x64";
    case SimtTile::kPiped64x128: return "piped64x128";
    case SimtTile::kPiped128x64: return "piped128x64";
  }
  return "?";
}

struct Describer {
  char* out;
  size_t len;
  int operator()(const SimtPlan& s) const {
    return std::snprintf(out, len, "tile=%s splits=%d", simt_tile_name(s.tile), s.splits);
  }
  int operator()(const GemvPlan& g) const {
    if (g.line_lanes > 0)
      return std::snprintf(out, len, "layout=along_k warps=%d lanes=%d blocks=%d splits=%d",
                           g.line_warps, g.line_lanes, g.line_blocks, g.splits);
    if (g.layout == GemvLayout::kAlongK)
      return std::snprintf(out, len, "layout=along_k warps=%d splits=%d%s", g.line_warps, g.splits,
                           g.thin == GemvThin::kStaged   ? " staged"
                           : g.thin == GemvThin::kLoaded ? " loaded"
                                                         : "");
    return std::snprintf(out, len, "layout=along_len lanes=%d splits=%d", g.row_lanes, g.splits);
  }
  int operator()(const PlanesPlan& w) const {
    return std::snprintf(out, len, "tile=%dx%d splits=%d%s", kTileM, kTileN, w.splits,
                         w.walk ? " walk" : "");
  }
  int operator()(const PlanesAutoPlan& a) const {
    return std::snprintf(out, len, "tile=%dx%d splits=%d/%d", kTileM, kTileN, a.half.splits,
                         a.tf32.splits);
  }
  int operator()(const FusedWgmmaPlan& f) const {
    return std::snprintf(out, len, "tile=%dx%d%s%s splits=%d%s", 64 * f.consumers, f.cols,
                         f.swapped ? " swapped" : "", f.general ? " general" : "", f.splits,
                         f.wide_fp32 ? " wide=fp32" : "");
  }
  int operator()(const FusedMmaPlan& f) const {
    return std::snprintf(out, len, "tile=%dx%d splits=%d%s%s%s%s", f.tile, f.tile, f.splits,
                         f.cluster_reduce ? " cluster" : "", f.wide_fp32 ? " wide=fp32" : "",
                         f.scaled ? " scaled" : "", f.fp64_sums ? " sums=fp64" : "");
  }
};

}  // namespace

CostRow cost_row(const Plan& plan, bool batched) {
  // Operand type picks the row of the uncalibrated one-pass modes (cost_model.hpp).
  const bool half = uses_half(plan.method);
  switch (plan.family) {
    case Family::kSimt: {
      const SimtTile tile = std::get<SimtPlan>(plan.detail).tile;
      if (is_piped(tile)) return piped_row(tile, batched);
      switch (tile) {
        case SimtTile::kSlimM32: case SimtTile::kSlimN32:
        case SimtTile::kSlimM16: case SimtTile::kSlimN16: return CostRow::kSimtSlim;
        case SimtTile::kThinM: case SimtTile::kThinN: return CostRow::kSimtThin;
        case SimtTile::kStream: return batched ? CostRow::kSimtStreamBatched : CostRow::kSimtStream;
        case SimtTile::kDot: return CostRow::kSimtDot;
        case SimtTile::kStrips: return batched ? CostRow::kSimtStripsBatched : CostRow::kSimtStrips;
        case SimtTile::kWide: case SimtTile::kTallM:
        case SimtTile::kTallN: case SimtTile::kSmall: return CostRow::kSimt;
        default: break;
      }
      return CostRow::kSimt;
    }
    case Family::kGemv: {
      const GemvPlan& g = std::get<GemvPlan>(plan.detail);
      // Warps sharing a line keep the along-k row: it chose right for them (a row of their own,
      // fitted on 37 points, moved them to slower families: bench/results/gemv-in-cta-2026-11-25).
      if (g.layout == GemvLayout::kAlongK)
        return g.line_lanes > 0                ? CostRow::kGemvLines
               : g.thin == GemvThin::kStaged ? CostRow::kGemvAlongKStaged
               : g.thin == GemvThin::kLoaded ? CostRow::kGemvAlongKLoaded
                                             : CostRow::kGemvAlongK;
      return g.row_lanes < 32 ? CostRow::kGemvAlongLenInCta : CostRow::kGemvAlongLen;
    }
    case Family::kPlanes:
      return plan.auto_scaled ? CostRow::kPlanesAuto
             : half           ? CostRow::kPlanesHalfHalf
                              : CostRow::kPlanesTf32Tf32;
    case Family::kFusedWgmma: {
      const FusedWgmmaPlan& f = std::get<FusedWgmmaPlan>(plan.detail);
      if (f.cols == 64 && f.general)
        return half ? CostRow::kFusedWgmmaNarrow64GeneralHalfHalf
                    : CostRow::kFusedWgmmaNarrow64GeneralTf32Tf32;
      if (f.cols == 64)
        return half ? CostRow::kFusedWgmmaNarrow64HalfHalf : CostRow::kFusedWgmmaNarrow64Tf32Tf32;
      if (f.cols < 128 && f.general)
        return half ? CostRow::kFusedWgmmaNarrowGeneralHalfHalf
                    : CostRow::kFusedWgmmaNarrowGeneralTf32Tf32;
      if (f.cols < 128)
        return half ? CostRow::kFusedWgmmaNarrowHalfHalf : CostRow::kFusedWgmmaNarrowTf32Tf32;
      if (f.general) return half ? CostRow::kFusedWgmmaGeneralHalfHalf : CostRow::kFusedWgmmaGeneralTf32Tf32;
      return half ? CostRow::kFusedWgmmaHalfHalf : CostRow::kFusedWgmmaTf32Tf32;
    }
    case Family::kFusedMma:
      if (std::get<FusedMmaPlan>(plan.detail).fp32) return CostRow::kFusedMma32Fp32;
      // A batch's products by rows of their own where a refit for 2-D products priced them wrong
      // (bench/results/README.md#batch-rows); the 64-wide tf32tf32 row was fitted on both.
      if (std::get<FusedMmaPlan>(plan.detail).tile == 32) {
        if (half) return batched ? CostRow::kFusedMma32BatchedHalfHalf : CostRow::kFusedMma32HalfHalf;
        return batched ? CostRow::kFusedMma32BatchedTf32Tf32 : CostRow::kFusedMma32Tf32Tf32;
      }
      if (half) return batched ? CostRow::kFusedMmaBatchedHalfHalf : CostRow::kFusedMmaHalfHalf;
      return CostRow::kFusedMmaTf32Tf32;
  }
  return CostRow::kSimt;
}

CostFeatures plan_features(const Plan& plan, const GemmArgs& args, const DeviceInfo& dev) {
  return cost_features(std::visit(GridOf{plan, args, dev}, plan.detail), args);
}

bool family_by_name(const char* name, FamilyPin* pin) {
  const std::string_view text(name);
  const size_t slash = text.find('/');
  const std::string_view head = text.substr(0, slash);
  pin->auto_products.reset();
  pin->fp32 = false;
  pin->unsplit = false;
  pin->narrow = false;
  pin->gemv_form = GemvForm::kAny;
  pin->simt_tile.reset();
  pin->piped = false;
  pin->walk.reset();
  if (slash != std::string_view::npos) {
    const std::string_view products = text.substr(slash + 1);
    if (products == "tf32tf32") pin->auto_products = TcMethod::kTf32Tf32;
    else if (products == "halfhalf") pin->auto_products = TcMethod::kHalfHalf;
    else if (products == "fp32") pin->fp32 = true;
    else if (products == "unsplit") pin->unsplit = true;
    else return false;
  }
  const size_t colon = head.find(':');
  const std::string_view family = head.substr(0, colon);
  for (Family f : kFamilies) {
    if (family != family_name(f)) continue;
    pin->family = f;
    pin->tile = 0;
    const bool plain = colon == std::string_view::npos;
    const std::string_view tile = plain ? std::string_view() : head.substr(colon + 1);
    // gemv's forms: "gemv:wide", "gemv:lines"; fused_wgmma's narrow tiles: "fused_wgmma:narrow";
    // simt's short-k tiles: "simt:stream", "simt:strips", "simt:dot"; its piped tiles, the cheapest
    // ("simt:piped") or one ("simt:piped32x64"); only fused_mma has tiles
    // ("fused_mma:32", "fused_mma:64") and products to choose.
    const bool form = pin->auto_products || pin->fp32 || pin->unsplit;
    if (f == Family::kGemv && !form && (tile == "wide" || tile == "lines")) {
      pin->gemv_form = tile == "wide" ? GemvForm::kWide : GemvForm::kLines;
      return true;
    }
    if (f == Family::kSimt && !form && tile.substr(0, 5) == "piped") {  // "simt:piped", "simt:piped32x64"
      pin->piped = true;
      for (SimtTile t : kPipedTiles)
        if (tile == simt_tile_name(t)) pin->simt_tile = t;
      return tile == "piped" || pin->simt_tile.has_value();
    }
    if (f == Family::kSimt && !form && (tile == "stream" || tile == "strips" || tile == "dot")) {
      pin->simt_tile = tile == "stream" ? SimtTile::kStream : tile == "strips" ? SimtTile::kStrips : SimtTile::kDot;
      return true;
    }
    if (f == Family::kPlanes && !form && (tile == "walk" || tile == "plain")) {
      pin->walk = tile == "walk";
      return true;
    }
    const bool unsplit_only = pin->unsplit && !pin->auto_products && !pin->fp32;
    if (f == Family::kFusedWgmma && (!form || unsplit_only) && tile == "narrow") return pin->narrow = true;
    if ((f == Family::kPlanes || f == Family::kFusedWgmma) && unsplit_only) return plain;
    if (f != Family::kFusedMma) return plain && !form;
    if (plain) return true;
    pin->tile = tile == "32" ? 32 : tile == "64" ? 64 : 0;
    return pin->tile != 0;
  }
  return false;
}

bool plan_family(const ecgemmContext& ctx, const GemmArgs& args, const FamilyPin& pin, Plan* plan) {
  const Context c = context(ctx, args);
  if (!usable(c, pin.family) || !pin_fits(c, pin)) return false;
  const std::optional<Plan> p = pinned_plan(c, pin);
  if (!p) return false;
  *plan = *p;
  return plan->bytes <= c.cap;
}

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

Plan make_plan(const ecgemmContext& ctx, const GemmArgs& args) {
  const Context c = context(ctx, args);
  FamilyPin pinned;
  if (pinned_family(&pinned) && usable(c, pinned.family) && pin_fits(c, pinned)) {
    const std::optional<Plan> p = pinned_plan(c, pinned);
    if (p && p->bytes <= c.cap) return *p;
  }
  return cheapest(c);
}

cudaError_t launch_plan(const Plan& plan, const GemmArgs& args, void* scratch,
                        const DeviceInfo& dev, cudaStream_t stream) {
  return std::visit(Launcher{plan, args, scratch, dev, stream}, plan.detail);
}

std::string describe(const Plan& plan) {
  const auto* fused = std::get_if<FusedMmaPlan>(&plan.detail);
  const bool tc = tensor_core_family(plan.family) && !(fused != nullptr && fused->fp32);
  char detail[96];
  std::visit(Describer{detail, sizeof detail}, plan.detail);
  char line[256];
  std::snprintf(line, sizeof line, "family=%s method=%s %s workspace=%zu est=%.1fus",
                family_name(plan.family),
                plan.auto_scaled ? "auto" : tc ? method_name(plan.method) : "fp32", detail,
                plan.bytes, plan.estimate_us);
  return line;
}

}  // namespace ecgemm::detail
