// Inputs and checks shared by the sorting-network tests (host and GPU).
// Networks are not stable, so a result is checked as: sorted under the
// comparator, equivalent position by position to std::stable_sort of the
// input (equal keys, or keys the comparator cannot tell apart, like NaNs),
// and holding exactly the input's bit patterns.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/sort_types.hpp"
#include "support/named.hpp"

namespace gpuprim::test {

enum class key_pattern { random, sorted, reversed, all_equal, few_distinct, special };

inline const char* name_of(key_pattern p) {
  // In the order of the enum.
  constexpr const char* names[] = {"random",    "sorted",       "reversed",
                                   "all equal", "few distinct", "special values"};
  return name_in(names, p);
}

inline constexpr key_pattern all_key_patterns[] = {
    key_pattern::random,    key_pattern::sorted,       key_pattern::reversed,
    key_pattern::all_equal, key_pattern::few_distinct, key_pattern::special};

// Keys over the whole range of T (random bit patterns for integers, so
// both signs; floats in [-1e6, 1e6]).
template <class T>
T random_key(std::mt19937_64& rng) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(std::uniform_real_distribution<double>(-1e6, 1e6)(rng));
  } else {
    return static_cast<T>(rng());
  }
}

// Values a key order gets wrong first: NaNs of both signs and several
// payloads, signed zeros, infinities, subnormals, extremes; for integers
// the extremes, 0 and -1.
template <class T>
std::vector<T> special_keys() {
  using L = std::numeric_limits<T>;
  if constexpr (std::is_floating_point_v<T>) {
    using bits = typename radix_key<T>::bits_type;
    const bits quiet = std::bit_cast<bits>(L::quiet_NaN());
    return {L::quiet_NaN(),
            -L::quiet_NaN(),
            std::bit_cast<T>(bits(quiet | 1)),
            std::bit_cast<T>(bits(~bits(0))),
            T(0.0),
            T(-0.0),
            L::infinity(),
            -L::infinity(),
            L::denorm_min(),
            -L::denorm_min(),
            L::max(),
            L::lowest(),
            T(1),
            T(-1)};
  } else {
    return {L::min(), L::max(), T(0), T(1), static_cast<T>(-1), static_cast<T>(L::max() / 2)};
  }
}

template <class T>
std::vector<T> make_keys(std::size_t n, key_pattern pattern, std::mt19937_64& rng) {
  std::vector<T> keys(n);
  switch (pattern) {
    case key_pattern::random:
      for (auto& k : keys)
        k = random_key<T>(rng);
      break;
    case key_pattern::sorted:
    case key_pattern::reversed:
      for (auto& k : keys)
        k = random_key<T>(rng);
      std::sort(keys.begin(), keys.end(), sort_less{});
      if (pattern == key_pattern::reversed) std::reverse(keys.begin(), keys.end());
      break;
    case key_pattern::all_equal:
      std::fill(keys.begin(), keys.end(), static_cast<T>(7));
      break;
    case key_pattern::few_distinct:
      for (auto& k : keys)
        k = static_cast<T>(rng() % 4);
      break;
    case key_pattern::special: {
      const auto specials = special_keys<T>();
      for (auto& k : keys)
        k = rng() % 2 ? specials[rng() % specials.size()] : random_key<T>(rng);
      break;
    }
  }
  return keys;
}

template <class T>
auto bit_patterns(std::span<const T> keys) {
  using bits = std::conditional_t<
      sizeof(T) == 1, std::uint8_t,
      std::conditional_t<sizeof(T) == 2, std::uint16_t,
                         std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
  std::vector<bits> out(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    std::memcpy(&out[i], &keys[i], sizeof(T));
  std::sort(out.begin(), out.end());
  return out;
}

template <class T>
std::string describe_key(const T& key) {
  if constexpr (std::is_arithmetic_v<T>) {
    return std::to_string(+key);
  } else {
    return "(a struct)";
  }
}

// got must be `input` sorted by comp (see the top of the file).
template <class T, class Comp>
::testing::AssertionResult is_network_sort_of(std::span<const T> got, std::span<const T> input,
                                              Comp comp) {
  if (got.size() != input.size()) {
    return ::testing::AssertionFailure() << "size " << got.size() << ", expected " << input.size();
  }
  std::vector<T> want(input.begin(), input.end());
  std::stable_sort(want.begin(), want.end(), comp);
  std::size_t wrong = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (comp(got[i], want[i]) || comp(want[i], got[i])) {
      if (wrong++ == 0) first = i;
    }
  }
  if (wrong != 0) {
    return ::testing::AssertionFailure()
           << wrong << " keys out of order, first at " << first << ": got "
           << describe_key(got[first]) << ", std::stable_sort has " << describe_key(want[first]);
  }
  if constexpr (std::is_arithmetic_v<T>) {
    if (bit_patterns(got) != bit_patterns(input)) {
      return ::testing::AssertionFailure()
             << "the order is right but the bit patterns differ from the input's";
    }
  }
  return ::testing::AssertionSuccess();
}

// Each run of array_size keys sorted on its own.
template <class T, class Comp>
::testing::AssertionResult is_batched_sort_of(std::span<const T> got, std::span<const T> input,
                                              std::size_t array_size, Comp comp) {
  if (got.size() != input.size()) return ::testing::AssertionFailure() << "size differs";
  for (std::size_t begin = 0; begin < got.size(); begin += array_size) {
    const auto r =
        is_network_sort_of(got.subspan(begin, array_size), input.subspan(begin, array_size), comp);
    if (!r) return ::testing::AssertionFailure() << "array at " << begin << ": " << r.message();
  }
  return ::testing::AssertionSuccess();
}

template <class T, class Offset, class Comp>
::testing::AssertionResult is_segmented_sort_of(std::span<const T> got, std::span<const T> input,
                                                std::span<const Offset> offsets, Comp comp) {
  if (got.size() != input.size()) return ::testing::AssertionFailure() << "size differs";
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    const auto b = static_cast<std::size_t>(offsets[s]);
    const auto e = static_cast<std::size_t>(offsets[s + 1]);
    const auto r = is_network_sort_of(got.subspan(b, e - b), input.subspan(b, e - b), comp);
    if (!r) return ::testing::AssertionFailure() << "segment " << s << ": " << r.message();
  }
  return ::testing::AssertionSuccess();
}

// Segment layouts: empty segments among tiny ones, one segment of
// everything, lengths over every path (1 to 20000), many tiny ones.
inline std::vector<std::vector<std::uint64_t>> segment_layouts(std::size_t n,
                                                               std::mt19937_64& rng) {
  std::vector<std::vector<std::uint64_t>> layouts;
  layouts.push_back({0, n});  // one huge segment
  for (std::uint64_t max_length : {3u, 70u, 20000u}) {
    std::vector<std::uint64_t> offsets{0};
    while (offsets.back() < n) {
      const std::uint64_t length = rng() % (max_length + 1);  // 0: empty segments
      offsets.push_back(std::min<std::uint64_t>(n, offsets.back() + length));
    }
    offsets.push_back(n);  // and an empty one at the end
    layouts.push_back(std::move(offsets));
  }
  return layouts;
}

}  // namespace gpuprim::test
