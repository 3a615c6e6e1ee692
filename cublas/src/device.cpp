#include "device.hpp"

#include <cuda_runtime_api.h>

namespace ecgemm_cublas {

int current_device() {
  int device = -1;
  return cudaGetDevice(&device) == cudaSuccess ? device : -1;
}

DeviceScope::DeviceScope(int device) {
  if (device < 0) return;
  const int current = current_device();
  if (current == device) return;
  ok_ = cudaSetDevice(device) == cudaSuccess;
  if (ok_) previous_ = current;
}

DeviceScope::~DeviceScope() {
  if (previous_ >= 0) cudaSetDevice(previous_);
}

}  // namespace ecgemm_cublas
