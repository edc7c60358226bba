// The segmented family's shared detail: the checks of offsets and head flags
// both backends make, and the GPU steps the facade (gpuprim/segmented.hpp)
// runs; the entry points are in entry.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/host_range.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/core/segmented_operator.hpp"
#include "gpuprim/detail/cuda_dispatch.hpp"
#include "gpuprim/detail/scan/scan.hpp"
#include "gpuprim/detail/segmented/entry.hpp"
#include "gpuprim/detail/segmented/precompiled.hpp"

namespace gpuprim::detail {

inline void check_segmented_sizes(std::size_t num_offsets, std::size_t num_outputs,
                                  const char* algorithm) {
  if (num_offsets == 0) {
    throw std::invalid_argument(std::string("gpuprim::") + algorithm +
                                ": offsets is empty (it needs num_segments + 1 entries, "
                                "at least the one that ends nothing)");
  }
  if (num_outputs != num_offsets - 1) {
    throw std::invalid_argument(std::string("gpuprim::") + algorithm + ": " +
                                std::to_string(num_offsets) + " offsets describe " +
                                std::to_string(num_offsets - 1) + " segments, but the output has " +
                                std::to_string(num_outputs) + " elements");
  }
}

// Segment offsets hold num_segments + 1 entries: never none.
inline void check_offsets_not_empty(std::size_t num_offsets, const char* algorithm) {
  if (num_offsets == 0) {
    throw std::invalid_argument(std::string("gpuprim::") + algorithm +
                                ": offsets is empty (it needs num_segments + 1 entries)");
  }
}

template <class Offset>
void check_host_offsets(std::span<const Offset> offsets, std::size_t num_values,
                        const char* algorithm) {
  const auto fail = [&](std::size_t i, const std::string& what) {
    throw std::invalid_argument(std::string("gpuprim::") + algorithm + ": offsets[" +
                                std::to_string(i) + "] " + what);
  };
  check_offsets_not_empty(offsets.size(), algorithm);
  if constexpr (std::is_signed_v<Offset>) {
    if (offsets[0] < 0) fail(0, "is negative");
  }
  for (std::size_t i = 1; i < offsets.size(); ++i) {
    if (offsets[i] < offsets[i - 1]) fail(i, "is smaller than the offset before it");
  }
  if (static_cast<std::uint64_t>(offsets.back()) > num_values) {
    fail(offsets.size() - 1, "= " + std::to_string(offsets.back()) + " is past the " +
                                 std::to_string(num_values) + " values");
  }
}

inline void check_head_flag_count(const char* algorithm, std::size_t flags, std::size_t values) {
  if (flags != values) {
    throw std::invalid_argument(std::string("gpuprim::") + algorithm + ": " +
                                std::to_string(flags) + " head flags for " +
                                std::to_string(values) + " values");
  }
}

template <class Offset>
void check_partition_offsets(std::span<const Offset> offsets, std::size_t n,
                             const char* algorithm) {
  check_host_offsets(offsets, n, algorithm);
  if (offsets[0] != 0 || static_cast<std::uint64_t>(offsets.back()) != n) {
    throw std::invalid_argument(std::string("gpuprim::") + algorithm +
                                ": offsets must start at 0 and end at the input's size " +
                                std::to_string(n));
  }
}

template <bool Exclusive, class V, class Flag, class T, class Op>
void cuda_segmented_scan(cuda_backend backend, device_span<const V> v, const Flag* flags,
                         device_span<T> out, T init, Op op, const char* algorithm) {
#if !defined(__CUDACC__)
  static_assert(precompiled_segmented_scan<V, Flag, Op> && std::is_same_v<V, T>,
                "gpuprim: this segmented scan's type/flag/operator combination is not "
                "precompiled into the library; call it from a .cu file that includes "
                "gpuprim/cuda/segmented.cuh");
#endif
  check_scan_ranges(algorithm, v.data(), v.size_bytes(), v.size(), out.data(), out.size_bytes(),
                    out.size());
  if constexpr (Exclusive) {
    // Element i reads value i - 1, which for a tile's first element belongs
    // to the tile before, which may already have stored its results: in
    // place, the values are scanned from a copy in scratch memory.
    const bool in_place =
        static_cast<const void*>(v.data()) == static_cast<const void*>(out.data());
    const scratch_buffer copy(in_place ? v.size_bytes() : 0, backend.stream);
    const V* values = v.data();
    if (in_place) {
      copy_device_to_device(copy.get(), v.data(), v.size_bytes(), backend.stream);
      values = copy.get<const V>();
    }
    on_cuda("scan", [&] {
      cuda_scan_into(values, out.data(), v.size(), scan_kind::inclusive, flagged<T>{},
                     segmented<Op>{op}, exclusive_head_flag_fetch<T, V, Flag>{values, flags, init},
                     backend.stream);
    });
  } else {
    on_cuda("scan", [&] {
      cuda_scan_into(v.data(), out.data(), v.size(), scan_kind::inclusive, flagged<T>{},
                     segmented<Op>{op}, head_flag_fetch<T, Flag>{flags}, backend.stream);
    });
  }
}

// Offsets -> head flags (host).
template <class Offset>
std::vector<std::uint8_t> host_head_flags(std::span<const Offset> offsets, std::size_t n,
                                          const char* algorithm) {
  check_partition_offsets(offsets, n, algorithm);
  std::vector<std::uint8_t> flags(n, 0);
  for (const Offset o : offsets) {
    if (static_cast<std::uint64_t>(o) < n) flags[static_cast<std::size_t>(o)] = 1;
  }
  return flags;
}

// Runs `scan(flags)` with head flags made from device offsets in scratch memory.
template <class Offset, class Scan>
void with_device_head_flags(cuda_backend backend, device_span<const Offset> offsets, std::size_t n,
                            const char* algorithm, Scan scan) {
  check_offsets_not_empty(offsets.size(), algorithm);
  if (n == 0) return;
  const scratch_buffer flags(n, backend.stream);
  fill_bytes(flags.get(), 0, n, backend.stream);
  on_cuda("segmented_scan", [&] {
    cuda_mark_segment_heads(offsets.data(), offsets.size(), flags.get<std::uint8_t>(), n,
                            backend.stream);
  });
  scan(flags.get<const std::uint8_t>());
}

}  // namespace gpuprim::detail
