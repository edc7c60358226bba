#include "timing.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#if GPUPRIM_HAS_CUDA
#include <cuda_runtime_api.h>

#include "gpuprim/cuda/detail/check.cuh"
#endif

namespace gpuprim::bench {

timing summarize(std::vector<double> samples_us) {
  if (samples_us.empty()) throw std::logic_error("bench::summarize: no samples");
  std::sort(samples_us.begin(), samples_us.end());
  const std::size_t n = samples_us.size();
  const double median =
      n % 2 ? samples_us[n / 2] : 0.5 * (samples_us[n / 2 - 1] + samples_us[n / 2]);
  return {median, samples_us.front(), static_cast<int>(n)};
}

timing time_host(const std::function<void(int run)>& run) {
  using clock = std::chrono::steady_clock;
  for (int i = 0; i < warmup_runs; ++i)
    run(i);
  std::vector<double> samples_us;
  samples_us.reserve(timed_runs);
  for (int i = 0; i < timed_runs; ++i) {
    const auto start = clock::now();
    run(warmup_runs + i);
    const auto stop = clock::now();
    samples_us.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
  }
  return summarize(std::move(samples_us));
}

#if GPUPRIM_HAS_CUDA
namespace {

class event {
 public:
  event() { GPUPRIM_CUDA_CHECK(cudaEventCreate(&event_), "bench timer"); }
  ~event() { cudaEventDestroy(event_); }
  event(const event&) = delete;
  event& operator=(const event&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace

timing time_device(stream_t stream, const std::function<void(int run)>& enqueue) {
  for (int i = 0; i < warmup_runs; ++i)
    enqueue(i);
  GPUPRIM_CUDA_CHECK(cudaStreamSynchronize(stream), "bench warm-up");

  event start, stop;
  std::vector<double> samples_us;
  samples_us.reserve(timed_runs);
  for (int i = 0; i < timed_runs; ++i) {
    GPUPRIM_CUDA_CHECK(cudaEventRecord(start.get(), stream), "bench timer");
    enqueue(warmup_runs + i);
    GPUPRIM_CUDA_CHECK(cudaEventRecord(stop.get(), stream), "bench timer");
    GPUPRIM_CUDA_CHECK(cudaEventSynchronize(stop.get()), "bench timer");
    float ms = 0.0f;
    GPUPRIM_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()), "bench timer");
    samples_us.push_back(1e3 * ms);
  }
  timing result = summarize(std::move(samples_us));

  std::vector<double> batch_us;
  batch_us.reserve(timed_runs);
  int call = warmup_runs + timed_runs;
  for (int i = 0; i < timed_runs; ++i) {
    GPUPRIM_CUDA_CHECK(cudaEventRecord(start.get(), stream), "bench timer");
    for (int k = 0; k < queued_batch; ++k)
      enqueue(call++);
    GPUPRIM_CUDA_CHECK(cudaEventRecord(stop.get(), stream), "bench timer");
    GPUPRIM_CUDA_CHECK(cudaEventSynchronize(stop.get()), "bench timer");
    float ms = 0.0f;
    GPUPRIM_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()), "bench timer");
    batch_us.push_back(1e3 * ms / queued_batch);
  }
  result.queued_us = summarize(std::move(batch_us)).median_us;
  return result;
}

device_stream::device_stream() {
  GPUPRIM_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "bench stream");
}

device_stream::~device_stream() {
  cudaStreamDestroy(stream_);
}
#endif

}  // namespace gpuprim::bench
