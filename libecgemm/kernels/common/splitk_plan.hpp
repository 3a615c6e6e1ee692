// Planning arithmetic the families share (host code): how many K splits, and where K
// is cut.
#pragma once

#include <algorithm>
#include <cstdint>

namespace ecgemm::detail {

constexpr int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }

// K cut into `want` chunks of whole `align`s: the chunk, and how many it makes (the last
// may be shorter; none is empty).
struct KSplit {
  int64_t chunk;
  int splits;
};
inline KSplit split_k(int64_t k, int64_t want, int64_t align) {
  const int64_t chunk = round_up((k + want - 1) / want, align);
  return {chunk, static_cast<int>((k + chunk - 1) / chunk)};
}

// The longest k one CTA of a corrected Tensor Core plan adds into its outputs' FP32
// accumulators where the grid leaves SMs idle: there cuBLAS splits k, and one CTA over
// more gave more than SGEMM's residual (16 x 16384 x 16384 halfhalf on the planes, one
// split: 1.39x; fused_mma, a 3-plane user workspace at 64 x 64 x 2^17, 43690 per split:
// 2.2x; tests/test_planner_gpu.py). The planner offers no plan that breaks it; the
// families split k to keep it (chain_min_splits) rather than lose the plan.
constexpr int64_t kMaxChainK = 4096;

// Where a side of C is at most kThinSide wide, cuBLAS splits k into short chains, and its
// residual is below what chains of kMaxChainK give: the fused_wgmma tiles' error grows with
// the Tensor Core k-steps a CTA promotes (tf32tf32 on the random samples' thin products: 1.3-1.7e-7
// at 35-60 k-steps, 2.2-2.5e-7 at 140-190, 3.1-3.3e-7 at 275-315), and 17 x 7126 x 10649 TN
// in 3 splits of 297 k-steps gave 1.12x SGEMM's residual. There a CTA promotes at most
// kThinMaxChainSteps k-steps (1024 of k in TF32, 2048 in FP16; bench/results/README.md#thin-chains).
constexpr int64_t kThinSide = 64;
constexpr int64_t kThinMaxChainSteps = 128;
constexpr bool thin_output(int64_t m, int64_t n) { return std::min(m, n) <= kThinSide; }
// The k one CTA may chain on a thin C: k-steps of 8 TF32 or 16 FP16 values.
constexpr int64_t thin_max_chain_k(bool half_products) { return kThinMaxChainSteps * (half_products ? 16 : 8); }

// The fewest splits of `units` k-units of `unit_k` each (a family's smallest cut of k) that
// keep every split's k within `max_chain`, splits taking ceil(units / splits) each.
inline int64_t chain_min_splits(int64_t units, int64_t unit_k, int64_t max_chain = kMaxChainK) {
  const int64_t per = std::max<int64_t>(1, max_chain / unit_k);
  return std::max<int64_t>(1, (units + per - 1) / per);
}

// How many K splits a family with one CTA per output tile should use: the split count in
// [min_splits, max_splits] that finishes `tiles` output tiles soonest when `slots` CTAs
// run at once and each CTA's time is proportional to its share of K: waves(s) / s.
// Rounding the SMs per tile up instead can leave a second, partly empty wave: 64 tiles on
// 132 SMs took 3 splits (192 CTAs, two waves of a third of K each) where 2 splits finish
// in one wave of half of K. Splits cost partials, a reduction and a prologue per CTA that
// the model leaves out, so it looks no further than twice the SMs per tile, or the SMs per
// tile past the first count it may take where that is further, and takes the fewest splits
// within 5% of the best.
// `min_splits`: the accuracy bound's count (chain_min_splits), which holds only where the
// tiles leave SMs idle; it is where the search starts, not a count to round up to (58
// tiles on 132 SMs over k = 10333: 3 splits are two waves of a third of k, 4 two waves
// of a quarter; bench/results/README.md#chain-waves).
// Time of `tiles` output tiles cut into `s` K splits, `slots` CTAs at once, in units of one
// unsplit CTA's: whole waves of 1/s of K.
inline double wave_cost(int64_t tiles, int64_t slots, int64_t s) {
  return static_cast<double>((tiles * s + slots - 1) / slots) / static_cast<double>(s);
}

// `units` > 0: k is cut in whole units (split_k), so a count s gives splits_of(units, s)
// splits; the counts are priced as made (961 units asked for 32 splits make 31).
inline int64_t splits_of(int64_t units, int64_t s) {
  return units > 0 ? (units + (units + s - 1) / s - 1) / ((units + s - 1) / s) : s;
}
inline int64_t wave_splits(int64_t tiles, int64_t slots, int64_t max_splits, int64_t min_splits = 1,
                           int64_t units = 0) {
  if (tiles <= 0 || slots <= 0 || tiles >= slots) return 1;
  const int64_t first = std::max<int64_t>(1, min_splits);
  const int64_t per_tile = (slots + tiles - 1) / tiles;
  const int64_t last = std::max(first, std::min(max_splits, std::max(2 * per_tile, first + per_tile)));
  auto cost = [&](int64_t s) { return wave_cost(tiles, slots, splits_of(units, s)); };
  double best = cost(first);
  for (int64_t s = first + 1; s <= last; ++s) best = std::min(best, cost(s));
  for (int64_t s = first; s <= last; ++s)
    if (cost(s) <= 1.05 * best) return s;
  return first;
}

// Whether `splits` K splits finish a grid of `tiles` that fills the GPU but ends on a partial
// wave sooner than one split, in whole waves of 1/splits of K as wave_splits counts them (1.06
// waves of 128 x 128 tiles at 859 x 4533 x 2437 ran a second wave on 8 of 132 SMs). A candidate
// only, up to kMaxFullGridSplits: the planner weighs the partials it costs (planes_grid and
// fused_wgmma_grid price them). Where one is taken, its shorter chains also bring the
// accumulation error down on the grids where cuBLAS, splitting them too, had brought SGEMM's
// down (bench/results/README.md#full-grid-splits).
constexpr int kMaxFullGridSplits = 8;
inline bool splits_fill_waves(int64_t tiles, int64_t slots, int64_t splits) {
  if (tiles < slots || slots <= 0 || splits < 2) return false;
  return wave_cost(tiles, slots, splits) < wave_cost(tiles, slots, 1);
}

}  // namespace ecgemm::detail
