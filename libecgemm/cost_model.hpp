// The planner's cost model (docs/architecture.md: the planner). A plan's GPU time is
// estimated from its grid and its DRAM traffic:
//
//   t = c0 + c1 * more_launches + c2 * waves + c3 * serial + c4 * megabytes + c5 * chain
//         + c6 * cluster + c7 * packed   (us)
//
// more_launches: kernels after the first (a split pass, a reduction), so that c0 prices one
// launch and c1 the others apart (fused_mma's splits through partials took 13-18% more than
// one coefficient for both allowed: bench/results/README.md#cluster);
// waves = ceil(ctas / resident); serial = waves * k_per_cta * tile_outputs / 2^20, the
// multiply-adds one CTA slot runs in turn (tile waste included: a 64-wide tile on an
// 8-wide C costs its full 64); chain = waves * walk_k / 1024, the k steps one slot
// walks in turn (k_per_cta, or less where the CTA's groups split it: what a
// latency-bound kernel waits on, whatever its tile); megabytes: one read of A and B, one
// write (and, with beta != 0, one read) of C, plus the family's own traffic (planes,
// partials, statistics); cluster = waves where the k splits add their sums in a thread-block
// cluster (its two cluster barriers and the remote reads: what a split of a short k costs
// beyond the products);
// packed = serial * ctas / (waves * resident), the serial work weighted by how full the slots
// are: CTAs that share an SM run each slower, a sub-wave grid's lone ones do not (fused_mma's
// rows without it priced its large products 25-35% low: bench/results/README.md#cluster).
// The coefficients c0..c7 of each (family, products) pair are fitted to GPU times of every
// family pinned on a random sample (tools/fit_cost_model.py; cost_coefficients.inc says
// which run, and which later run rescaled a family's rows: bench/results/README.md#calibrated),
// so the model is one formula whose constants carry their measurement. The estimate is that
// formula or, where higher, the plan's DRAM time (dram_floor_us, below).
#pragma once

#include "kernels/common/grid_shape.hpp"
#include "kernels/common/method.hpp"
#include "kernels/gemm_args.hpp"

namespace ecgemm::detail {

// One coefficient row per (family, the products it computes). The one-pass modes
// (tf32, fp16, Markidis) are the paper's comparison points and are not calibrated: they
// take the row of the corrected method with the same operand type.
enum class CostRow : int {
  kSimt,          // simt's square and tall tiles (64..128 a side)
  kSimtSlim,      // simt's slim tiles: one side 16 or 32, shared-memory bound
  kSimtStream,    // simt's stream tile (k <= 32): bound by C's bytes
  kSimtDot,       // simt's dot tile: a warp per product, latency bound
  kSimtStrips,    // simt's strip tile: a thread per strip of a small product's column
  kGemvAlongK,    // the two GEMV kernels differ in warps per output (gemv.hpp)
  kGemvAlongLen,
  kPlanesTf32Tf32,
  kPlanesHalfHalf,
  kPlanesAuto,
  kFusedWgmmaTf32Tf32,
  kFusedWgmmaHalfHalf,
  kFusedMmaTf32Tf32,  // fused_mma's 64 x 64 tile
  kFusedMmaHalfHalf,
  kFusedMma32Tf32Tf32,  // its 32 x 32 tile
  kFusedMma32HalfHalf,
  kFusedMma32Fp32,  // its 32 x 32 tile with every stage in FP32 (FusedMmaPlan::fp32)
  kGemvAlongLenInCta,  // row groups narrower than 32 lanes (GemvPlan::row_lanes): a floor of their own
  kGemvLines,          // along k, short lines numbered across a batch (GemvPlan::line_lanes)
  kSimtThin,           // simt's thin tiles: a side <= 8, the long operand through a shared-memory ring
  kFusedWgmmaNarrowTf32Tf32,  // fused_wgmma's narrow tiles (N = 16 .. 64 against 128 long rows)
  kFusedWgmmaNarrowHalfHalf,
  kFusedWgmmaGeneralTf32Tf32,  // fused_wgmma's tiles where an operand is off 16 bytes or copied
  kFusedWgmmaGeneralHalfHalf,
  kFusedWgmmaNarrowGeneralTf32Tf32,  // the narrow tiles there
  kFusedWgmmaNarrowGeneralHalfHalf,
  // The narrow tiles' N = 64, rows of their own: at 16 or 32 a CTA's k steps wait on latency, at 64
  // on its products, and one row's sum of the two priced the 64-wide tile's long k up to 1.4x its
  // time (bench/results/README.md#narrow64).
  kFusedWgmmaNarrow64Tf32Tf32,
  kFusedWgmmaNarrow64HalfHalf,
  kFusedWgmmaNarrow64GeneralTf32Tf32,
  kFusedWgmmaNarrow64GeneralHalfHalf,
  // fused_mma's 32-wide tf32tf32 tile on a batch: a row apart from the 2-D products'. One row
  // for both, refitted, priced batches of small products high and sent five to simt at 0.80x
  // (bench/results/README.md#batch-rows).
  kFusedMma32BatchedTf32Tf32,
  // GEMV along k with a thin side of 2-4 staged (GemvThin::kStaged): its barriers a span make long k cost more
  // than the width-1 kernel's row says (bench/results/README.md#gemv-staging).
  kGemvAlongKStaged,
  // fused_mma's halfhalf tiles on a batch, apart from the 2-D products' rows as kFusedMma32BatchedTf32Tf32 is.
  kFusedMmaBatchedHalfHalf,
  kFusedMma32BatchedHalfHalf,
  kGemvAlongKLoaded,  // GEMV along k, a thin side of 2-4 loaded without staging (GemvThin::kLoaded)
  // simt's stream and strip tiles on a batch, apart from one product's rows: on batches the stream tile
  // ran 1.16-1.19x and the strip tile 0.74-0.79x what those rows price, steady over three seeds,
  // while the rows choose right between them on single products (bench/results/README.md#batch-strips).
  kSimtStreamBatched,
  kSimtStripsBatched,
  // simt's piped tiles (small CTAs fed by a cp.async ring: simt/piped.hpp), a row per shape: a CTA slot's
  // time per MAC goes with the CTAs an SM holds (12, 8, 4, 2) over a thread's share of FFMAs (4 x 4 to 8 x 8
  // outputs), which one row's serial coefficient cannot follow (fitted apart: 36, 22, 17 and 9 us per 2^20).
  // A batch has rows of its own: on single products of a small grid a lone CTA's walk along k ran up to 2x
  // what the rows fitted to both price (bench/results/README.md#piped). A row of zeros is not calibrated:
  // the planner then offers that tile to a pin only (planner.cpp: piped_offered).
  kSimtPiped32x32,
  kSimtPiped32x64,   // and 64 x 32
  kSimtPiped64x64,
  kSimtPiped64x128,  // and 128 x 64
  kSimtPiped32x32Batched,
  kSimtPiped32x64Batched,
  kSimtPiped64x64Batched,
  kSimtPiped64x128Batched,
  kCount
};
const char* cost_row_name(CostRow row);

constexpr int kCostFeatures = 8;
struct CostFeatures {
  double x[kCostFeatures];  // 1, more_launches, waves, serial, megabytes, chain, cluster, packed
};

CostFeatures cost_features(const GridShape& grid, const GemmArgs& args);
double estimate_us(CostRow row, const CostFeatures& f);
// Whether a row has been fitted (a row of zeros has not).
bool calibrated(CostRow row);

// The floor under every estimate: no plan moves its megabytes faster than kDramEfficiency of
// the device's peak DRAM bandwidth (0 where that is unknown). The fitted per-MB
// coefficients (0.04-0.25 us/MB, 4-25 TB/s) carry the L2 hits of the calibration's products;
// on a plane route whose planes outgrow L2 (16294 x 5899 x 104: 1.95 GB) the fit priced
// 516 us where the traffic alone takes ~680 at that rate and the route ran 730, and a fused
// family that reads its operands once ran 489 (both: bench/results/README.md#dram-floor).
// 0.77: within the rates whole plane routes ran at where the floor priced them on an H100 (25
// plans of the random sample, 0.69-0.85 of its 3.35 TB/s, median 0.755), and measured against
// 0.85, the split pass's own rate on an H200, which priced them 10-15% under their time there:
// AUTO took its scaled planes over fused_wgmma at 0.75-0.79x tf32tf32's speed
// (bench/results/README.md#auto-price).
constexpr double kDramEfficiency = 0.77;
double dram_floor_us(const CostFeatures& f, const DeviceInfo& dev);

// AUTO on fused_wgmma runs tf32tf32's plans with a test of every run in the split (its
// transform is the kernel's bottleneck): priced as tf32tf32's rows times this, what the test
// cost on the same plans (H100, this build: 1.06-1.10x on TMA operands, median 1.09; 1.07-1.18x
// with rows off 16 bytes: bench/results/README.md#guard-inline).
constexpr double kFusedWgmmaGuardCost = 1.09;

// AUTO on fused_mma's Tensor Core tiles runs tf32tf32's plans with the same test (fused_mma.cu: the guard), one
// instruction a value beside the split: priced as tf32tf32's rows times this, AUTO over tf32tf32 on the same plans of
// the random sample (H100, 350 products: 2-D 1.040, batches 1.065, geometric mean 1.043, median 1.040:
// bench/results/README.md#auto-price). Unpriced, AUTO left fused_wgmma (priced 1.09) for fused_mma plans that ran
// 1.15-1.35x tf32tf32's time there.
constexpr double kFusedMmaGuardCost = 1.04;

// The plane route's walking mainloop (PlanesPlan::walk) against the rows, which were fitted on one
// CTA a tile: priced as those rows times this, the median of walk over plain on the same plans
// (H200, 27 grids of more than five waves at <= 16 K slices a CTA: 0.86-0.98x, median 0.94;
// bench/results/README.md#walk).
constexpr double kPlanesWalkCost = 0.94;

}  // namespace ecgemm::detail
