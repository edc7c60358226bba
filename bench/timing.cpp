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

timing_order device_timing_order = timing_order::interleaved;

}  // namespace

void set_device_timing_order(timing_order order) {
  device_timing_order = order;
}

std::vector<timing> time_device_sides(stream_t stream,
                                      std::span<const std::function<void(int run)>> sides) {
  // One sequence number across all sides, so that inputs rotated by it are
  // never read twice in a row (by one side and then the other, from L2).
  int call = 0;
  event start, stop;
  // Elapsed time per call of `calls` calls of one side between two events.
  const auto timed = [&](const std::function<void(int run)>& enqueue, int calls) {
    GPUPRIM_CUDA_CHECK(cudaEventRecord(start.get(), stream), "bench timer");
    for (int k = 0; k < calls; ++k)
      enqueue(call++);
    GPUPRIM_CUDA_CHECK(cudaEventRecord(stop.get(), stream), "bench timer");
    GPUPRIM_CUDA_CHECK(cudaEventSynchronize(stop.get()), "bench timer");
    float ms = 0.0f;
    GPUPRIM_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()), "bench timer");
    return 1e3 * ms / calls;
  };

  std::vector<std::vector<double>> isolated(sides.size()), queued(sides.size());
  // Warm-up, isolated runs and queued batches of sides [first, last),
  // interleaved among them.
  const auto measure = [&](std::size_t first, std::size_t last) {
    for (int i = 0; i < warmup_runs; ++i) {
      for (std::size_t s = first; s < last; ++s)
        sides[s](call++);
    }
    GPUPRIM_CUDA_CHECK(cudaStreamSynchronize(stream), "bench warm-up");
    for (int i = 0; i < timed_runs; ++i) {
      for (std::size_t s = first; s < last; ++s)
        isolated[s].push_back(timed(sides[s], 1));
    }
    for (int i = 0; i < timed_runs; ++i) {
      for (std::size_t s = first; s < last; ++s)
        queued[s].push_back(timed(sides[s], queued_batch));
    }
  };
  if (device_timing_order == timing_order::interleaved) {
    measure(0, sides.size());
  } else {
    for (std::size_t s = 0; s < sides.size(); ++s)
      measure(s, s + 1);
  }
  std::vector<timing> results;
  for (std::size_t s = 0; s < sides.size(); ++s) {
    results.push_back(summarize(std::move(isolated[s])));
    results.back().queued_us = summarize(std::move(queued[s])).median_us;
  }
  return results;
}

timing time_device(stream_t stream, const std::function<void(int run)>& enqueue) {
  return time_device_sides(stream, std::span(&enqueue, 1)).front();
}

paired_timing time_device_pair(stream_t stream, const std::function<void(int run)>& ours,
                               const std::function<void(int run)>& vendor) {
  const std::function<void(int run)> sides[] = {ours, vendor};
  const std::vector<timing> t = time_device_sides(stream, sides);
  return {t[0], t[1]};
}

device_stream::device_stream() {
  GPUPRIM_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "bench stream");
}

device_stream::~device_stream() {
  cudaStreamDestroy(stream_);
}
#endif

}  // namespace gpuprim::bench
