// The CUDA side of gpuprim/detail/timing.hpp: CUDA events on the caller's
// stream.
#include <cuda_runtime_api.h>

#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/detail/timing.hpp"

namespace gpuprim::detail {
namespace {

class event {
 public:
  event() { GPUPRIM_CUDA_CHECK(cudaEventCreate(&event_), "timing"); }
  ~event() { cudaEventDestroy(event_); }
  event(const event&) = delete;
  event& operator=(const event&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace

std::vector<timing> time_device_sides(stream_t stream,
                                      std::span<const std::function<void(int run)>> sides,
                                      const timing_plan& plan, timing_order order) {
  int call = 0;
  event start, stop;
  // Elapsed time per call of `calls` calls of one side between two events.
  const auto timed = [&](const std::function<void(int run)>& enqueue, int calls) {
    GPUPRIM_CUDA_CHECK(cudaEventRecord(start.get(), stream), "timing");
    for (int k = 0; k < calls; ++k)
      enqueue(call++);
    GPUPRIM_CUDA_CHECK(cudaEventRecord(stop.get(), stream), "timing");
    GPUPRIM_CUDA_CHECK(cudaEventSynchronize(stop.get()), "timing");
    float ms = 0.0f;
    GPUPRIM_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()), "timing");
    return 1e3 * ms / calls;
  };

  std::vector<std::vector<double>> isolated(sides.size()), queued(sides.size());
  // Warm-up, isolated runs and queued batches of sides [first, last),
  // interleaved among them.
  const auto measure = [&](std::size_t first, std::size_t last) {
    for (int i = 0; i < plan.warmup_runs; ++i) {
      for (std::size_t s = first; s < last; ++s)
        sides[s](call++);
    }
    GPUPRIM_CUDA_CHECK(cudaStreamSynchronize(stream), "timing warm-up");
    for (int i = 0; i < plan.timed_runs; ++i) {
      for (std::size_t s = first; s < last; ++s)
        isolated[s].push_back(timed(sides[s], 1));
    }
    for (int i = 0; i < plan.queued_runs; ++i) {
      for (std::size_t s = first; s < last; ++s)
        queued[s].push_back(timed(sides[s], plan.queued_batch));
    }
  };
  if (order == timing_order::interleaved) {
    measure(0, sides.size());
  } else {
    for (std::size_t s = 0; s < sides.size(); ++s)
      measure(s, s + 1);
  }
  std::vector<timing> results(sides.size());
  for (std::size_t s = 0; s < sides.size(); ++s) {
    if (!isolated[s].empty()) results[s] = summarize(std::move(isolated[s]));
    if (!queued[s].empty()) results[s].queued_us = summarize(std::move(queued[s])).median_us;
  }
  return results;
}

timing time_device(stream_t stream, const std::function<void(int run)>& enqueue,
                   const timing_plan& plan) {
  return time_device_sides(stream, std::span(&enqueue, 1), plan).front();
}

}  // namespace gpuprim::detail
