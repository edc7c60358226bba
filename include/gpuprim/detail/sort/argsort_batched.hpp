// gp::argsort_batched's shared detail: the checks both backends make before
// anything is written (its CUDA entry point is in entry.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/detail/sort/entry.hpp"
#include "gpuprim/detail/sort/plan.hpp"
#include "gpuprim/detail/sort/precompiled.hpp"

namespace gpuprim::detail {

template <class K>
inline constexpr bool precompiled_argsort_batched = precompiled_sort<K>;

// keys.size() is a whole number of arrays of array_size (> 0 unless there
// are no keys), and every output has one element per key.
inline void check_argsort_batched(std::size_t keys, std::size_t array_size, std::size_t indices,
                                  const std::size_t* sorted_keys) {
  const std::string name = "gpuprim::argsort_batched: ";
  if (array_size == 0 && keys != 0) throw std::invalid_argument(name + "array_size is 0");
  if (array_size != 0 && keys % array_size != 0) {
    throw std::invalid_argument(name + std::to_string(keys) + " keys are not a whole number of " +
                                "arrays of " + std::to_string(array_size));
  }
  if (indices != keys) {
    throw std::invalid_argument(name + std::to_string(keys) + " keys but " +
                                std::to_string(indices) + " indices");
  }
  if (sorted_keys && *sorted_keys != keys) {
    throw std::invalid_argument(name + std::to_string(keys) + " keys but room for " +
                                std::to_string(*sorted_keys) + " sorted keys");
  }
}

}  // namespace gpuprim::detail
