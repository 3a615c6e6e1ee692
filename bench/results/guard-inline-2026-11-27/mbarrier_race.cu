// Does compute-sanitizer racecheck order plain shared-memory accesses by fused_wgmma's mbarrier
// protocol (ptx.cuh's arrive / try_wait.parity)? A producer warpgroup stores a ring slot, every
// producer thread arrives on `full`; a consumer warpgroup waits, loads other threads' values and
// frees the slot on `empty`: variant 0, one arrival a warp after __syncwarp (consume before call
// 6); variant 1, every thread arriving; variant 2, as consume with FP32 stages now: on odd rounds
// (an FP32 stage) every lane loads and arrives for itself, on even ones (a Tensor Core stage)
// only lane 0 loads (the flag) and arrives with count 32; variant 3, as 2 but on even rounds every
// lane arrives for itself after lane 0's load; variant 4, lane 0 alone loads and arrives with
// count 32 on every round (lane-arrivals-2026-11-27). Each protocol is race-free; a hazard report
// on one says racecheck does not follow it. Exit 0 and "sum ok" when the values are right.
//   nvcc -std=c++17 -arch=sm_90a -I libecgemm/kernels/sm90 mbarrier_race.cu -o mbarrier_race
//   compute-sanitizer --tool racecheck ./mbarrier_race 0   (and 1)
#include <cstdio>
#include <cstdlib>

#include "ptx.cuh"

constexpr int kSlots = 2, kRounds = 8, kWidth = 128;

__global__ void ring(int variant, float* out) {
#if defined(ECGEMM_SM90A_DEVICE)  // ptx.cuh's wrappers exist in the sm_90a device pass only
  using namespace ecgemm::detail::sm90;
  __shared__ __align__(16) float slot[kSlots][kWidth];
  __shared__ uint32_t flag[kSlots];
  __shared__ __align__(8) uint64_t full_bars[kSlots], empty_bars[kSlots];
  const uint32_t full = smem_u32(full_bars), empty = smem_u32(empty_bars);
  const int t = threadIdx.x % 128;
  if (threadIdx.x == 0) {
    for (int s = 0; s < kSlots; ++s) {
      mbarrier_init(full + 8 * s, 128);
      mbarrier_init(empty + 8 * s, variant == 0 ? 4 : 128);
    }
    fence_barrier_init();
  }
  __syncthreads();
  if (threadIdx.x < 128) {  // producer
    for (int r = 0; r < kRounds; ++r) {
      const int s = r % kSlots;
      if (r >= kSlots) mbarrier_wait(empty + 8 * s, (r / kSlots - 1) & 1);
      slot[s][t] = static_cast<float>(r * 1000 + t);
      if (t == 0) flag[s] = r;
      mbarrier_arrive(full + 8 * s);
    }
  } else {  // consumer
    float sum = 0.0f;
    for (int r = 0; r < kRounds; ++r) {
      const int s = r % kSlots;
      mbarrier_wait(full + 8 * s, (r / kSlots) & 1);
      if ((variant == 2 || variant == 3) && r % 2 == 0) {  // lane 0 alone reads
        const float f = __shfl_sync(0xffffffffu, t % 32 == 0 ? static_cast<float>(flag[s]) : 0.0f, 0);
        sum += static_cast<float>(r * 1000 + (t * 7 + 3) % kWidth) + f;
        if (variant == 3) mbarrier_arrive(empty + 8 * s);              // every lane for itself
        else if (t % 32 == 0) mbarrier_arrive_count(empty + 8 * s, 32);  // lane 0 for its warp
        continue;
      }
      if (variant == 4) {  // lane 0 alone reads the slot and the flag, and arrives for its warp
        const float v = t % 32 == 0 ? slot[s][0] + static_cast<float>(flag[s]) : 0.0f;
        const float f = __shfl_sync(0xffffffffu, v, 0) - static_cast<float>(r * 1000);
        sum += static_cast<float>(r * 1000 + (t * 7 + 3) % kWidth) + f;
        if (t % 32 == 0) mbarrier_arrive_count(empty + 8 * s, 32);
        continue;
      }
      sum += slot[s][(t * 7 + 3) % kWidth] + static_cast<float>(flag[s]);
      if (variant == 0) {
        __syncwarp();
        if (t % 32 == 0) mbarrier_arrive(empty + 8 * s);
      } else {
        mbarrier_arrive(empty + 8 * s);
      }
    }
    out[t] = sum;
  }
#endif
}

int main(int argc, char** argv) {
  const int variant = argc > 1 ? std::atoi(argv[1]) : 0;
  float* out = nullptr;
  cudaMalloc(&out, kWidth * sizeof(float));
  ring<<<1, 256>>>(variant, out);
  float host[kWidth];
  const cudaError_t err = cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    std::printf("error %s\n", cudaGetErrorString(err));
    return 1;
  }
  int bad = 0;
  for (int t = 0; t < kWidth; ++t) {
    float want = 0.0f;
    for (int r = 0; r < kRounds; ++r) want += static_cast<float>(r * 1000 + (t * 7 + 3) % kWidth + r);
    bad += host[t] != want;
  }
  std::printf("variant %d: sum %s\n", variant, bad ? "wrong" : "ok");
  return bad != 0;
}
