// The fused_wgmma family's planning (tiles, split-K, the grid the cost model reads) and its
// switch over methods; the kernels and what they do: fused_wgmma_kernel.cuh.
#include <algorithm>

#include "kernels/common/splitk_plan.hpp"
#include "kernels/sm90/fused_wgmma_kernel.cuh"

namespace ecgemm::detail {
namespace {

// A side of C at most this wide may take the narrow tiles; their widths: the narrowest
// wgmma N of these that holds the side.
constexpr int64_t kMaxNarrowSide = 64;
int narrow_cols(int64_t side) { return side <= 16 ? 16 : side <= 32 ? 32 : 64; }

// `plan` (tile and swap set) with its split-K: only for single products that leave SMs
// idle, with at least 8 stages per split (or as many as the accuracy bound needs), as many
// as finish soonest in whole waves (wave_splits), and as many partial planes as the cap holds.
// `want` > 0: that many splits instead (fused_wgmma_resplit), within the same bounds.
FusedWgmmaPlan with_splits(FusedWgmmaPlan plan, TcMethod method, const GemmArgs& args,
                           const DeviceInfo& dev, size_t max_bytes, int64_t want = 0) {
  constexpr int64_t kMinStagesPerSplit = 8;
  const int64_t tiles = fused_wgmma_tiles(args, plan);
  const int64_t units_per_stage = uses_half(method) ? 2 : 1;
  const int64_t stages = (args.k + kUnitK * units_per_stage - 1) / (kUnitK * units_per_stage);
  int64_t splits = 1;
  if (!args.batch.batched()) {  // one CTA an SM (shared memory)
    // The accuracy bound where SMs idle (splitk_plan.hpp: kMaxChainK), in whole stages; on a
    // thin C, thin_max_chain_k on every grid.
    const bool corrected = scheme_of(method) == Scheme::kCorrected;
    const bool thin = corrected && thin_output(args.m, args.n);
    const int64_t chain =
        corrected ? chain_min_splits(stages, kUnitK * units_per_stage,
                                     thin ? thin_max_chain_k(uses_half(method)) : kMaxChainK)
                  : 1;
    const int64_t most = std::min(stages / kMinStagesPerSplit, int64_t(65535));
    splits = want > 0 ? std::clamp<int64_t>(want, 1, std::max<int64_t>(1, most))
                      : wave_splits(tiles, dev.sm_count, most, chain, stages);
    if (thin) splits = std::max(splits, chain);
  }
  const size_t plane_bytes = static_cast<size_t>(args.m * args.n) * 4;
  splits = std::min<int64_t>(splits, std::max<size_t>(1, max_bytes / plane_bytes));
  const int64_t stages_per_split = (stages + splits - 1) / splits;
  plan.splits = static_cast<int>((stages + stages_per_split - 1) / stages_per_split);
  plan.units_per_split = stages_per_split * units_per_stage;
  plan.bytes = plan.splits > 1 ? static_cast<size_t>(plan.splits) * args.m * args.n * 4 : 0;
  return plan;
}

}  // namespace

int64_t fused_wgmma_tiles(const GemmArgs& args, const FusedWgmmaPlan& plan) {
  const int64_t rows = plan.swapped ? args.n : args.m, cols = plan.swapped ? args.m : args.n;
  const int64_t tile_m = 64 * plan.consumers;
  return (rows + tile_m - 1) / tile_m * ((cols + plan.cols - 1) / plan.cols);
}

FusedWgmmaPlan fused_wgmma_resplit(const FusedWgmmaPlan& plan, TcMethod method, const GemmArgs& args,
                                   const DeviceInfo& dev, size_t max_bytes, int splits) {
  return with_splits(plan, method, args, dev, max_bytes, splits);
}

bool fused_wgmma_usable(const GemmArgs& args, const DeviceInfo& dev) {
  // Copy-engine coordinates are 32-bit; the grid's x extent holds every tile.
  constexpr int64_t kMaxCoord = INT32_MAX - 256;
  return args.k <= kMaxCoord && args.m <= kMaxCoord && args.n <= kMaxCoord &&
         args.batch.count <= INT32_MAX &&
         wgmma_usable(dev, kSmemBudget + kSmemAlign);  // every fused_wgmma kernel's bound
}

// Tiles: 128 x 128 (two consumers) unless one side is at most 64, then 64 x 128 with
// that side on the tile's rows (the call is swapped when it is n).
FusedWgmmaPlan plan_fused_wgmma(TcMethod method, const GemmArgs& args, const DeviceInfo& dev,
                                size_t max_bytes) {
  FusedWgmmaPlan plan;
  plan.consumers = std::min(args.m, args.n) <= 64 ? 1 : 2;
  plan.swapped = plan.consumers == 1 && args.n < args.m;
  plan.general = general_kernel(args);
  return with_splits(plan, method, args, dev, max_bytes);
}

std::optional<FusedWgmmaPlan> fused_wgmma_narrow(TcMethod method, const GemmArgs& args,
                                                 const DeviceInfo& dev, size_t max_bytes) {
  const int64_t side = std::min(args.m, args.n);
  if (side > kMaxNarrowSide || scheme_of(method) != Scheme::kCorrected) return std::nullopt;
  FusedWgmmaPlan plan;
  plan.consumers = 2;
  plan.cols = narrow_cols(side);
  plan.swapped = args.m < args.n;  // the long side on the tile's rows
  plan.general = general_kernel(args);
  return with_splits(plan, method, args, dev, max_bytes);
}

GridShape fused_wgmma_grid(const GemmArgs& args, const FusedWgmmaPlan& plan, const DeviceInfo& dev) {
  const int64_t tile_m = 64 * plan.consumers;
  GridShape g;
  g.ctas = fused_wgmma_tiles(args, plan) * plan.splits * args.batch.count;
  g.resident = dev.sm_count;  // one CTA an SM (shared memory)
  g.tile_outputs = tile_m * plan.cols;
  g.k_per_cta = plan.units_per_split * kUnitK;
  g.kernels = plan.splits > 1 ? 2 : 1;
  g.extra_bytes = partials_traffic(plan.splits, args.m, args.n);
  return g;
}

cudaError_t launch_fused_wgmma(TcMethod method, const GemmArgs& args, const FusedWgmmaPlan& plan,
                               void* workspace, const DeviceInfo& dev, cudaStream_t stream) {
  if (plan.wide_fp32) {
    if (method != TcMethod::kTf32Tf32) return cudaErrorInvalidValue;  // AUTO's products
    return launch_fused_wgmma_auto(args, plan, workspace, dev, stream);
  }
  switch (method) {
    case TcMethod::kTf32Tf32:
      return launch_fused_wgmma_tf32tf32(args, plan, workspace, dev, stream);
    case TcMethod::kHalfHalf:
      return launch_fused_wgmma_halfhalf(args, plan, workspace, dev, stream);
    default: return launch_fused_wgmma_one_pass(method, args, plan, workspace, dev, stream);
  }
}

}  // namespace ecgemm::detail
