// gp::multi_gpu: one process driving several GPUs through NCCL, each device
// holding a contiguous slice of the data (device 0 the first elements).
//
//   gp::multi_gpu gpus({0, 1});                           // one stream per device
//   auto x = gp::multi_gpu_vector<float>::scatter(gpus, host_values);
//   double s = gp::reduce(gpus, x, 0.0);
//   gp::inclusive_scan(gpus, x, y);
//   gp::multi_gpu_vector<std::uint32_t> sorted;
//   gp::sort_report r = gp::sort(gpus, keys, sorted);    // sample sort, NCCL all-to-all
//   std::vector<float> back = x.gather();
//
// The results are those of the MPI ranks (dist/mpi.hpp): partials combined
// in device order on the host (deterministic), scans carried from the
// devices before, histograms summed with ncclAllReduce (integers), and the
// sample sort of dist/sort.hpp with its pieces exchanged by ncclSend /
// ncclRecv in one group. One device is a valid (degenerate) case.
// Available when gpuprim_dist was built with NCCL (GPUPRIM_HAS_NCCL).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "gpuprim/dist/local_partial.hpp"
#include "gpuprim/dist/sample_sort.hpp"
#include "gpuprim/dist/staging.hpp"
#include "gpuprim/histogram.hpp"
#include "gpuprim/scan.hpp"

namespace gpuprim {

class multi_gpu {
 public:
  // Opens an NCCL communicator over `devices` (ncclCommInitAll) and one
  // non-blocking stream per device.
  explicit multi_gpu(std::vector<int> devices);

  int size() const { return static_cast<int>(devices_.size()); }
  int device(int i) const { return devices_[i]; }
  stream_t stream(int i) const;
  cuda_backend backend(int i) const { return cuda.on(stream(i)); }

  // Makes device i current for the calling thread.
  void use(int i) const;
  // Waits for every device's stream.
  void synchronize_all() const;

  // Sums `count` counters (4 or 8 bytes each) at buffers[i] (device i's
  // memory) over the devices, in place (ncclAllReduce in one group).
  void allreduce_sum(const std::vector<void*>& buffers, std::size_t count, int counter_bytes) const;
  // All-to-all: device d sends send_counts[d][e] bytes from
  // sends[d] + send_offsets[d][e] to device e, which receives them at
  // recvs[e] + recv_offsets[e][d] (ncclSend / ncclRecv in one group).
  void exchange(const std::vector<const void*>& sends,
                const std::vector<std::vector<std::uint64_t>>& send_counts,
                const std::vector<std::vector<std::uint64_t>>& send_offsets,
                const std::vector<void*>& recvs,
                const std::vector<std::vector<std::uint64_t>>& recv_offsets) const;

  struct context;

 private:
  std::vector<int> devices_;
  std::shared_ptr<context> context_;
};

// A device-sliced array: slice i lives on device i of its multi_gpu.
template <class T>
class multi_gpu_vector {
 public:
  multi_gpu_vector() = default;

  // Slices of the given sizes, uninitialized.
  multi_gpu_vector(const multi_gpu& gpus, const std::vector<std::uint64_t>& sizes) {
    slices_.reserve(sizes.size());
    for (int i = 0; i < gpus.size(); ++i) {
      gpus.use(i);
      slices_.emplace_back(sizes[i]);
    }
  }

  // `values` cut into even slices, one per device (even_slice).
  static multi_gpu_vector scatter(const multi_gpu& gpus, std::span<const T> values) {
    std::vector<std::uint64_t> sizes(gpus.size());
    for (int i = 0; i < gpus.size(); ++i) {
      const std::uint64_t n = values.size(), p = gpus.size();
      sizes[i] = n * (i + 1) / p - n * i / p;
    }
    multi_gpu_vector v(gpus, sizes);
    std::uint64_t at = 0;
    for (int i = 0; i < gpus.size(); ++i) {
      gpus.use(i);
      copy(values.subspan(at, sizes[i]), v.slices_[i].span());
      at += sizes[i];
    }
    return v;
  }

  std::vector<T> gather() const {
    std::vector<T> all;
    for (const auto& s : slices_) {
      const std::vector<T> part = to_host(s);
      all.insert(all.end(), part.begin(), part.end());
    }
    return all;
  }

  int slices() const { return static_cast<int>(slices_.size()); }
  device_vector<T>& slice(int i) { return slices_[i]; }
  const device_vector<T>& slice(int i) const { return slices_[i]; }
  std::uint64_t size() const {
    std::uint64_t n = 0;
    for (const auto& s : slices_)
      n += s.size();
    return n;
  }
  std::vector<std::uint64_t> offsets() const {
    std::vector<std::uint64_t> o{0};
    for (const auto& s : slices_)
      o.push_back(o.back() + s.size());
    return o;
  }

 private:
  std::vector<device_vector<T>> slices_;
};

namespace detail {
template <class T, class Op>
std::optional<T> combine_in_order(const std::vector<std::optional<T>>& partials, Op op) {
  std::optional<T> acc;
  for (const auto& p : partials)
    if (p) acc = acc ? op(*acc, *p) : *p;
  return acc;
}
}  // namespace detail

// ---- reductions ----------------------------------------------------------------

template <class In, class T, class Op = plus>
T reduce(const multi_gpu& gpus, const multi_gpu_vector<In>& in, T init, Op op = {}) {
  std::vector<std::optional<T>> partials(gpus.size());
  for (int i = 0; i < gpus.size(); ++i) {
    gpus.use(i);
    partials[i] =
        detail::local_partial<T>(gpus.backend(i), in.slice(i), op, detail::unary_fetch<identity>{});
  }
  const auto all = detail::combine_in_order(partials, op);
  return all ? op(init, *all) : init;
}

template <class In, class T, class ReduceOp, class Transform>
T transform_reduce(const multi_gpu& gpus, const multi_gpu_vector<In>& in, T init,
                   ReduceOp reduce_op, Transform transform) {
  std::vector<std::optional<T>> partials(gpus.size());
  for (int i = 0; i < gpus.size(); ++i) {
    gpus.use(i);
    partials[i] = detail::local_partial<T>(gpus.backend(i), in.slice(i), reduce_op,
                                           detail::unary_fetch<Transform>{transform});
  }
  const auto all = detail::combine_in_order(partials, reduce_op);
  return all ? reduce_op(init, *all) : init;
}

namespace detail {
template <bool Max, class In>
value_index<In> multi_gpu_extreme(const multi_gpu& gpus, const multi_gpu_vector<In>& in,
                                  nan_rule rule) {
  const auto offsets = in.offsets();
  std::vector<std::optional<value_index<In>>> partials(gpus.size());
  for (int i = 0; i < gpus.size(); ++i) {
    if (in.slice(i).empty()) continue;
    gpus.use(i);
    auto found = Max ? max_element(gpus.backend(i), in.slice(i), rule)
                     : min_element(gpus.backend(i), in.slice(i), rule);
    found.index += offsets[i];
    partials[i] = found;
  }
  auto pick = [&](const value_index<In>& a, const value_index<In>& b) {
    if (rule == nan_rule::skip) return Max ? select_max_number{}(a, b) : select_min_number{}(a, b);
    return Max ? select_max{}(a, b) : select_min{}(a, b);
  };
  const auto all = combine_in_order(partials, pick);
  return all ? *all : value_index<In>{In{}, 0};
}
}  // namespace detail

template <class In>
value_index<In> min_element(const multi_gpu& gpus, const multi_gpu_vector<In>& in,
                            nan_rule rule = nan_rule::propagate) {
  return detail::multi_gpu_extreme<false>(gpus, in, rule);
}
template <class In>
value_index<In> max_element(const multi_gpu& gpus, const multi_gpu_vector<In>& in,
                            nan_rule rule = nan_rule::propagate) {
  return detail::multi_gpu_extreme<true>(gpus, in, rule);
}

// ---- scans -------------------------------------------------------------------------
// `out` must have `in`'s slice sizes.

template <class T, class Op = plus>
void inclusive_scan(const multi_gpu& gpus, const multi_gpu_vector<T>& in, multi_gpu_vector<T>& out,
                    Op op = {}) {
  std::vector<std::optional<T>> totals(gpus.size());
  for (int i = 0; i < gpus.size(); ++i) {
    gpus.use(i);
    inclusive_scan(gpus.backend(i), in.slice(i), out.slice(i), op);
    if (!out.slice(i).empty()) {
      T last;
      detail::copy_to_host(&last, out.slice(i).data() + out.slice(i).size() - 1, sizeof last,
                           gpus.stream(i));
      synchronize(gpus.stream(i));
      totals[i] = last;
    }
  }
  std::optional<T> carry;
  for (int i = 0; i < gpus.size(); ++i) {
    if (carry && !out.slice(i).empty()) {
      gpus.use(i);
      detail::cuda_apply_carry(out.slice(i).data(), out.slice(i).size(), *carry, op,
                               gpus.stream(i));
    }
    if (totals[i]) carry = carry ? op(*carry, *totals[i]) : *totals[i];
  }
  gpus.synchronize_all();
}

template <class T, class Op = plus>
void exclusive_scan(const multi_gpu& gpus, const multi_gpu_vector<T>& in, multi_gpu_vector<T>& out,
                    T init, Op op = {}) {
  std::vector<std::optional<T>> totals(gpus.size());
  for (int i = 0; i < gpus.size(); ++i) {
    gpus.use(i);
    totals[i] =
        detail::local_partial<T>(gpus.backend(i), in.slice(i), op, detail::unary_fetch<identity>{});
  }
  T carry = init;
  for (int i = 0; i < gpus.size(); ++i) {
    gpus.use(i);
    exclusive_scan(gpus.backend(i), in.slice(i), out.slice(i), carry, op);
    if (totals[i]) carry = op(carry, *totals[i]);
  }
  gpus.synchronize_all();
}

// ---- histogram ---------------------------------------------------------------------
// counts: one device_vector per device (counts[i] on device i), each with
// the number of bins; every device gets the whole histogram.

template <class S, class C>
std::uint64_t histogram_even(const multi_gpu& gpus, const multi_gpu_vector<S>& samples,
                             std::vector<device_vector<C>>& counts,
                             std::type_identity_t<histogram_level_t<S>> lower,
                             std::type_identity_t<histogram_level_t<S>> upper) {
  std::uint64_t left_out = 0;
  std::vector<void*> buffers(gpus.size());
  for (int i = 0; i < gpus.size(); ++i) {
    gpus.use(i);
    left_out += histogram_even(gpus.backend(i), samples.slice(i), counts[i], lower, upper);
    buffers[i] = counts[i].data();
  }
  gpus.allreduce_sum(buffers, counts[0].size(), static_cast<int>(sizeof(C)));
  return left_out;
}

// ---- sort --------------------------------------------------------------------------

namespace detail {
template <class K, class V>
sort_report multi_gpu_sample_sort(const multi_gpu& gpus, const multi_gpu_vector<K>& keys,
                                  const multi_gpu_vector<V>* values, multi_gpu_vector<K>& keys_out,
                                  multi_gpu_vector<V>* values_out, sort_order order, key_bits bits,
                                  const char* algorithm) {
  constexpr bool has_values = !std::is_same_v<V, host_detail::no_value>;
  const int p = gpus.size();
  const auto offsets = keys.offsets();
  const std::uint64_t total = offsets.back();
  const compared_bits<K> bits_of =
      compared_bits_of<K>(total, order, bits, value_word_bytes<V>(), algorithm);
  sort_report report;
  auto seconds = [] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  };

  // 1. Local sorts.
  double t = seconds();
  multi_gpu_vector<K> sorted(gpus, [&] {
    std::vector<std::uint64_t> s(p);
    for (int i = 0; i < p; ++i)
      s[i] = keys.slice(i).size();
    return s;
  }());
  multi_gpu_vector<V> sorted_values;
  if constexpr (has_values)
    sorted_values = multi_gpu_vector<V>(gpus, [&] {
      std::vector<std::uint64_t> s(p);
      for (int i = 0; i < p; ++i)
        s[i] = keys.slice(i).size();
      return s;
    }());
  for (int i = 0; i < p; ++i) {
    gpus.use(i);
    if constexpr (has_values) {
      device_sort<K, V>(gpus.backend(i), keys.slice(i).span(), sorted.slice(i).span(),
                        values->slice(i).span(), sorted_values.slice(i).span(), order, bits,
                        algorithm);
    } else {
      device_sort<K, V>(gpus.backend(i), keys.slice(i).span(), sorted.slice(i).span(), {}, {},
                        order, bits, algorithm);
    }
  }
  gpus.synchronize_all();
  report.local_seconds += seconds() - t;

  // 2-3. Samples, splitters, cuts.
  t = seconds();
  const std::uint64_t step = sample_step(total, p);
  std::vector<sort_rank_key> samples;
  for (int i = 0; i < p; ++i) {
    gpus.use(i);
    std::vector<K> s((sorted.slice(i).size() + step - 1) / step);
    if (!s.empty()) {
      copy_strided_to_host(s.data(), sorted.slice(i).data(), sizeof(K), step * sizeof(K), s.size(),
                           gpus.stream(i));
    }
    const auto tagged = tagged_samples(s, step, offsets[i], bits_of);
    samples.insert(samples.end(), tagged.begin(), tagged.end());
  }
  const auto splitters = splitters_of(std::move(samples), p);
  std::vector<std::vector<std::uint64_t>> send_counts(p), send_offsets(p), recv_offsets(p);
  std::vector<std::uint64_t> recv_total(p, 0);
  std::vector<std::vector<std::uint64_t>> bounds(p);
  for (int i = 0; i < p; ++i) {
    gpus.use(i);
    const K* d = sorted.slice(i).data();
    const stream_t s = gpus.stream(i);
    bounds[i] =
        cut_at(splitters, p, sorted.slice(i).size(), offsets[i], bits_of, [&](std::uint64_t j) {
          K k;
          copy_to_host(&k, d + j, sizeof k, s);
          synchronize(s);
          return k;
        });
  }
  for (int e = 0; e < p; ++e) {
    recv_offsets[e].assign(p, 0);
    for (int d = 0; d < p; ++d) {
      recv_offsets[e][d] = recv_total[e];
      recv_total[e] += bounds[d][e + 1] - bounds[d][e];
    }
  }
  keys_out = multi_gpu_vector<K>(gpus, recv_total);
  multi_gpu_vector<K> received(gpus, recv_total);
  multi_gpu_vector<V> received_values;
  if constexpr (has_values) received_values = multi_gpu_vector<V>(gpus, recv_total);
  auto exchange = [&]<class T>(const multi_gpu_vector<T>& from, multi_gpu_vector<T>& to) {
    std::vector<const void*> sends(p);
    std::vector<void*> recvs(p);
    std::vector<std::vector<std::uint64_t>> sc(p), so(p), ro(p);
    for (int d = 0; d < p; ++d) {
      sends[d] = from.slice(d).data();
      recvs[d] = to.slice(d).data();
      sc[d].resize(p);
      so[d].resize(p);
      ro[d].resize(p);
      for (int e = 0; e < p; ++e) {
        sc[d][e] = (bounds[d][e + 1] - bounds[d][e]) * sizeof(T);
        so[d][e] = bounds[d][e] * sizeof(T);
        ro[d][e] = recv_offsets[d][e] * sizeof(T);
      }
    }
    gpus.exchange(sends, sc, so, recvs, ro);
  };
  exchange(sorted, received);
  if constexpr (has_values) exchange(sorted_values, received_values);
  gpus.synchronize_all();
  report.exchange_seconds += seconds() - t;

  // 4. The pieces arrived in source device order: a stable sort merges them.
  t = seconds();
  if constexpr (has_values) *values_out = multi_gpu_vector<V>(gpus, recv_total);
  for (int i = 0; i < p; ++i) {
    gpus.use(i);
    if constexpr (has_values) {
      device_sort<K, V>(gpus.backend(i), as_const(received.slice(i).span()),
                        keys_out.slice(i).span(), as_const(received_values.slice(i).span()),
                        values_out->slice(i).span(), order, bits, algorithm);
    } else {
      device_sort<K, V>(gpus.backend(i), as_const(received.slice(i).span()),
                        keys_out.slice(i).span(), {}, {}, order, bits, algorithm);
    }
  }
  gpus.synchronize_all();
  report.local_seconds += seconds() - t;

  report.total = total;
  report.count = recv_total[0];
  report.offset = 0;
  report.largest = *std::max_element(recv_total.begin(), recv_total.end());
  report.imbalance = total ? static_cast<double>(report.largest) / (double(total) / p) - 1 : 0;
  return report;
}
}  // namespace detail

// The report's offset and count are device 0's; keys_out.offsets() has all.
template <class K>
sort_report sort(const multi_gpu& gpus, const multi_gpu_vector<K>& keys,
                 multi_gpu_vector<K>& keys_out, sort_order order = sort_order::ascending,
                 key_bits bits = {}) {
  return detail::multi_gpu_sample_sort<K, host_detail::no_value>(gpus, keys, nullptr, keys_out,
                                                                 nullptr, order, bits, "sort");
}

template <class K, class V>
sort_report sort_by_key(const multi_gpu& gpus, const multi_gpu_vector<K>& keys,
                        const multi_gpu_vector<V>& values, multi_gpu_vector<K>& keys_out,
                        multi_gpu_vector<V>& values_out, sort_order order = sort_order::ascending,
                        key_bits bits = {}) {
  return detail::multi_gpu_sample_sort<K, V>(gpus, keys, &values, keys_out, &values_out, order,
                                             bits, "sort_by_key");
}

}  // namespace gpuprim
