// The probes' timing (lab/probes/probe_*.cu): the library's timing
// module (gpuprim/detail/timing.hpp) with the probes' counts, in
// milliseconds. The probes are programs of their own (CMake targets
// gpuprim_lab_probe_<name>, which scripts/device-check.sh builds), not part
// of the library, the tests or the benchmark harness.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "gpuprim/detail/timing.hpp"

// Ends the probe after a failed call: "<library> error <error> at line <line>".
[[noreturn]] inline void probe_failed(const char* library, const std::string& error, int line) {
  std::printf("%s error %s at line %d\n", library, error.c_str(), line);
  std::exit(1);
}

#define CHECK_CUDA(x)                                                            \
  do {                                                                           \
    const cudaError_t e = (x);                                                   \
    if (e != cudaSuccess) probe_failed("CUDA", cudaGetErrorString(e), __LINE__); \
  } while (0)

// Frees device buffers (cudaFree), ending the probe on an error.
template <class... T>
void free_device(T*... buffers) {
  for (void* buffer : {static_cast<void*>(buffers)...})
    CHECK_CUDA(cudaFree(buffer));
}

// A device buffer of n elements (at least one, so a pointer of an empty
// input is still valid), a device copy of a host vector, and a host copy
// of n device elements; each ends the probe on an error.
template <class T>
T* device_array(std::size_t n) {
  T* p = nullptr;
  CHECK_CUDA(cudaMalloc(&p, std::max<std::size_t>(n, 1) * sizeof(T)));
  return p;
}
template <class T>
T* device_copy(const std::vector<T>& x) {
  T* p = device_array<T>(x.size());
  CHECK_CUDA(cudaMemcpy(p, x.data(), x.size() * sizeof(T), cudaMemcpyHostToDevice));
  return p;
}
template <class T>
std::vector<T> host_copy(const T* p, std::size_t n) {
  std::vector<T> x(n);
  CHECK_CUDA(cudaMemcpy(x.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
  return x;
}

// One CUB algorithm's two-phase calls on one set of arguments: `call(temp,
// bytes)` makes the CUB call; the constructor sizes the temporary storage
// (temp == nullptr) and allocates it, operator() makes the call with it,
// the destructor frees it.
template <class Call>
class cub_call {
 public:
  explicit cub_call(Call call) : call_(std::move(call)) {
    CHECK_CUDA(call_(nullptr, bytes_));
    CHECK_CUDA(cudaMalloc(&temp_, bytes_));
  }
  ~cub_call() { cudaFree(temp_); }
  cub_call(const cub_call&) = delete;
  cub_call& operator=(const cub_call&) = delete;

  void operator()() const { CHECK_CUDA(call_(temp_, bytes_)); }

 private:
  Call call_;
  void* temp_ = nullptr;
  mutable std::size_t bytes_ = 0;  // CUB takes it by reference
};

// One call between two events, the host waiting for each: median of 20
// after 3 warm-up calls, on `stream` (the legacy default stream unless
// given).
template <class F>
float median_ms(const F& f, cudaStream_t stream = nullptr) {
  const gpuprim::detail::timing t =
      gpuprim::detail::time_device(stream, [&](int) { f(); }, {.warmup_runs = 3, .timed_runs = 20});
  return static_cast<float>(t.median_us * 1e-3);
}

// Per call, calls queued back to back: batches of 10 between two events,
// the median batch over 20 (after 3 warm-up calls) divided by 10.
template <class F>
float median_queued_ms(const F& f, cudaStream_t stream = nullptr) {
  const gpuprim::detail::timing t = gpuprim::detail::time_device(
      stream, [&](int) { f(); },
      {.warmup_runs = 3, .timed_runs = 0, .queued_runs = 20, .queued_batch = 10});
  return static_cast<float>(t.queued_us * 1e-3);
}
