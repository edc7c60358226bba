// The sample sort on GPUs, written once for gp::multi_gpu (one process,
// several devices, NCCL) and for GPU ranks of gp::mpi (one device per rank,
// NCCL bootstrapped over MPI, or MPI itself): a `Group` gives the steps what
// they need of the devices this process drives and of the communication
// between all of them (see multi_gpu.hpp and mpi_gpu.hpp):
//   ranks(), local_devices(), rank_of(i), use(i), stream(i), backend(i),
//   workspace(i, slot, bytes), host_workspace(bytes), synchronize(),
//   allgather(buffers, bytes), alltoallv(sends, ..., element_bytes).
// The shape of the algorithm (dist/sort.hpp has the order and balance it
// gives; the result is the same):
//  1. every device sorts its slice (stable radix sort) into a buffer kept
//     between calls;
//  2. a regular sample of every sorted slice (one kernel), all-gathered;
//  3. one kernel per device finds the splitters among the samples and its
//     slice's cuts at them; the cuts are all-gathered and one copy of the
//     p x (p + 1) matrix comes to the host (the exchange's sizes);
//  4. one grouped all-to-all moves every piece to its destination (a
//     device's own piece stays where it is), each piece widened to whole
//     aligned blocks of 256 elements on both sides;
//  5. every device merges the sorted runs it holds, in source order (a
//     tree of two-way merges, ceil(log2 p) passes), stably.
// Buffers come from the group's workspace (grown, never shrunk, kept until
// the group goes away): no allocation per call once the sizes are reached.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpuprim/dist/sample_sort.hpp"
#include "gpuprim/sort.hpp"

namespace gpuprim::detail {

// What a Group's alltoallv takes for its counts and offsets: one row per
// device of this process, one entry per rank ([from][to] on the sending
// side, [to][from] on the receiving side), in elements.
using rank_table = std::vector<std::vector<std::uint64_t>>;

// Kernels of dist_sort.cu (stubs without CUDA). W: the value word
// (host_impl::no_value, std::uint32_t or std::uint64_t).
template <class K>
void cuda_pick_samples(const K* sorted, std::uint64_t n, std::uint64_t step, std::uint64_t offset,
                       compared_bits<K> bits_of, sort_rank_key* out, std::uint64_t slots,
                       stream_t stream);
template <class K>
void cuda_find_cuts(const sort_rank_key* samples, int ranks, std::uint64_t slots,
                    std::uint64_t valid, const K* sorted, std::uint64_t n, std::uint64_t offset,
                    compared_bits<K> bits_of, std::uint64_t* bounds, stream_t stream);
template <class K, class W>
void cuda_merge_runs(const K* a, const W* va, std::uint64_t na, const K* b, const W* vb,
                     std::uint64_t nb, K* out, W* vout, compared_bits<K> bits_of, stream_t stream);
// Random inputs of `gpuprim bench dist`, a function of (seed, first + i):
// the same array whatever the slicing.
void cuda_fill_random(std::uint32_t* out, std::uint64_t n, std::uint64_t seed, std::uint64_t first,
                      stream_t stream);
void cuda_fill_random(float* out, std::uint64_t n, std::uint64_t seed, std::uint64_t first,
                      stream_t stream);

#define GPUPRIM_DIST_SORT_FOR_KEY(K)                                                               \
  template void cuda_pick_samples<K>(const K*, std::uint64_t, std::uint64_t, std::uint64_t,        \
                                     compared_bits<K>, sort_rank_key*, std::uint64_t, stream_t);   \
  template void cuda_find_cuts<K>(const sort_rank_key*, int, std::uint64_t, std::uint64_t,         \
                                  const K*, std::uint64_t, std::uint64_t, compared_bits<K>,        \
                                  std::uint64_t*, stream_t);                                       \
  template void cuda_merge_runs<K, host_impl::no_value>(                                           \
      const K*, const host_impl::no_value*, std::uint64_t, const K*, const host_impl::no_value*,   \
      std::uint64_t, K*, host_impl::no_value*, compared_bits<K>, stream_t);                        \
  template void cuda_merge_runs<K, std::uint32_t>(const K*, const std::uint32_t*, std::uint64_t,   \
                                                  const K*, const std::uint32_t*, std::uint64_t,   \
                                                  K*, std::uint32_t*, compared_bits<K>, stream_t); \
  template void cuda_merge_runs<K, std::uint64_t>(const K*, const std::uint64_t*, std::uint64_t,   \
                                                  const K*, const std::uint64_t*, std::uint64_t,   \
                                                  K*, std::uint64_t*, compared_bits<K>, stream_t);
#define GPUPRIM_DIST_SORT_INSTANTIATIONS   \
  GPUPRIM_DIST_SORT_FOR_KEY(std::int8_t)   \
  GPUPRIM_DIST_SORT_FOR_KEY(std::uint8_t)  \
  GPUPRIM_DIST_SORT_FOR_KEY(std::int16_t)  \
  GPUPRIM_DIST_SORT_FOR_KEY(std::uint16_t) \
  GPUPRIM_DIST_SORT_FOR_KEY(std::int32_t)  \
  GPUPRIM_DIST_SORT_FOR_KEY(std::uint32_t) \
  GPUPRIM_DIST_SORT_FOR_KEY(std::int64_t)  \
  GPUPRIM_DIST_SORT_FOR_KEY(std::uint64_t) \
  GPUPRIM_DIST_SORT_FOR_KEY(float)         \
  GPUPRIM_DIST_SORT_FOR_KEY(double)

// The workspace slots of the distributed algorithms (per device).
enum workspace_slot : int {
  ws_sorted_keys,
  ws_sorted_values,
  ws_received_keys,
  ws_received_values,
  ws_merge_keys,
  ws_merge_values,
  ws_samples,
  ws_bounds,
  ws_small,  // reductions' and histograms' few words
  ws_roofline_send,
  ws_roofline_recv,
  ws_slots
};

template <class V>
using value_word_t =
    std::conditional_t<std::is_same_v<V, host_impl::no_value>, host_impl::no_value,
                       std::conditional_t<sizeof(V) == 4, std::uint32_t, std::uint64_t>>;

inline double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The all-to-all's messages start and end at multiples of this many
// elements of their buffers (step 4).
inline constexpr std::uint64_t exchange_alignment = 256;
inline std::uint64_t aligned_down(std::uint64_t i) {
  return i - i % exchange_alignment;
}
inline std::uint64_t aligned_up(std::uint64_t i) {
  return aligned_down(i + exchange_alignment - 1);
}

template <class K, class W>
struct sorted_run {
  const K* keys;
  const W* values;
  std::uint64_t n;
};

// Step 5: the runs (in source order) merged into out, through tmp (as
// large as out) on the way: ceil(log2 runs) passes that alternate between
// the two so that the last lands in out. A run left without a partner in a
// pass is copied to its place in that pass's output.
template <class K, class W>
void merge_run_tree(std::vector<sorted_run<K, W>> runs, K* out, W* vout, K* tmp, W* vtmp,
                    const compared_bits<K>& bits_of, stream_t stream) {
  constexpr bool has_values = !std::is_same_v<W, host_impl::no_value>;
  if (runs.empty()) return;
  int levels = 0;
  while ((std::size_t{1} << levels) < runs.size())
    ++levels;
  if (levels == 0) {
    copy_device_to_device(out, runs[0].keys, runs[0].n * sizeof(K), stream);
    if constexpr (has_values)
      copy_device_to_device(vout, runs[0].values, runs[0].n * sizeof(W), stream);
    return;
  }
  for (int level = 1; level <= levels; ++level) {
    const bool to_out = (levels - level) % 2 == 0;
    K* dk = to_out ? out : tmp;
    W* dv = to_out ? vout : vtmp;
    std::vector<sorted_run<K, W>> next;
    std::uint64_t at = 0;
    for (std::size_t j = 0; j < runs.size(); j += 2) {
      if (j + 1 < runs.size()) {
        const auto& a = runs[j];
        const auto& b = runs[j + 1];
        cuda_merge_runs<K, W>(a.keys, a.values, a.n, b.keys, b.values, b.n, dk + at,
                              has_values ? dv + at : nullptr, bits_of, stream);
        next.push_back({dk + at, has_values ? dv + at : nullptr, a.n + b.n});
        at += a.n + b.n;
      } else {
        const auto& a = runs[j];
        copy_device_to_device(dk + at, a.keys, a.n * sizeof(K), stream);
        if constexpr (has_values) copy_device_to_device(dv + at, a.values, a.n * sizeof(W), stream);
        next.push_back({dk + at, has_values ? dv + at : nullptr, a.n});
        at += a.n;
      }
    }
    runs = std::move(next);
  }
}

// The sort. offsets: every rank's first global position (ranks + 1
// entries); keys[i], values[i]: local device i's slice; output(i, n)
// returns local device i's output (keys, values) of n elements, resized if
// need be. The report's count and offset are local device 0's.
template <class K, class V, class Group, class Output>
sort_report gpu_sample_sort(const Group& g, const std::vector<std::uint64_t>& offsets,
                            const std::vector<device_span<const K>>& keys,
                            const std::vector<device_span<const V>>& values, Output output,
                            sort_order order, key_bits bits, const char* algorithm) {
  constexpr bool has_values = !std::is_same_v<V, host_impl::no_value>;
  using W = value_word_t<V>;
  const int p = g.ranks(), local = g.local_devices();
  const std::uint64_t total = offsets.back();
  const compared_bits<K> bits_of =
      compared_bits_of<K>(total, order, bits, value_word_bytes<V>(), algorithm);
  auto count_of = [&](int r) { return offsets[r + 1] - offsets[r]; };
  sort_report report;
  report.total = total;
  const double start = seconds_now();

  if (p == 1 || total == 0) {  // nothing crosses devices
    for (int i = 0; i < local; ++i) {
      g.use(i);
      const std::uint64_t n = count_of(g.rank_of(i));
      auto [ko, vo] = output(i, n);
      if constexpr (has_values) {
        device_sort<K, V>(g.backend(i), keys[i], device_span<K>(ko, n), values[i],
                          device_span<V>(vo, n), order, bits, algorithm);
      } else {
        device_sort<K, V>(g.backend(i), keys[i], device_span<K>(ko, n), {}, {}, order, bits,
                          algorithm);
      }
    }
    g.synchronize();
    report.sort_seconds = report.local_seconds = seconds_now() - start;
    report.count = count_of(g.rank_of(0));
    report.offset = offsets[g.rank_of(0)];
    for (int r = 0; r < p; ++r)
      report.largest = std::max(report.largest, count_of(r));
    report.imbalance = total ? static_cast<double>(report.largest) / (double(total) / p) - 1 : 0;
    return report;
  }

  // 1. Local sorts.
  std::vector<K*> sk(local);
  std::vector<V*> sv(local, nullptr);
  for (int i = 0; i < local; ++i) {
    g.use(i);
    const std::uint64_t n = count_of(g.rank_of(i));
    // Room past the end for the all-to-all's aligned pieces (step 4).
    const std::uint64_t room = aligned_up(n) + exchange_alignment;
    sk[i] = static_cast<K*>(g.workspace(i, ws_sorted_keys, room * sizeof(K)));
    if constexpr (has_values) {
      sv[i] = static_cast<V*>(g.workspace(i, ws_sorted_values, room * sizeof(V)));
      device_sort<K, V>(g.backend(i), keys[i], device_span<K>(sk[i], n), values[i],
                        device_span<V>(sv[i], n), order, bits, algorithm);
    } else {
      device_sort<K, V>(g.backend(i), keys[i], device_span<K>(sk[i], n), {}, {}, order, bits,
                        algorithm);
    }
  }
  g.synchronize();
  double t = seconds_now();
  report.sort_seconds = t - start;

  // 2-3. Samples, splitters, cuts.
  const std::uint64_t step = sample_step(total, p);
  std::uint64_t slots = 0, valid = 0;
  for (int r = 0; r < p; ++r) {
    const std::uint64_t c = (count_of(r) + step - 1) / step;
    slots = std::max(slots, c);
    valid += c;
  }
  std::vector<void*> samples(local), bounds(local);
  for (int i = 0; i < local; ++i) {
    g.use(i);
    const int r = g.rank_of(i);
    samples[i] = g.workspace(i, ws_samples, p * slots * sizeof(sort_rank_key));
    cuda_pick_samples<K>(sk[i], count_of(r), step, offsets[r], bits_of,
                         static_cast<sort_rank_key*>(samples[i]) + r * slots, slots, g.stream(i));
  }
  g.allgather(samples, slots * sizeof(sort_rank_key));
  for (int i = 0; i < local; ++i) {
    g.use(i);
    const int r = g.rank_of(i);
    bounds[i] = g.workspace(i, ws_bounds, std::size_t(p) * (p + 1) * sizeof(std::uint64_t));
    cuda_find_cuts<K>(static_cast<const sort_rank_key*>(samples[i]), p, slots, valid, sk[i],
                      count_of(r), offsets[r], bits_of,
                      static_cast<std::uint64_t*>(bounds[i]) + std::size_t(r) * (p + 1),
                      g.stream(i));
  }
  g.allgather(bounds, (p + 1) * sizeof(std::uint64_t));
  auto* cuts = static_cast<std::uint64_t*>(
      g.host_workspace(std::size_t(p) * (p + 1) * sizeof(std::uint64_t)));
  g.use(0);
  copy_to_host(cuts, bounds[0], std::size_t(p) * (p + 1) * sizeof(std::uint64_t), g.stream(0));
  g.synchronize();
  auto piece = [&](int d, int e) { return cuts[d * (p + 1) + e + 1] - cuts[d * (p + 1) + e]; };
  std::vector<std::uint64_t> received(p, 0);
  for (int e = 0; e < p; ++e)
    for (int d = 0; d < p; ++d)
      received[e] += piece(d, e);
  for (int d = 0; d < p; ++d) {
    std::uint64_t sent = 0;
    for (int e = 0; e < p; ++e)
      if (e != d) sent += piece(d, e);
    report.sent_bytes =
        std::max(report.sent_bytes, sent * (sizeof(K) + (has_values ? sizeof(V) : 0)));
  }
  const double t_cuts = seconds_now();
  report.splitter_seconds = t_cuts - t;

  // 4. The all-to-all (each device's own piece stays).
  rank_table send_counts(local), send_offsets(local), recv_counts(local), recv_offsets(local);
  std::vector<K*> rk(local);
  std::vector<V*> rv(local, nullptr);
  for (int i = 0; i < local; ++i) {
    const int r = g.rank_of(i);
    send_counts[i].assign(p, 0);
    send_offsets[i].assign(p, 0);
    recv_counts[i].assign(p, 0);
    recv_offsets[i].assign(p, 0);
    // The pieces start and end at arbitrary cuts; each travels widened to
    // whole blocks of exchange_alignment elements (the neighbours it takes
    // along are ignored), so every message starts and ends aligned on both
    // sides and the copies can use their widest accesses. A received run
    // starts at its slot plus the cut's offset in its first block.
    std::uint64_t at = 0;
    for (int e = 0; e < p; ++e) {
      if (e == r) continue;
      const std::uint64_t lo = cuts[r * (p + 1) + e], hi = cuts[r * (p + 1) + e + 1];
      if (hi > lo) {
        send_offsets[i][e] = aligned_down(lo);
        send_counts[i][e] = aligned_up(hi) - aligned_down(lo);
      }
      const std::uint64_t from_lo = cuts[e * (p + 1) + r], from_hi = cuts[e * (p + 1) + r + 1];
      recv_offsets[i][e] = at;
      if (from_hi > from_lo) {
        recv_counts[i][e] = aligned_up(from_hi) - aligned_down(from_lo);
        at += recv_counts[i][e];
      }
    }
    g.use(i);
    rk[i] = static_cast<K*>(g.workspace(i, ws_received_keys, at * sizeof(K)));
    if constexpr (has_values)
      rv[i] = static_cast<V*>(g.workspace(i, ws_received_values, at * sizeof(V)));
  }
  auto as_const_void = [](const auto& ptrs) {
    std::vector<const void*> v(ptrs.begin(), ptrs.end());
    return v;
  };
  auto as_void = [](const auto& ptrs) {
    std::vector<void*> v(ptrs.begin(), ptrs.end());
    return v;
  };
  g.alltoallv(as_const_void(sk), send_counts, send_offsets, as_void(rk), recv_counts, recv_offsets,
              sizeof(K));
  if constexpr (has_values) {
    g.alltoallv(as_const_void(sv), send_counts, send_offsets, as_void(rv), recv_counts,
                recv_offsets, sizeof(V));
  }
  g.synchronize();
  t = seconds_now();
  report.alltoall_seconds = t - t_cuts;

  // 5. The merge of the runs, in source order.
  for (int i = 0; i < local; ++i) {
    g.use(i);
    const int r = g.rank_of(i);
    std::vector<sorted_run<K, W>> runs;
    for (int d = 0; d < p; ++d) {
      const std::uint64_t n = piece(d, r);
      if (n == 0) continue;
      if (d == r) {
        const std::uint64_t at = cuts[r * (p + 1) + r];
        runs.push_back(
            {sk[i] + at, has_values ? reinterpret_cast<const W*>(sv[i] + at) : nullptr, n});
      } else {
        const std::uint64_t at = recv_offsets[i][d] + cuts[d * (p + 1) + r] % exchange_alignment;
        runs.push_back(
            {rk[i] + at, has_values ? reinterpret_cast<const W*>(rv[i] + at) : nullptr, n});
      }
    }
    auto [ko, vo] = output(i, received[r]);
    K* tk = runs.size() > 2
                ? static_cast<K*>(g.workspace(i, ws_merge_keys, received[r] * sizeof(K)))
                : nullptr;
    W* tv = nullptr;
    if constexpr (has_values) {
      if (runs.size() > 2)
        tv = static_cast<W*>(g.workspace(i, ws_merge_values, received[r] * sizeof(V)));
    }
    merge_run_tree<K, W>(std::move(runs), ko, has_values ? reinterpret_cast<W*>(vo) : nullptr, tk,
                         tv, bits_of, g.stream(i));
  }
  g.synchronize();
  report.merge_seconds = seconds_now() - t;

  report.local_seconds = report.sort_seconds + report.merge_seconds;
  report.exchange_seconds = report.splitter_seconds + report.alltoall_seconds;
  const int r0 = g.rank_of(0);
  report.count = received[r0];
  for (int r = 0; r < r0; ++r)
    report.offset += received[r];
  report.largest = *std::max_element(received.begin(), received.end());
  report.imbalance = static_cast<double>(report.largest) / (double(total) / p) - 1;
  return report;
}

}  // namespace gpuprim::detail
