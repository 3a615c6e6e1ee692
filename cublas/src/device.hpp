// The CUDA device current on the calling thread, through the CUDA runtime linked into
// this library (statically, as libecgemm's is: the current context is the driver's, so
// both runtimes and the application's see the same device).
#pragma once

namespace ecgemm_cublas {

// The current device, or -1 when CUDA cannot tell (no GPU, no driver).
int current_device();

// Makes `device` current for its lifetime and puts the caller's back; does nothing for
// a negative `device` or one already current.
class DeviceScope {
 public:
  explicit DeviceScope(int device);
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;
  bool ok() const { return ok_; }  // false: `device` could not be made current

 private:
  int previous_ = -1;
  bool ok_ = true;
};

}  // namespace ecgemm_cublas
