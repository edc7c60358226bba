// How one thread of a scan tile turns its Items consecutive inputs into
// accumulator values.
//
// The general form calls the scan's fetch functor with each element and its
// global index. A segmented scan's fetch also reads each element's head
// flag from a second array; one byte load per element is Items narrow loads
// per thread (the scan's data arrays move in 16-byte vectors). The
// head-flag forms below load the thread's Items flags once, with 8- or
// 16-byte loads where the flags allow, into a bit mask kept in registers.
#pragma once

#include <cstdint>
#include <type_traits>

#include "gpuprim/core/segmented_operator.hpp"
#include "gpuprim/cuda/support/prefetch.cuh"

namespace gpuprim::cuda_impl {

// Bit i set where byte i of `w` is not zero (i = 0 is the lowest byte, the
// first in memory on a little-endian machine).
GPUPRIM_HD constexpr unsigned nonzero_byte_bits(std::uint64_t w) {
  constexpr std::uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
  // Bit 7 of each byte: set iff the byte is not zero (adding 0x7f to the
  // low seven bits carries into bit 7 iff any is set; OR in bit 7 itself).
  const std::uint64_t high = ((w & low7) + low7 | w) & ~low7;
  // Gather bits 7, 15, ..., 63 into bits 56..63: bit 8i times 2^(56 - 7i)
  // lands on bit 56 + i; no two partial products share a bit, so nothing
  // carries into the top byte.
  return static_cast<unsigned>(((high >> 7) * 0x0102040810204080ull) >> 56);
}

// Bit k set where flags[first + k] is not zero, for the `valid` (<= Items)
// flags from `first` on.
template <int Items, class Flag>
__device__ __forceinline__ std::uint64_t load_flag_bits(const Flag* flags, std::uint64_t first,
                                                        int valid) {
  static_assert(Items <= 64, "a thread's head flags must fit one 64-bit mask");
  const Flag* p = flags + first;
  std::uint64_t bits = 0;
  if constexpr (sizeof(Flag) == 1 && Items % 8 == 0) {
    const auto address = reinterpret_cast<std::uintptr_t>(p);
    if (valid == Items && address % 16 == 0 && Items % 16 == 0) {
#pragma unroll
      for (int v = 0; v < Items / 16; ++v) {
        const uint4 q = reinterpret_cast<const uint4*>(p)[v];
        const std::uint64_t lo = (std::uint64_t(q.y) << 32) | q.x;
        const std::uint64_t hi = (std::uint64_t(q.w) << 32) | q.z;
        bits |= std::uint64_t(nonzero_byte_bits(lo) | nonzero_byte_bits(hi) << 8) << (16 * v);
      }
      return bits;
    }
    if (valid == Items && address % 8 == 0) {
#pragma unroll
      for (int v = 0; v < Items / 8; ++v) {
        bits |= std::uint64_t(nonzero_byte_bits(reinterpret_cast<const std::uint64_t*>(p)[v]))
                << (8 * v);
      }
      return bits;
    }
  }
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    if (k < valid && p[k] != Flag{}) bits |= std::uint64_t{1} << k;
  }
  return bits;
}

// The thread's head bits: its flags, and the first element of the input,
// which always starts a segment.
template <int Items, class Flag>
__device__ __forceinline__ std::uint64_t load_head_bits(const Flag* flags, std::uint64_t first,
                                                        int valid) {
  return load_flag_bits<Items>(flags, first, valid) | (first == 0 ? 1u : 0u);
}

// The general form: fetch(x, index) for each element.
template <class Fetch>
struct element_fetch {
  Fetch fetch;
  std::uint64_t first;

  template <class In>
  __device__ __forceinline__ auto operator()(const In& x, int k) const {
    return fetch(x, first + k);
  }
};

template <int Items, class Fetch>
__device__ __forceinline__ element_fetch<Fetch> make_thread_fetch(const Fetch& fetch,
                                                                  std::uint64_t first, int) {
  return {fetch, first};
}

// Inclusive segmented scan: (x, head), the first element always a head.
template <class T>
struct head_bits_fetch {
  std::uint64_t heads;

  template <class In>
  __device__ __forceinline__ flagged<T> operator()(const In& x, int k) const {
    return {static_cast<T>(x), ((heads >> k) & 1) != 0};
  }
};

template <int Items, class T, class Flag>
__device__ __forceinline__ head_bits_fetch<T> make_thread_fetch(
    const detail::head_flag_fetch<T, Flag>& fetch, std::uint64_t first, int valid) {
  return {load_head_bits<Items>(fetch.flags, first, valid)};
}

// Exclusive segmented scan (see detail::exclusive_head_flag_fetch): a head
// gives (init, head), any other element the value before it, still read
// from global memory (the staged values are those of `in`, which the fetch
// need not read).
template <class T, class In>
struct shifted_head_bits_fetch {
  const In* values;
  std::uint64_t first;
  std::uint64_t heads;
  T init;

  template <class X>
  __device__ __forceinline__ flagged<T> operator()(const X&, int k) const {
    if ((heads >> k) & 1) return {init, true};
    return {static_cast<T>(values[first + k - 1]), false};
  }
};

template <int Items, class T, class In, class Flag>
__device__ __forceinline__ shifted_head_bits_fetch<T, In> make_thread_fetch(
    const detail::exclusive_head_flag_fetch<T, In, Flag>& fetch, std::uint64_t first, int valid) {
  return {fetch.values, first, load_head_bits<Items>(fetch.flags, first, valid), fetch.init};
}

// Asks L2 for whatever a fetch reads besides the scan's input, for the
// `count` elements from `begin` (the scan's prefetch of later tiles, every
// thread of the block calls it): nothing in general, a segmented scan's
// head flags.
template <class Fetch>
__device__ __forceinline__ void prefetch_fetch_inputs(const Fetch&, std::uint64_t, std::uint64_t) {}

template <class T, class Flag>
__device__ __forceinline__ void prefetch_fetch_inputs(const detail::head_flag_fetch<T, Flag>& fetch,
                                                      std::uint64_t begin, std::uint64_t count) {
  prefetch_block_to_l2(fetch.flags + begin, count * sizeof(Flag));
}

template <class T, class In, class Flag>
__device__ __forceinline__ void prefetch_fetch_inputs(
    const detail::exclusive_head_flag_fetch<T, In, Flag>& fetch, std::uint64_t begin,
    std::uint64_t count) {
  prefetch_block_to_l2(fetch.flags + begin, count * sizeof(Flag));
}

}  // namespace gpuprim::cuda_impl
