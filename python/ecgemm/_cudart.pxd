# The few CUDA runtime entry points the binding uses itself: device selection,
# pointer queries, stream-ordered copies and events. Private to ecgemm.

cdef extern from "cuda_runtime_api.h" nogil:
    ctypedef enum cudaError_t:
        cudaSuccess
        cudaErrorMemoryAllocation
        cudaErrorInsufficientDriver
        cudaErrorNoDevice
        cudaErrorNotSupported

    cdef enum cudaMemcpyKind:
        cudaMemcpyHostToDevice
        cudaMemcpyDeviceToHost
        cudaMemcpyDeviceToDevice

    cdef enum cudaMemoryType:
        cudaMemoryTypeUnregistered
        cudaMemoryTypeHost
        cudaMemoryTypeDevice
        cudaMemoryTypeManaged

    cdef enum cudaStreamCaptureStatus:
        cudaStreamCaptureStatusNone

    ctypedef void* cudaStream_t "cudaStream_t"
    ctypedef void* cudaEvent_t "cudaEvent_t"

    cdef struct cudaPointerAttributes:
        cudaMemoryType type
        int device

    cdef struct cudaDeviceProp:
        char name[256]
        size_t totalGlobalMem
        int major
        int minor
        int multiProcessorCount

    unsigned int cudaEventDisableTiming

    const char* cudaGetErrorName(cudaError_t error)
    const char* cudaGetErrorString(cudaError_t error)
    cudaError_t cudaGetLastError()

    cudaError_t cudaGetDeviceCount(int* count)
    cudaError_t cudaGetDevice(int* device)
    cudaError_t cudaSetDevice(int device)
    cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device)
    cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr)

    cudaError_t cudaMallocAsync(void** ptr, size_t size, cudaStream_t stream)
    cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream)
    cudaError_t cudaMalloc(void** ptr, size_t size)
    cudaError_t cudaFree(void* ptr)
    cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                                  size_t width, size_t height, cudaMemcpyKind kind,
                                  cudaStream_t stream)
    cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                                cudaStream_t stream)
    cudaError_t cudaStreamSynchronize(cudaStream_t stream)
    cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status)
    cudaError_t cudaMemGetInfo(size_t* free, size_t* total)

    cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags)
    cudaError_t cudaEventCreate(cudaEvent_t* event)
    cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
    cudaError_t cudaEventSynchronize(cudaEvent_t event)
    cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end)
    cudaError_t cudaEventDestroy(cudaEvent_t event)
    cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
    cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind)
    cudaError_t cudaDeviceSynchronize()
