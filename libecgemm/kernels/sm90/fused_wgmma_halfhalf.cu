// fused_wgmma's halfhalf kernels (fused_wgmma_kernel.cuh), a file of their own so that
// the methods compile in parallel.
#include "kernels/sm90/fused_wgmma_kernel.cuh"

namespace ecgemm::detail {

cudaError_t launch_fused_wgmma_halfhalf(const GemmArgs& args, const FusedWgmmaPlan& plan,
                                        void* workspace, const DeviceInfo& dev,
                                        cudaStream_t stream) {
  return launch_tiles<TcMethod::kHalfHalf>(args, plan, workspace, dev, stream);
}

}  // namespace ecgemm::detail
