// gp::argsort_batched's shared detail: its CUDA entry point and the checks
// both backends make before anything is written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/detail/sort/plan.hpp"
#include "gpuprim/detail/sort/precompiled.hpp"

namespace gpuprim::detail {

// Defined in gpuprim/cuda/device/device_argsort_batched.cuh, compiled for
// every radix key type (GPUPRIM_SORT_TYPES; src/sort/argsort_batched.cu).
// indices[rows * cols] and, unless null, keys_out[rows * cols].
template <class K>
void cuda_argsort_batched(const K* in, K* keys_out, std::int64_t* indices, std::size_t rows,
                          std::size_t cols, sort_order order, stream_t stream);

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
