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

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "gpuprim/core/device_span.hpp"
#include "gpuprim/core/macros.hpp"

namespace gpuprim::ladder {

// One rung of a family's table: its kernel's name, what it fixes over the
// rung before, and how to run it. `Run` is the function type every rung of
// the family shares.
template <class Run>
struct rung {
  const char* name;   // what the kernel is, e.g. "reduce_sequential_addressing"
  const char* fixes;  // one line: what it fixes over the rung before
  Run* run;
};

// Declares a family's table `std::span<const Rung> name()`, oldest rung
// first, defined in lab/ladder/<family>_ladder.cu. A build without CUDA has
// no rungs to run: there the table is empty.
#if GPUPRIM_HAS_CUDA
#define GPUPRIM_LADDER_TABLE(Rung, name) std::span<const Rung> name()
#else
#define GPUPRIM_LADDER_TABLE(Rung, name) \
  inline std::span<const Rung> name() {  \
    return {};                           \
  }                                      \
  static_assert(true)
#endif

// A rung launcher's kernel name as a template argument, for error messages
// (run_passes<..., "reduce_warp_shuffle">).
template <std::size_t N>
struct kernel_name {
  constexpr kernel_name(const char (&name)[N]) { std::copy_n(name, N, text); }
  char text[N];
};

// Defines the table `name()` of a family as the array `table` (in the
// family's .cu).
#define GPUPRIM_LADDER_DEFINE(Rung, name, table) \
  std::span<const Rung> name() {                 \
    return table;                                \
  }                                              \
  static_assert(true)

// Defines the typed table `name<T>()` of a family precompiled for float,
// double, std::int32_t and std::int64_t as the variable template
// `table<T>`, and instantiates it for those types (in the family's .cu).
#define GPUPRIM_LADDER_DEFINE_TYPED(Rung, name, table)               \
  template <class T>                                                 \
  std::span<const Rung<T>> name() {                                  \
    return table<T>;                                                 \
  }                                                                  \
  template std::span<const Rung<float>> name<float>();               \
  template std::span<const Rung<double>> name<double>();             \
  template std::span<const Rung<std::int32_t>> name<std::int32_t>(); \
  template std::span<const Rung<std::int64_t>> name<std::int64_t>()

// Enqueues the full sum of `in` on `stream`, written to out[0]; scratch
// comes from gp::get_scratch_resource(). Throws gp::cuda_error on failure.
template <class T>
using reduce_rung = rung<void(device_span<const T> in, device_span<T> out, stream_t stream)>;

// The reduction ladder for sums. Precompiled for float, double,
// std::int32_t and std::int64_t.
template <class T>
GPUPRIM_LADDER_TABLE(reduce_rung<T>, reduce_rungs);

// Enqueues the inclusive prefix sum of `in` into `out` (any size,
// out.size() == in.size(), else std::invalid_argument) on `stream`;
// scratch comes from gp::get_scratch_resource(). Throws gp::cuda_error on
// failure.
template <class T>
using scan_rung = rung<void(device_span<const T> in, device_span<T> out, stream_t stream)>;

// The scan ladder for inclusive sums. Precompiled for float, double,
// std::int32_t and std::int64_t.
template <class T>
GPUPRIM_LADDER_TABLE(scan_rung<T>, scan_rungs);

// The histogram ladder's problem: one-byte samples into 64 bins, bin =
// byte / 4 (gp::histogram_even over [0, 256) with 64 bins).
inline constexpr int histogram_ladder_bins = 64;

// Enqueues counts = the 64-bin histogram of `samples` on `stream`
// (counts.size() must be 64, else std::invalid_argument). Throws
// gp::cuda_error on failure.
using histogram_rung = rung<void(device_span<const std::uint8_t> samples,
                                 device_span<std::uint32_t> counts, stream_t stream)>;

GPUPRIM_LADDER_TABLE(histogram_rung, histogram_rungs);

// The sort ladder sorts 32-bit unsigned keys ascending, in place: a rung
// enqueues the ascending sort of `keys` (any size) on `stream`; scratch
// comes from gp::get_scratch_resource(). Throws gp::cuda_error on failure.
template <class T>
using sort_rung = rung<void(device_span<T> keys, stream_t stream)>;

// The sort ladder: bitonic in global memory, bitonic with shared-memory
// merges, one-bit radix split by scan, the library's radix sort.
// Precompiled for std::uint32_t.
template <class T>
GPUPRIM_LADDER_TABLE(sort_rung<T>, sort_rungs);

}  // namespace gpuprim::ladder
