// Timing for the tuning probes in scripts/ (tune_radix_tile.cu,
// tune_scan.cu, tune_histogram.cu, tune_reduce.cu): stand-alone programs built by device-check.sh,
// not part of the library, the tests or the benchmark harness.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK_CUDA(x)                                                             \
  do {                                                                            \
    const cudaError_t e = (x);                                                    \
    if (e != cudaSuccess) {                                                       \
      std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); \
      std::exit(1);                                                               \
    }                                                                             \
  } while (0)

// One call between two events, median of 20 after 3 warm-up calls. The
// events go on `stream`: the stream the calls are enqueued on (the legacy
// default stream unless given).
template <class F>
float median_ms(F f, cudaStream_t stream = nullptr) {
  cudaEvent_t a, b;
  CHECK_CUDA(cudaEventCreate(&a));
  CHECK_CUDA(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i)
    f();
  std::vector<float> t;
  for (int i = 0; i < 20; ++i) {
    CHECK_CUDA(cudaEventRecord(a, stream));
    f();
    CHECK_CUDA(cudaEventRecord(b, stream));
    CHECK_CUDA(cudaEventSynchronize(b));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  CHECK_CUDA(cudaEventDestroy(a));
  CHECK_CUDA(cudaEventDestroy(b));
  return t[t.size() / 2];
}

// Per call, calls queued back to back: batches of 10 between two events,
// the median batch over 20 (after 3 warm-up calls) divided by 10.
template <class F>
float median_queued_ms(F f, cudaStream_t stream = nullptr) {
  cudaEvent_t a, b;
  CHECK_CUDA(cudaEventCreate(&a));
  CHECK_CUDA(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i)
    f();
  std::vector<float> t;
  for (int i = 0; i < 20; ++i) {
    CHECK_CUDA(cudaEventRecord(a, stream));
    for (int k = 0; k < 10; ++k)
      f();
    CHECK_CUDA(cudaEventRecord(b, stream));
    CHECK_CUDA(cudaEventSynchronize(b));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms / 10);
  }
  std::sort(t.begin(), t.end());
  CHECK_CUDA(cudaEventDestroy(a));
  CHECK_CUDA(cudaEventDestroy(b));
  return t[t.size() / 2];
}
