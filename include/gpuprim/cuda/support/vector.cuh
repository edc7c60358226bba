// Vectorized loads: Vec elements read as one 16-byte (or smaller) access.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpuprim::cuda_impl {

// Elements per 16-byte load; 1 for types whose size does not divide 16.
template <class T>
inline constexpr int vector_items = (sizeof(T) <= 16 && 16 % sizeof(T) == 0) ? 16 / sizeof(T) : 1;

template <class T, int Vec>
struct alignas(sizeof(T) * Vec >= 16 ? 16 : alignof(T)) vector_of {
  T items[Vec];
};

// `p` must be aligned to sizeof(vector_of<T, Vec>) when Vec > 1.
template <int Vec, class T>
__device__ __forceinline__ vector_of<T, Vec> load_vector(const T* p) {
  return *reinterpret_cast<const vector_of<T, Vec>*>(p);
}

inline bool is_aligned(const void* p, std::size_t alignment) {
  return reinterpret_cast<std::uintptr_t>(p) % alignment == 0;
}

}  // namespace gpuprim::cuda_impl
