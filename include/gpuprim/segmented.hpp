// Segmented family: reductions (and, later, scans) of many independent
// segments of one array, each segment given by a pair of offsets.
//
//   // offsets: num_segments + 1 non-decreasing positions in `values`;
//   // segment s is values[offsets[s], offsets[s + 1]).
//   gp::segmented_reduce(gp::cuda, d_values, d_offsets, d_sums, 0.0f);
//   gp::segmented_reduce(gp::host, values, offsets, maxima, -INFINITY, gp::maximum{});
//
// Offsets: std::uint64_t or std::int64_t (what 64-bit sizes and what PyTorch
// and NumPy hand over). The host backend takes any integral type; from a .cu
// file (gpuprim/cuda/segmented.cuh) the GPU backend does too.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/operators.hpp"
#include "gpuprim/host/segmented_reduce.hpp"
#include "gpuprim/reduce.hpp"

namespace gpuprim {

// ---- segmented_reduce ---------------------------------------------------
//
// out[s] = init op v[b] op v[b + 1] op ... op v[e - 1] with b = offsets[s],
// e = offsets[s + 1]; an empty segment gives init. As in gp::reduce, `op`
// must be associative, need not be commutative, and the grouping of terms is
// fixed: floating-point results are the same from run to run. Elements are
// converted to T, the type of `init` and of the output.
//
// Checked on every backend before anything is written (std::invalid_argument,
// output untouched): offsets is non-empty and out.size() == offsets.size() - 1.
// The host backend also checks that offsets are non-decreasing, start at or
// after 0 and end at or before values.size(). The GPU backend does not read
// the offsets on the host (that would cost a copy and a synchronization per
// call): offsets that break those rules read out of bounds.
//
// The GPU form enqueues its kernels on the backend's stream and returns
// without synchronizing, like gp::reduce_into.

namespace detail {

// Defined in gpuprim/cuda/device/device_segmented_reduce.cuh.
#if GPUPRIM_HAS_CUDA
template <class In, class T, class Offset, class Op>
void cuda_segmented_reduce_into(const In* in, std::size_t num_values, const Offset* offsets,
                                std::size_t num_segments, T* out, T init, Op op, stream_t stream);
#else
template <class In, class T, class Offset, class Op>
void cuda_segmented_reduce_into(const In*, std::size_t, const Offset*, std::size_t, T*, T, Op,
                                stream_t) {
  no_cuda_backend("segmented_reduce");
}
#endif

// The instantiations compiled into the library (src/segmented/*.cu).
template <class In, class T, class Offset, class Op>
inline constexpr bool precompiled_segmented_reduce = std::is_same_v<In, T>&&
    one_of<T, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>&&
        one_of<Offset, std::uint64_t, std::int64_t>&& one_of<Op, plus, minimum, maximum>;

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

template <class Offset>
void check_host_offsets(std::span<const Offset> offsets, std::size_t num_values,
                        const char* algorithm) {
  const auto fail = [&](std::size_t i, const std::string& what) {
    throw std::invalid_argument(std::string("gpuprim::") + algorithm + ": offsets[" +
                                std::to_string(i) + "] " + what);
  };
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

template <class R>
concept segmented_output_range = std::ranges::contiguous_range<R> && std::ranges::sized_range<R> &&
    !std::is_const_v<std::remove_reference_t<std::ranges::range_reference_t<R>>>;

}  // namespace detail

template <host_range V, host_range O, class Out, class T, class Op = plus>
requires detail::segmented_output_range<Out> && std::integral<std::ranges::range_value_t<O>>
void segmented_reduce(host_backend backend, const V& values, const O& offsets, Out&& out, T init,
                      Op op = {}) {
  static_assert(std::is_same_v<std::ranges::range_value_t<Out>, T>,
                "gpuprim::segmented_reduce: the output's elements must have the type of init");
  const auto v = detail::host_span(values);
  const auto o = detail::host_span(offsets);
  const std::span<T> result(std::ranges::data(out), std::ranges::size(out));
  detail::check_segmented_sizes(o.size(), result.size(), "segmented_reduce");
  detail::check_host_offsets(o, v.size(), "segmented_reduce");
  host_detail::segmented_reduce(backend, v.data(), o.data(), result.size(), result.data(), init,
                                op);
}

// `out` is a device_span<T> or a device_vector<T> (T is the type of init).
template <device_range V, device_range O, class T, class Op = plus>
void segmented_reduce(cuda_backend backend, const V& values, const O& offsets,
                      std::type_identity_t<device_span<T>> out, T init, Op op = {}) {
  using In = device_range_value_t<const V>;
  using Offset = device_range_value_t<const O>;
  static_assert(std::is_integral_v<Offset>, "gpuprim::segmented_reduce: offsets are integers");
#if !defined(__CUDACC__)
  static_assert(detail::precompiled_segmented_reduce<In, T, Offset, Op>,
                "gpuprim: this type/offset/operator combination of segmented_reduce is not "
                "precompiled into the library; call it from a .cu file that includes "
                "gpuprim/cuda/segmented.cuh");
#endif
  const device_span<const In> v = as_device_span(values);
  const device_span<const Offset> o = as_device_span(offsets);
  detail::check_segmented_sizes(o.size(), out.size(), "segmented_reduce");
  detail::cuda_segmented_reduce_into(v.data(), v.size(), o.data(), out.size(), out.data(), init, op,
                                     backend.stream);
}

}  // namespace gpuprim
