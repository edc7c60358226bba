// The scans' shared detail: their CUDA entry point, the argument checks both
// backends make, and the steps the facade (gpuprim/scan.hpp) runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ranges>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/host_range.hpp"
#include "gpuprim/detail/cuda_dispatch.hpp"
#include "gpuprim/detail/scan/precompiled.hpp"
#include "gpuprim/host/scan.hpp"

namespace gpuprim {

enum class scan_kind { inclusive, exclusive };

namespace detail {

// Defined in gpuprim/cuda/device/device_scan.cuh. Enqueues the scan of
// in[0, n) into out[0, n) on `stream` (init is used by exclusive scans).
template <class In, class Out, class T, class Op, class Fetch>
void cuda_scan_into(const In* in, Out* out, std::size_t n, scan_kind kind, T init, Op op,
                    Fetch fetch, stream_t stream);

template <class In, class Out, class T, class Op, class Fetch>
void cuda_scan_checked(device_span<const In> in, device_span<Out> out, scan_kind kind, T init,
                       Op op, Fetch fetch, stream_t stream) {
#if !defined(__CUDACC__)
  static_assert(precompiled_scan<In, Out, T, Op, Fetch>,
                "gpuprim: this scan's type/operator combination is not precompiled into the "
                "library; call it from a .cu file that includes gpuprim/cuda/scan.cuh");
#endif
  on_cuda("scan",
          [&] { cuda_scan_into(in.data(), out.data(), in.size(), kind, init, op, fetch, stream); });
}

// Same size, and either the same memory or disjoint memory.
inline void check_scan_ranges(const char* algorithm, const void* in, std::size_t in_bytes,
                              std::size_t in_size, const void* out, std::size_t out_bytes,
                              std::size_t out_size) {
  if (in_size != out_size) {
    throw std::invalid_argument(std::string("gpuprim::") + algorithm + ": input has " +
                                std::to_string(in_size) + " elements, output " +
                                std::to_string(out_size));
  }
  const auto a = reinterpret_cast<std::uintptr_t>(in);
  const auto b = reinterpret_cast<std::uintptr_t>(out);
  const bool overlap = a < b + out_bytes && b < a + in_bytes;
  if (overlap && a != b) {
    throw std::invalid_argument(std::string("gpuprim::") + algorithm +
                                ": input and output overlap without being the same memory");
  }
}

template <bool Exclusive, class R, class O, class T, class Op, class Fetch>
void host_scan(host_backend backend, const R& in, O&& out, std::optional<T> init, Op op,
               Fetch fetch, const char* algorithm) {
  const auto s = host_span(in);
  auto* o = std::ranges::data(out);
  const std::size_t out_size = std::ranges::size(out);
  check_scan_ranges(algorithm, s.data(), s.size_bytes(), s.size(), o, out_size * sizeof(*o),
                    out_size);
  host_detail::scan<Exclusive>(backend, s.data(), o, s.size(), init, op, fetch);
}

template <class R, class O, class T, class Op, class Fetch>
void device_scan(cuda_backend backend, const R& in, O& out, scan_kind kind, T init, Op op,
                 Fetch fetch, const char* algorithm) {
  device_span<const device_range_value_t<const R>> s = as_device_span(in);
  auto o = writable_device_span(out);
  check_scan_ranges(algorithm, s.data(), s.size_bytes(), s.size(), o.data(), o.size_bytes(),
                    o.size());
  cuda_scan_checked(s, o, kind, init, op, fetch, backend.stream);
}

}  // namespace detail

}  // namespace gpuprim
