// The parts of the plane family (planes.hpp) and what they share: the split pass
// that writes the hi/lo planes, one mainloop per architecture over them, and the
// planes' split-K partials, which the common reducer adds.
#pragma once

#include "kernels/common/splitk_reduce.hpp"
#include "kernels/gemm_args.hpp"
#include "kernels/planes.hpp"

namespace ecgemm::detail {

// Splits op(A) and op(B) into K-major, zero-padded hi/lo planes in the workspace.
cudaError_t launch_split_pass(TcMethod method, const GemmArgs& args, const PlanesPlan& plan,
                              char* workspace, cudaStream_t stream);

// AUTO's split (auto_scale.hpp): one launch per operand writes halfhalf's planes (layout
// `half`) or tf32tf32's (`tf32`) of the scaled rows, as the device's route word says.
cudaError_t launch_split_pass_auto(const GemmArgs& args, const PlanesPlan& half,
                                   const PlanesPlan& tf32, const int* route, char* workspace,
                                   cudaStream_t stream);

// mma.sync mainloop over the split planes (+ split-K reduction when planned).
cudaError_t launch_planes_mma(TcMethod method, const GemmArgs& args, const PlanesPlan& plan,
                              char* workspace, const DeviceInfo& dev, cudaStream_t stream);

// wgmma mainloop (sm_90a) over the same planes (+ split-K reduction when planned).
// Usable only where the sm_90a code was built, the GPU is cc 9.0 and the driver
// gives out the tensor-map encoder; otherwise the family takes the sm80 mainloop.
bool planes_wgmma_usable(TcMethod method, const PlanesPlan& plan, const DeviceInfo& dev);
cudaError_t launch_planes_wgmma(TcMethod method, const GemmArgs& args, const PlanesPlan& plan,
                                char* workspace, const DeviceInfo& dev, cudaStream_t stream);

// AUTO's two routes (auto_scale.hpp) in one wgmma launch: halfhalf's plan `half` or
// tf32tf32's plan `tf32`, as the device's route word says (+ split-K reductions).
cudaError_t launch_planes_wgmma_auto(const GemmArgs& scaled, const PlanesPlan& half,
                                     const GemmArgs& fallback, const PlanesPlan& tf32,
                                     char* workspace, const DeviceInfo& dev, cudaStream_t stream);

// The mainloops' split-K partials: one m_pad x n_pad plane per split, added in order.
inline Partials planes_partials(const PlanesPlan& plan, const char* workspace) {
  return {reinterpret_cast<const float*>(workspace + plan.partials), plan.splits, plan.m_pad,
          plan.n_pad, SplitOrder::kSerial};
}

}  // namespace ecgemm::detail
