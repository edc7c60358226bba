// CPU backend of segmented_reduce: OpenMP over segments.
//
// Each segment is reduced by one thread with host_impl::reduce_chunk (the
// eight-accumulator loop of the plain reduction), so its result does not
// depend on the thread count or the schedule. Segments are handed out
// dynamically in chunks: lengths may vary widely, and a static split would
// leave threads idle behind the one that drew the long segments. Segments
// long enough to keep every thread busy on their own are set aside and
// reduced afterwards, one at a time, by all threads (host_impl::
// transform_reduce); their results then depend on the thread count, as
// gp::reduce's do.
#pragma once

#include <omp.h>

#include <cstddef>
#include <cstdint>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/value_index.hpp"
#include "gpuprim/host/reduce.hpp"

namespace gpuprim::host_impl {

// A segment at least this long is reduced by all threads together (below
// it, transform_reduce would use fewer than four threads anyway).
inline constexpr std::uint64_t parallel_segment_length = 4 * min_elements_per_thread;
// Segments per scheduling chunk: large enough that taking a chunk (one
// atomic) is rare next to the work in it, small enough to balance. With
// 256, 2^23 segments of 8 floats took 27.5 ms on 2 cores; with 4096,
// 13.4 ms (a one-thread loop: 17.3 ms).
inline constexpr std::int64_t segments_per_chunk = 4096;
// Up to this length a segment is one in-order loop.
inline constexpr std::uint64_t short_segment_length = 32;

template <class In, class T, class Offset, class Op>
void segmented_reduce(host_backend backend, const In* values, const Offset* offsets,
                      std::size_t num_segments, T* out, T init, Op op) {
  using fetch_t = detail::unary_fetch<identity>;
  const auto length = [&](std::size_t s) {
    return static_cast<std::uint64_t>(offsets[s + 1]) - static_cast<std::uint64_t>(offsets[s]);
  };
  const int threads = backend.thread_count > 0 ? backend.thread_count : omp_get_max_threads();
  const auto count = static_cast<std::int64_t>(num_segments);
  bool has_long_segments = false;

#pragma omp parallel for num_threads(threads) schedule(dynamic, segments_per_chunk) \
    reduction(||                                                                    \
              : has_long_segments)
  for (std::int64_t s = 0; s < count; ++s) {
    const std::uint64_t n = length(s);
    if (n >= parallel_segment_length && threads > 1) {
      has_long_segments = true;
      continue;
    }
    Op thread_op = op;
    fetch_t fetch{};
    const auto begin = static_cast<std::size_t>(offsets[s]);
    if (n <= short_segment_length) {
      // Short segments: one plain in-order loop (no per-segment setup).
      T acc = init;
      for (std::size_t j = begin; j < begin + n; ++j)
        acc = thread_op(acc, static_cast<T>(values[j]));
      out[s] = acc;
      continue;
    }
    out[s] = thread_op(init, reduce_chunk<In, T>(values, begin, begin + n, thread_op, fetch));
  }

  if (!has_long_segments) return;
  for (std::size_t s = 0; s < num_segments; ++s) {
    const std::uint64_t n = length(s);
    if (n >= parallel_segment_length) {
      out[s] = transform_reduce(backend, values + static_cast<std::size_t>(offsets[s]), n, init, op,
                                fetch_t{});
    }
  }
}

}  // namespace gpuprim::host_impl
