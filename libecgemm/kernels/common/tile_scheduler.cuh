// The tile scheduler every family shares: which output tile, batch product and K split a
// CTA works on, in which order CTAs take the tiles, and how a batch is cut into launches.
//
// A launch's grid is x: output tiles (rasterised order), y: products of a batch (from the
// launch's first product: grids cap y at 65535), z: K splits. A persistent launch (one
// CTA an SM) walks (tile, split) work items along x instead.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "kernels/gemm_args.hpp"

namespace ecgemm::detail {

struct Tile {
  int64_t m0, n0;  // first row and column of the CTA's output tile
};

// Groups of kRasterGroup tile rows walk N together, so that CTAs running at the same
// time share A and B slices in L2.
constexpr int kRasterGroup = 8;

// Tile number `bid` of the rasterised order. In 32-bit arithmetic: a grid holds fewer
// than 2^31 tiles (every launch checks), and 64-bit divisions are long subroutines that
// took ~260 of a small CTA's ~2300 instructions (H200, fused_mma at 118 x 44 x 131:
// bench/results/stages-2026-11-23). A group is at most tiles_m rows, so that its size
// is at most the tile count.
__device__ __forceinline__ Tile raster_tile_at(int64_t bid, int64_t tiles_m, int64_t tiles_n,
                                               int64_t tile_m, int64_t tile_n) {
  const uint32_t id = static_cast<uint32_t>(bid), rows = static_cast<uint32_t>(tiles_m);
  const uint32_t per_group = min(rows, uint32_t{kRasterGroup}) * static_cast<uint32_t>(tiles_n);
  const uint32_t group = id / per_group, in_group = id - group * per_group;
  const uint32_t first_m = group * kRasterGroup;
  const uint32_t group_rows = min(rows - first_m, uint32_t{kRasterGroup});
  const uint32_t col = in_group / group_rows, row = first_m + (in_group - col * group_rows);
  return {static_cast<int64_t>(row) * tile_m, static_cast<int64_t>(col) * tile_n};
}

// The CTA's tile, one per CTA along gridDim.x.
__device__ __forceinline__ Tile raster_tile(int64_t tiles_m, int64_t tiles_n, int64_t tile_m,
                                            int64_t tile_n) {
  return raster_tile_at(blockIdx.x, tiles_m, tiles_n, tile_m, tile_n);
}

// The CTA's product of a batch whose launch starts at product `first`.
__device__ __forceinline__ int64_t batch_product(int64_t first) { return first + blockIdx.y; }

// Persistent CTAs: CTA blockIdx.x takes work items blockIdx.x, + gridDim.x, ... of
// tiles x splits; item w is split w / tiles of the w % tiles-th tile (rasterised).
// Calls f(tile, split) for each, in order.
template <typename F>
__device__ __forceinline__ void for_each_work_item(int64_t tiles_m, int64_t tiles_n,
                                                   int64_t splits, int64_t tile_m,
                                                   int64_t tile_n, F&& f) {
  const int64_t tiles = tiles_m * tiles_n, work = tiles * splits;
  for (int64_t w = blockIdx.x; w < work; w += gridDim.x)
    f(raster_tile_at(w % tiles, tiles_m, tiles_n, tile_m, tile_n), w / tiles);
}

// Products per launch along grid.y (CUDA caps it at 65535); larger batches take several.
constexpr int64_t kMaxBatchPerLaunch = 65535;

// Host side: launch(part, products) for each run of at most kMaxBatchPerLaunch products
// of `args`'s batch, in order, `part` being `args` with part.batch.first at the run's
// first product; stops at the first error.
template <typename F>
cudaError_t for_each_batch_launch(const GemmArgs& args, F&& launch) {
  GemmArgs part = args;
  for (part.batch.first = 0; part.batch.first < args.batch.count;
       part.batch.first += kMaxBatchPerLaunch) {
    const int64_t left = args.batch.count - part.batch.first;
    const cudaError_t err =
        launch(static_cast<const GemmArgs&>(part),
               static_cast<unsigned>(std::min(left, kMaxBatchPerLaunch)));
    if (err != cudaSuccess) return err;
  }
  return cudaSuccess;
}

}  // namespace ecgemm::detail
