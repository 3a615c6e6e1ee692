// The Tensor Core family's entry: split the operands once, then run the mainloop
// built for this GPU.
#include "tc_config.hpp"

namespace ecgemm::detail {

cudaError_t launch_tc_gemm(TcMethod method, const GemmArgs& args, const TcWorkspace& plan,
                           void* workspace, const DeviceInfo& dev, cudaStream_t stream) {
  char* ws = static_cast<char*>(workspace);
  const cudaError_t err = launch_split_operands(method, args, plan, ws, stream);
  if (err != cudaSuccess) return err;
  if (sm90_mainloop_usable(method, plan, dev))
    return launch_sm90_mainloop(method, args, plan, ws, dev, stream);
  return launch_sm80_mainloop(method, args, plan, ws, dev, stream);
}

}  // namespace ecgemm::detail
