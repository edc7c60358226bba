// Selection family: stream compaction and what is a compaction in disguise.
//
//   std::size_t k = gp::copy_if(gp::cuda, d_x, d_out, gp::greater_than(0.5f));
//   gp::copy_flagged(gp::host, x, flags, out);
//   std::size_t c = gp::count_if(gp::cuda, d_x, gp::nonzero{});
//   gp::partition(gp::cuda, d_x, d_out, gp::less_than(0));        // stable
//   gp::three_way_counts t = gp::partition_three_way(gp::cuda, d_x, d_a, d_b, d_c,
//                                                    gp::less_than(0), gp::equal_to_value(0));
//   std::size_t u = gp::unique(gp::cuda, d_sorted, d_out);         // consecutive duplicates
//   gp::unique_by_key(gp::cuda, d_keys, d_values, d_keys_out, d_values_out);
//   gp::run_length_encode(gp::host, x, runs, lengths);
//   gp::reduce_by_key(gp::cuda, d_keys, d_values, d_keys_out, d_sums, gp::plus{});
//   gp::copy_if(gp::cuda.on(s), d_x, d_out, gp::nonzero{}, d_count);  // async: count on the GPU
//
// Semantics, for every backend:
//  - Stable: every output keeps input order. copy_if / copy_flagged write
//    the selected elements to out[0, k) and return k; partition writes them
//    to out[0, k) and the others to out[k, n) (partition_layout::stable, in
//    input order; rest_reversed: in reverse order, as CUB writes them);
//    partition_three_way sends each element to the first output whose
//    predicate (first_pred, then second_pred) accepts it, else to the third.
//  - unique keeps the first element of each run of equal consecutive keys
//    (std::unique); unique_by_key keeps its value too; run_length_encode
//    writes each run's key and length; reduce_by_key each run's first key
//    and the fold of its values with `op` (associative; applied in input
//    order, so floating-point results are the same on every run). Key
//    equality is `eq`: gp::equal_to (==, a NaN is a run of its own) or
//    gp::same_value (NaNs are equal, as numpy.unique).
//  - Counts are 64-bit: inputs past 2^31 (and 2^32) elements work.
//  - Outputs: each must be large enough for its part of the result. An
//    output with room for every input element costs nothing; a shorter one
//    makes the call count first (one more read of the input and, on the GPU,
//    a synchronization) and refuse a result that would not fit. Lengths that
//    must match (keys and values, flags and input, partition's input and
//    output) are checked, inputs and outputs may not overlap, and a call
//    that throws has written nothing.
//  - The forms that take a device_span<std::uint64_t> `count` are
//    asynchronous: the count (three_way: first, second) is left in device
//    memory, stream-ordered, nothing synchronized. Their outputs must have
//    room for every input element.
// The GPU backend is one single-pass kernel for all of them (decoupled
// look-back, as the scan; gpuprim/cuda/device/device_select.cuh). From plain
// C++ it takes the precompiled types and predicates
// (gpuprim/detail/select/precompiled.hpp: gp::nonzero, gp::compare_with<T>,
// byte flags, equal_to / same_value, plus); from a .cu file include
// gpuprim/cuda/select.cuh for any element type of 1 to 16 bytes and any
// callable.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <span>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/host_range.hpp"
#include "gpuprim/core/operators.hpp"
#include "gpuprim/detail/select/entry.hpp"
#include "gpuprim/host/select.hpp"
#include "gpuprim/select_types.hpp"

namespace gpuprim {

namespace detail {

// The views of a call's arrays on each backend.
template <class R>
auto select_input(host_backend, const R& r) {
  return host_span(r);
}
template <class R>
auto select_input(cuda_backend, const R& r) {
  auto s = as_device_span(r);
  return device_span<const typename decltype(s)::value_type>(s.data(), s.size());
}
template <class R>
auto select_output(host_backend, R& r) {
  return writable_host_span(r);
}
template <class R>
auto select_output(cuda_backend, R& r) {
  return writable_device_span(r);
}

template <class S>
select_counts run_select(host_backend backend, const S& s, std::size_t n) {
  return host_impl::select(backend, s, n);
}
template <class S>
select_counts run_select(cuda_backend backend, const S& s, std::size_t n) {
  return cuda_select_to_host(backend, s, n);
}

// Runs `s` over n elements. When every output has room for all of them, in
// one go; otherwise it counts first and passes the totals to `check`, which
// throws when they do not fit.
template <class Backend, class S, class Check>
select_counts select_with_room(Backend backend, S s, std::size_t n, bool room_for_all,
                               Check check) {
  if (!room_for_all) {
    S counting = s;
    counting.emits = false;
    check(run_select(backend, counting, n));
  }
  return run_select(backend, s, n);
}

// The asynchronous form: counts left at `count` (device memory).
template <class S>
void select_async(cuda_backend backend, const S& s, std::size_t n, bool room_for_all,
                  device_span<std::uint64_t> count, const char* algorithm) {
  if (!room_for_all) {
    argument_error(algorithm, "the asynchronous form needs outputs with room for every element");
  }
  if (count.size() < static_cast<std::size_t>(S::counted)) {
    argument_error(algorithm, "the count span holds " + std::to_string(count.size()) +
                                  " elements, it needs " + std::to_string(S::counted));
  }
  cuda_select_checked(s, n, count.data(), backend.stream);
}

template <class In, class Out>
void check_in_out(const char* algorithm, const In& in, const Out& out) {
  check_disjoint(algorithm, "input", in.data(), in.size_bytes(), "output", out.data(),
                 out.size_bytes());
}

template <class Backend, class R, class O, class Pred>
auto copy_if_selection(Backend backend, const R& in, O& out, Pred pred, const char* algorithm) {
  const auto i = select_input(backend, in);
  const auto o = select_output(backend, out);
  using T = typename decltype(i)::value_type;
  static_assert(std::is_same_v<T, std::remove_const_t<typename decltype(o)::element_type>>,
                "gpuprim::copy_if: input and output must have one element type");
  check_in_out(algorithm, i, o);
  const select_if<T, Pred> s{{i.data()}, o.data(), pred};
  return std::pair{s, o.size() >= i.size()};
}

template <class Backend, class R, class F, class O>
auto copy_flagged_selection(Backend backend, const R& in, const F& flags, O& out) {
  const char* algorithm = "copy_flagged";
  const auto i = select_input(backend, in);
  const auto f = select_input(backend, flags);
  const auto o = select_output(backend, out);
  using T = typename decltype(i)::value_type;
  using Flag = typename decltype(f)::value_type;
  check_same_length(algorithm, "the input", i.size(), "the flags", f.size());
  check_in_out(algorithm, i, o);
  check_disjoint(algorithm, "flags", f.data(), f.size_bytes(), "output", o.data(), o.size_bytes());
  const select_flagged<T, Flag> s{{i.data()}, f.data(), o.data()};
  return std::pair{s, o.size() >= i.size()};
}

template <class Backend, class R, class O, class Pred>
auto partition_selection(Backend backend, const R& in, O& out, Pred pred, partition_layout layout) {
  const char* algorithm = "partition";
  const auto i = select_input(backend, in);
  const auto o = select_output(backend, out);
  using T = typename decltype(i)::value_type;
  check_same_length(algorithm, "the input", i.size(), "the output", o.size());
  check_in_out(algorithm, i, o);
  const partition_if<T, Pred> s{
      {i.data()},
      o.data(),
      pred,
      layout == partition_layout::stable ? rest_layout::after_selected : rest_layout::reversed,
      nullptr};
  return s;
}

template <class Backend, class R, class O, class Eq>
auto unique_selection(Backend backend, const R& in, O& out, Eq eq) {
  const auto i = select_input(backend, in);
  const auto o = select_output(backend, out);
  using K = typename decltype(i)::value_type;
  check_in_out("unique", i, o);
  const unique_runs<K, no_values, plain_equality_t<K, Eq>> s{
      {i.data()}, nullptr, o.data(), nullptr, plain_equality<K>(eq)};
  return std::pair{s, o.size() >= i.size()};
}

template <class Backend, class R, class O, class C, class Eq>
auto run_length_selection(Backend backend, const R& in, O& unique_out, C& counts_out, Eq eq) {
  const char* algorithm = "run_length_encode";
  const auto i = select_input(backend, in);
  const auto u = select_output(backend, unique_out);
  const auto c = select_output(backend, counts_out);
  using K = typename decltype(i)::value_type;
  using Count = typename decltype(c)::value_type;
  check_disjoint(algorithm, "input", i.data(), i.size_bytes(), "unique output", u.data(),
                 u.size_bytes());
  check_disjoint(algorithm, "input", i.data(), i.size_bytes(), "counts output", c.data(),
                 c.size_bytes());
  check_disjoint(algorithm, "unique output", u.data(), u.size_bytes(), "counts output", c.data(),
                 c.size_bytes());
  const reduce_runs<K, unit_values<Count>, plus, plain_equality_t<K, Eq>> s{
      {i.data()}, {}, u.data(), c.data(), plus{}, plain_equality<K>(eq)};
  return std::tuple{s, std::min(u.size(), c.size()) >= i.size(), std::min(u.size(), c.size())};
}

}  // namespace detail

// ---- copy_if / copy_flagged / count_if -----------------------------------

template <class Backend, class R, class O, class Pred>
std::size_t copy_if(Backend backend, const R& in, O&& out, Pred pred) {
  auto [s, room] = detail::copy_if_selection(backend, in, out, pred, "copy_if");
  const std::size_t size = std::ranges::size(out);
  return detail::select_with_room(backend, s, std::ranges::size(in), room, [&](auto counts) {
    detail::check_room("copy_if", "the output", size, counts[0]);
  })[0];
}

template <class R, class O, class Pred>
void copy_if(cuda_backend backend, const R& in, O&& out, Pred pred,
             device_span<std::uint64_t> count) {
  auto [s, room] = detail::copy_if_selection(backend, in, out, pred, "copy_if");
  detail::select_async(backend, s, std::ranges::size(in), room, count, "copy_if");
}

template <class Backend, class R, class F, class O>
std::size_t copy_flagged(Backend backend, const R& in, const F& flags, O&& out) {
  auto [s, room] = detail::copy_flagged_selection(backend, in, flags, out);
  const std::size_t size = std::ranges::size(out);
  return detail::select_with_room(backend, s, std::ranges::size(in), room, [&](auto counts) {
    detail::check_room("copy_flagged", "the output", size, counts[0]);
  })[0];
}

template <class R, class F, class O>
void copy_flagged(cuda_backend backend, const R& in, const F& flags, O&& out,
                  device_span<std::uint64_t> count) {
  auto [s, room] = detail::copy_flagged_selection(backend, in, flags, out);
  detail::select_async(backend, s, std::ranges::size(in), room, count, "copy_flagged");
}

template <class Backend, class R, class Pred>
std::size_t count_if(Backend backend, const R& in, Pred pred) {
  const auto i = detail::select_input(backend, in);
  using T = typename decltype(i)::value_type;
  const detail::select_if<T, Pred> s{{i.data(), false}, nullptr, pred};
  return detail::run_select(backend, s, i.size())[0];
}

// The indices of the elements pred accepts, as 64-bit integers, in order
// (numpy.flatnonzero for gp::nonzero).
template <class Backend, class R, class O, class Pred>
std::size_t copy_index_if(Backend backend, const R& in, O&& out, Pred pred) {
  const auto i = detail::select_input(backend, in);
  const auto o = detail::select_output(backend, out);
  using T = typename decltype(i)::value_type;
  using Index = std::remove_const_t<typename decltype(o)::element_type>;
  detail::check_in_out("copy_index_if", i, o);
  const detail::select_index_if<T, Pred, Index> s{{i.data()}, o.data(), pred};
  return detail::select_with_room(backend, s, i.size(), o.size() >= i.size(), [&](auto counts) {
    detail::check_room("copy_index_if", "the output", o.size(), counts[0]);
  })[0];
}

// ---- partition / partition_three_way ------------------------------------

template <class Backend, class R, class O, class Pred>
std::size_t partition(Backend backend, const R& in, O&& out, Pred pred,
                      partition_layout layout = partition_layout::stable) {
  const auto s = detail::partition_selection(backend, in, out, pred, layout);
  return detail::run_select(backend, s, std::ranges::size(in))[0];
}

template <class R, class O, class Pred>
void partition(cuda_backend backend, const R& in, O&& out, Pred pred, partition_layout layout,
               device_span<std::uint64_t> count) {
  const auto s = detail::partition_selection(backend, in, out, pred, layout);
  detail::select_async(backend, s, std::ranges::size(in), true, count, "partition");
}

template <class Backend, class R, class O1, class O2, class O3, class P1, class P2>
three_way_counts partition_three_way(Backend backend, const R& in, O1&& first, O2&& second,
                                     O3&& third, P1 first_pred, P2 second_pred) {
  const char* algorithm = "partition_three_way";
  const auto i = detail::select_input(backend, in);
  const auto a = detail::select_output(backend, first);
  const auto b = detail::select_output(backend, second);
  const auto c = detail::select_output(backend, third);
  using T = typename decltype(i)::value_type;
  detail::check_disjoint(algorithm, "input", i.data(), i.size_bytes(), "first output", a.data(),
                         a.size_bytes());
  detail::check_disjoint(algorithm, "input", i.data(), i.size_bytes(), "second output", b.data(),
                         b.size_bytes());
  detail::check_disjoint(algorithm, "input", i.data(), i.size_bytes(), "third output", c.data(),
                         c.size_bytes());
  detail::check_disjoint(algorithm, "first output", a.data(), a.size_bytes(), "second output",
                         b.data(), b.size_bytes());
  detail::check_disjoint(algorithm, "first output", a.data(), a.size_bytes(), "third output",
                         c.data(), c.size_bytes());
  detail::check_disjoint(algorithm, "second output", b.data(), b.size_bytes(), "third output",
                         c.data(), c.size_bytes());
  const detail::partition_three<T, P1, P2> s{{i.data()}, a.data(),   b.data(),
                                             c.data(),   first_pred, second_pred};
  const std::size_t n = i.size();
  const bool room = std::min({a.size(), b.size(), c.size()}) >= n;
  const auto counts = detail::select_with_room(backend, s, n, room, [&](auto t) {
    detail::check_room(algorithm, "the first output", a.size(), t[0]);
    detail::check_room(algorithm, "the second output", b.size(), t[1]);
    detail::check_room(algorithm, "the third output", c.size(), n - t[0] - t[1]);
  });
  return {counts[0], counts[1]};
}

// ---- unique / unique_by_key ---------------------------------------------

template <class Backend, class R, class O, class Eq = equal_to>
std::size_t unique(Backend backend, const R& in, O&& out, Eq eq = {}) {
  auto [s, room] = detail::unique_selection(backend, in, out, eq);
  const std::size_t size = std::ranges::size(out);
  return detail::select_with_room(backend, s, std::ranges::size(in), room, [&](auto counts) {
    detail::check_room("unique", "the output", size, counts[0]);
  })[0];
}

template <class R, class O, class Eq = equal_to>
void unique(cuda_backend backend, const R& in, O&& out, device_span<std::uint64_t> count,
            Eq eq = {}) {
  auto [s, room] = detail::unique_selection(backend, in, out, eq);
  detail::select_async(backend, s, std::ranges::size(in), room, count, "unique");
}

template <class Backend, class RK, class RV, class OK, class OV, class Eq = equal_to>
std::size_t unique_by_key(Backend backend, const RK& keys, const RV& values, OK&& keys_out,
                          OV&& values_out, Eq eq = {}) {
  const char* algorithm = "unique_by_key";
  const auto k = detail::select_input(backend, keys);
  const auto v = detail::select_input(backend, values);
  const auto ko = detail::select_output(backend, keys_out);
  const auto vo = detail::select_output(backend, values_out);
  using K = typename decltype(k)::value_type;
  using V = typename decltype(v)::value_type;
  detail::check_same_length(algorithm, "the keys", k.size(), "the values", v.size());
  detail::check_disjoint(algorithm, "keys", k.data(), k.size_bytes(), "keys output", ko.data(),
                         ko.size_bytes());
  detail::check_disjoint(algorithm, "values", v.data(), v.size_bytes(), "values output", vo.data(),
                         vo.size_bytes());
  detail::check_disjoint(algorithm, "keys output", ko.data(), ko.size_bytes(), "values output",
                         vo.data(), vo.size_bytes());
  const detail::unique_runs<K, V, detail::plain_equality_t<K, Eq>> s{
      {k.data()}, v.data(), ko.data(), vo.data(), detail::plain_equality<K>(eq)};
  const std::size_t room = std::min(ko.size(), vo.size());
  return detail::select_with_room(backend, s, k.size(), room >= k.size(), [&](auto counts) {
    detail::check_room(algorithm, "the keys or values output", room, counts[0]);
  })[0];
}

// ---- run_length_encode / reduce_by_key ----------------------------------

template <class Backend, class R, class O, class C, class Eq = equal_to>
std::size_t run_length_encode(Backend backend, const R& in, O&& unique_out, C&& counts_out,
                              Eq eq = {}) {
  auto [s, room, size] = detail::run_length_selection(backend, in, unique_out, counts_out, eq);
  return detail::select_with_room(backend, s, std::ranges::size(in), room, [&](auto counts) {
    detail::check_room("run_length_encode", "the unique or counts output", size, counts[0]);
  })[0];
}

template <class R, class O, class C, class Eq = equal_to>
void run_length_encode(cuda_backend backend, const R& in, O&& unique_out, C&& counts_out,
                       device_span<std::uint64_t> count, Eq eq = {}) {
  auto [s, room, size] = detail::run_length_selection(backend, in, unique_out, counts_out, eq);
  detail::select_async(backend, s, std::ranges::size(in), room, count, "run_length_encode");
}

namespace detail {

template <class Backend, class RK, class RV, class OK, class OV, class Op, class Eq>
auto reduce_by_key_selection(Backend backend, const RK& keys, const RV& values, OK& keys_out,
                             OV& values_out, Op op, Eq eq) {
  const char* algorithm = "reduce_by_key";
  const auto k = select_input(backend, keys);
  const auto v = select_input(backend, values);
  const auto ko = select_output(backend, keys_out);
  const auto vo = select_output(backend, values_out);
  using K = typename decltype(k)::value_type;
  using V = typename decltype(v)::value_type;
  static_assert(std::is_same_v<V, std::remove_const_t<typename decltype(vo)::element_type>>,
                "gpuprim::reduce_by_key: values and values output must have one type");
  check_same_length(algorithm, "the keys", k.size(), "the values", v.size());
  check_disjoint(algorithm, "keys", k.data(), k.size_bytes(), "keys output", ko.data(),
                 ko.size_bytes());
  check_disjoint(algorithm, "values", v.data(), v.size_bytes(), "values output", vo.data(),
                 vo.size_bytes());
  check_disjoint(algorithm, "keys output", ko.data(), ko.size_bytes(), "values output", vo.data(),
                 vo.size_bytes());
  const reduce_runs<K, array_values<V>, Op, plain_equality_t<K, Eq>> s{
      {k.data()}, {v.data()}, ko.data(), vo.data(), op, plain_equality<K>(eq)};
  return std::tuple{s, k.size(), std::min(ko.size(), vo.size())};
}

}  // namespace detail

template <class Backend, class RK, class RV, class OK, class OV, class Op = plus,
          class Eq = equal_to>
std::size_t reduce_by_key(Backend backend, const RK& keys, const RV& values, OK&& keys_out,
                          OV&& values_out, Op op = {}, Eq eq = {}) {
  auto [s, n, room] =
      detail::reduce_by_key_selection(backend, keys, values, keys_out, values_out, op, eq);
  return detail::select_with_room(backend, s, n, room >= n, [&](auto counts) {
    detail::check_room("reduce_by_key", "the keys or values output", room, counts[0]);
  })[0];
}

template <class RK, class RV, class OK, class OV, class Op = plus, class Eq = equal_to>
void reduce_by_key(cuda_backend backend, const RK& keys, const RV& values, OK&& keys_out,
                   OV&& values_out, device_span<std::uint64_t> count, Op op = {}, Eq eq = {}) {
  auto [s, n, room] =
      detail::reduce_by_key_selection(backend, keys, values, keys_out, values_out, op, eq);
  detail::select_async(backend, s, n, room >= n, count, "reduce_by_key");
}

}  // namespace gpuprim
