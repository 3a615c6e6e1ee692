// The fused_mma family (mma.sync, sm_80 and newer): FP32 tiles of op(A) and op(B) staged
// in shared memory and split into hi/lo there, once per value (split inside the CTA). No
// planes: the only workspace is split-K partials. Host-side planning and launch.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/grid_shape.hpp"
#include "kernels/common/method.hpp"
#include "kernels/gemm_args.hpp"

namespace ecgemm::detail {

struct FusedMmaPlan {
  int splits = 1;       // split-K factor (deterministic reduction); 1 for batches
  int64_t k_chunk = 0;  // k per split, a whole number of the kernel's k stage
  // sm_90: the splits (at most 8) of a tile form a cluster and add their sums in
  // shared memory; no workspace, no reduction kernel.
  bool cluster_reduce = false;
  size_t bytes = 0;     // workspace: splits planes of m x n partial sums, unless clustered
  // Whether every split's k is short enough for the kernel's one FP32 accumulator per
  // output (a product added each k-step) to stay FP32-class: false where the workspace
  // cap (or a batch, which is not split) leaves longer ones; the planner then goes elsewhere.
  bool fits = true;
};

// Whether the GPU has mma.sync (cc >= 8.0); the family runs every Tensor Core method.
// Dispatch sends it the corrected methods, and every method's batches where the wgmma
// families are absent.
bool fused_mma_usable(const DeviceInfo& dev);

// `max_bytes` caps the partials (a user workspace that cannot grow).
FusedMmaPlan plan_fused_mma(const GemmArgs& args, const DeviceInfo& dev,
                             size_t max_bytes = SIZE_MAX);

GridShape fused_mma_grid(const GemmArgs& args, const FusedMmaPlan& plan, const DeviceInfo& dev);

cudaError_t launch_fused_mma(TcMethod method, const GemmArgs& args, const FusedMmaPlan& plan,
                              void* workspace, const DeviceInfo& dev, cudaStream_t stream);

}  // namespace ecgemm::detail
