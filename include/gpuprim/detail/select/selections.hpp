// What each selection algorithm is, as data both backends run: a
// "selection" says which element it reads (`input`), which output class an
// element falls in (classify), and where an element of a class goes
// (write). The host engine (host/select.hpp) and the GPU kernel
// (cuda/device/device_select.cuh) are each one loop over such a
// description, so copy_if, partition, unique and reduce_by_key share their
// semantics across backends by construction.
//
// Classes: an element is dropped (-1) or falls in class 0 .. sections - 1.
// The first `counted` classes are counted: an element of class c goes to
// position (number of class-c elements before it) of that class's output.
// A class past them (`sections > counted`) is "the rest" of a partition:
// its rank is the element's index minus the counted elements before it, and
// rest_layout says where that rank lands.
//
// Reductions (reduces = true, reduce_by_key and run_length_encode) also
// fold a value over each run of class-0 heads: the run starting at the d-th
// head ends just before the next head, and its value goes to write_value(d).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/select_types.hpp"

namespace gpuprim::detail {

enum class rest_layout : std::uint8_t {
  none,            // no rest class
  after_selected,  // at (class-0 total) + rank, in input order
  reversed,        // at n - 1 - rank (CUB's DevicePartition::If)
  own_array,       // at rank, in an output of its own
};

// The parts every selection has. A selection with one class whose write()
// is `output[dest] = x` also has plain_output(): the GPU stores its
// compacted elements in 16-byte vectors.
template <class T>
struct selection_base {
  using staged = T;                              // the element classify sees
  static constexpr bool needs_previous = false;  // classify looks at input[i - 1]
  static constexpr bool reduces = false;
  static constexpr bool writes_index = false;  // write() reads its index argument
  const T* input = nullptr;
  bool emits = true;  // false: count only, write nothing
};

// copy_if / count_if: the elements pred accepts.
template <class T, class Pred>
struct select_if : selection_base<T> {
  static constexpr int counted = 1, sections = 1;
  static constexpr rest_layout rest = rest_layout::none;
  T* out = nullptr;
  Pred pred{};
  GPUPRIM_HD int classify(const T& x, const T*, std::uint64_t) const { return pred(x) ? 0 : -1; }
  GPUPRIM_HD void write(int, std::uint64_t dest, const T& x, std::uint64_t) const { out[dest] = x; }
  GPUPRIM_HD T* plain_output() const { return out; }
};

// copy_flagged: the elements whose flag is nonzero.
template <class T, class Flag>
struct select_flagged : selection_base<T> {
  static constexpr int counted = 1, sections = 1;
  static constexpr rest_layout rest = rest_layout::none;
  const Flag* flags = nullptr;
  T* out = nullptr;
  GPUPRIM_HD int classify(const T&, const T*, std::uint64_t i) const {
    return flags[i] != Flag{} ? 0 : -1;
  }
  GPUPRIM_HD void write(int, std::uint64_t dest, const T& x, std::uint64_t) const { out[dest] = x; }
  GPUPRIM_HD T* plain_output() const { return out; }
};

// nonzero / flatnonzero: the indices (as Index) of the elements pred
// accepts.
template <class T, class Pred, class Index>
struct select_index_if : selection_base<T> {
  static constexpr int counted = 1, sections = 1;
  static constexpr bool writes_index = true;
  static constexpr rest_layout rest = rest_layout::none;
  Index* out = nullptr;
  Pred pred{};
  GPUPRIM_HD int classify(const T& x, const T*, std::uint64_t) const { return pred(x) ? 0 : -1; }
  GPUPRIM_HD void write(int, std::uint64_t dest, const T&, std::uint64_t i) const {
    out[dest] = static_cast<Index>(i);
  }
};

// partition: accepted elements first, the rest after (layout: after_selected
// or reversed). The GPU's after_selected layout reads the accepted total
// from *selected_total (device memory, written by a counting pass before).
template <class T, class Pred>
struct partition_if : selection_base<T> {
  static constexpr int counted = 1, sections = 2;
  T* out = nullptr;
  Pred pred{};
  rest_layout rest = rest_layout::after_selected;
  const std::uint64_t* selected_total = nullptr;
  GPUPRIM_HD int classify(const T& x, const T*, std::uint64_t) const { return pred(x) ? 0 : 1; }
  GPUPRIM_HD void write(int, std::uint64_t dest, const T& x, std::uint64_t) const { out[dest] = x; }
};

// partition_three_way: first_pred's elements to `first`, then second_pred's
// to `second`, the rest to `third`, each in input order.
template <class T, class FirstPred, class SecondPred>
struct partition_three : selection_base<T> {
  static constexpr int counted = 2, sections = 3;
  static constexpr rest_layout rest = rest_layout::own_array;
  T* first = nullptr;
  T* second = nullptr;
  T* third = nullptr;
  FirstPred first_pred{};
  SecondPred second_pred{};
  GPUPRIM_HD int classify(const T& x, const T*, std::uint64_t) const {
    return first_pred(x) ? 0 : (second_pred(x) ? 1 : 2);
  }
  GPUPRIM_HD void write(int cls, std::uint64_t dest, const T& x, std::uint64_t) const {
    (cls == 0 ? first : cls == 1 ? second : third)[dest] = x;
  }
};

// No values beside the keys (unique).
struct no_values {};

// unique / unique_by_key: the first element of each run of equal keys, with
// its value when there are values.
template <class K, class V, class Eq>
struct unique_runs : selection_base<K> {
  static constexpr int counted = 1, sections = 1;
  static constexpr rest_layout rest = rest_layout::none;
  static constexpr bool needs_previous = true;
  static constexpr bool has_values = !std::is_same_v<V, no_values>;
  static constexpr bool writes_index = has_values;
  const V* values = nullptr;
  K* keys_out = nullptr;
  V* values_out = nullptr;
  Eq eq{};
  GPUPRIM_HD int classify(const K& x, const K* previous, std::uint64_t) const {
    return previous == nullptr || !eq(*previous, x) ? 0 : -1;
  }
  GPUPRIM_HD void write(int, std::uint64_t dest, const K& x, std::uint64_t i) const {
    keys_out[dest] = x;
    if constexpr (has_values) values_out[dest] = values[i];
  }
  GPUPRIM_HD K* plain_output() const { return keys_out; }  // (without values)
};

// The values a reduction folds: an array, or a 1 per element (a run's
// length, run_length_encode).
template <class V>
struct array_values {
  using value_type = V;
  static constexpr bool constant = false;
  const V* data = nullptr;
  GPUPRIM_HD V at(std::uint64_t i) const { return data[i]; }
};
template <class C>
struct unit_values {
  using value_type = C;
  static constexpr bool constant = true;
  GPUPRIM_HD C at(std::uint64_t) const { return C(1); }
};

// reduce_by_key / run_length_encode: each run's first key, and op folded over
// its values in order (for unit_values and plus: its length).
template <class K, class Values, class Op, class Eq>
struct reduce_runs : selection_base<K> {
  using value_type = typename Values::value_type;
  static constexpr int counted = 1, sections = 1;
  static constexpr rest_layout rest = rest_layout::none;
  static constexpr bool needs_previous = true;
  static constexpr bool reduces = true;
  Values values{};
  K* keys_out = nullptr;
  value_type* values_out = nullptr;
  Op op{};
  Eq eq{};
  GPUPRIM_HD int classify(const K& x, const K* previous, std::uint64_t) const {
    return previous == nullptr || !eq(*previous, x) ? 0 : -1;
  }
  GPUPRIM_HD void write(int, std::uint64_t dest, const K& x, std::uint64_t) const {
    keys_out[dest] = x;
  }
  GPUPRIM_HD K* plain_output() const { return keys_out; }
  GPUPRIM_HD void write_value(std::uint64_t run, const value_type& v) const { values_out[run] = v; }
};

// The rest layout of a selection (a member of partition_if, a constant of
// the others).
template <class S>
GPUPRIM_HD constexpr rest_layout rest_of(const S& s) {
  return s.rest;
}

}  // namespace gpuprim::detail
