// CPU backend of the reduction family: OpenMP over contiguous blocks.
//
// The input is cut into blocks by its length alone (up to max_reduce_blocks
// of at least min_elements_per_thread elements); the threads take blocks
// one at a time as they get to them, and the blocks' partials are combined
// in block order. So the result depends on n only, not on the thread count
// or on which thread ran what, the operator need not be commutative, and a
// thread that the machine's other work keeps off its core only delays the
// block it holds: the others take the rest (a fixed chunk a thread would
// leave the whole sum waiting for it). Inside a block, eight independent
// accumulators run side by side: a single accumulator would serialize on
// the operator's latency (4 cycles for a float add) and reach a fraction of
// memory bandwidth.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/operators.hpp"

namespace gpuprim::host_impl {

// Below this many elements per thread, fewer threads are used.
inline constexpr std::size_t min_elements_per_thread = 32 * 1024;

inline int thread_count_for(host_backend backend, std::size_t n) {
  const int requested = backend.thread_count > 0 ? backend.thread_count : omp_get_max_threads();
  const std::size_t useful = n / min_elements_per_thread;
  return static_cast<int>(std::max<std::size_t>(1, std::min<std::size_t>(requested, useful)));
}

// Reduces in[begin, end) (non-empty) with `lanes` independent accumulators.
// A commutative operator lets lane k take every lanes-th element (a layout
// the compiler turns into SIMD instructions); any other operator gets
// contiguous sub-ranges per lane, so operands stay in input order.
template <class In, class T, class Op, class Fetch>
T reduce_chunk(const In* in, std::size_t begin, std::size_t end, Op& op, Fetch& fetch) {
  constexpr std::size_t lanes = 8;
  const std::size_t n = end - begin;
  auto value = [&](std::size_t i) { return static_cast<T>(fetch(in[i], i)); };
  if (n < 4 * lanes) {
    T acc = value(begin);
    for (std::size_t i = begin + 1; i < end; ++i)
      acc = op(acc, value(i));
    return acc;
  }
  T acc[lanes];
  if constexpr (is_commutative_v<Op>) {
    for (std::size_t k = 0; k < lanes; ++k)
      acc[k] = value(begin + k);
    std::size_t i = begin + lanes;
    for (; i + lanes <= end; i += lanes) {
      for (std::size_t k = 0; k < lanes; ++k)
        acc[k] = op(acc[k], value(i + k));
    }
    for (; i < end; ++i)
      acc[0] = op(acc[0], value(i));
  } else {
    const std::size_t len = n / lanes;  // lane k: [begin + k*len, begin + (k+1)*len)
    for (std::size_t k = 0; k < lanes; ++k)
      acc[k] = value(begin + k * len);
    for (std::size_t i = 1; i < len; ++i) {
      for (std::size_t k = 0; k < lanes; ++k)
        acc[k] = op(acc[k], value(begin + k * len + i));
    }
    // The last lane also owns the remainder after the eight sub-ranges.
    for (std::size_t j = begin + lanes * len; j < end; ++j)
      acc[lanes - 1] = op(acc[lanes - 1], value(j));
  }
  T total = acc[0];
  for (std::size_t k = 1; k < lanes; ++k)
    total = op(total, acc[k]);
  return total;
}

// The blocks a reduction of n elements is cut into.
inline constexpr std::size_t max_reduce_blocks = 256;
inline std::size_t reduce_block_count(std::size_t n) {
  return std::max<std::size_t>(1, std::min(max_reduce_blocks, n / min_elements_per_thread));
}

template <class In, class T, class Op, class Fetch>
T transform_reduce(host_backend backend, const In* in, std::size_t n, T init, Op op, Fetch fetch) {
  if (n == 0) return init;
  const std::size_t blocks = reduce_block_count(n);
  if (blocks == 1) return op(init, reduce_chunk<In, T>(in, 0, n, op, fetch));
  const int threads = thread_count_for(backend, n);
  // Not std::vector: vector<bool> packs bits, which threads writing their
  // own blocks' partials would share.
  const auto partials = std::make_unique<T[]>(blocks);
  const auto block = [&](std::size_t b, Op& block_op, Fetch& block_fetch) {
    partials[b] =
        reduce_chunk<In, T>(in, n * b / blocks, n * (b + 1) / blocks, block_op, block_fetch);
  };
  if (threads == 1) {
    for (std::size_t b = 0; b < blocks; ++b)
      block(b, op, fetch);
  } else {
#pragma omp parallel num_threads(threads)
    {
      Op thread_op = op;
      Fetch thread_fetch = fetch;
#pragma omp for schedule(dynamic, 1) nowait
      for (std::int64_t b = 0; b < static_cast<std::int64_t>(blocks); ++b)
        block(static_cast<std::size_t>(b), thread_op, thread_fetch);
    }
  }
  T total = partials[0];
  for (std::size_t b = 1; b < blocks; ++b)
    total = op(total, partials[b]);
  return op(init, total);
}

}  // namespace gpuprim::host_impl
