// A value that may be absent. Reductions combine partial results of threads,
// warps and blocks that may have received no input at all; since the
// operator need not have an identity, "no input" is a flag, not a value.
#pragma once

#include "gpuprim/core/macros.hpp"

namespace gpuprim::cuda_impl {

template <class T>
struct partial {
  T value;
  bool valid;
};

// Ordered combination: `left` holds earlier elements than `right`, so
// non-commutative operators see their operands in input order.
template <class T, class Op>
__device__ __forceinline__ partial<T> combine(const partial<T>& left, const partial<T>& right,
                                              Op op) {
  if (left.valid && right.valid) return {op(left.value, right.value), true};
  return left.valid ? left : right;
}

}  // namespace gpuprim::cuda_impl
