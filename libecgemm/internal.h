/*
 * Internal entry points exported by libecgemm for its own tests and the Python
 * numerics lab. Not part of the public ABI: names may change between versions.
 */
#ifndef ECGEMM_INTERNAL_H
#define ECGEMM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ecgemm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Split methods, as the kernels apply them (see split.cuh). */
typedef enum {
  ECGEMM_SPLIT_TF32 = 0,     /* hi = tf32_rna(x), lo = tf32_rna(x - hi)                 */
  ECGEMM_SPLIT_HALF = 1,     /* hi = fp16_rn(x),  lo = fp16_rn((x - hi) * 2^11)          */
  ECGEMM_SPLIT_MARKIDIS = 2  /* hi = fp16_rn(x),  lo = fp16_rn(x - hi)                   */
} ecgemmSplitMethod_t;

/*
 * The argument checks ecgemm_sgemm runs, in netlib order. Returns 0 when all are
 * valid, else the netlib position of the first bad one (1, 2, 3, 4, 5, 8, 10, 13).
 */
ECGEMM_API int ecgemm_internal_validate(int transa, int transb, int m, int n, int k, int lda,
                                        int ldb, int ldc);

/* The batched calls' extra checks (after the above), as they run them: 0, or 14 strideA,
 * 15 strideB, 16 strideC, 17 batch_count. strided = 0 for the pointer-array form. */
ECGEMM_API int ecgemm_internal_validate_batch(int64_t m, int64_t n, int64_t ldc, int64_t stride_a,
                                              int64_t stride_b, int64_t stride_c,
                                              int64_t batch_count, int strided);

/*
 * Split n host floats with the host-compiled split functions. hi and lo receive
 * the stored values widened to float (lo still carries the 2^11 scale for HALF).
 */
ECGEMM_API ecgemmStatus_t ecgemm_internal_split_host(ecgemmSplitMethod_t method, const float* x,
                                                     float* hi, float* lo, size_t n);

/* The same on the device, with the device-compiled split functions (device pointers). */
ECGEMM_API ecgemmStatus_t ecgemm_internal_split_device(ecgemmSplitMethod_t method, const float* x,
                                                       float* hi, float* lo, size_t n);

/*
 * The plan a call of this shape would run on the handle (what ECGEMM_VERBOSE prints),
 * as text: "family=... method=... tile=... splits=... workspace=...". Arguments as for
 * ecgemm_get_workspace_size_64. For ecgemm.explain and the tests.
 */
ECGEMM_API ecgemmStatus_t ecgemm_internal_plan_string(ecgemmHandle_t handle, int transa, int transb,
                                                      int64_t m, int64_t n, int64_t k, int64_t lda,
                                                      int64_t ldb, int64_t ldc, int64_t batch_count,
                                                      int pointer_arrays, char* text, size_t length);

/* A GPU described rather than opened: what the planner reads of one (dram_gbps: peak DRAM
   bandwidth in GB/s, 0 where unknown: no bandwidth floor under the cost model's estimates). */
typedef struct {
  int cc_major, cc_minor, sm_count, max_smem_per_block;
  double dram_gbps;
} ecgemmInternalDevice_t;

#define ECGEMM_INTERNAL_COST_FEATURES 8

/*
 * The planner on a described GPU (no GPU or driver needed): the plan of a call of this
 * shape in `mode`, as ecgemm_internal_plan_string writes it. `family` NULL or "" is the
 * planner's choice; a family name gives that family's own plan, or NOT_SUPPORTED where it
 * cannot run the call. `features` (NULL, or ECGEMM_INTERNAL_COST_FEATURES doubles)
 * receives the cost model's inputs for the plan (libecgemm/cost_model.hpp). For the cost
 * model's fit (tools/fit_cost_model.py) and the planner's CPU tests.
 */
ECGEMM_API ecgemmStatus_t ecgemm_internal_plan_on(const ecgemmInternalDevice_t* device,
                                                  ecgemmMode_t mode, const char* family,
                                                  int transa, int transb, int64_t m, int64_t n,
                                                  int64_t k, int64_t lda, int64_t ldb,
                                                  int64_t ldc, int64_t batch_count, float beta,
                                                  double* features, char* text, size_t length);

/* The library pool of `device`: bytes in use now and at most since the last reset,
 * reserved now and at most (reset_high != 0 resets both highs after reading). */
ECGEMM_API ecgemmStatus_t ecgemm_internal_workspace_usage(int device, int reset_high, size_t* used,
                                                          size_t* used_high, size_t* reserved,
                                                          size_t* reserved_high);

#ifdef __cplusplus
}
#endif

#endif /* ECGEMM_INTERNAL_H */
