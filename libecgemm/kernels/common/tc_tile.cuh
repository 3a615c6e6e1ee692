// Device-side pieces both Tensor Core mainloops share: which products a method
// computes, and the order in which CTAs walk the output tiles.
#pragma once

#include "split.cuh"
#include "kernels/tc_config.hpp"

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

// The split a method stores: TF32 parts, FP16 parts with lo scaled by 2^11, or
// Markidis's unscaled FP16 parts (split.cuh: the one definition of the numerics).
template <TcMethod M>
__host__ __device__ __forceinline__ SplitValue split_for(float x) {
  if constexpr (M == TcMethod::kTf32x3 || M == TcMethod::kTf32x1) return split_tf32(x);
  else if constexpr (M == TcMethod::kMarkidis) return split_markidis(x);
  else return split_half(x);
}

struct Tile {
  int64_t m0, n0;  // first row and column of the CTA's output tile
};

// Groups of kRasterGroup tile rows walk N together, so that CTAs running at the same
// time share A and B slices in L2.
constexpr int kRasterGroup = 8;

// Tile number `bid` of the rasterised order.
__device__ __forceinline__ Tile raster_tile_at(int64_t bid, int64_t tiles_m, int64_t tiles_n,
                                               int64_t tile_m = kTileM, int64_t tile_n = kTileN) {
  const int64_t per_group = kRasterGroup * tiles_n;
  const int64_t first_m = bid / per_group * kRasterGroup;
  const int64_t group_rows = min(tiles_m - first_m, static_cast<int64_t>(kRasterGroup));
  const int64_t in_group = bid % per_group;
  return {(first_m + in_group % group_rows) * tile_m, in_group / group_rows * tile_n};
}

// The CTA's tile, one per CTA along gridDim.x.
__device__ __forceinline__ Tile raster_tile(int64_t tiles_m, int64_t tiles_n,
                                            int64_t tile_m = kTileM, int64_t tile_n = kTileN) {
  return raster_tile_at(blockIdx.x, tiles_m, tiles_n, tile_m, tile_n);
}

}  // namespace ecgemm::detail
