// The selection family's entry points, side by side, and the checks both
// backends make before anything runs.
//
//   host: host_impl::select(backend, selection, n)  (gpuprim/host/select.hpp)
//   GPU:  cuda_select_into(selection, n, counts, stream) below, defined in
//         gpuprim/cuda/device/device_select.cuh
//
// Both return (or leave on the device) the totals of the counted classes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_span.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/detail/checks.hpp"
#include "gpuprim/detail/cuda_dispatch.hpp"
#include "gpuprim/detail/select/precompiled.hpp"
#include "gpuprim/detail/select/selections.hpp"

namespace gpuprim::detail {

using select_counts = std::array<std::uint64_t, 2>;

// Defined in gpuprim/cuda/device/device_select.cuh. Enqueues selection `s`
// over input[0, n) on `stream`; counts[0 .. S::counted) (device memory)
// receive the counted classes' totals. Nothing is synchronized.
template <class S>
void cuda_select_into(const S& s, std::size_t n, std::uint64_t* counts, stream_t stream);

template <class S>
void cuda_select_checked(const S& s, std::size_t n, std::uint64_t* counts, stream_t stream) {
#if !defined(__CUDACC__)
  static_assert(precompiled_select<S>,
                "gpuprim: this selection's type/predicate combination is not precompiled into the "
                "library; call it from a .cu file that includes gpuprim/cuda/select.cuh");
#endif
  on_cuda("select", [&] { cuda_select_into(s, n, counts, stream); });
}

// Runs a selection on the GPU and brings its totals to the host (one
// synchronization).
template <class S>
select_counts cuda_select_to_host(cuda_backend backend, const S& s, std::size_t n) {
  const scratch_buffer counts(2 * sizeof(std::uint64_t), backend.stream);
  select_counts result{0, 0};
  cuda_select_checked(s, n, counts.get<std::uint64_t>(), backend.stream);
  copy_to_host(result.data(), counts.get(), S::counted * sizeof(std::uint64_t), backend.stream);
  synchronize(backend.stream);
  return result;
}

// An output that holds `needed` elements or more.
inline void check_room(const char* algorithm, const char* output, std::size_t size,
                       std::uint64_t needed) {
  if (size < needed) {
    argument_error(algorithm, std::string(output) + " holds " + std::to_string(size) +
                                  " elements, the result has " + std::to_string(needed) +
                                  " (nothing was written)");
  }
}

}  // namespace gpuprim::detail
