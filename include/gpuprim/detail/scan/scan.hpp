// The scans' shared detail: the argument checks both backends make and the
// GPU step the facade (gpuprim/scan.hpp) runs; the entry points are in
// entry.hpp.
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
#include "gpuprim/detail/scan/entry.hpp"

namespace gpuprim::detail {

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

template <class R, class O, class T, class Op, class Fetch>
void device_scan(cuda_backend backend, const R& in, O& out, scan_kind kind, T init, Op op,
                 Fetch fetch, const char* algorithm) {
  device_span<const device_range_value_t<const R>> s = as_device_span(in);
  auto o = writable_device_span(out);
  check_scan_ranges(algorithm, s.data(), s.size_bytes(), s.size(), o.data(), o.size_bytes(),
                    o.size());
  cuda_scan_checked(s, o, kind, init, op, fetch, backend.stream);
}

}  // namespace gpuprim::detail
