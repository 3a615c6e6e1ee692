// fused_wgmma's tf32tf32 kernels (fused_wgmma_kernel.cuh), a file of their own so that
// the methods compile in parallel.
#include "kernels/sm90/fused_wgmma_kernel.cuh"

namespace ecgemm::detail {

cudaError_t launch_fused_wgmma_tf32tf32(const GemmArgs& args, const FusedWgmmaPlan& plan,
                                        void* workspace, const DeviceInfo& dev,
                                        cudaStream_t stream) {
  return launch_tiles<TcMethod::kTf32Tf32>(args, plan, workspace, dev, stream);
}

}  // namespace ecgemm::detail
