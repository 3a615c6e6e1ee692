// Thin PTX wrappers for the Hopper Tensor Core path: mbarriers, bulk tensor copies
// (TMA), register reallocation and warpgroup MMAs (wgmma). Everything here needs
// the sm_90a target; callers compile it only where ECGEMM_SM90A_DEVICE is set.
#pragma once

#include <cstdint>

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#  define ECGEMM_SM90A_DEVICE 1
#endif

#if defined(ECGEMM_SM90A_DEVICE)

namespace ecgemm::detail::sm90 {

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// ---- mbarriers (CTA scope) ------------------------------------------------------

__device__ __forceinline__ void mbarrier_init(uint32_t bar, uint32_t arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(arrivals));
}
// Makes the initialised barriers visible to the copy engine (the async proxy).
__device__ __forceinline__ void fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
__device__ __forceinline__ void mbarrier_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
// One arrival that also announces `bytes` of copy-engine traffic for this phase.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes)
               : "memory");
}
// Blocks until the phase with the given parity has completed.
__device__ __forceinline__ void mbarrier_wait(uint32_t bar, uint32_t parity) {
  asm volatile(
      "{\n"
      ".reg .pred done;\n"
      "wait_again:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra wait_again;\n"
      "}\n" ::"r"(bar),
      "r"(parity)
      : "memory");
}

// ---- bulk tensor copy (TMA) -------------------------------------------------------

__device__ __forceinline__ void prefetch_tensor_map(const void* map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
}
// One box of a 2-D tensor map into shared memory; completion is counted in bytes on `bar`.
__device__ __forceinline__ void tma_load_2d(uint32_t dst, const void* map, int32_t inner,
                                            int32_t outer, uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(inner), "r"(outer), "r"(bar)
      : "memory");
}

// A 3-D box (inner, outer, batch); out-of-range elements arrive as zeros.
__device__ __forceinline__ void tma_load_3d(uint32_t dst, const void* map, int32_t inner,
                                            int32_t outer, int32_t batch, uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3, %4}], [%5];\n" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(inner), "r"(outer), "r"(batch), "r"(bar)
      : "memory");
}

// Makes this thread's ordinary shared-memory stores visible to the async proxy
// (wgmma reads its operands through it).
__device__ __forceinline__ void fence_proxy_async() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

// A barrier for `threads` threads of the CTA only (ids 1..15; 0 is __syncthreads').
__device__ __forceinline__ void named_barrier_sync(uint32_t id, uint32_t threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

// named_barrier_sync that also returns whether `vote` was true in any of the threads.
__device__ __forceinline__ bool named_barrier_or(uint32_t id, uint32_t threads, bool vote) {
  uint32_t any;
  asm volatile(
      "{\n"
      ".reg .pred v, r;\n"
      "setp.ne.u32 v, %1, 0;\n"
      "bar.red.or.pred r, %2, %3, v;\n"
      "selp.u32 %0, 1, 0, r;\n"
      "}\n"
      : "=r"(any)
      : "r"(static_cast<uint32_t>(vote)), "r"(id), "r"(threads)
      : "memory");
  return any != 0;
}

// Four floats from a 16-byte aligned shared-memory address.
__device__ __forceinline__ float4 lds_f32x4(uint32_t addr) {
  float4 v;
  asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];\n"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "r"(addr)
               : "memory");
  return v;
}

// ---- register reallocation between warpgroups --------------------------------------

template <int kRegs>
__device__ __forceinline__ void release_registers() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kRegs));
}
template <int kRegs>
__device__ __forceinline__ void claim_registers() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kRegs));
}

// ---- warpgroup MMA ------------------------------------------------------------------

// Shared-memory matrix descriptor for a K-major operand stored as the copy engine
// writes it with 128-byte swizzling: rows of 128 bytes, 8-row groups 1024 bytes apart
// (stride byte offset), group base 1024-byte aligned. Fields are in 16-byte units.
__device__ __forceinline__ uint64_t kmajor_sw128_desc(uint32_t smem_addr) {
  constexpr uint64_t kLeadingOffset = 1;            // unused by swizzled K-major layouts
  constexpr uint64_t kStrideOffset = 1024 >> 4;     // next 8-row group
  constexpr uint64_t kSwizzle128B = 1;
  return static_cast<uint64_t>((smem_addr >> 4) & 0x3fff) | (kLeadingOffset << 16) |
         (kStrideOffset << 32) | (kSwizzle128B << 62);
}
// A descriptor advanced by `bytes` along K inside the 128-byte swizzle row.
__device__ __forceinline__ uint64_t desc_advance(uint64_t desc, uint32_t bytes) {
  return desc + (bytes >> 4);
}

// Orders earlier register accesses before the next wgmma reads or writes them.
__device__ __forceinline__ void wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
// Waits until at most kPending committed wgmma groups are still running.
template <int kPending>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
}
// Keeps the compiler from moving accesses of an accumulator across wgmma_wait /
// wgmma_fence: the hardware writes it asynchronously, which the compiler cannot see.
template <int kN>
__device__ __forceinline__ void pin_registers(float (&r)[kN]) {
#pragma unroll
  for (int i = 0; i < kN; ++i) asm volatile("" : "+f"(r[i])::"memory");
}

// Accumulator operands of an m64nN wgmma: N / 2 floats a thread, %0 .. %(N/2 - 1).
#define ECGEMM_ACC8(i)                                                                   \
  "+f"(d[i + 0]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]),        \
      "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])
#define ECGEMM_ACC16 ECGEMM_ACC8(0), ECGEMM_ACC8(8)
#define ECGEMM_ACC32 ECGEMM_ACC16, ECGEMM_ACC8(16), ECGEMM_ACC8(24)
#define ECGEMM_ACC64 ECGEMM_ACC32, ECGEMM_ACC8(32), ECGEMM_ACC8(40), ECGEMM_ACC8(48), ECGEMM_ACC8(56)
#define ECGEMM_REGS8 "%0, %1, %2, %3, %4, %5, %6, %7"
#define ECGEMM_REGS16 ECGEMM_REGS8 ", %8, %9, %10, %11, %12, %13, %14, %15"
#define ECGEMM_REGS32                                                                    \
  ECGEMM_REGS16 ", %16, %17, %18, %19, %20, %21, %22, %23, "                                    \
                "%24, %25, %26, %27, %28, %29, %30, %31"
#define ECGEMM_REGS64                                                                    \
  ECGEMM_REGS32 ", %32, %33, %34, %35, %36, %37, %38, %39, "                                    \
                "%40, %41, %42, %43, %44, %45, %46, %47, "                                      \
                "%48, %49, %50, %51, %52, %53, %54, %55, "                                      \
                "%56, %57, %58, %59, %60, %61, %62, %63"

// D(64 x N) = A(64 x K) * B(N x K)^T + (kAccumulate ? D : 0), both operands K-major in
// shared memory; N = 16, 32, 64 or 128. kAccumulate = false is the zero-accumulator MMA
// whose result the caller promotes with a round-to-nearest FP32 add. Thread t of the
// warpgroup holds d[v] at row 16*(t/32) + (t%32)/4 + 8*((v/2)%2), column 8*(v/4) +
// 2*(t%4) + v%2 (slab_row and slab_col, wgmma_consumer.cuh).
template <int kN> struct WgmmaF16;   // k16 of FP16 a step (32 bytes of K)
template <int kN> struct WgmmaTf32;  // k8 of TF32 a step (32 bytes of K)

// One specialisation a (type, N): the accumulators (the variadic tail, being a list),
// then the two descriptors and the scale-d flag.
#define ECGEMM_WGMMA(NAME, N, TYPES, TAIL, REGS, IA, IB, IK, ...)                        \
  template <>                                                                            \
  struct NAME<N> {                                                                       \
    template <bool kAccumulate>                                                          \
    __device__ __forceinline__ static void run(float (&d)[N / 2], uint64_t a, uint64_t b) { \
      asm volatile("{\n.reg .pred keep;\nsetp.ne.b32 keep, " IK ", 0;\n"                 \
                   "wgmma.mma_async.sync.aligned.m64n" #N TYPES " {" REGS "}, " IA ", "  \
                   IB ", keep, " TAIL ";\n}\n"                                           \
                   : __VA_ARGS__                                                         \
                   : "l"(a), "l"(b), "n"(kAccumulate ? 1 : 0));                          \
    }                                                                                    \
  };
#define ECGEMM_WGMMA_N(N, REGS, IA, IB, IK, ...)                                          \
  ECGEMM_WGMMA(WgmmaF16, N, "k16.f32.f16.f16", "1, 1, 0, 0", REGS, IA, IB, IK, __VA_ARGS__) \
  ECGEMM_WGMMA(WgmmaTf32, N, "k8.f32.tf32.tf32", "1, 1", REGS, IA, IB, IK, __VA_ARGS__)
ECGEMM_WGMMA_N(16, ECGEMM_REGS8, "%8", "%9", "%10", ECGEMM_ACC8(0))
ECGEMM_WGMMA_N(32, ECGEMM_REGS16, "%16", "%17", "%18", ECGEMM_ACC16)
ECGEMM_WGMMA_N(64, ECGEMM_REGS32, "%32", "%33", "%34", ECGEMM_ACC32)
ECGEMM_WGMMA_N(128, ECGEMM_REGS64, "%64", "%65", "%66", ECGEMM_ACC64)

#undef ECGEMM_WGMMA_N
#undef ECGEMM_WGMMA
#undef ECGEMM_REGS64
#undef ECGEMM_REGS32
#undef ECGEMM_REGS16
#undef ECGEMM_REGS8
#undef ECGEMM_ACC64
#undef ECGEMM_ACC32
#undef ECGEMM_ACC16
#undef ECGEMM_ACC8

}  // namespace ecgemm::detail::sm90

#endif  // ECGEMM_SM90A_DEVICE
