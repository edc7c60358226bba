// Host side of the selection ladder: the launchers of the three rungs and
// the table that the tests and `gpuprim bench select --ladder` iterate.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/scan.cuh"
#include "gpuprim/cuda/select.cuh"
#include "lab/ladder/select.cuh"
#include "lab/ladder/select_ladder.hpp"

namespace gpuprim::ladder {
namespace {

constexpr unsigned threads = 256;
constexpr const char* algorithm = "select ladder";

void require_room(device_span<const float> in, device_span<float> out) {
  if (out.size() < in.size()) {
    throw std::invalid_argument("gpuprim::ladder: input has " + std::to_string(in.size()) +
                                " elements, output room for " + std::to_string(out.size()));
  }
}

// A grid of a few waves, each thread striding over the input.
unsigned strided_grid(std::uint64_t n) {
  const std::uint64_t wanted = cuda_impl::ceil_div(n, threads);
  const std::uint64_t cap = std::uint64_t(cuda_impl::current_multiprocessor_count()) * 16;
  return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min(wanted, cap)));
}

std::size_t count_from(const unsigned long long* device_count, stream_t stream) {
  unsigned long long k = 0;
  detail::copy_to_host(&k, device_count, sizeof k, stream);
  synchronize(stream);
  return static_cast<std::size_t>(k);
}

std::size_t run_atomic_counter(device_span<const float> in, device_span<float> out, float threshold,
                               stream_t stream) {
  require_room(in, out);
  const detail::scratch_buffer counter(sizeof(unsigned long long), stream);
  detail::fill_bytes(counter.get(), 0, sizeof(unsigned long long), stream);
  if (!in.empty()) {
    cuda_impl::launch("select_atomic_counter", algorithm, select_atomic_counter,
                        {strided_grid(in.size()), threads, 0, stream}, in.data(), out.data(),
                        std::uint64_t(in.size()), threshold, counter.get<unsigned long long>());
  }
  return count_from(counter.get<unsigned long long>(), stream);
}

std::size_t run_scan_then_scatter(device_span<const float> in, device_span<float> out,
                                  float threshold, stream_t stream) {
  require_room(in, out);
  const std::size_t n = in.size();
  if (n == 0) return 0;
  if (n >= (std::size_t{1} << 32)) {
    throw std::invalid_argument("gpuprim::ladder: the scan-then-scatter rung counts in 32 bits");
  }
  const detail::scratch_buffer flags(n * sizeof(std::uint32_t), stream);
  const detail::scratch_buffer positions(n * sizeof(std::uint32_t), stream);
  const detail::scratch_buffer count(sizeof(unsigned long long), stream);
  const unsigned grid = strided_grid(n);
  cuda_impl::launch("select_flags", algorithm, select_flags, {grid, threads, 0, stream},
                      in.data(), flags.get<std::uint32_t>(), std::uint64_t(n), threshold);
  cuda_impl::launch_scan<true>(flags.get<const std::uint32_t>(), positions.get<std::uint32_t>(),
                                 std::uint64_t(n), std::uint32_t{0}, plus{},
                                 detail::unary_fetch<identity>{}, stream);
  cuda_impl::launch("select_scatter", algorithm, select_scatter, {grid, threads, 0, stream},
                      in.data(), flags.get<const std::uint32_t>(),
                      positions.get<const std::uint32_t>(), out.data(), std::uint64_t(n),
                      count.get<unsigned long long>());
  return count_from(count.get<unsigned long long>(), stream);
}

std::size_t run_single_pass(device_span<const float> in, device_span<float> out, float threshold,
                            stream_t stream) {
  return copy_if(cuda.on(stream), in, out, greater_than(threshold));
}

constexpr select_rung select_ladder[] = {
    {"select_atomic_counter",
     "the naive compaction: one read, one write, a global counter per element (order not kept)",
     run_atomic_counter},
    {"select_scan_then_scatter",
     "input order kept: flags, an exclusive scan of them, a scatter (three passes)",
     run_scan_then_scatter},
    {"select_decoupled_lookback",
     "one pass: tiles rank their elements by look-back and store through shared memory",
     run_single_pass},
};

}  // namespace

GPUPRIM_LADDER_DEFINE(select_rung, select_rungs, select_ladder);

}  // namespace gpuprim::ladder
