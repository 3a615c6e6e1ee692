// Device-side pieces both Tensor Core mainloops share: which products a method
// computes, and the order in which CTAs walk the output tiles.
#pragma once

#include "tc_config.hpp"

namespace ecgemm::detail {

enum class Scheme {
  kCorrected,     // hi·hi promoted by FP32 RN adds; lo·hi + hi·lo in the TC
  kOnePass,       // hi·hi only, in the TC
  kFourProducts,  // Markidis: hi·hi and the three lo products, all accumulated in the TC
};

constexpr Scheme scheme_of(TcMethod m) {
  return m == TcMethod::kMarkidis ? Scheme::kFourProducts
         : uses_lo(m)             ? Scheme::kCorrected
                                  : Scheme::kOnePass;
}

struct Tile {
  int64_t m0, n0;  // first row and column of the CTA's output tile
};

// Groups of kRasterGroup tile rows walk N together, so that CTAs running at the same
// time share A and B slices in L2.
constexpr int kRasterGroup = 8;

__device__ __forceinline__ Tile raster_tile(int64_t tiles_m, int64_t tiles_n) {
  const int64_t bid = blockIdx.x;
  const int64_t per_group = kRasterGroup * tiles_n;
  const int64_t first_m = bid / per_group * kRasterGroup;
  const int64_t group_rows = min(tiles_m - first_m, static_cast<int64_t>(kRasterGroup));
  const int64_t in_group = bid % per_group;
  return {(first_m + in_group % group_rows) * kTileM, in_group / group_rows * kTileN};
}

}  // namespace ecgemm::detail
