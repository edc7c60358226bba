// Asking L2 for data a later block will read.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpuprim::cuda_impl {

// The threads of a block ask L2 for the 128-byte lines of
// [begin, begin + bytes), one line each in turn (prefetch.global.L2: no
// register waits for the data, nothing is read into the SM). Every thread
// of the block calls it.
__device__ __forceinline__ void prefetch_block_to_l2(const void* begin, std::size_t bytes) {
  const auto first = reinterpret_cast<std::uintptr_t>(begin) & ~std::uintptr_t{127};
  const auto end = reinterpret_cast<std::uintptr_t>(begin) + bytes;
  for (std::uintptr_t line = first + std::uintptr_t{threadIdx.x} * 128; line < end;
       line += std::uintptr_t{blockDim.x} * 128) {
    asm volatile("prefetch.global.L2 [%0];" ::"l"(line));
  }
}

}  // namespace gpuprim::cuda_impl
