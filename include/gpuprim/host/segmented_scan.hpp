// CPU segmented scans with head flags: each OpenMP thread takes a
// contiguous chunk. Pass 1 reduces every chunk from its last head (or its
// start) to its end, which with heads about is a short tail, found from the
// back; one thread turns those into carries, in order; pass 2 scans each
// chunk from its carry, restarting at every head. Within a chunk it is one
// in-order loop, so the operator need not be commutative.
#pragma once

#include <omp.h>

#include <cstddef>
#include <optional>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/host/reduce.hpp"

namespace gpuprim::host_impl {

template <bool Exclusive, class In, class Flag, class T, class Op>
void segmented_scan(host_backend backend, const In* values, const Flag* flags, T* out,
                    std::size_t n, T init, Op op) {
  if (n == 0) return;
  const auto is_head = [&](std::size_t i) { return i == 0 || flags[i] != Flag{}; };
  const int threads = thread_count_for(backend, n);
  // tail[t]: the chunk's combination from its last head (or start) to its
  // end; restarts[t]: whether the chunk holds a head.
  std::vector<std::optional<T>> tail(threads), carry(threads);
  std::vector<char> restarts(threads, 0);
  int team = 1;

#pragma omp parallel num_threads(threads)
  {
#pragma omp single
    team = omp_get_num_threads();
    const int t = omp_get_thread_num();
    const std::size_t begin = n * t / team;
    const std::size_t end = n * (t + 1) / team;
    Op thread_op = op;
    // Only the part after the chunk's last head matters to later chunks:
    // find that head from the back (one byte per step), reduce from there.
    std::size_t from = end;
    while (from > begin && !is_head(from - 1))
      --from;
    std::optional<T> acc;
    if (from > begin) {
      restarts[t] = 1;
      --from;  // the head itself
    } else {
      from = begin;
    }
    if (from < end) {
      acc = static_cast<T>(values[from]);
      for (std::size_t i = from + 1; i < end; ++i)
        acc = thread_op(*acc, static_cast<T>(values[i]));
    }
    tail[t] = acc;
#pragma omp barrier
#pragma omp single
    {
      std::optional<T> running;
      for (int k = 0; k < team; ++k) {
        carry[k] = running;
        if (!tail[k]) continue;
        running = restarts[k] || !running ? *tail[k] : op(*running, *tail[k]);
      }
    }  // implicit barrier
    if constexpr (Exclusive) {
      // e = init op (everything since the segment's head, before i)
      T e = carry[t] ? thread_op(init, *carry[t]) : init;
      for (std::size_t i = begin; i < end; ++i) {
        const T x = static_cast<T>(values[i]);  // before out[i]: may be the same element
        if (is_head(i)) e = init;
        out[i] = e;
        e = thread_op(e, x);
      }
    } else {
      bool have = carry[t].has_value();
      T running = have ? *carry[t] : T{};
      for (std::size_t i = begin; i < end; ++i) {
        const T x = static_cast<T>(values[i]);
        running = is_head(i) || !have ? x : thread_op(running, x);
        have = true;
        out[i] = running;
      }
    }
  }
}

}  // namespace gpuprim::host_impl
