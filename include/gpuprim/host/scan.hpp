// CPU backend of the scan family: the cost-optimal two-pass block scan,
// made cache-friendly.
//
// The input is walked in rounds. In each round every OpenMP thread takes a
// contiguous block small enough to stay in its cache (`block_elements`),
// cut into eight contiguous lanes. Pass 1 reduces each lane (eight
// independent chains keep the adder busy); the thread then waits for the
// inclusive prefix of the block before its own (the previous thread's, or
// the last thread's of the previous round), turns its lane totals into
// prefixes from it, publishes its own inclusive prefix, and in pass 2
// rescans each lane from its prefix, the eight lanes again side by side,
// writing the output. Pass 2 reads what pass 1 just brought into the cache,
// so memory sees about one read and one write per element, like a copy.
// There are no barriers: a thread waits only for its predecessor's prefix,
// so threads drift apart and one reads while another writes. The prefixes
// are the same left fold of the lane totals whatever the timing, so results
// do not vary from run to run. The operator only needs to be associative.
// Plain sums of the arithmetic types run pass 2 on SSE2 vectors
// (host/vector_scan.hpp).
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <thread>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/host/reduce.hpp"
#include "gpuprim/host/streaming_store.hpp"
#include "gpuprim/host/vector_scan.hpp"

namespace gpuprim::host_impl {

inline constexpr std::size_t scan_lanes = 8;
// Per thread and round: about 256K elements (1 MiB of floats), which stays
// in a core's L2 between the passes; fewer rounds mean fewer barriers (on 2
// cores, 64K-element blocks reached 70% of memcpy's speed, 256K 90%). Not
// a power of two on purpose: lanes 128 KiB apart would map all sixteen
// streams of pass 2 (eight read, eight written) to the same L1 sets; 16
// extra elements per lane shift each lane by a cache line.
inline constexpr std::size_t scan_block_elements = scan_lanes * (32 * 1024 + 16);
inline constexpr std::size_t scan_streaming_bytes = std::size_t{32} << 20;

// Pass 2 for one thread's block: lane k of length lane_len starts at
// begin + k * lane_len and continues from prefix[k]; the last lane also owns
// the remainder up to `end`. Exclusive: out[i] excludes in[i].
// Stream: write plain sums with streaming stores (vector_scan_lanes).
template <bool Exclusive, class In, class Out, class T, class Op, class Fetch>
void scan_lanes_from(const In* in, Out* out, std::size_t begin, std::size_t end, const T* prefix,
                     std::size_t lane_len, Op& op, Fetch& fetch, bool stream) {
  T acc[scan_lanes];
  for (std::size_t k = 0; k < scan_lanes; ++k)
    acc[k] = prefix[k];
  auto step = [&](std::size_t k, std::size_t i) {
    const T x = static_cast<T>(fetch(in[i], i));
    if constexpr (Exclusive) out[i] = static_cast<Out>(acc[k]);
    acc[k] = op(acc[k], x);
    if constexpr (!Exclusive) out[i] = static_cast<Out>(acc[k]);
  };
  // Elements [from, to) of every lane, one at a time, the lanes side by side.
  auto scan_elements = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
      for (std::size_t k = 0; k < scan_lanes; ++k)
        step(k, begin + k * lane_len + i);
    }
  };
  std::size_t done = 0;  // elements of each lane scanned
#if defined(__SSE2__)
  if constexpr (vector_scan_applies<In, Out, T, Op, Fetch>) {
    // Streaming stores write whole lines: each lane goes element by element
    // up to the output's first 64-byte boundary (lanes are a whole number
    // of lines apart, so every lane meets it at the same element).
    std::size_t head = 0;
    if (stream) {
      const std::size_t offset = reinterpret_cast<std::uintptr_t>(out + begin) % 64 / sizeof(T);
      head = std::min(lane_len, offset ? line_elements<T> - offset : 0);
    }
    scan_elements(0, head);
    const std::size_t unit = stream ? line_elements<T> : vector_scan_ops<T>::width;
    const std::size_t body = (lane_len - head) / unit * unit;
    if (stream) {
      vector_scan_lanes<Exclusive, true>(in + begin + head, out + begin + head, lane_len, body,
                                         acc);
    } else {
      vector_scan_lanes<Exclusive, false>(in + begin + head, out + begin + head, lane_len, body,
                                          acc);
    }
    done = head + body;
  }
#else
  (void)stream;
#endif
  scan_elements(done, lane_len);
  for (std::size_t i = begin + scan_lanes * lane_len; i < end; ++i)
    step(scan_lanes - 1, i);
}

// Exclusive scans start from `init`; inclusive ones pass std::nullopt.
template <bool Exclusive, class In, class Out, class T, class Op, class Fetch>
void scan(host_backend backend, const In* in, Out* out, std::size_t n, std::optional<T> init, Op op,
          Fetch fetch) {
  if (n == 0) return;
  // Give every later element a prefix: an inclusive scan's first output is
  // its first input, which then carries into the rest.
  std::size_t first = 0;
  if (!init) {
    init = static_cast<T>(fetch(in[0], 0));
    out[0] = static_cast<Out>(*init);
    first = 1;
  }
  const int threads = thread_count_for(backend, n);
  const std::size_t round = static_cast<std::size_t>(threads) * scan_block_elements;
  // Thread t's inclusive prefix through its block of the latest round it
  // has finished counting, tagged with that round + 1. Thread t's block of
  // round r starts from its predecessor's prefix: thread t - 1's of round r,
  // or for thread 0 the last thread's of round r - 1. One slot per thread is
  // enough: a thread cannot publish round r + 1 before its successor has
  // read round r (the chain of prefixes runs through that successor).
  struct alignas(64) prefix_slot {
    std::atomic<std::size_t> round_done{0};
    T prefix{};
  };
  std::vector<prefix_slot> slots(static_cast<std::size_t>(threads));
  const T initial = *init;
  // Outputs far larger than the caches are written with streaming stores
  // (plain sums only): without them each output line is read before it is
  // written, and memory moves three bytes for a copy's two. In place, the
  // input line was just read, so there is nothing to save. (An output not
  // aligned to its element size never reaches a 16-byte boundary.)
  const bool stream = n * sizeof(Out) >= scan_streaming_bytes &&
                      static_cast<const void*>(in) != out &&
                      reinterpret_cast<std::uintptr_t>(out) % sizeof(Out) == 0;

#pragma omp parallel num_threads(threads)
  {
    const int team = omp_get_num_threads();
    const int t = omp_get_thread_num();
    Op thread_op = op;
    Fetch thread_fetch = fetch;
    std::size_t r = 0;
    for (std::size_t round_begin = first; round_begin < n; round_begin += round, ++r) {
      const std::size_t round_n = std::min(round, n - round_begin);
      const std::size_t begin = round_begin + round_n * t / team;
      const std::size_t end = round_begin + round_n * (t + 1) / team;
      // A multiple of 16 elements: whole vectors, and lanes a whole number
      // of cache lines apart (for streaming stores) for 4- and 8-byte values.
      const std::size_t lane_len = (end - begin) / scan_lanes / 16 * 16;
      std::optional<T> totals[scan_lanes];
      for (std::size_t k = 0; k < scan_lanes; ++k) {
        const std::size_t lb = begin + k * lane_len;
        const std::size_t le = k + 1 < scan_lanes ? lb + lane_len : end;
        if (lb < le) totals[k] = reduce_chunk<In, T>(in, lb, le, thread_op, thread_fetch);
      }
      // The prefix before this block: wait for the predecessor's. Threads
      // do not wait for each other otherwise, so one can read its next
      // block while another writes: reads and writes overlap in memory.
      T carry = initial;
      if (t > 0 || r > 0) {
        const prefix_slot& before = slots[static_cast<std::size_t>(t > 0 ? t - 1 : team - 1)];
        const std::size_t wanted = t > 0 ? r + 1 : r;
        for (int spins = 0; before.round_done.load(std::memory_order_acquire) != wanted;) {
          if (spins < 1000) {
            ++spins;
          } else {
            std::this_thread::yield();  // more threads than cores
          }
        }
        carry = before.prefix;
      }
      // Lane prefixes in input order, continuing the carry.
      T lane_prefix[scan_lanes];
      for (std::size_t k = 0; k < scan_lanes; ++k) {
        lane_prefix[k] = carry;
        if (totals[k]) carry = thread_op(carry, *totals[k]);
      }
      prefix_slot& mine = slots[static_cast<std::size_t>(t)];
      mine.prefix = carry;
      mine.round_done.store(r + 1, std::memory_order_release);
      scan_lanes_from<Exclusive, In, Out, T>(in, out, begin, end, lane_prefix, lane_len, thread_op,
                                             thread_fetch, stream);
    }
    if (stream) streaming_stores_done();  // before the caller reads the output
  }
}

}  // namespace gpuprim::host_impl
