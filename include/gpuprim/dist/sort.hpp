// Sample sort over MPI ranks: sort and sort_by_key with gp::mpi.
//
//   std::vector<float> mine_sorted;
//   gp::sort_report r = gp::sort(gp::mpi{comm}, my_keys, mine_sorted);
//   // mine_sorted: elements [r.offset, r.offset + r.count) of the sorted whole
//   gp::device_vector<std::uint32_t> dk, dv;
//   gp::sort_by_key(gp::mpi{comm, gp::cuda}, d_keys, d_values, dk, dv);
//
// The output has the order of the one-process sort (gp::sort: the same key
// order, NaNs last, stable), cut into slices of about n / ranks elements:
// the output container is resized to this rank's share, which need not be
// the size of its input slice. The steps:
//  1. each rank sorts its slice with its local backend (stable);
//  2. a regular sample: every `step`-th element of each sorted slice, with
//     step = ceil(n / (32 ranks^2)), gathered on every rank and sorted;
//     the splitters are the samples at positions r * samples / ranks;
//  3. each rank cuts its sorted slice at the splitters (binary search) and
//     the pieces are exchanged (MPI_Alltoallv);
//  4. each rank merges the pieces it received, in source rank order.
// Keys are compared as (order bits, global position after step 1): equal
// keys are told apart by where they are, which keeps the sort stable and
// splits runs of equal keys between ranks, so the balance does not depend
// on the keys (all keys equal included). Each sample stands for `step`
// elements, so a rank's share is off n / ranks by at most about
// 2 * ranks * step = n / (16 ranks): 6.25 % (sort_report says what it was).
// GPU ranks run the GPU sample sort of dist/gpu_sort.hpp (samples,
// splitters and cuts on the device, the received runs merged), their
// messages through NCCL bootstrapped over MPI where it can run, else
// CUDA-aware MPI, else pinned host staging (dist/mpi_gpu.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpuprim/dist/gpu_sort.hpp"
#include "gpuprim/dist/mpi.hpp"
#include "gpuprim/dist/mpi_gpu.hpp"
#include "gpuprim/dist/sample_sort.hpp"
#include "gpuprim/dist/staging.hpp"
#include "gpuprim/sort.hpp"
#include "gpuprim/sort_types.hpp"

namespace gpuprim {

namespace detail {

// Steps 2 and 3 over MPI. samples_of(step) is the slice's every step-th key.
template <class K, class KeyAt, class SamplesOf>
std::vector<std::uint64_t> piece_bounds(MPI_Comm comm, const dist_layout& layout,
                                        const compared_bits<K>& bits_of, KeyAt key_at,
                                        SamplesOf samples_of) {
  const std::uint64_t step = sample_step(layout.total(), layout.ranks());
  const std::vector<sort_rank_key> mine =
      tagged_samples(samples_of(step), step, layout.offset(), bits_of);
  const std::vector<sort_rank_key> splitters = splitters_of(
      allgatherv(comm, std::span<const sort_rank_key>(mine.data(), mine.size())), layout.ranks());
  return cut_at(splitters, layout.ranks(), layout.count(), layout.offset(), bits_of, key_at);
}

// The all-to-all of the pieces: piece r of `send` (bounds[r] .. bounds[r+1])
// goes to rank r; returns the received elements' count per source rank.
inline std::vector<std::uint64_t> exchange_counts(MPI_Comm comm,
                                                  const std::vector<std::uint64_t>& bounds) {
  const int ranks = static_cast<int>(bounds.size()) - 1;
  std::vector<std::uint64_t> send(ranks), recv(ranks);
  for (int r = 0; r < ranks; ++r)
    send[r] = bounds[r + 1] - bounds[r];
  mpi_check(MPI_Alltoall(send.data(), 1, MPI_UINT64_T, recv.data(), 1, MPI_UINT64_T, comm),
            "MPI_Alltoall");
  return recv;
}

template <class T>
void exchange_pieces(MPI_Comm comm, const T* send, const std::vector<std::uint64_t>& bounds,
                     T* recv, const std::vector<std::uint64_t>& recv_counts) {
  const int ranks = static_cast<int>(bounds.size()) - 1;
  std::vector<int> sc(ranks), sd(ranks), rc(ranks), rd(ranks);
  std::uint64_t received = 0;
  for (int r = 0; r < ranks; ++r) {
    sc[r] = mpi_count(bounds[r + 1] - bounds[r], "a sort piece");
    sd[r] = mpi_count(bounds[r], "a sort slice");
    rc[r] = mpi_count(recv_counts[r], "a sort piece");
    rd[r] = mpi_count(received, "a sort slice");
    received += recv_counts[r];
  }
  const mpi_bytes_type type(sizeof(T));
  mpi_check(MPI_Alltoallv(send, sc.data(), sd.data(), type.get(), recv, rc.data(), rd.data(),
                          type.get(), comm),
            "MPI_Alltoallv");
}

// Step 4 on the host: merges the sorted runs [b[i], b[i+1]) pairwise, left
// before right on equal bits, so runs keep their source rank order.
template <class K, class V>
void merge_runs(std::vector<K>& keys, std::vector<V>& values, std::vector<std::uint64_t> b,
                const compared_bits<K>& bits_of) {
  constexpr bool has_values = !std::is_same_v<V, host_impl::no_value>;
  std::vector<K> k2(keys.size());
  std::vector<V> v2(has_values ? values.size() : 0);
  while (b.size() > 2) {
    std::vector<std::uint64_t> next{0};
    const std::size_t runs = b.size() - 1;
#pragma omp parallel for schedule(dynamic, 1)
    for (std::size_t i = 0; i < runs; i += 2) {
      std::uint64_t x = b[i], xe = b[i + 1], y = b[i + 1], ye = i + 2 <= runs ? b[i + 2] : b[i + 1];
      std::uint64_t o = b[i];
      while (x < xe && y < ye) {
        const bool right = bits_of(keys[y]) < bits_of(keys[x]);
        const std::uint64_t from = right ? y++ : x++;
        k2[o] = keys[from];
        if constexpr (has_values) v2[o] = values[from];
        ++o;
      }
      for (; x < xe; ++x, ++o) {
        k2[o] = keys[x];
        if constexpr (has_values) v2[o] = values[x];
      }
      for (; y < ye; ++y, ++o) {
        k2[o] = keys[y];
        if constexpr (has_values) v2[o] = values[y];
      }
    }
    for (std::size_t i = 0; i < runs; i += 2)
      next.push_back(i + 2 <= runs ? b[i + 2] : b[i + 1]);
    keys.swap(k2);
    if constexpr (has_values) values.swap(v2);
    b = std::move(next);
  }
}

inline void finish_report(MPI_Comm comm, const dist_layout& layout, std::uint64_t count,
                          sort_report& report) {
  const std::vector<std::uint64_t> counts = allgather(comm, count);
  report.total = layout.total();
  report.count = count;
  report.offset = 0;
  for (int r = 0; r < layout.rank; ++r)
    report.offset += counts[r];
  report.largest = *std::max_element(counts.begin(), counts.end());
  const double even = static_cast<double>(layout.total()) / layout.ranks();
  report.imbalance = layout.total() ? static_cast<double>(report.largest) / even - 1 : 0;
}

template <class K, class V>
sort_report host_sample_sort(MPI_Comm comm, host_backend local, std::span<const K> keys_in,
                             std::span<const V> values_in, std::vector<K>& keys_out,
                             std::vector<V>& values_out, sort_order order, key_bits bits,
                             const char* algorithm) {
  constexpr bool has_values = !std::is_same_v<V, host_impl::no_value>;
  if constexpr (has_values) check_value_count(algorithm, keys_in.size(), values_in.size());
  const compared_bits<K> bits_of =
      compared_bits_of<K>(keys_in.size(), order, bits, value_word_bytes<V>(), algorithm);
  sort_report report;
  double t = MPI_Wtime();
  const dist_layout layout = layout_of(comm, keys_in.size());
  report.exchange_seconds += MPI_Wtime() - t;

  t = MPI_Wtime();
  std::vector<K> sorted(keys_in.size());
  std::vector<V> sorted_values(has_values ? keys_in.size() : 0);
  host_sort<K, V>(local, keys_in, std::span<K>(sorted), values_in, std::span<V>(sorted_values),
                  order, bits, algorithm);
  report.local_seconds += MPI_Wtime() - t;

  t = MPI_Wtime();
  const auto bounds = piece_bounds<K>(
      comm, layout, bits_of, [&](std::uint64_t j) { return sorted[j]; },
      [&](std::uint64_t step) {
        std::vector<K> s;
        for (std::uint64_t j = 0; j < sorted.size(); j += step)
          s.push_back(sorted[j]);
        return s;
      });
  const std::vector<std::uint64_t> recv_counts = exchange_counts(comm, bounds);
  const std::vector<std::uint64_t> runs = run_bounds(recv_counts);
  std::vector<K> received(runs.back());
  std::vector<V> received_values(has_values ? runs.back() : 0);
  exchange_pieces(comm, sorted.data(), bounds, received.data(), recv_counts);
  if constexpr (has_values) {
    exchange_pieces(comm, sorted_values.data(), bounds, received_values.data(), recv_counts);
  }
  report.exchange_seconds += MPI_Wtime() - t;

  t = MPI_Wtime();
  { std::vector<K>().swap(sorted); }
  merge_runs(received, received_values, runs, bits_of);
  keys_out = std::move(received);
  if constexpr (has_values) values_out = std::move(received_values);
  report.local_seconds += MPI_Wtime() - t;

  t = MPI_Wtime();
  finish_report(comm, layout, keys_out.size(), report);
  report.exchange_seconds += MPI_Wtime() - t;
  return report;
}

// The same on GPU ranks: the sample sort of dist/gpu_sort.hpp on this
// rank's device, its exchanges through the communicator's GPU path
// (dist/mpi_gpu.hpp: NCCL over MPI, CUDA-aware MPI, or pinned staging).
template <class K, class V>
sort_report cuda_sample_sort(MPI_Comm comm, cuda_backend local, device_span<const K> keys_in,
                             device_span<const V> values_in, device_vector<K>& keys_out,
                             device_vector<V>* values_out, sort_order order, key_bits bits,
                             const char* algorithm) {
  constexpr bool has_values = !std::is_same_v<V, host_impl::no_value>;
  if constexpr (has_values) check_value_count(algorithm, keys_in.size(), values_in.size());
  // Bad arguments throw on every rank, before any collective.
  (void)compared_bits_of<K>(keys_in.size(), order, bits, value_word_bytes<V>(), algorithm);
  const double t = MPI_Wtime();
  const dist_layout layout = layout_of(comm, keys_in.size());
  const mpi_gpu_group group(comm, local);
  const double sizes_seconds = MPI_Wtime() - t;
  auto output = [&](int, std::uint64_t n) {
    if (keys_out.size() != n) keys_out = device_vector<K>(n);
    V* vo = nullptr;
    if constexpr (has_values) {
      if (values_out->size() != n) *values_out = device_vector<V>(n);
      vo = values_out->data();
    }
    return std::pair<K*, V*>(keys_out.data(), vo);
  };
  sort_report report = gpu_sample_sort<K, V>(group, layout.offsets, {keys_in}, {values_in}, output,
                                             order, bits, algorithm);
  report.splitter_seconds += sizes_seconds;
  report.exchange_seconds += sizes_seconds;
  return report;
}

}  // namespace detail

// ---- host ranks ----------------------------------------------------------

template <host_range R, class K>
sort_report sort(mpi<host_backend> backend, const R& keys, std::vector<K>& keys_out,
                 sort_order order = sort_order::ascending, key_bits bits = {}) {
  static_assert(std::is_same_v<std::ranges::range_value_t<R>, K>);
  std::vector<host_impl::no_value> none;
  return detail::host_sample_sort<K, host_impl::no_value>(backend.comm, backend.local,
                                                          detail::host_span(keys), {}, keys_out,
                                                          none, order, bits, "sort");
}

template <host_range R, host_range VR, class K, class V>
sort_report sort_by_key(mpi<host_backend> backend, const R& keys, const VR& values,
                        std::vector<K>& keys_out, std::vector<V>& values_out,
                        sort_order order = sort_order::ascending, key_bits bits = {}) {
  static_assert(std::is_same_v<std::ranges::range_value_t<R>, K>);
  static_assert(std::is_same_v<std::ranges::range_value_t<VR>, V>);
  return detail::host_sample_sort<K, V>(backend.comm, backend.local, detail::host_span(keys),
                                        detail::host_span(values), keys_out, values_out, order,
                                        bits, "sort_by_key");
}

// ---- GPU ranks -----------------------------------------------------------

template <device_range R, class K>
sort_report sort(mpi<cuda_backend> backend, const R& keys, device_vector<K>& keys_out,
                 sort_order order = sort_order::ascending, key_bits bits = {}) {
  device_span<const K> s = as_device_span(keys);
  return detail::cuda_sample_sort<K, host_impl::no_value>(backend.comm, backend.local, s, {},
                                                          keys_out, nullptr, order, bits, "sort");
}

template <device_range R, device_range VR, class K, class V>
sort_report sort_by_key(mpi<cuda_backend> backend, const R& keys, const VR& values,
                        device_vector<K>& keys_out, device_vector<V>& values_out,
                        sort_order order = sort_order::ascending, key_bits bits = {}) {
  device_span<const K> k = as_device_span(keys);
  device_span<const V> v = as_device_span(values);
  return detail::cuda_sample_sort<K, V>(backend.comm, backend.local, k, v, keys_out, &values_out,
                                        order, bits, "sort_by_key");
}

}  // namespace gpuprim
