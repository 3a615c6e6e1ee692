// The fused_wgmma family (sm_90a): splits op(A) and op(B) inside the CTA, so the only
// workspace is split-K partials. Host-side planning and launch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "kernels/common/grid_shape.hpp"
#include "kernels/common/method.hpp"
#include "kernels/gemm_args.hpp"

namespace ecgemm::detail {

struct FusedWgmmaPlan {
  int consumers = 2;     // consumer warpgroups: 2 -> 128 x cols tiles, 1 -> 64 x 128
  int cols = 128;        // the tile's N: 128, or 16, 32, 64 for the narrow tiles
  bool swapped = false;  // computes C^T = op(B)^T op(A)^T: the small side is the 64-row tile's
                         // rows, or the long side a narrow tile's rows
  bool general = false;  // some operand off 16 bytes or copied: a general kernel (class
                         // maps or copies), priced by rows of their own
  bool wide_fp32 = false;  // AUTO: tf32tf32's products, and a stage in FP32 where its data are
                           // too wide for them (docs/numerics.md section 12)
  int splits = 1;        // split-K factor (deterministic reduction); 1 for batches
  int64_t units_per_split = 0;  // 32-wide K units per split
  size_t bytes = 0;      // workspace: split-K partials
};

// Whether the fused kernels exist in this build and can run this call on this device.
bool fused_wgmma_usable(const GemmArgs& args, const DeviceInfo& dev);

// `max_bytes` caps the split-K partials (the planner's cap).
FusedWgmmaPlan plan_fused_wgmma(TcMethod method, const GemmArgs& args, const DeviceInfo& dev,
                          size_t max_bytes = SIZE_MAX);

// The narrow tiles (two consumers, 128 rows of the long side against N = 16, 32 or 64 of
// a side at most 64 wide, the narrowest that holds it), for the corrected
// methods; nullopt where the call has no such side.
std::optional<FusedWgmmaPlan> fused_wgmma_narrow(TcMethod method, const GemmArgs& args,
                                                 const DeviceInfo& dev, size_t max_bytes = SIZE_MAX);

// `plan` (either tile) with `splits` K splits in place of its own count (at most one per 8
// stages, and as the cap allows); the planner prices these on grids that fill the GPU.
FusedWgmmaPlan fused_wgmma_resplit(const FusedWgmmaPlan& plan, TcMethod method, const GemmArgs& args,
                                   const DeviceInfo& dev, size_t max_bytes, int splits);

// Output tiles of `plan`'s grid (one product).
int64_t fused_wgmma_tiles(const GemmArgs& args, const FusedWgmmaPlan& plan);

GridShape fused_wgmma_grid(const GemmArgs& args, const FusedWgmmaPlan& plan, const DeviceInfo& dev);

cudaError_t launch_fused_wgmma(TcMethod method, const GemmArgs& args, const FusedWgmmaPlan& plan,
                              void* workspace, const DeviceInfo& dev, cudaStream_t stream);

}  // namespace ecgemm::detail
