// The selection family's public vocabulary (gpuprim/select.hpp): the
// predicates the library precompiles, the partition layouts, the counts of
// a three-way partition.
//
//   gp::copy_if(gp::cuda, d_x, d_out, gp::nonzero{});
//   gp::copy_if(gp::cuda, d_x, d_out, gp::greater_than(0.5f));
//   gp::count_if(gp::host, x, gp::compare_with<int>{gp::comparison::less_equal, 7});
//
// Any callable `bool pred(const T&)` works on the host backend and, from a
// .cu file that includes gpuprim/cuda/select.cuh, on the GPU (mark it
// __host__ __device__). From plain C++ the GPU backend takes the ones below.
#pragma once

#include <cstdint>

#include "gpuprim/core/macros.hpp"

namespace gpuprim {

// x != 0, as numpy.nonzero / count_nonzero decide it: NaN is nonzero,
// -0.0 is zero.
struct nonzero {
  template <class T>
  GPUPRIM_HD constexpr bool operator()(const T& x) const {
    return x != T{};
  }
};

// The six ordered comparisons of an element with a value, chosen at run time
// (one compiled predicate per type serves all six). A NaN element compares
// false except under not_equal, as in C++ and NumPy.
enum class comparison : std::uint8_t { less, less_equal, greater, greater_equal, equal, not_equal };

template <class T>
struct compare_with {
  comparison relation;
  T value;

  GPUPRIM_HD constexpr bool operator()(const T& x) const {
    switch (relation) {
      case comparison::less:
        return x < value;
      case comparison::less_equal:
        return x <= value;
      case comparison::greater:
        return x > value;
      case comparison::greater_equal:
        return x >= value;
      case comparison::equal:
        return x == value;
      default:
        return x != value;
    }
  }
};

template <class T>
constexpr compare_with<T> less_than(T v) {
  return {comparison::less, v};
}
template <class T>
constexpr compare_with<T> greater_than(T v) {
  return {comparison::greater, v};
}
template <class T>
constexpr compare_with<T> equal_to_value(T v) {
  return {comparison::equal, v};
}

// Key equality for unique / run_length_encode / reduce_by_key:
//  - equal_to: a == b (std::unique's and CUB's default: NaN never equals
//    anything, so every NaN starts a run of its own);
//  - same_value: a == b, or both NaN (NumPy 2's unique(equal_nan=True):
//    a run of NaNs is one run). -0.0 equals 0.0 under both.
struct equal_to {
  template <class T>
  GPUPRIM_HD constexpr bool operator()(const T& a, const T& b) const {
    return a == b;
  }
};

struct same_value {
  template <class T>
  GPUPRIM_HD constexpr bool operator()(const T& a, const T& b) const {
    return a == b || (!(a == a) && !(b == b));
  }
};

// Where partition puts the elements that fail the predicate (the selected
// ones always come first, in input order):
//  - stable: after them, in input order (std::stable_partition). On the GPU
//    this counts the selected elements first (one more read of the input,
//    stream-ordered, no synchronization).
//  - rest_reversed: after them, in reverse input order, as CUB's
//    DevicePartition::If writes them: one pass.
enum class partition_layout : std::uint8_t { stable, rest_reversed };

// How many elements partition_three_way sent to its first and second output
// (the rest went to the third).
struct three_way_counts {
  std::uint64_t first = 0;
  std::uint64_t second = 0;
  friend bool operator==(const three_way_counts&, const three_way_counts&) = default;
};

}  // namespace gpuprim
