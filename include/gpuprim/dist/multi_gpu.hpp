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
// sample sort of dist/gpu_sort.hpp (splitters and cuts found on the
// devices, one grouped ncclSend / ncclRecv all-to-all, the received runs
// merged). One device is a valid (degenerate) case.
//
// The devices work at the same time: each step enqueues every device's
// local work on that device's stream first and waits once, after the loop
// (launches are asynchronous; small results come back through pinned host
// memory). Buffers are kept in the multi_gpu between calls (workspace), so
// a step allocates nothing once the sizes were seen. Results do not depend
// on the overlap: they are combined in device order.
// Available when gpuprim_dist was built with NCCL (GPUPRIM_HAS_NCCL).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuprim/core/memory.hpp"
#include "gpuprim/dist/gpu_sort.hpp"
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
  // Enqueued on the devices' streams after the work already there; returns
  // without waiting (synchronize_all waits).
  void allreduce_sum(const std::vector<void*>& buffers, std::size_t count, int counter_bytes) const;

  // What the GPU sample sort (dist/gpu_sort.hpp) needs of its devices: here
  // every rank is a device of this process.
  int ranks() const { return size(); }
  int local_devices() const { return size(); }
  int rank_of(int i) const { return i; }
  void synchronize() const { synchronize_all(); }
  // Device i's buffer for `slot` (gpu_sort.hpp's workspace_slot), at least
  // `bytes` long: allocated when the one kept is smaller, kept until the
  // multi_gpu goes away (its content is not kept when it grows). Make
  // device i current first.
  void* workspace(int i, int slot, std::size_t bytes) const;
  // Pinned host memory of at least `bytes`, kept likewise.
  void* host_workspace(std::size_t bytes) const;
  // buffers[i] holds ranks() parts of `bytes`; device i's own part (at
  // i * bytes) goes to every device's buffer (ncclAllGather in one group,
  // enqueued without waiting).
  void allgather(const std::vector<void*>& buffers, std::size_t bytes) const;
  // All-to-all of elements of `element_bytes`: device d sends
  // send_counts[d][e] elements from sends[d] + send_offsets[d][e] to device
  // e, which receives them at recvs[e] + recv_offsets[e][d] (receive counts
  // recv_counts[e][d], equal to the sender's). The pieces d -> d are not
  // moved. One group of ncclSend / ncclRecv for all devices, enqueued
  // without waiting. Offsets and counts in elements.
  void alltoallv(const std::vector<const void*>& sends, const detail::rank_table& send_counts,
                 const detail::rank_table& send_offsets, const std::vector<void*>& recvs,
                 const detail::rank_table& recv_counts, const detail::rank_table& recv_offsets,
                 std::size_t element_bytes) const;

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
// A multi_gpu_vector must have one slice per device of `gpus`.
template <class T>
void check_slices(const char* algorithm, const multi_gpu& gpus, const multi_gpu_vector<T>& v) {
  if (v.slices() != gpus.size()) {
    throw std::invalid_argument(std::string("gpuprim::") + algorithm +
                                " (multi_gpu): " + std::to_string(v.slices()) + " slices for " +
                                std::to_string(gpus.size()) + " devices");
  }
}

template <class T, class Op>
std::optional<T> combine_in_order(const std::vector<std::optional<T>>& partials, Op op) {
  std::optional<T> acc;
  for (const auto& p : partials)
    if (p) acc = acc ? op(*acc, *p) : *p;
  return acc;
}

// Device i's reduction of spans[i] from inits[i] (skipped where spans[i] is
// empty), enqueued on every device before any wait: the devices' local work
// overlaps. One synchronize_all at the end; inits[i] where spans[i] is
// empty.
template <class T, class In, class Op, class Fetch>
std::vector<T> multi_gpu_reductions(const multi_gpu& gpus,
                                    const std::vector<device_span<const In>>& spans,
                                    const std::vector<T>& inits, Op op, Fetch fetch) {
  const int p = gpus.size();
  auto* results = static_cast<T*>(gpus.host_workspace(p * sizeof(T)));
  for (int i = 0; i < p; ++i) {
    if (spans[i].empty()) continue;
    gpus.use(i);
    T* out = static_cast<T*>(gpus.workspace(i, ws_small, sizeof(T)));
    cuda_reduce_checked(spans[i], out, inits[i], op, fetch, gpus.stream(i));
    copy_to_host(results + i, out, sizeof(T), gpus.stream(i));
  }
  gpus.synchronize_all();
  std::vector<T> reduced = inits;
  for (int i = 0; i < p; ++i)
    if (!spans[i].empty()) reduced[i] = results[i];
  return reduced;
}

// The operators whose identity is known, so that a device's partial needs
// no first element: a sum starts from -0.0 (x + -0.0 is x for every x,
// -0.0 included) or 0.
template <class T, class Op>
inline constexpr bool sum_with_identity =
    std::is_same_v<Op, plus>&& std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;

// Every device's partial (its slice's reduction without `init`; nullopt for
// an empty slice), enqueued on all devices before one wait. A sum starts
// from its identity; other operators start from the slice's first element,
// which takes a first round (the devices' first elements) before the
// reductions of the rest.
template <class T, class In, class Op, class Fetch>
std::vector<std::optional<T>> multi_gpu_partials(const multi_gpu& gpus,
                                                 const multi_gpu_vector<In>& in, Op op,
                                                 Fetch fetch) {
  check_slices("reduce", gpus, in);
  const int p = gpus.size();
  std::vector<device_span<const In>> spans(p);
  std::vector<T> inits(p);
  if constexpr (sum_with_identity<T, Op>) {
    for (int i = 0; i < p; ++i)
      spans[i] = in.slice(i).span();
    if constexpr (std::is_floating_point_v<T>) inits.assign(p, T(-0.0));
  } else {
    auto* heads = static_cast<In*>(gpus.host_workspace(p * sizeof(In)));
    for (int i = 0; i < p; ++i) {
      if (in.slice(i).empty()) continue;
      gpus.use(i);
      copy_to_host(heads + i, in.slice(i).data(), sizeof(In), gpus.stream(i));
    }
    gpus.synchronize_all();
    for (int i = 0; i < p; ++i) {
      const std::uint64_t n = in.slice(i).size();
      if (n == 0) continue;
      inits[i] = static_cast<T>(fetch(heads[i], 0));
      spans[i] = device_span<const In>(in.slice(i).data() + 1, n - 1);
    }
  }
  const std::vector<T> reduced = multi_gpu_reductions(gpus, spans, inits, op, fetch);
  std::vector<std::optional<T>> partials(p);
  for (int i = 0; i < p; ++i)
    if (!in.slice(i).empty()) partials[i] = reduced[i];
  return partials;
}
}  // namespace detail

// ---- reductions ----------------------------------------------------------------

template <class In, class T, class Op = plus>
T reduce(const multi_gpu& gpus, const multi_gpu_vector<In>& in, T init, Op op = {}) {
  const auto partials =
      detail::multi_gpu_partials<T>(gpus, in, op, detail::unary_fetch<identity>{});
  const auto all = detail::combine_in_order(partials, op);
  return all ? op(init, *all) : init;
}

template <class In, class T, class ReduceOp, class Transform>
T transform_reduce(const multi_gpu& gpus, const multi_gpu_vector<In>& in, T init,
                   ReduceOp reduce_op, Transform transform) {
  const auto partials =
      detail::multi_gpu_partials<T>(gpus, in, reduce_op, detail::unary_fetch<Transform>{transform});
  const auto all = detail::combine_in_order(partials, reduce_op);
  return all ? reduce_op(init, *all) : init;
}

namespace detail {
template <class Select, class In>
value_index<In> multi_gpu_extreme(const multi_gpu& gpus, const multi_gpu_vector<In>& in) {
  check_slices("min_element/max_element", gpus, in);
  const int p = gpus.size();
  const auto offsets = in.offsets();
  std::vector<device_span<const In>> spans(p);
  for (int i = 0; i < p; ++i)
    spans[i] = in.slice(i).span();
  const std::vector<value_index<In>> found = multi_gpu_reductions(
      gpus, spans, std::vector<value_index<In>>(p, {In{}, value_index<In>::none}), Select{},
      value_index_fetch{});
  std::vector<std::optional<value_index<In>>> partials(p);
  for (int i = 0; i < p; ++i) {
    if (spans[i].empty()) continue;
    partials[i] = found[i];
    partials[i]->index += offsets[i];
  }
  // The select operators keep the left operand on ties: the first extreme
  // in device order wins.
  const auto all = combine_in_order(partials, Select{});
  return all ? *all : value_index<In>{In{}, 0};
}
}  // namespace detail

template <class In>
value_index<In> min_element(const multi_gpu& gpus, const multi_gpu_vector<In>& in,
                            nan_rule rule = nan_rule::propagate) {
  return rule == nan_rule::skip ? detail::multi_gpu_extreme<detail::select_min_number>(gpus, in)
                                : detail::multi_gpu_extreme<detail::select_min>(gpus, in);
}
template <class In>
value_index<In> max_element(const multi_gpu& gpus, const multi_gpu_vector<In>& in,
                            nan_rule rule = nan_rule::propagate) {
  return rule == nan_rule::skip ? detail::multi_gpu_extreme<detail::select_max_number>(gpus, in)
                                : detail::multi_gpu_extreme<detail::select_max>(gpus, in);
}

// ---- scans -------------------------------------------------------------------------
// `out` must have `in`'s slice sizes.

namespace detail {
template <class T>
void check_same_slices(const char* algorithm, const multi_gpu& gpus, const multi_gpu_vector<T>& in,
                       const multi_gpu_vector<T>& out) {
  if (in.slices() != gpus.size() || out.slices() != gpus.size()) {
    throw std::invalid_argument(std::string("gpuprim::") + algorithm +
                                " (multi_gpu): " + std::to_string(in.slices()) + " input and " +
                                std::to_string(out.slices()) + " output slices for " +
                                std::to_string(gpus.size()) + " devices");
  }
  for (int i = 0; i < gpus.size(); ++i) {
    if (in.slice(i).size() != out.slice(i).size()) {
      throw std::invalid_argument(std::string("gpuprim::") + algorithm +
                                  " (multi_gpu): the output's slice " + std::to_string(i) +
                                  " has " + std::to_string(out.slice(i).size()) +
                                  " elements, the input's " + std::to_string(in.slice(i).size()));
    }
  }
}
}  // namespace detail

namespace detail {

// The inclusive scan's steps (separate for `gpuprim bench dist`'s time
// split). 1. Every device scans its slice and sends its last element to the
// host: all enqueued, one wait; returns the slices' totals.
template <class T, class Op>
std::vector<std::optional<T>> multi_gpu_scan_slices(const multi_gpu& gpus,
                                                    const multi_gpu_vector<T>& in,
                                                    multi_gpu_vector<T>& out, Op op) {
  const int p = gpus.size();
  auto* lasts = static_cast<T*>(gpus.host_workspace(p * sizeof(T)));
  for (int i = 0; i < p; ++i) {
    gpus.use(i);
    inclusive_scan(gpus.backend(i), in.slice(i), out.slice(i), op);
    if (!out.slice(i).empty()) {
      copy_to_host(lasts + i, out.slice(i).data() + out.slice(i).size() - 1, sizeof(T),
                   gpus.stream(i));
    }
  }
  gpus.synchronize_all();
  std::vector<std::optional<T>> totals(p);
  for (int i = 0; i < p; ++i)
    if (!out.slice(i).empty()) totals[i] = lasts[i];
  return totals;
}

// 2. Device i's carry: the totals of the devices before it, combined in
// device order on the host (nullopt when they are all empty).
template <class T, class Op>
std::vector<std::optional<T>> carries_in_order(const std::vector<std::optional<T>>& totals, Op op) {
  std::vector<std::optional<T>> carries(totals.size());
  std::optional<T> carry;
  for (std::size_t i = 0; i < totals.size(); ++i) {
    carries[i] = carry;
    if (totals[i]) carry = carry ? op(*carry, *totals[i]) : *totals[i];
  }
  return carries;
}

// 3. Every device applies its carry: all enqueued, one wait.
template <class T, class Op>
void multi_gpu_apply_carries(const multi_gpu& gpus, multi_gpu_vector<T>& out,
                             const std::vector<std::optional<T>>& carries, Op op) {
  for (int i = 0; i < gpus.size(); ++i) {
    if (!carries[i] || out.slice(i).empty()) continue;
    gpus.use(i);
    cuda_apply_carry(out.slice(i).data(), out.slice(i).size(), *carries[i], op, gpus.stream(i));
  }
  gpus.synchronize_all();
}

}  // namespace detail

// Reduce, then scan from the carry: 1. every device's total and first
// element (a sum's totals in the same round as the first elements, other
// operators' in a second round, from the first element); 2. the carries,
// in device order on the host; 3. every device with a carry c scans
// in[1 ..] exclusively from c op in[0] into out[0 ..] (the inclusive scan
// from c, shifted by one) and puts c op total last; the others scan as one
// device does. Each slice is read twice and written once (the scan and
// carry fix-up of the in-place case, below, reads and writes it twice).
template <class T, class Op = plus>
void inclusive_scan(const multi_gpu& gpus, const multi_gpu_vector<T>& in, multi_gpu_vector<T>& out,
                    Op op = {}) {
  detail::check_same_slices("inclusive_scan", gpus, in, out);
  const int p = gpus.size();
  bool in_place = false;
  for (int i = 0; i < p; ++i)
    in_place = in_place || (!in.slice(i).empty() && in.slice(i).data() == out.slice(i).data());
  if (in_place || p == 1) {
    const auto totals = detail::multi_gpu_scan_slices(gpus, in, out, op);
    detail::multi_gpu_apply_carries(gpus, out, detail::carries_in_order(totals, op), op);
    return;
  }
  auto* host = static_cast<T*>(gpus.host_workspace(3 * p * sizeof(T)));
  T* heads = host;
  T* totals = host + p;
  T* lasts = host + 2 * p;
  constexpr bool one_round = detail::sum_with_identity<T, Op>;
  auto reduce_on = [&](int i, device_span<const T> span, T init) {
    T* d = static_cast<T*>(gpus.workspace(i, detail::ws_small, sizeof(T)));
    detail::cuda_reduce_checked(span, d, init, op, detail::unary_fetch<identity>{}, gpus.stream(i));
    detail::copy_to_host(totals + i, d, sizeof(T), gpus.stream(i));
  };
  for (int i = 0; i < p; ++i) {
    if (in.slice(i).empty()) continue;
    gpus.use(i);
    detail::copy_to_host(heads + i, in.slice(i).data(), sizeof(T), gpus.stream(i));
    if constexpr (one_round)
      reduce_on(i, in.slice(i).span(), std::is_floating_point_v<T> ? T(-0.0) : T{});
  }
  gpus.synchronize_all();
  if constexpr (!one_round) {
    for (int i = 0; i < p; ++i) {
      const std::uint64_t n = in.slice(i).size();
      if (n == 0) continue;
      gpus.use(i);
      if (n == 1) {
        totals[i] = heads[i];
      } else {
        reduce_on(i, device_span<const T>(in.slice(i).data() + 1, n - 1), heads[i]);
      }
    }
    gpus.synchronize_all();
  }
  std::optional<T> carry;
  for (int i = 0; i < p; ++i) {
    const std::uint64_t n = in.slice(i).size();
    if (n == 0) continue;
    gpus.use(i);
    if (!carry) {
      gpuprim::inclusive_scan(gpus.backend(i), in.slice(i), out.slice(i), op);
      carry = totals[i];
      continue;
    }
    if (n > 1) {
      gpuprim::exclusive_scan(gpus.backend(i), device_span<const T>(in.slice(i).data() + 1, n - 1),
                              device_span<T>(out.slice(i).data(), n - 1),
                              static_cast<T>(op(*carry, heads[i])), op);
    }
    lasts[i] = static_cast<T>(op(*carry, totals[i]));
    detail::copy_to_device(out.slice(i).data() + n - 1, lasts + i, sizeof(T), gpus.stream(i));
    carry = lasts[i];
  }
  gpus.synchronize_all();
}

// 1. every device's total (multi_gpu_partials: overlapped); 2. each
// device's starting value, init then the totals before it in device order;
// 3. every device scans from it (all enqueued, one wait).
template <class T, class Op = plus>
void exclusive_scan(const multi_gpu& gpus, const multi_gpu_vector<T>& in, multi_gpu_vector<T>& out,
                    T init, Op op = {}) {
  detail::check_same_slices("exclusive_scan", gpus, in, out);
  const auto totals = detail::multi_gpu_partials<T>(gpus, in, op, detail::unary_fetch<identity>{});
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

namespace detail {

// The left-out counts of every device's histogram, on their way to the
// host (the multi_gpu's host workspace): valid after the devices' streams
// are synchronized, until the next call that uses the workspace.
struct multi_gpu_left_outs {
  const std::uint64_t* host;
  int devices;
  std::uint64_t total() const {
    std::uint64_t sum = 0;
    for (int i = 0; i < devices; ++i)
      sum += host[i];
    return sum;
  }
};

template <class S, class C>
void check_histogram_slices(const multi_gpu& gpus, const multi_gpu_vector<S>& samples,
                            const std::vector<device_vector<C>>& counts) {
  const int p = gpus.size();
  if (static_cast<int>(counts.size()) != p || samples.slices() != p) {
    throw std::invalid_argument(
        "gpuprim::histogram_even (multi_gpu): " + std::to_string(counts.size()) +
        " count vectors and " + std::to_string(samples.slices()) + " sample slices for " +
        std::to_string(p) + " devices");
  }
  for (int i = 1; i < p; ++i) {
    if (counts[i].size() != counts[0].size()) {
      throw std::invalid_argument("gpuprim::histogram_even (multi_gpu): counts[" +
                                  std::to_string(i) + "] has " + std::to_string(counts[i].size()) +
                                  " bins, counts[0] " + std::to_string(counts[0].size()));
    }
  }
}

// The histogram's steps (separate for the bench's time split). 1. Every
// device's histogram of its slice and its left-out count's copy to the
// host, enqueued (no wait).
template <class S, class C>
multi_gpu_left_outs multi_gpu_local_histograms(const multi_gpu& gpus,
                                               const multi_gpu_vector<S>& samples,
                                               std::vector<device_vector<C>>& counts,
                                               histogram_level_t<S> lower,
                                               histogram_level_t<S> upper) {
  check_histogram_slices(gpus, samples, counts);
  const int p = gpus.size();
  auto* host = static_cast<std::uint64_t*>(gpus.host_workspace(p * sizeof(std::uint64_t)));
  for (int i = 0; i < p; ++i) {
    gpus.use(i);
    auto* d_left_out =
        static_cast<std::uint64_t*>(gpus.workspace(i, ws_small, sizeof(std::uint64_t)));
    histogram_even_into(gpus.backend(i), samples.slice(i), counts[i], lower, upper,
                        device_span<std::uint64_t>(d_left_out, 1));
    copy_to_host(host + i, d_left_out, sizeof(std::uint64_t), gpus.stream(i));
  }
  return {host, p};
}

// 2. The counts summed over the devices (ncclAllReduce), enqueued after
// step 1 on the same streams (no wait).
template <class C>
void multi_gpu_sum_counts(const multi_gpu& gpus, std::vector<device_vector<C>>& counts) {
  std::vector<void*> buffers(gpus.size());
  for (int i = 0; i < gpus.size(); ++i)
    buffers[i] = counts[i].data();
  gpus.allreduce_sum(buffers, counts[0].size(), static_cast<int>(sizeof(C)));
}

}  // namespace detail

// Both steps enqueued on every device, then one wait.
template <class S, class C>
std::uint64_t histogram_even(const multi_gpu& gpus, const multi_gpu_vector<S>& samples,
                             std::vector<device_vector<C>>& counts,
                             std::type_identity_t<histogram_level_t<S>> lower,
                             std::type_identity_t<histogram_level_t<S>> upper) {
  const auto left_outs = detail::multi_gpu_local_histograms(gpus, samples, counts, lower, upper);
  detail::multi_gpu_sum_counts(gpus, counts);
  gpus.synchronize_all();
  return left_outs.total();
}

// ---- sort --------------------------------------------------------------------------

namespace detail {
template <class K, class V>
sort_report multi_gpu_sample_sort(const multi_gpu& gpus, const multi_gpu_vector<K>& keys,
                                  const multi_gpu_vector<V>* values, multi_gpu_vector<K>& keys_out,
                                  multi_gpu_vector<V>* values_out, sort_order order, key_bits bits,
                                  const char* algorithm) {
  constexpr bool has_values = !std::is_same_v<V, host_impl::no_value>;
  check_slices(algorithm, gpus, keys);
  const int p = gpus.size();
  if constexpr (has_values) {
    check_slices(algorithm, gpus, *values);
    for (int i = 0; i < p; ++i)
      check_value_count(algorithm, keys.slice(i).size(), values->slice(i).size());
  }
  std::vector<device_span<const K>> k(p);
  std::vector<device_span<const V>> v(p);
  for (int i = 0; i < p; ++i) {
    k[i] = keys.slice(i).span();
    if constexpr (has_values) v[i] = values->slice(i).span();
  }
  // The outputs keep their slices where the sizes are the same as last time.
  if (keys_out.slices() != p)
    keys_out = multi_gpu_vector<K>(gpus, std::vector<std::uint64_t>(p, 0));
  if constexpr (has_values) {
    if (values_out->slices() != p)
      *values_out = multi_gpu_vector<V>(gpus, std::vector<std::uint64_t>(p, 0));
  }
  auto output = [&](int i, std::uint64_t n) {
    if (keys_out.slice(i).size() != n) keys_out.slice(i) = device_vector<K>(n);
    V* vo = nullptr;
    if constexpr (has_values) {
      if (values_out->slice(i).size() != n) values_out->slice(i) = device_vector<V>(n);
      vo = values_out->slice(i).data();
    }
    return std::pair<K*, V*>(keys_out.slice(i).data(), vo);
  };
  return gpu_sample_sort<K, V>(gpus, keys.offsets(), k, v, output, order, bits, algorithm);
}
}  // namespace detail

// The report's offset and count are device 0's; keys_out.offsets() has all.
template <class K>
sort_report sort(const multi_gpu& gpus, const multi_gpu_vector<K>& keys,
                 multi_gpu_vector<K>& keys_out, sort_order order = sort_order::ascending,
                 key_bits bits = {}) {
  return detail::multi_gpu_sample_sort<K, host_impl::no_value>(gpus, keys, nullptr, keys_out,
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
