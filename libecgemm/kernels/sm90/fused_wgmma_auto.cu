// fused_wgmma's AUTO kernels: tf32tf32's products with FP32 stages where the data are too
// wide for them (fused_wgmma_kernel.cuh: transform's kGuard; docs/numerics.md section 12),
// a file of their own so that they compile beside the methods'.
#include "kernels/sm90/fused_wgmma_kernel.cuh"

namespace ecgemm::detail {

cudaError_t launch_fused_wgmma_auto(const GemmArgs& args, const FusedWgmmaPlan& plan,
                                    void* workspace, const DeviceInfo& dev, cudaStream_t stream) {
  return launch_tiles<TcMethod::kTf32Tf32, true>(args, plan, workspace, dev, stream);
}

}  // namespace ecgemm::detail
