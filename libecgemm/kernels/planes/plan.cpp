// Workspace planning for the planes family (host code).
#include <algorithm>

#include "kernels/common/splitk_plan.hpp"
#include "kernels/planes.hpp"
#include "kernels/planes/parts.hpp"

namespace ecgemm::detail {
namespace {

// Where the wgmma mainloop walks (PlanesPlan::walk): H200, the plane route pinned, walk over one
// CTA a tile on the same plans, 0.86-0.98x the time (median 0.94) on 27 grids of 5.9-124 waves at
// <= 16 slices a CTA (k 33-1024); 0.95-1.06x on grids of 2-4.4 waves (split-K or not), 1.00-1.01x at
// 32-256 slices a CTA (bench/results/README.md#walk, calls 1 and 4).
constexpr int64_t kWalkMinWaves = 5;
constexpr int64_t kWalkMaxSlices = 16;

}  // namespace

PlanesPlan plan_planes(TcMethod method, int64_t m, int64_t n, int64_t k,
                              const DeviceInfo& dev, size_t max_bytes, int splits) {
  constexpr size_t kAlign = 256;
  PlanesPlan w;
  const int64_t k_align = kTileKBytes / static_cast<int64_t>(element_bytes(method));
  w.m_pad = round_up(m, kTileM);
  w.n_pad = round_up(n, kTileN);
  w.k_pad = round_up(k, kPadKBytes / static_cast<int64_t>(element_bytes(method)));
  // Split K when the output tiles alone cannot fill the GPU (one CTA an SM, whole
  // waves: wave_splits); keep >= 8 k-tiles each. There the corrected methods also split
  // to keep the accuracy bound (kMaxChainK), in whole 128-byte slices (both mainloops
  // give a split ceil(slices / splits) of them).
  const int64_t tiles = planes_tiles(w);
  const int64_t k_tiles = w.k_pad / k_align;
  const int64_t slice = kPadKBytes / static_cast<int64_t>(element_bytes(method));
  const int64_t chain =
      scheme_of(method) == Scheme::kCorrected ? chain_min_splits(w.k_pad / slice, slice) : 1;
  w.splits = static_cast<int>(wave_splits(tiles, dev.sm_count, k_tiles / 8, chain));
  // A count the planner asks for (planes_full_grid_splits), within the same >= 8 k-tiles a split.
  if (splits > 0) w.splits = static_cast<int>(std::clamp<int64_t>(splits, 1, std::max<int64_t>(1, k_tiles / 8)));
  const size_t plane_a = static_cast<size_t>(w.m_pad * w.k_pad) * element_bytes(method);
  const size_t plane_b = static_cast<size_t>(w.n_pad * w.k_pad) * element_bytes(method);
  size_t off = 0;
  auto take = [&](size_t bytes) {
    const size_t at = off;
    off += (bytes + kAlign - 1) / kAlign * kAlign;
    return at;
  };
  w.a_hi = take(plane_a);
  w.b_hi = take(plane_b);
  if (uses_lo(method)) {
    w.a_lo = take(plane_a);
    w.b_lo = take(plane_b);
  }
  // Partials only as far as the cap leaves room after the planes (the planner's cap:
  // a user workspace or the handle's limit); fewer splits keep the same products.
  const size_t partial_plane = static_cast<size_t>(w.m_pad * w.n_pad) * 4;
  const size_t room = max_bytes > off ? max_bytes - off : 0;
  w.splits = static_cast<int>(std::min<size_t>(w.splits, std::max<size_t>(1, room / partial_plane)));
  if (w.splits > 1) w.partials = take(w.splits * partial_plane);
  w.bytes = off;
  // Persistent CTAs on grids of several waves whose CTAs run few K slices, where a tile's
  // fixed cost (CTA launch, ring setup, pipeline fill, its stores not overlapping the next
  // tile's loads) weighs most; past that they ran as the plain kernel (the figures above).
  const int64_t slices_per_split = (w.k_pad / slice + w.splits - 1) / w.splits;
  w.walk = tiles * w.splits > kWalkMinWaves * dev.sm_count && slices_per_split <= kWalkMaxSlices &&
           planes_can_walk(method, w, dev);
  return w;
}

bool planes_can_walk(TcMethod method, const PlanesPlan& plan, const DeviceInfo& dev) {
  return planes_wgmma_usable(method, plan, dev);
}

GridShape planes_grid(TcMethod method, const PlanesPlan& plan, const DeviceInfo& dev) {
  GridShape g;
  g.ctas = planes_tiles(plan) * plan.splits;
  g.resident = dev.sm_count;  // a persistent grid, one CTA an SM
  g.tile_outputs = int64_t{kTileM} * kTileN;
  g.k_per_cta = (plan.k_pad + plan.splits - 1) / plan.splits;
  g.kernels = plan.splits > 1 ? 3 : 2;
  const double parts = uses_lo(method) ? 2.0 : 1.0;
  const double planes = static_cast<double>(plan.m_pad + plan.n_pad) * static_cast<double>(plan.k_pad) *
                        static_cast<double>(element_bytes(method)) * parts;
  g.extra_bytes = 2.0 * planes + partials_traffic(plan.splits, plan.m_pad, plan.n_pad);
  return g;
}

}  // namespace ecgemm::detail
