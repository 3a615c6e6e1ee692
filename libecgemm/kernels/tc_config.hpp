// The Tensor Core family: which products a mode computes, the tile shape, and the
// workspace that holds the pre-split operands (host-side planning, no kernels).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/method.hpp"
#include "kernels/gemm_args.hpp"
#include "kernels/planes/auto_scale.hpp"

namespace ecgemm::detail {

// Output tile of both mainloops. K is counted in bytes of the stored operand so that
// FP16 and TF32 share one shared-memory layout and one ldmatrix / wgmma pattern;
// split-K is planned in units of kTileKBytes (the narrowest K stage a mainloop uses).
constexpr int kTileM = 128;
constexpr int kTileN = 128;
constexpr int kTileKBytes = 64;
// One 128-byte row segment is the widest K step a mainloop takes (sm_90's 128-byte
// swizzle): K is padded to it (32 TF32 or 64 FP16 values; the split pass writes the
// padding's zeros).
constexpr int kPadKBytes = 128;

constexpr int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }

// Offsets into the workspace, all 256-byte aligned.
struct TcWorkspace {
  int64_t m_pad = 0, n_pad = 0, k_pad = 0;  // operand extents after zero padding
  int splits = 1;                           // split-K factor
  size_t a_hi = 0, a_lo = 0, b_hi = 0, b_lo = 0, partials = 0;
  size_t bytes = 0;
};

// `max_bytes` caps the split-K partials; the planes themselves are always planned
// (the planner checks `bytes` against its cap).
TcWorkspace plan_tc_workspace(TcMethod method, int64_t m, int64_t n, int64_t k, const DeviceInfo& dev,
                              size_t max_bytes = SIZE_MAX);

// Splits op(A) and op(B) into K-major, zero-padded hi/lo planes in the workspace.
cudaError_t launch_split_operands(TcMethod method, const GemmArgs& args, const TcWorkspace& plan,
                                  char* workspace, cudaStream_t stream);

// AUTO's split (auto_scale.hpp): one launch per operand writes halfhalf's planes (layout
// `half`) or tf32tf32's (`tf32`) of the scaled rows, as the device's route word says.
cudaError_t launch_split_auto(const GemmArgs& args, const TcWorkspace& half,
                              const TcWorkspace& tf32, const int* route, char* workspace,
                              cudaStream_t stream);

// mma.sync mainloop over the split planes (+ split-K reduction when planned).
cudaError_t launch_sm80_mainloop(TcMethod method, const GemmArgs& args, const TcWorkspace& plan,
                                 char* workspace, const DeviceInfo& dev, cudaStream_t stream);

// wgmma mainloop (sm_90a) over the same planes (+ split-K reduction when planned).
// Usable only where the sm_90a code was built, the GPU is cc 9.0 and the driver
// gives out the tensor-map encoder; otherwise the family takes the sm80 mainloop.
bool sm90_mainloop_usable(TcMethod method, const TcWorkspace& plan, const DeviceInfo& dev);
cudaError_t launch_sm90_mainloop(TcMethod method, const GemmArgs& args, const TcWorkspace& plan,
                                 char* workspace, const DeviceInfo& dev, cudaStream_t stream);

// AUTO's two routes (auto_scale.hpp) in one wgmma launch: halfhalf's plan `half` or
// tf32tf32's plan `tf32`, as the device's route word says (+ split-K reductions).
cudaError_t launch_sm90_auto_mainloop(const GemmArgs& scaled, const TcWorkspace& half,
                                      const GemmArgs& fallback, const TcWorkspace& tf32,
                                      char* workspace, const DeviceInfo& dev, cudaStream_t stream);

// Adds the split-K partial planes in a fixed order and applies alpha, beta. `overlap`:
// launched as a programmatic dependent of the mainloop before it (common/launch.cuh).
cudaError_t launch_splitk_reduce(const GemmArgs& args, const TcWorkspace& plan,
                                 const char* workspace, cudaStream_t stream, bool overlap = false);

// The full family: split, Tensor Core mainloop, split-K reduction when planned.
cudaError_t launch_tc_gemm(TcMethod method, const GemmArgs& args, const TcWorkspace& plan,
                           void* workspace, const DeviceInfo& dev, cudaStream_t stream);

// ECGEMM_MODE_AUTO on this family (auto_scale.hpp): halfhalf's planes of the scaled
// operands and tf32tf32's planes share the workspace's start (one of them is written per
// call), the scale data follow.
struct TcAutoPlan {
  TcWorkspace half, tf32;
  AutoScaleLayout scale;
  size_t bytes = 0;
};
TcAutoPlan plan_tc_auto(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev,
                        size_t max_bytes = SIZE_MAX);

// Statistics and scale choice, then both routes' split, mainloop and reduction; the
// kernels of the route the device did not choose return at once.
cudaError_t launch_tc_auto(const GemmArgs& args, const TcAutoPlan& plan, void* workspace,
                           const DeviceInfo& dev, cudaStream_t stream);

}  // namespace ecgemm::detail
