// Host ranges: what the host overloads of every algorithm accept (any
// contiguous, sized range: std::vector, std::array, std::span, ...), and the
// spans the algorithms view them through.
#pragma once

#include <ranges>
#include <span>
#include <type_traits>

namespace gpuprim {

template <class R>
concept host_range = std::ranges::contiguous_range<R> && std::ranges::sized_range<R>;

namespace detail {

// A host range the algorithm writes (an output, or data sorted in place).
template <class R>
concept host_output_range =
    host_range<R> && !std::is_const_v<std::remove_reference_t<std::ranges::range_reference_t<R>>>;

template <class R>
auto host_span(const R& r) {
  return std::span<const std::ranges::range_value_t<R>>(std::ranges::data(r), std::ranges::size(r));
}

// The span of a host output (or data sorted in place); const data is a
// compile-time error.
template <class R>
auto writable_host_span(R& r) {
  using T = std::remove_reference_t<decltype(*std::ranges::data(r))>;
  static_assert(!std::is_const_v<T>,
                "gpuprim: an output (or data sorted in place) must be writable");
  return std::span<T>(std::ranges::data(r), std::ranges::size(r));
}

}  // namespace detail
}  // namespace gpuprim
