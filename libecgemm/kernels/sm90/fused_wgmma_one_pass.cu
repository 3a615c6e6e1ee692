// fused_wgmma's kernels for the one-pass modes (tf32, fp16, Markidis; fused_wgmma_kernel.cuh),
// a file of their own so that the methods compile in parallel.
#include "kernels/sm90/fused_wgmma_kernel.cuh"

namespace ecgemm::detail {

cudaError_t launch_fused_wgmma_one_pass(TcMethod method, const GemmArgs& args,
                                        const FusedWgmmaPlan& plan, void* workspace,
                                        const DeviceInfo& dev, cudaStream_t stream) {
  return visit_method(method, [&](auto m) -> cudaError_t {
    constexpr TcMethod kM = decltype(m)::value;
    // The corrected methods have files of their own.
    if constexpr (scheme_of(kM) == Scheme::kCorrected) return cudaErrorInvalidValue;
    else return launch_tiles<kM>(args, plan, workspace, dev, stream);
  });
}

}  // namespace ecgemm::detail
