// The autotuner's description of launch parameters: a config is a short row
// of named integers (threads per block, items per thread, blocks per SM ...),
// and a space is the declared list of candidates one device algorithm can
// run with. Plain C++: the host tests, the CLI and the CUDA launch paths all
// read the same description.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace gpuprim::tuning {

inline constexpr int max_parameters = 4;

// Parameter values in the order of the space's parameter names.
struct config {
  std::array<int, max_parameters> values{};
  int count = 0;

  config() = default;
  config(std::initializer_list<int> v);
  int operator[](int i) const { return values[static_cast<std::size_t>(i)]; }
  friend bool operator==(const config& a, const config& b) {
    return a.count == b.count && a.values == b.values;
  }
};

// The device algorithms the tuner knows; the order is the table's in
// src/tune/config.cpp (make_spaces). The cache stores names, not these
// numbers, so new algorithms go anywhere before `count`.
enum class algorithm : int {
  reduce,
  histogram,
  segmented_reduce,
  scan,
  segmented_scan,
  radix_sort,
  sorting_network,
  transpose,
  convolve,
  spmv,
  closest_pair,
  count
};

// Element types a tuned choice is keyed by (the input element type).
enum class element_type : int { i8, u8, i16, u16, i32, u32, i64, u64, f32, f64, other };

template <class T>
constexpr element_type element_type_of() {
  if constexpr (std::is_same_v<T, float>)
    return element_type::f32;
  else if constexpr (std::is_same_v<T, double>)
    return element_type::f64;
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 1)
    return std::is_signed_v<T> ? element_type::i8 : element_type::u8;
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 2)
    return std::is_signed_v<T> ? element_type::i16 : element_type::u16;
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 4)
    return std::is_signed_v<T> ? element_type::i32 : element_type::u32;
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 8)
    return std::is_signed_v<T> ? element_type::i64 : element_type::u64;
  else
    return element_type::other;
}

// "float32", "int64", ... (NumPy's names); element_type::other for unknown.
std::string_view element_type_name(element_type t);
element_type parse_element_type(std::string_view name);

// Size bucket: floor(log2(n)) (0 for n <= 1). Choices are stored per bucket.
int size_bucket(std::uint64_t n);

// One algorithm's tuning space: parameter names, the declared candidates
// (compile-time parameters come from the instantiated list only, so the
// space is a list, not always a product) and the default.
struct space {
  algorithm id{};
  std::string name;    // "reduce"
  std::string family;  // what `gpuprim tune FAMILY` selects: "reduce"
  std::vector<std::string> parameters;
  std::vector<config> candidates;
  config default_config;
  std::vector<element_type> types;  // tuned by `gpuprim tune`
  std::vector<int> log2_sizes;      // tuned by `gpuprim tune` (the --quick sizes)

  // Index of `c` in candidates, or -1.
  int index_of(const config& c) const;
  // The candidates that differ from `c` in exactly one parameter, by one
  // step in that parameter's sorted list of values (local refinement).
  std::vector<config> neighbours(const config& c) const;
  // "blocks_per_sm=4 threads=256"
  std::string describe(const config& c) const;
};

// The spaces of the algorithms the tuner can tune, in `algorithm` order.
const std::vector<space>& spaces();
const space& space_of(algorithm a);
// nullptr for an unknown name.
const space* find_space(std::string_view name);

// Every candidate of a product of value lists, in row-major order.
std::vector<config> product(const std::vector<std::vector<int>>& values);

}  // namespace gpuprim::tuning
