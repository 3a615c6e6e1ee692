// A C ABI over GEMMul8's C++ API, for bench/gemmul8_peer.py (ctypes cannot call a template that returns a
// std::vector). Built with GEMMul8's gemmul8.cu into one shared object by tools/build_gemmul8.sh; GEMMul8's
// source is fetched at build time and never committed. INT8 backend, cuBLAS-handle entry, FP32 only.
#include <cstddef>
#include <exception>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "gemmul8.hpp"

extern "C" {

// Bytes of workspace one ecgemm_gemmul8_sgemm call of this size needs (no skip-scaling areas).
size_t ecgemm_gemmul8_work_size(size_t m, size_t n, size_t k, unsigned num_moduli) {
    return gemmul8::workSize<false, gemmul8::Backend::INT8>(m, n, k, num_moduli);
}

// A cuBLAS handle of our own: GEMMul8 points the handle's workspace into ours (cublasSetWorkspace), so
// lending it torch's handle would leave torch's cuBLAS pointing at our buffer.
int ecgemm_gemmul8_create(void **handle) {
    return static_cast<int>(cublasCreate(reinterpret_cast<cublasHandle_t *>(handle)));
}

int ecgemm_gemmul8_destroy(void *handle) {
    return static_cast<int>(cublasDestroy(static_cast<cublasHandle_t>(handle)));
}

// C = alpha·op(A)·op(B) + beta·C, column-major, cuBLAS argument meanings (op: 0 = N, 1 = T), on `stream`.
// GEMMul8 reads the stream from the handle, so it is set here on every call. GEMMul8 synchronises that stream
// between its phases (its phase timers), so the call returns with its work done. timers_ns (4 doubles, may be
// null) receives GEMMul8's phase times: scaling, INT8 GEMMs, mod reduction, accumulation + inverse scaling.
// Returns 0, a cublasStatus_t from cublasSetStream, 1000 + a cudaError_t raised by the call, or -1 for a C++
// exception.
int ecgemm_gemmul8_sgemm(void *handle, void *stream, int op_a, int op_b, size_t m, size_t n, size_t k,
                         float alpha, const float *a, size_t lda, const float *b, size_t ldb, float beta, float *c,
                         size_t ldc, unsigned num_moduli, int fastmode, void *work, double *timers_ns) {
    cublasHandle_t h = static_cast<cublasHandle_t>(handle);
    cublasStatus_t st = cublasSetStream(h, static_cast<cudaStream_t>(stream));
    if (st != CUBLAS_STATUS_SUCCESS) return static_cast<int>(st);
    try {
        std::vector<double> t = gemmul8::gemm<float, gemmul8::Backend::INT8>(
            h, op_a ? CUBLAS_OP_T : CUBLAS_OP_N, op_b ? CUBLAS_OP_T : CUBLAS_OP_N, m, n, k, &alpha, a, lda, b, ldb,
            &beta, c, ldc, num_moduli, fastmode != 0, work);
        if (timers_ns != nullptr)
            for (size_t i = 0; i < 4; ++i) timers_ns[i] = i < t.size() ? t[i] : 0.0;
    } catch (const std::exception &) {
        return -1;
    }
    cudaError_t err = cudaGetLastError();
    return err == cudaSuccess ? 0 : 1000 + static_cast<int>(err);
}

}  // extern "C"
