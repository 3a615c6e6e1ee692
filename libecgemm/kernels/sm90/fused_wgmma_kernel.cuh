// The fused_wgmma family (sm_90a; split inside the CTA). op(A) and op(B) are read from
// global memory in FP32 once per tile pass and never stored in any other form: no hi/lo
// planes, and no workspace beyond split-K partials.
//
// One CTA computes a kTileM x kCols tile of C (64 rows per consumer warpgroup). kCols is
// 128, or for the narrow tiles 16, 32 or 64: a side of C at most 64 wide on the tile's
// columns against two long ones on its rows, so that no product is spent on padding past
// that side (docs/architecture.md: fused_wgmma).
//  - the transform warpgroup(s): thread 0 streams 32-wide K units of both operands into
//    an FP32 staging ring with the copy engine (TMA; K-major operands land 128-byte
//    swizzled, M/N-major ones as plain K rows, out-of-range elements as zeros); all
//    transform threads (128, or 256 beside a single consumer) split each unit with
//    split.cuh (the numerics lab's definition, bit for bit) and store hi and lo in the
//    K-major, 128-byte-swizzled stage layout wgmma reads.
//    An operand whose base or leading dimension is not 16-byte aligned goes to a general
//    kernel (one a staging pair: Compiled) that loads it by the copy engine too, through
//    four maps: one per residue class mod 4 of its lines (rows, or K for an M/N-major
//    operand), whose stride, 4 lines, is 16-byte aligned for any leading dimension; each
//    box starts at an aligned coordinate and reads 16 bytes past the line
//    (Staging::kClasses; the staging layout is class by class, the split reads each line
//    at its shift: class_line, class_phase_row, shifted). Against the 4-byte copies that
//    path replaced: 1.16-1.42x on the 128 x 128 tiles, 1.04-1.2x on the narrow ones, the
//    same bits (bench/results/README.md#aligned-copies); a kernel a staging pair, 1.07-1.22x
//    more (bench/results/README.md#checks): the narrow tiles run ~1.2x the TMA kernel's
//    time on the same shape aligned. A pointer-array batch, a batch stride off 16 bytes,
//    or fewer than 4 lines are copied into the TMA layout by every transform thread,
//    4-byte cp.async a warp reading 128 contiguous bytes (copy_unit).
//  - 1 or 2 consumer warpgroups: wgmma with the paper's RN promotion
//    (sm90/wgmma_consumer.cuh), then the epilogue (common/epilogue.cuh), or split-K
//    partials for the common reducer.
// Products of a batch are grid.y, split-K ranges grid.z (common/tile_scheduler.cuh).
//
// This header holds the family's device code and its one-kernel launchers; the planning
// and the switch over methods are fused_wgmma.cu's.
#pragma once

#include <cuda_fp16.h>

#include <algorithm>
#include <climits>
#include <type_traits>
#include <utility>

#include "kernels/common/epilogue.cuh"
#include "kernels/common/launch.cuh"
#include "kernels/common/splitk_plan.hpp"
#include "kernels/common/splitk_reduce.hpp"
#include "kernels/common/tile_scheduler.cuh"
#include "kernels/common/wide_runs.cuh"
#include "kernels/sm80/mma_sync.cuh"
#include "kernels/sm90/ptx.cuh"
#include "kernels/sm90/tensor_map.hpp"
#include "kernels/sm90/wgmma_consumer.cuh"
#include "kernels/fused_wgmma.hpp"
#include "split.cuh"

namespace ecgemm::detail {
// Each including file's own: templates, inline and constexpr functions, instantiated where a
// method's file launches them.
namespace {

constexpr int kUnitK = 32;            // FP32 elements of K per staging unit (128 bytes)
constexpr int kStageRowBytes = 128;   // K bytes per hi/lo stage: one swizzle row
constexpr int kWideCols = 128;        // the N side of every tile but the narrow ones
constexpr int kSmemBudget = 225 * 1024;  // of sm_90's 227 KB: the alignment pad, the barriers
constexpr int kSmemAlign = 1024;      // 128-byte swizzle atom
constexpr int kTransformBarrier = 1;  // named barrier of the transform warpgroup
constexpr int kClasses = 4;           // residue classes of a class-mapped operand's lines
constexpr int kClassLines = kUnitK / kClasses;  // K lines of one class in a unit (M/N-major)
constexpr int kClassPad = 4;          // floats a class box reads past a line: its shift

// An operand's unit in its staging slot (TMA's box layout, whoever copied it).
enum class Source : int32_t {
  kKMajor,   // K contiguous: 128-byte rows of K, 16-byte chunks swizzled as the stage layout
  kMnMajor,  // rows contiguous: 32 K rows of kRows floats
};

// How an operand's units reach its staging slot.
enum class Staging : int32_t {
  kTma,      // one tensor map: 16-byte aligned base, leading dimension and batch stride
  kClasses,  // kClasses tensor maps, class c holding lines c, c + 4, ... from its base
             // aligned down by `shift` elements (0..3); a box starts at a 16-byte aligned
             // coordinate, as the copy engine requires, and reads kClassPad floats more
             // than a line, so that it holds the line's unit at offset `shift` (unswizzled)
  kCopies,   // copied by the transform threads (copy_unit), in kTma's layout
};

// The staging a kernel's side is compiled for. The TMA kernel's sides are kTma; the
// class-mapped pairs of the corrected methods have kernels of their own, whose code holds
// one staging a side and whose slots are sized for it; kAny reads Operand::staging at run
// time (copied operands, and the one-pass methods' class-mapped ones: fewer kernels to
// compile). One kernel holding every staging ran 0.80-0.90x the TMA kernel on aligned
// operands; cut to the class layouts, 1.05-1.08x faster (bench/results/README.md#aligned-copies,
// calls 8 and 11).
enum class Compiled : int32_t { kTma, kClasses, kAny };

// Bytes of one unit of a kRows-row side as each staging lays it out.
constexpr int round_up_to(int x, int to) { return (x + to - 1) / to * to; }
constexpr int tma_box_bytes(int rows) { return rows * kUnitK * 4; }
// K-major class box: rows / 4 rows of kUnitK + kClassPad floats, 128-byte aligned (the
// copy engine's shared-memory alignment).
constexpr int class_box_k(int rows) {
  return round_up_to(rows / kClasses * (kUnitK + kClassPad) * 4, 128);
}
// M/N-major class box: kClassLines K lines of rows + kClassPad floats.
constexpr int class_box_mn(int rows) { return kClassLines * (rows + kClassPad) * 4; }
// A side's room in a staging slot: 1024-byte swizzle atoms, for a TMA-laid-out side after it
// (a class layout of either source, K-major or M/N-major: the source is read at run time).
constexpr int slot_bytes(int rows, Compiled staging) {
  const int classes = kClasses * std::max(class_box_k(rows), class_box_mn(rows));
  if (staging == Compiled::kTma) return tma_box_bytes(rows);
  if (staging == Compiled::kClasses) return round_up_to(classes, 1024);
  return round_up_to(std::max(tma_box_bytes(rows), classes), 1024);
}

// kA, kB: the staging each side is compiled for (Compiled). kGeneral: some side is not
// kTma (the general kernels, whose issuers and expected bytes follow the operands).
template <TcMethod M, int kConsumers, int kCols, Compiled kA, Compiled kB>
struct FusedTraits {
  static constexpr bool kGeneral = kA != Compiled::kTma || kB != Compiled::kTma;
  static constexpr int kTileM = 64 * kConsumers;
  static constexpr bool kNarrow = kCols < kWideCols;
  static_assert(kNarrow ? kConsumers == 2 : kConsumers <= 2, "the tiles plan_fused_wgmma makes");
  // The split is the kernel's bottleneck: a 64-row tile, whose one consumer leaves
  // registers to spare, and a narrow one, whose consumers need few, get two transform
  // warpgroups; a 128 x 128 tile gets one.
  static constexpr int kTransformGroups = kConsumers == 1 || kNarrow ? 2 : 1;
  static constexpr int kTransformThreads = 128 * kTransformGroups;
  static constexpr int kThreads = 128 * (kTransformGroups + kConsumers);
  // Register split after setmaxnreg; each fills exactly what the launch gives its
  // warpgroups: 128 * 56 + 256 * 224 and 256 * 128 + 128 * 232 (<=) of 384 * 168, and
  // 256 * 96 + 256 * 160 of 512 * 128 (narrow: three accumulators of at most 32 floats).
  static constexpr int kTransformRegs = kNarrow ? 96 : kConsumers == 1 ? 128 : 56;
  static constexpr int kConsumerRegs = kNarrow ? 160 : kConsumers == 1 ? 232 : 224;
  static constexpr int kUnitsPerStage = uses_half(M) ? 2 : 1;  // 128 bytes of FP16 = 64 K
  static constexpr int kSlotA = slot_bytes(kTileM, kA);
  static constexpr int kStagingBytes = kSlotA + slot_bytes(kCols, kB);
  static constexpr int kPlaneA = kTileM * kStageRowBytes;
  static constexpr int kPlaneB = kCols * kStageRowBytes;
  static constexpr int kStageBytes = (uses_lo(M) ? 2 : 1) * (kPlaneA + kPlaneB);
  // FP32 units in flight ahead of the split: 3, or 2 where 3 would leave the stage ring
  // one slot (the general kernels' 128 x 128 tiles).
  static constexpr int kStagingUnits =
      (kSmemBudget - 3 * kStagingBytes) / kStageBytes >= 2 ? 3 : 2;
  static constexpr int kStages =
      std::min(4, (kSmemBudget - kStagingUnits * kStagingBytes) / kStageBytes);
  static constexpr int kSmemBytes =
      kStagingUnits * kStagingBytes + kStages * kStageBytes + kSmemAlign;
  static_assert(kStages >= 2, "the stage ring needs two slots to overlap split and MMA");
};

// One side of the product as rows x K: element (r, k) of product z lies at
// base(z) + r * stride_r + k * stride_k, one of the two strides being 1.
struct Operand {
  const float* ptr = nullptr;           // product 0 (strided form)
  const float* const* array = nullptr;  // pointer-array form (device memory)
  int64_t stride_r = 0, stride_k = 0, batch_stride = 0, rows = 0;
  Source source = Source::kKMajor;
  Staging staging = Staging::kCopies;
  uint32_t shifts = 0;      // kClasses: class c's shift in bits 2c, 2c + 1
  uint32_t unit_bytes = 0;  // what the copy engine writes for one unit (0: copied)
};

__host__ __device__ inline int shift_of(uint32_t shifts, int c) {
  return static_cast<int>(shifts >> (2 * c) & 3);
}

struct Problem {
  Operand a, b;  // a: the tile's rows, b: its columns (exchanged when swapped)
  int64_t k = 0;
  int64_t tiles_m = 0, tiles_n = 0;
  int64_t units = 0;            // 32-wide K units, rounded up to whole stages
  int64_t units_per_split = 0;
  int64_t batch_offset = 0;     // product index of grid.y = 0 in this launch
  float* c = nullptr;
  float* const* c_array = nullptr;
  int64_t ldc = 0, c_stride = 0;
  int64_t m = 0, n = 0;         // C's own extents
  bool swapped = false;         // tile row i is C's column
  float* partials = nullptr;    // split-K: one m x n column-major plane per split
  Scalars scalars;
};

struct Maps {
  CUtensorMap a[kClasses], b[kClasses];  // [0] only for Staging::kTma
};

__host__ __device__ inline int maps_of(const Operand& op) {
  return op.staging == Staging::kTma ? 1 : op.staging == Staging::kClasses ? kClasses : 0;
}

#if defined(ECGEMM_SM90A_DEVICE)
using namespace sm90;

__device__ __forceinline__ const float* product_base(const Operand& op, int64_t z) {
  return op.array ? op.array[z] : op.ptr + z * op.batch_stride;
}

template <typename T>
__device__ __forceinline__ uint32_t as_bits(T v) {
  static_assert(sizeof(T) == 4, "32-bit values");
  return *reinterpret_cast<const uint32_t*>(&v);
}

// What one pass over a staged unit stores. kSplit: hi and lo. kGuarded: the same, and whether
// any of the thread's runs is too wide for tf32tf32's two parts (AUTO: common/wide_runs.cuh),
// its runs whole kGuardRun-aligned runs. kRaw: the values themselves into the hi plane
// (AUTO's FP32 stages, read by the consumers' fp32_stage), the lo plane untouched.
enum class Pass : int32_t { kSplit, kGuarded, kRaw };

// Splits the kE values of one 16-byte chunk into its hi and lo words.
template <TcMethod M, int kE, bool kPlain>
__device__ __forceinline__ void split_chunk(const float (&x)[kE], uint32_t (&h)[4],
                                            uint32_t (&l)[4]) {
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    if constexpr (uses_half(M)) {
      constexpr bool kScaled = M != TcMethod::kMarkidis;
      const HalfPair s = kPlain ? split_half_pair_plain<kScaled>(x[2 * q], x[2 * q + 1])
                                : split_half_pair<kScaled>(x[2 * q], x[2 * q + 1]);
      h[q] = as_bits(s.hi);
      l[q] = as_bits(s.lo);
    } else {
      const SplitValue s = kPlain ? split_tf32_plain(x[q]) : split_tf32(x[q]);
      h[q] = __float_as_uint(s.hi);
      l[q] = __float_as_uint(s.lo);
    }
  }
}

// The staging line of K index kk in an M/N-major class layout (class kk % 4 first).
__device__ __forceinline__ int class_line(int kk) {
  return (kk % kClasses) * kClassLines + kk / kClasses;
}

// The tile row split thread t keeps in a K-major class layout, a permutation of each 32
// rows: the 8 rows of a phase of a 16-byte access lie in 8 distinct rows mod 8 (the
// planes' swizzle) and 8 distinct rows / 4 mod 8 (the class boxes' 16-byte bank groups:
// their rows are 9 groups apart), so that neither the staging reads nor the plane
// writes conflict.
__device__ __forceinline__ int class_phase_row(int t) {
  const int i = t & 7, phase = (t >> 3) & 3;
  return (t & ~31) | (i << 2) | (((i >> 1) + phase) & 3);
}

// x[e] = w[e + shift] for shift in 0..3: two levels of selects on the shift's bits.
template <int kE>
__device__ __forceinline__ void shifted(const float (&w)[kE + kClassPad], int shift,
                                        float (&x)[kE]) {
  float half[kE + 2];
#pragma unroll
  for (int i = 0; i < kE + 2; ++i) half[i] = shift & 1 ? w[i + 1] : w[i];
#pragma unroll
  for (int e = 0; e < kE; ++e) x[e] = shift & 2 ? half[e + 2] : half[e];
}

// One unit of one operand into its hi/lo planes. Thread t keeps row t % kRows and
// takes every (128 / kRows)-th chunk column, so each 8-thread phase of a 16-byte
// access touches 8 distinct swizzle positions: no bank conflicts in the staging reads
// or the plane writes. One test of split.cuh's special rules per 8 values picks the
// branch-free formulas (the common case: one basic block the compiler can schedule).
// A narrow tile's columns have fewer such groups than there are transform threads: the
// first kThreads take them, whole warps, and the others pass. kClassLayout: the unit
// was staged class by class (Staging::kClasses, with Operand's `shifts`).
// kPass: Pass; returns whether a run was wide (Pass::kGuarded), else false.
template <TcMethod M, int kRows, int kTransformThreads, Source kSource, bool kClassLayout,
          Pass kPass = Pass::kSplit>
__device__ __forceinline__ bool split_unit_from(const char* box, char* hi, char* lo,
                                                int unit_in_stage, uint32_t shifts) {
  constexpr int kE = uses_half(M) ? 8 : 4;  // FP32 values per stored 16-byte chunk
  constexpr int kChunks = kUnitK / kE;      // chunks of one row in one unit
  // Chunks per test of the special rules: 8 values, one basic block of arithmetic.
  constexpr int kGroup = 8 / kE;
  constexpr int kThreads = std::min(kTransformThreads, kRows * kChunks / kGroup);
  constexpr int kPasses = kRows * kChunks / kThreads;
  static_assert(kPasses * kThreads == kRows * kChunks && kPasses % kGroup == 0 &&
                    kThreads % 32 == 0 && kThreads % kRows == 0,
                "whole passes of whole warps");
  static_assert(kPass == Pass::kSplit || (M == TcMethod::kTf32Tf32 && kGroup * kE == kGuardRun),
                "AUTO's passes: tf32tf32's products, a group a run");
  if (kThreads < kTransformThreads && static_cast<int>(threadIdx.x) >= kThreads) return false;
  constexpr int kStep = kThreads / kRows;  // chunk columns between passes
  constexpr bool kK = kSource == Source::kKMajor;
  const int t = static_cast<int>(threadIdx.x) % kRows;
  const int row = kClassLayout && kK && kRows % 32 == 0 ? class_phase_row(t) : t;
  const int swizzle = row & 7;
  const int first_chunk = threadIdx.x / kRows;
  char* const hi_row = hi + row * kStageRowBytes;
  char* const lo_row = lo + row * kStageRowBytes;
  // K-major class layout: the row's padded line in its class's box, and its shift.
  constexpr int kClassRowBytes = (kUnitK + kClassPad) * 4;
  const char* const class_row =
      box + row % kClasses * class_box_k(kRows) + row / kClasses * kClassRowBytes;
  const int row_shift = shift_of(shifts, row % kClasses);
  // M/N-major class layout: K lines of kRows + kClassPad floats, line kk's shift by kk % 4.
  constexpr int kMnLine = kClassLayout ? kRows + kClassPad : kRows;
  const float* const column = reinterpret_cast<const float*>(box) + row;
  // The thread's chunk column at pass j: every kStep-th; AUTO's passes take the same columns
  // in adjacent pairs, so that a group is one aligned run (the same banks in each phase:
  // its threads still share a column).
  auto chunk_of = [&](int j) {
    if constexpr (kPass == Pass::kSplit) return first_chunk + j * kStep;
    else return 2 * (first_chunk + j / 2 * kStep) + j % 2;
  };
  auto load_group = [&](int pass, float (&x)[kGroup][kE]) {
#pragma unroll
    for (int g = 0; g < kGroup; ++g) {
      const int cc = chunk_of(pass + g);
      if constexpr (kK && kClassLayout) {  // the chunk's kE floats and the next 16 bytes
        float w[kE + kClassPad];
#pragma unroll
        for (int q = 0; q <= kE / 4; ++q) {
          const float4 v = *reinterpret_cast<const float4*>(class_row + (cc * kE / 4 + q) * 16);
          w[4 * q] = v.x, w[4 * q + 1] = v.y, w[4 * q + 2] = v.z, w[4 * q + 3] = v.w;
        }
        shifted<kE>(w, row_shift, x[g]);
      } else if constexpr (kK) {  // 128-byte rows, chunks swizzled by row
        const char* src = box + row * kStageRowBytes;
#pragma unroll
        for (int q = 0; q < kE / 4; ++q) {
          const float4 v =
              *reinterpret_cast<const float4*>(src + (((cc * kE / 4 + q) ^ swizzle) << 4));
          x[g][4 * q] = v.x, x[g][4 * q + 1] = v.y, x[g][4 * q + 2] = v.z, x[g][4 * q + 3] = v.w;
        }
      } else {  // K rows of kMnLine floats
#pragma unroll
        for (int e = 0; e < kE; ++e) {
          const int kk = cc * kE + e;
          x[g][e] = kClassLayout
                        ? column[class_line(kk) * kMnLine + shift_of(shifts, e % kClasses)]
                        : column[kk * kMnLine];
        }
      }
    }
  };
  // Software-pipelined: the next group's loads are issued before this group's
  // arithmetic, so their latency overlaps it.
  float next[kGroup][kE];
  load_group(0, next);
  bool wide = false;
#pragma unroll
  for (int pass = 0; pass < kPasses; pass += kGroup) {
    float x[kGroup][kE];
#pragma unroll
    for (int g = 0; g < kGroup; ++g)
#pragma unroll
      for (int e = 0; e < kE; ++e) x[g][e] = next[g][e];
    if (pass + kGroup < kPasses) load_group(pass + kGroup, next);
    uint32_t h[kGroup][4], l[kGroup][4];
    if constexpr (kPass == Pass::kRaw) {
#pragma unroll
      for (int g = 0; g < kGroup; ++g)
#pragma unroll
        for (int e = 0; e < kE; ++e) h[g][e] = __float_as_uint(x[g][e]);
#pragma unroll
      for (int g = 0; g < kGroup; ++g) {
        const int off = ((unit_in_stage * kChunks + chunk_of(pass + g)) ^ swizzle) << 4;
        *reinterpret_cast<uint4*>(hi_row + off) = make_uint4(h[g][0], h[g][1], h[g][2], h[g][3]);
      }
      continue;
    }
    bool plain = true;
    if constexpr (kPass == Pass::kGuarded) {  // the run's largest magnitude serves both tests
      RunSpread run;
#pragma unroll
      for (int g = 0; g < kGroup; ++g)
#pragma unroll
        for (int e = 0; e < kE; ++e) run.add(x[g][e]);
      plain = run.top < kTf32PlainMagnitude;  // tf32_plain of each value
      wide |= run.wide();
    } else {
#pragma unroll
      for (int g = 0; g < kGroup; ++g)
#pragma unroll
        for (int e = 0; e < kE; ++e)
          plain &= uses_half(M) ? half_plain(x[g][e]) : tf32_plain(x[g][e]);
    }
    if (plain) {
#pragma unroll
      for (int g = 0; g < kGroup; ++g) split_chunk<M, kE, true>(x[g], h[g], l[g]);
    } else {
#pragma unroll
      for (int g = 0; g < kGroup; ++g) split_chunk<M, kE, false>(x[g], h[g], l[g]);
    }
#pragma unroll
    for (int g = 0; g < kGroup; ++g) {
      const int off = ((unit_in_stage * kChunks + chunk_of(pass + g)) ^ swizzle) << 4;
      *reinterpret_cast<uint4*>(hi_row + off) = make_uint4(h[g][0], h[g][1], h[g][2], h[g][3]);
      if constexpr (uses_lo(M))
        *reinterpret_cast<uint4*>(lo_row + off) = make_uint4(l[g][0], l[g][1], l[g][2], l[g][3]);
    }
  }
  return wide;
}

// The staging of a side compiled for kS, as the operand has it.
template <Compiled kS>
__device__ __forceinline__ Staging staging_of(const Operand& op) {
  if constexpr (kS == Compiled::kTma) return Staging::kTma;
  else if constexpr (kS == Compiled::kClasses) return Staging::kClasses;
  else return op.staging;
}

// kS: the staging the side is compiled for (Compiled); kPass and the result: split_unit_from's.
template <TcMethod M, int kRows, int kTransformThreads, Compiled kS, Pass kPass = Pass::kSplit>
__device__ __forceinline__ bool split_unit(const Operand& op, const char* box, char* hi, char* lo,
                                           int unit_in_stage) {
  constexpr Source kK = Source::kKMajor, kMn = Source::kMnMajor;
  constexpr int kT = kTransformThreads;
  const int u = unit_in_stage;
  if (staging_of<kS>(op) == Staging::kClasses) {
    if (op.source == kK) return split_unit_from<M, kRows, kT, kK, true, kPass>(box, hi, lo, u, op.shifts);
    return split_unit_from<M, kRows, kT, kMn, true, kPass>(box, hi, lo, u, op.shifts);
  }
  if (op.source == kK) return split_unit_from<M, kRows, kT, kK, false, kPass>(box, hi, lo, u, 0);
  return split_unit_from<M, kRows, kT, kMn, false, kPass>(box, hi, lo, u, 0);
}

// AUTO's raw pass over both sides of a unit (Pass::kRaw), out of line in the class-mapped and
// copying kernels: the rare path's registers stay out of the split's (the transform keeps 56
// beside two consumers). The TMA kernels spill less with it inline (transform, below).
template <TcMethod M, int kRowsA, int kRowsB, int kTransformThreads, Compiled kA, Compiled kB>
__device__ __noinline__ void raw_unit(const Operand& a, const Operand& b, const char* box,
                                      int slot_a, char* hi_a, char* hi_b) {
  split_unit<M, kRowsA, kTransformThreads, kA, Pass::kRaw>(a, box, hi_a, nullptr, 0);
  split_unit<M, kRowsB, kTransformThreads, kB, Pass::kRaw>(b, box + slot_a, hi_b, nullptr, 0);
}

// Part `c` (0..kClasses-1) of the copy engine's loads of one unit of `op` into its staging
// slot `dst`: class c's box, or for a single map its box as part 0 (none for a copied
// operand); completion is counted on `bar`. kS as split_unit's.
template <int kRows, Compiled kS>
__device__ __forceinline__ void load_unit_part(const Operand& op,
                                               const CUtensorMap (&maps)[kClasses], uint32_t dst,
                                               int32_t k0, int32_t r0, int32_t z, uint32_t bar,
                                               int c) {
  const bool k_major = op.source == Source::kKMajor;
  const Staging staging = staging_of<kS>(op);
  if (staging == Staging::kTma) {
    if (c != 0) return;
    if (k_major) tma_load_3d(dst, &maps[0], k0, r0, z, bar);
    else tma_load_3d(dst, &maps[0], r0, k0, z, bar);
  } else if (staging == Staging::kClasses) {
    // Class c's lines are c, c + 4, ...: K-major, rows r0 / 4 on of its map (r0 % 4 == 0);
    // M/N-major, K lines k0 / 4 on (k0 % 32 == 0). The box starts at the unit's first
    // coordinate in the map, 16-byte aligned: the unit's first element is `shift` in.
    if (k_major)
      tma_load_3d(dst + c * class_box_k(kRows), &maps[c], k0, r0 / kClasses, z, bar);
    else
      tma_load_3d(dst + c * class_box_mn(kRows), &maps[c], r0, k0 / kClasses, z, bar);
  }
}

// One unit of an operand TMA cannot address (Operand::tma false), copied by the transform
// threads into the layout TMA would have written, zeros past its rows and past k: element i
// of the thread's share lies kThreads elements after the one before along the operand's
// contiguous index, so that a warp reads 128 contiguous bytes and writes 32 distinct banks.
// Completion is the thread's cp.async groups' (transform: wait, then the named barrier).
template <int kRows, int kThreads, Source kSource>
__device__ __forceinline__ void copy_unit_as(const Operand& op, const float* base, uint32_t box,
                                             int64_t row0, int64_t k0, int64_t k) {
  constexpr bool kKMajor = kSource == Source::kKMajor;
  constexpr int kLine = kKMajor ? kUnitK : kRows;  // elements along the contiguous index
  constexpr int kLinesPerPass = kThreads / kLine;
  constexpr int kPasses = kRows * kUnitK / kThreads;
  static_assert(kThreads % kLine == 0 && kPasses * kThreads == kRows * kUnitK, "whole lines");
  const int t = static_cast<int>(threadIdx.x), pos = t % kLine, line0 = t / kLine;
  // The unit's extent (a unit may lie past k: units are whole stages).
  const int rows_left = static_cast<int>(min(op.rows - row0, int64_t{kRows}));
  const int k_left = static_cast<int>(max(int64_t{0}, min(k - k0, int64_t{kUnitK})));
  const int64_t step = kLinesPerPass * (kKMajor ? op.stride_r : op.stride_k);
  const float* from = base + (row0 + (kKMajor ? line0 : pos)) * op.stride_r +
                      (k0 + (kKMajor ? pos : line0)) * op.stride_k;
  // Not unrolled whole: the transform threads keep 56 registers beside two consumers.
#pragma unroll 4
  for (int line = line0; line < line0 + kPasses * kLinesPerPass; line += kLinesPerPass, from += step) {
    const int r = kKMajor ? line : pos, kk = kKMajor ? pos : line;
    const bool inside = r < rows_left && kk < k_left;
    const int at = kKMajor ? r * kStageRowBytes + ((((kk >> 2) ^ (r & 7)) << 4) | ((kk & 3) << 2))
                           : (kk * kRows + r) * 4;
    cp_async_4_zfill(box + at, inside ? from : base, inside ? 4 : 0);
  }
}

template <int kRows, int kThreads>
__device__ __forceinline__ void copy_unit(const Operand& op, const float* base, uint32_t box,
                                          int64_t row0, int64_t k0, int64_t k) {
  if (op.source == Source::kKMajor)
    copy_unit_as<kRows, kThreads, Source::kKMajor>(op, base, box, row0, k0, k);
  else
    copy_unit_as<kRows, kThreads, Source::kMnMajor>(op, base, box, row0, k0, k);
}

// kA, kB: the stagings compiled for (Compiled). The general kernels are kernels of their
// own, so that the TMA path's code is as it was without them (with copies, its 128 x 128
// tiles ran 10-16% slower: bench/results/README.md#narrow).
// kGuard (AUTO, docs/numerics.md section 12): a stage in which any run of the tile's rows of
// op(A) or op(B) is wide is the whole tile's FP32 stage: its hi planes get the values
// themselves (Pass::kRaw) and wide_stages[slot] says so to the consumers.
template <TcMethod M, int kConsumers, int kCols, Compiled kA, Compiled kB, bool kGuard>
__device__ __forceinline__ void transform(const Maps& maps, const Problem& p, const Tile& tile,
                                          int64_t z, int64_t first, int64_t units, char* smem,
                                          uint32_t smem_addr, uint32_t staged, uint32_t full,
                                          uint32_t empty, uint32_t* wide_stages) {
  using T = FusedTraits<M, kConsumers, kCols, kA, kB>;
  static_assert(!kGuard || T::kUnitsPerStage == 1, "AUTO's stages: one TF32 unit each");
  constexpr bool kGeneral = T::kGeneral;
  constexpr int kStagingUnits = T::kStagingUnits;
  const bool copy_a = staging_of<kA>(p.a) == Staging::kCopies;
  const bool copy_b = staging_of<kB>(p.b) == Staging::kCopies;
  const bool copies = copy_a || copy_b;  // else no cp.async group is made or waited for
  const uint32_t tx = kGeneral ? p.a.unit_bytes + p.b.unit_bytes
                               : tma_box_bytes(T::kTileM) + tma_box_bytes(kCols);
  const float* base_a = copy_a ? product_base(p.a, z) : nullptr;
  const float* base_b = copy_b ? product_base(p.b, z) : nullptr;
  // A broadcast operand (batch stride 0) has a one-product tensor map.
  const int32_t za = p.a.batch_stride ? static_cast<int32_t>(z) : 0;
  const int32_t zb = p.b.batch_stride ? static_cast<int32_t>(z) : 0;
  // The copy engine's issuers: thread 0 in the TMA kernel (two boxes a unit); in the general
  // kernel lane 0 of each transform warp, warp w issuing part w % 4 of op(A) (warps 0-3)
  // and of op(B) (warps 4-7, or 0-3 beside a single transform warpgroup), warp 0 the
  // expected bytes. (One thread issuing the eight class boxes of a unit held the transform
  // ~10% longer: bench/results/README.md#aligned-copies, call 9.)
  const int warp = static_cast<int>(threadIdx.x) / 32, part = warp % kClasses;
  constexpr bool kOneGroup = T::kTransformThreads == 32 * kClasses;
  const bool part_a = !kGeneral || kOneGroup || warp < kClasses;
  const bool part_b = !kGeneral || kOneGroup || warp >= kClasses;
  const bool issuer = tx != 0 && (kGeneral ? threadIdx.x % 32 == 0 : threadIdx.x == 0);
  auto issue = [&](int64_t u) {
    const uint32_t slot = static_cast<uint32_t>(u % kStagingUnits), bar = staged + 8 * slot;
    const uint32_t dst = smem_addr + slot * T::kStagingBytes;
    const int32_t k0 = static_cast<int32_t>((first + u) * kUnitK);
    const int32_t m0 = static_cast<int32_t>(tile.m0), n0 = static_cast<int32_t>(tile.n0);
    if (warp == 0) mbarrier_arrive_expect_tx(bar, tx);
    if (part_a) load_unit_part<T::kTileM, kA>(p.a, maps.a, dst, k0, m0, za, bar, part);
    if (part_b) load_unit_part<kCols, kB>(p.b, maps.b, dst + T::kSlotA, k0, n0, zb, bar, part);
  };
  // The copied operands: every transform thread's copies of unit u, one cp.async group a
  // unit (empty past the last), so that a wait counts units.
  auto copy = [&](int64_t u) {
    if (!copies) return;
    if (u < units) {
      const uint32_t dst = smem_addr + static_cast<uint32_t>(u % kStagingUnits) * T::kStagingBytes;
      const int64_t k0 = (first + u) * kUnitK;
      if (copy_a) copy_unit<T::kTileM, T::kTransformThreads>(p.a, base_a, dst, tile.m0, k0, p.k);
      if (copy_b)
        copy_unit<kCols, T::kTransformThreads>(p.b, base_b, dst + T::kSlotA, tile.n0, k0, p.k);
    }
    cp_async_commit();
  };
  if (issuer)
    for (int64_t u = 0; u < min(static_cast<int64_t>(kStagingUnits), units); ++u) issue(u);
  if (copies) {
    for (int64_t u = 0; u < kStagingUnits; ++u) copy(u);
    cp_async_wait<kStagingUnits - 1>();
    named_barrier_sync(kTransformBarrier, T::kTransformThreads);  // unit 0, every thread's share
  }
  char* const ring = smem + kStagingUnits * T::kStagingBytes;
  for (int64_t u = 0; u < units; ++u) {
    const uint32_t slot = static_cast<uint32_t>(u % kStagingUnits);
    if (tx) mbarrier_wait(staged + 8 * slot, static_cast<uint32_t>(u / kStagingUnits) & 1);
    const int64_t stage = u / T::kUnitsPerStage;
    const int unit_in_stage = static_cast<int>(u % T::kUnitsPerStage);
    const uint32_t s = static_cast<uint32_t>(stage % T::kStages);
    if (unit_in_stage == 0 && stage >= T::kStages)  // the consumers freed this slot
      mbarrier_wait(empty + 8 * s, static_cast<uint32_t>(stage / T::kStages - 1) & 1);
    char* const planes = ring + s * T::kStageBytes;
    const char* const box = smem + slot * T::kStagingBytes;
    if constexpr (kGuard) {
      constexpr Pass kSplit = Pass::kGuarded;
      char* const lo_a = planes + T::kPlaneA + T::kPlaneB;
      char* const lo_b = planes + 2 * T::kPlaneA + T::kPlaneB;
      bool wide = split_unit<M, T::kTileM, T::kTransformThreads, kA, kSplit>(p.a, box, planes, lo_a, 0);
      wide |= split_unit<M, kCols, T::kTransformThreads, kB, kSplit>(p.b, box + T::kSlotA,
                                                                    planes + T::kPlaneA, lo_b, 0);
      if (copies) cp_async_wait<kStagingUnits - 2>();  // this thread's share of unit u + 1
      // The staging slot read by all (and unit u + 1's copies seen by all), and the tile's vote.
      if (named_barrier_or(kTransformBarrier, T::kTransformThreads, wide)) {  // rare: wide data
        if constexpr (kA == Compiled::kTma && kB == Compiled::kTma) {  // inline (raw_unit says why)
          split_unit<M, T::kTileM, T::kTransformThreads, kA, Pass::kRaw>(p.a, box, planes, nullptr, 0);
          split_unit<M, kCols, T::kTransformThreads, kB, Pass::kRaw>(p.b, box + T::kSlotA,
                                                                    planes + T::kPlaneA, nullptr, 0);
        } else {
          raw_unit<M, T::kTileM, kCols, T::kTransformThreads, kA, kB>(p.a, p.b, box, T::kSlotA, planes,
                                                                      planes + T::kPlaneA);
        }
        if (threadIdx.x == 0) wide_stages[s] = 1;
        named_barrier_sync(kTransformBarrier, T::kTransformThreads);  // the slot read again
      } else if (threadIdx.x == 0) {
        wide_stages[s] = 0;
      }
      fence_proxy_async();  // the stores above are read by wgmma (the async proxy)
      mbarrier_arrive(full + 8 * s);
      if (issuer && u + kStagingUnits < units) issue(u + kStagingUnits);
      copy(u + kStagingUnits);
      continue;
    }
    split_unit<M, T::kTileM, T::kTransformThreads, kA>(
        p.a, box, planes, planes + T::kPlaneA + T::kPlaneB, unit_in_stage);
    split_unit<M, kCols, T::kTransformThreads, kB>(
        p.b, box + T::kSlotA, planes + T::kPlaneA, planes + 2 * T::kPlaneA + T::kPlaneB,
        unit_in_stage);
    if (unit_in_stage == T::kUnitsPerStage - 1) {
      fence_proxy_async();  // the stores above are read by wgmma (the async proxy)
      mbarrier_arrive(full + 8 * s);
    }
    if (copies) cp_async_wait<kStagingUnits - 2>();  // this thread's share of unit u + 1
    // The staging slot read by all (and unit u + 1's copies seen by all).
    named_barrier_sync(kTransformBarrier, T::kTransformThreads);
    if (issuer && u + kStagingUnits < units) issue(u + kStagingUnits);
    copy(u + kStagingUnits);
  }
}

// Tile element (i, j) is C's (i, j), or (j, i) when the call was swapped.
template <TcMethod M, int kCols>
__device__ __forceinline__ void store_tile(const Accumulators<kCols>& acc, const Problem& p,
                                           const Tile& tile, int64_t z, int consumer) {
  const Epilogue epi = Epilogue::of(p.scalars, gridDim.z == 1);
  float* const c = !epi.direct ? p.partials + blockIdx.z * p.m * p.n
                   : p.c_array ? p.c_array[z]
                               : p.c + z * p.c_stride;
  const int64_t ld = epi.direct ? p.ldc : p.m;
  const int64_t rows = p.swapped ? p.n : p.m, cols = p.swapped ? p.m : p.n;
  const int64_t i0 = tile.m0 + consumer * kConsumerRows;
#pragma unroll
  for (int v = 0; v < Accumulators<kCols>::kValues; ++v) {
    const int64_t i = i0 + slab_row(v), j = tile.n0 + slab_col(v);
    if (i >= rows || j >= cols) continue;
    float* const dst = p.swapped ? c + i * ld + j : c + j * ld + i;
    epi.store(dst, finish_sum<M>(acc.promoted[v], acc.correction[v]));
  }
}
#endif  // ECGEMM_SM90A_DEVICE

// kGuard: AUTO's FP32 stages (transform).
template <TcMethod M, int kConsumers, int kCols, Compiled kA, Compiled kB, bool kGuard>
__global__ void __launch_bounds__(FusedTraits<M, kConsumers, kCols, kA, kB>::kThreads, 1)
fused_wgmma_kernel(const __grid_constant__ Maps maps, const __grid_constant__ Problem p) {
#if defined(ECGEMM_SM90A_DEVICE)
  wait_for_prior_grids();  // a first kernel launched dependent (common/launch.cuh)
  allow_dependents();      // a split-K reduction, or the next call, may queue up
  using T = FusedTraits<M, kConsumers, kCols, kA, kB>;
  constexpr int kStagingUnits = T::kStagingUnits;
  extern __shared__ char smem_raw[];
  __shared__ __align__(8) uint64_t staged_bars[kStagingUnits];
  __shared__ __align__(8) uint64_t full_bars[T::kStages], empty_bars[T::kStages];
  __shared__ uint32_t wide_stages[kGuard ? T::kStages : 1];  // AUTO: slot s is an FP32 stage
  const uint32_t raw = smem_u32(smem_raw);
  const uint32_t pad = ((raw + kSmemAlign - 1) & ~uint32_t(kSmemAlign - 1)) - raw;
  char* const smem = smem_raw + pad;
  const uint32_t smem_addr = raw + pad;
  const uint32_t staged = smem_u32(staged_bars), full = smem_u32(full_bars),
                 empty = smem_u32(empty_bars);
  const Tile tile = raster_tile(p.tiles_m, p.tiles_n, T::kTileM, kCols);
  const int64_t z = batch_product(p.batch_offset);
  const int64_t first = blockIdx.z * p.units_per_split;
  const int64_t units = max(int64_t(0), min(p.units, first + p.units_per_split) - first);

  if (threadIdx.x == 0) {
    for (int s = 0; s < kStagingUnits; ++s) mbarrier_init(staged + 8 * s, 1);
    init_stage_ring(full, empty, T::kStages, T::kTransformThreads, 4 * kConsumers);
    fence_barrier_init();
    for (int c = 0; c < (kA == Compiled::kTma ? 1 : maps_of(p.a)); ++c)
      prefetch_tensor_map(&maps.a[c]);
    for (int c = 0; c < (kB == Compiled::kTma ? 1 : maps_of(p.b)); ++c)
      prefetch_tensor_map(&maps.b[c]);
  }
  __syncthreads();

  const int group = threadIdx.x / 128;
  if (group < T::kTransformGroups) {
    release_registers<T::kTransformRegs>();
    transform<M, kConsumers, kCols, kA, kB, kGuard>(maps, p, tile, z, first, units, smem,
                                                    smem_addr, staged, full, empty, wide_stages);
  } else {
    claim_registers<T::kConsumerRegs>();
    const int consumer = group - T::kTransformGroups;
    Accumulators<kCols> acc;
    acc.clear();
    const uint32_t ring = smem_addr + kStagingUnits * T::kStagingBytes;
    auto stage = [ring](uint32_t s) {
      const uint32_t base = ring + s * T::kStageBytes;
      return StageLayout{base, base + T::kPlaneA, base + T::kPlaneA + T::kPlaneB,
                         base + 2 * T::kPlaneA + T::kPlaneB};
    };
    consume<M, T::kStages, kCols, decltype(stage), kGuard>(acc, units / T::kUnitsPerStage, stage,
                                                           full, empty, consumer, 0, false,
                                                           wide_stages);
    store_tile<M, kCols>(acc, p, tile, z, consumer);
  }
#elif defined(__CUDA_ARCH__)
  __trap();  // never launched: fused_wgmma_usable requires the sm_90a image
#endif
}

// ---- host side -------------------------------------------------------------------

// op(A) as the M side and op(B) as the N side, both seen as rows x K.
inline Operand side(const OperandView& v, const float* const* array, int64_t batch_stride) {
  Operand op;
  op.ptr = v.p;
  op.array = array;
  op.batch_stride = batch_stride;
  op.rows = v.rows;
  op.stride_r = v.stride_r;
  op.stride_k = v.stride_k;
  return op;
}

// Whether the copy engine can address `op` through one map as it is: 16-byte aligned base,
// leading dimension and batch stride, not a pointer array (encode_operand; else the general
// kernel's class maps or copies).
inline bool one_map_fits(const Operand& op, int64_t batch) {
  const int64_t ld = op.stride_k == 1 ? op.stride_r : op.stride_k;
  const bool batched = batch > 1 && op.batch_stride != 0;
  return !op.array && reinterpret_cast<uintptr_t>(op.ptr) % 16 == 0 && ld % 4 == 0 &&
         (!batched || op.batch_stride % 4 == 0);
}

// Whether `args` runs in the general kernel (FusedWgmmaPlan::general).
inline bool general_kernel(const GemmArgs& args) {
  const int64_t count = args.batch.count;
  return !one_map_fits(side(view_a(args), args.batch.a_array, args.batch.stride_a), count) ||
         !one_map_fits(side(view_b(args), args.batch.b_array, args.batch.stride_b), count);
}

// One map of `lines` lines of `inner` floats from `base`, `line_bytes` apart, in `batches`
// products `batch_bytes` apart (or one); boxes of box_inner x box_lines.
inline bool encode_map(CUtensorMap* map, const float* base, int64_t inner, int64_t lines,
                int64_t batches, int64_t line_bytes, int64_t batch_bytes, int box_inner,
                int box_lines, bool swizzle) {
  constexpr int64_t kMaxStride = int64_t(1) << 40;
  if (reinterpret_cast<uintptr_t>(base) % 16 != 0 || line_bytes % 16 != 0 ||
      batch_bytes % 16 != 0 || batch_bytes <= 0 || line_bytes >= kMaxStride ||
      batch_bytes >= kMaxStride)
    return false;
  const cuuint64_t dims[3] = {static_cast<cuuint64_t>(inner), static_cast<cuuint64_t>(lines),
                              static_cast<cuuint64_t>(batches)};
  const cuuint64_t strides[2] = {static_cast<cuuint64_t>(line_bytes),
                                 static_cast<cuuint64_t>(batch_bytes)};
  const cuuint32_t box[3] = {static_cast<cuuint32_t>(box_inner),
                             static_cast<cuuint32_t>(box_lines), 1};
  const cuuint32_t unit[3] = {1, 1, 1};
  return tensor_map_encoder()(
             map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, const_cast<float*>(base), dims, strides,
             box, unit, CU_TENSOR_MAP_INTERLEAVE_NONE,
             swizzle ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
             CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

// How `op` is staged, with its maps: one where the copy engine can address it as it is;
// kClasses where only its base or leading dimension is off 16 bytes (class c: lines c,
// c + 4, ..., 4 * ld floats apart, the base aligned down by class c's shift (Operand::
// shifts) and the extent grown by as many, so that the zero fill past each line's end is where the
// single map's would be); else copies (a pointer array, a batch stride off 16 bytes, a
// base off 4, or fewer than kClasses lines: a class would be empty).
inline Staging encode_operand(CUtensorMap (&maps)[kClasses], Operand& op, int64_t k, int box_rows,
                       int64_t batch) {
  const bool k_major = op.stride_k == 1;
  op.source = k_major ? Source::kKMajor : Source::kMnMajor;
  if (op.array) return Staging::kCopies;
  const int64_t ld = k_major ? op.stride_r : op.stride_k;
  const bool batched = batch > 1 && op.batch_stride != 0;
  const int64_t batches = batched ? batch : 1;
  // Lines: rows of K (K-major) or K lines of rows (M/N-major).
  const int64_t inner = k_major ? k : op.rows, lines = k_major ? op.rows : k;
  const int box_inner = k_major ? kUnitK : box_rows, box_lines = k_major ? box_rows : kUnitK;
  op.unit_bytes = static_cast<uint32_t>(tma_box_bytes(box_rows));
  if (one_map_fits(op, batch) &&
      encode_map(&maps[0], op.ptr, inner, lines, batches, ld * 4,
                 batched ? op.batch_stride * 4 : ld * 4 * lines, box_inner, box_lines, k_major))
    return Staging::kTma;
  op.unit_bytes = 0;
  if (reinterpret_cast<uintptr_t>(op.ptr) % 4 != 0 || lines < kClasses) return Staging::kCopies;
  op.shifts = 0;
  for (int c = 0; c < kClasses; ++c) {
    const float* line = op.ptr + c * ld;
    const int shift = static_cast<int>(reinterpret_cast<uintptr_t>(line) % 16 / 4);
    const int64_t class_lines = (lines - c + kClasses - 1) / kClasses;
    op.shifts |= static_cast<uint32_t>(shift) << (2 * c);
    if (!encode_map(&maps[c], line - shift, inner + shift, class_lines, batches,
                    ld * 4 * kClasses,
                    batched ? op.batch_stride * 4 : ld * 4 * kClasses * class_lines,
                    box_inner + kClassPad, box_lines / kClasses, false))
      return Staging::kCopies;
  }
  op.unit_bytes =
      static_cast<uint32_t>(kClasses * (box_inner + kClassPad) * (box_lines / kClasses) * 4);
  return Staging::kClasses;
}

// The kernel compiled for (kA, kB) over every batch part of the call.
template <TcMethod M, int kConsumers, int kCols, Compiled kA, Compiled kB, bool kGuard>
cudaError_t launch_compiled(const GemmArgs& args, const FusedWgmmaPlan& plan, const Maps& maps,
                            Problem& p, const DeviceInfo& dev, cudaStream_t stream) {
  using T = FusedTraits<M, kConsumers, kCols, kA, kB>;
  constexpr auto kKernel = fused_wgmma_kernel<M, kConsumers, kCols, kA, kB, kGuard>;
  const cudaError_t err = opt_in_shared_memory<kKernel>(dev.ordinal, T::kSmemBytes);
  if (err != cudaSuccess) return err;
  return for_each_batch_launch(args, [&](const GemmArgs& part, unsigned products) {
    p.batch_offset = part.batch.first;
    const dim3 grid(static_cast<unsigned>(p.tiles_m * p.tiles_n), products,
                    static_cast<unsigned>(plan.splits));
    return launch(first_kernel({grid, T::kThreads, static_cast<size_t>(T::kSmemBytes), stream}),
                  kKernel, maps, p);
  });
}

// The kernel for the operands' stagings: the TMA kernel, a class-mapped pair's own
// (the corrected methods and AUTO), or the one that reads them at run time (Compiled). AUTO's
// run-time kernel ran 0.75-0.85x tf32tf32's class-mapped pairs (bench/results/README.md#auto-wgmma).
template <TcMethod M, int kConsumers, int kCols, bool kGuard>
cudaError_t launch_staged(const GemmArgs& args, const FusedWgmmaPlan& plan, const Maps& maps,
                          Problem& p, const DeviceInfo& dev, cudaStream_t stream) {
  using C = Compiled;
  const Staging a = p.a.staging, b = p.b.staging;
  auto run = [&](auto ka, auto kb) {
    return launch_compiled<M, kConsumers, kCols, decltype(ka)::value, decltype(kb)::value, kGuard>(
        args, plan, maps, p, dev, stream);
  };
  using Tma = std::integral_constant<C, C::kTma>;
  using Classes = std::integral_constant<C, C::kClasses>;
  using Any = std::integral_constant<C, C::kAny>;
  if (a == Staging::kTma && b == Staging::kTma) return run(Tma{}, Tma{});
  if constexpr (scheme_of(M) == Scheme::kCorrected) {
    if (a != Staging::kCopies && b != Staging::kCopies) {
      if (a == Staging::kTma) return run(Tma{}, Classes{});
      if (b == Staging::kTma) return run(Classes{}, Tma{});
      return run(Classes{}, Classes{});
    }
  }
  return run(Any{}, Any{});
}

template <TcMethod M, int kConsumers, int kCols, bool kGuard>
cudaError_t launch_fused(const GemmArgs& args, const FusedWgmmaPlan& plan, void* ws,
                         const DeviceInfo& dev, cudaStream_t stream) {
  // Tile extents and stages per unit: the same in every staging's kernel.
  using T = FusedTraits<M, kConsumers, kCols, Compiled::kTma, Compiled::kTma>;
  Problem p;
  p.a = side(view_a(args), args.batch.a_array, args.batch.stride_a);
  p.b = side(view_b(args), args.batch.b_array, args.batch.stride_b);
  if (plan.swapped) std::swap(p.a, p.b);
  Maps maps{};
  p.a.staging = encode_operand(maps.a, p.a, args.k, T::kTileM, args.batch.count);
  p.b.staging = encode_operand(maps.b, p.b, args.k, kCols, args.batch.count);
  p.k = args.k;
  p.tiles_m = (p.a.rows + T::kTileM - 1) / T::kTileM;
  p.tiles_n = (p.b.rows + kCols - 1) / kCols;
  p.units_per_split = plan.units_per_split;
  p.units = round_up(args.k, kUnitK * T::kUnitsPerStage) / kUnitK;
  p.c = args.c;
  p.c_array = args.batch.c_array;
  p.ldc = args.ldc;
  p.c_stride = args.batch.stride_c;
  p.m = args.m;
  p.n = args.n;
  p.swapped = plan.swapped;
  p.partials = static_cast<float*>(ws);
  p.scalars = args.scalars;
  const cudaError_t err = launch_staged<M, kConsumers, kCols, kGuard>(args, plan, maps, p, dev, stream);
  if (err != cudaSuccess) return err;
  if (plan.splits == 1) return cudaSuccess;
  // One m x n plane per split, in C's orientation (swapped or not).
  const Partials partials{static_cast<const float*>(ws), plan.splits, args.m, args.n,
                          SplitOrder::kSerial};
  return launch_splitk_reduce(args, partials, stream, true);
}

// Every tile's kernels for method M: launch_fused_wgmma's switch over tiles (compiled in
// the method's own file: fused_wgmma_<method>.cu; AUTO's, kGuard, in fused_wgmma_auto.cu).
template <TcMethod M, bool kGuard = false>
cudaError_t launch_tiles(const GemmArgs& args, const FusedWgmmaPlan& plan, void* workspace,
                         const DeviceInfo& dev, cudaStream_t stream) {
  constexpr bool kG = kGuard;
  if (plan.cols == kWideCols)
    return plan.consumers == 1
               ? launch_fused<M, 1, kWideCols, kG>(args, plan, workspace, dev, stream)
               : launch_fused<M, 2, kWideCols, kG>(args, plan, workspace, dev, stream);
  // The narrow tiles: the corrected methods only (fused_wgmma_narrow).
  if constexpr (scheme_of(M) == Scheme::kCorrected) {
    switch (plan.cols) {
      case 16: return launch_fused<M, 2, 16, kG>(args, plan, workspace, dev, stream);
      case 32: return launch_fused<M, 2, 32, kG>(args, plan, workspace, dev, stream);
      case 64: return launch_fused<M, 2, 64, kG>(args, plan, workspace, dev, stream);
    }
  }
  return cudaErrorInvalidValue;
}

}  // namespace

// The methods' kernels, a file each so that they compile in parallel (fused_wgmma.cu:
// launch_fused_wgmma calls them).
cudaError_t launch_fused_wgmma_tf32tf32(const GemmArgs& args, const FusedWgmmaPlan& plan,
                                        void* workspace, const DeviceInfo& dev,
                                        cudaStream_t stream);
cudaError_t launch_fused_wgmma_halfhalf(const GemmArgs& args, const FusedWgmmaPlan& plan,
                                        void* workspace, const DeviceInfo& dev,
                                        cudaStream_t stream);
cudaError_t launch_fused_wgmma_one_pass(TcMethod method, const GemmArgs& args,
                                        const FusedWgmmaPlan& plan, void* workspace,
                                        const DeviceInfo& dev, cudaStream_t stream);
cudaError_t launch_fused_wgmma_auto(const GemmArgs& args, const FusedWgmmaPlan& plan,
                                    void* workspace, const DeviceInfo& dev, cudaStream_t stream);

}  // namespace ecgemm::detail
