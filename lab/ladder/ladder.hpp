// The optimization ladder: each algorithm family keeps its historical kernel
// variants ("rungs") as runnable, tested code, oldest first. A rung is one
// kernel plus one entry in its family's table; the tests and
// `gpuprim bench <family> --ladder` iterate the table, so adding a rung is
// one kernel and one line.
//
// Rungs are compiled into the lab's library gpuprim_lab_ladder
// (lab/ladder/*.cu), not into libgpuprim, and are callable from plain C++;
// their kernels live in lab/ladder/<family>.cuh.
#pragma once

#include <cstdint>
#include <span>

#include "gpuprim/core/device_span.hpp"
#include "gpuprim/core/macros.hpp"

namespace gpuprim::ladder {

template <class T>
struct reduce_rung {
  const char* name;   // what the kernel is, e.g. "reduce_sequential_addressing"
  const char* fixes;  // one line: what it fixes over the rung before
  // Enqueues the full sum of `in` on `stream`, written to out[0]; scratch
  // comes from gp::get_scratch_resource(). Throws gp::cuda_error on failure.
  void (*run)(device_span<const T> in, device_span<T> out, stream_t stream);
};

// The reduction ladder for sums, oldest first. Precompiled for float,
// double, std::int32_t and std::int64_t.
#if GPUPRIM_HAS_CUDA
template <class T>
std::span<const reduce_rung<T>> reduce_rungs();
#else
// A build without CUDA has no rungs to run.
template <class T>
inline std::span<const reduce_rung<T>> reduce_rungs() {
  return {};
}
#endif

template <class T>
struct scan_rung {
  const char* name;   // what the kernel is, e.g. "scan_blelloch"
  const char* fixes;  // one line: what it fixes over the rung before
  // Enqueues the inclusive prefix sum of `in` into `out` (any size,
  // out.size() == in.size(), else std::invalid_argument) on `stream`;
  // scratch comes from gp::get_scratch_resource(). Throws gp::cuda_error on
  // failure.
  void (*run)(device_span<const T> in, device_span<T> out, stream_t stream);
};

// The scan ladder for inclusive sums, oldest first. Precompiled for float,
// double, std::int32_t and std::int64_t.
#if GPUPRIM_HAS_CUDA
template <class T>
std::span<const scan_rung<T>> scan_rungs();
#else
template <class T>
inline std::span<const scan_rung<T>> scan_rungs() {
  return {};
}
#endif

// The histogram ladder's problem: one-byte samples into 64 bins, bin =
// byte / 4 (gp::histogram_even over [0, 256) with 64 bins).
inline constexpr int histogram_ladder_bins = 64;

struct histogram_rung {
  const char* name;   // what the kernel is, e.g. "histogram_block_shared_atomics"
  const char* fixes;  // one line: what it fixes over the rung before
  // Enqueues counts = the 64-bin histogram of `samples` on `stream`
  // (counts.size() must be 64, else std::invalid_argument). Throws
  // gp::cuda_error on failure.
  void (*run)(device_span<const std::uint8_t> samples, device_span<std::uint32_t> counts,
              stream_t stream);
};

#if GPUPRIM_HAS_CUDA
std::span<const histogram_rung> histogram_rungs();
#else
inline std::span<const histogram_rung> histogram_rungs() {
  return {};
}
#endif

// The sort ladder sorts 32-bit unsigned keys ascending, in place.
template <class T>
struct sort_rung {
  const char* name;   // what the kernel is, e.g. "sort_bitonic_shared"
  const char* fixes;  // one line: what it fixes over the rung before
  // Enqueues the ascending sort of `keys` (any size) on `stream`; scratch
  // comes from gp::get_scratch_resource(). Throws gp::cuda_error on failure.
  void (*run)(device_span<T> keys, stream_t stream);
};

// The sort ladder, oldest first: bitonic in global memory, bitonic with
// shared-memory merges, one-bit radix split by scan, the library's radix
// sort. Precompiled for std::uint32_t.
#if GPUPRIM_HAS_CUDA
template <class T>
std::span<const sort_rung<T>> sort_rungs();
#else
template <class T>
inline std::span<const sort_rung<T>> sort_rungs() {
  return {};
}
#endif

}  // namespace gpuprim::ladder
