// Reductions over MPI ranks: reduce, transform_reduce, min_element,
// max_element with gp::mpi{comm} or gp::mpi{comm, gp::cuda}.
//
//   double s = gp::reduce(gp::mpi{comm}, my_slice, 0.0);
//   gp::value_index<float> lo = gp::min_element(gp::mpi{comm, gp::cuda}, d_my_slice);
//
// Each rank reduces its slice with its local backend (without `init`: the
// partial starts from the slice's first element), the partials are gathered
// on every rank (MPI_Allgather) and combined in rank order, after `init`.
// Every rank returns the same value (allreduce semantics), the same from run
// to run for a given number of ranks; the operator need not be commutative.
// min_element / max_element return the global index of the first extreme
// element in rank order (NaN follows `rule` as in gp::min_element).
#pragma once

#include <optional>

#include "gpuprim/dist/local_partial.hpp"
#include "gpuprim/dist/mpi.hpp"
#include "gpuprim/reduce.hpp"

namespace gpuprim {

template <class Local, class R, class T, class Op = plus>
T reduce(mpi<Local> backend, const R& in, T init, Op op = {}) {
  const auto mine =
      detail::local_partial<T>(backend.local, in, op, detail::unary_fetch<identity>{});
  const auto all = detail::combine_in_rank_order(backend.comm, mine, op);
  return all ? op(init, *all) : init;
}

template <class Local, class R, class T, class ReduceOp, class Transform>
T transform_reduce(mpi<Local> backend, const R& in, T init, ReduceOp reduce_op,
                   Transform transform) {
  const auto mine = detail::local_partial<T>(backend.local, in, reduce_op,
                                             detail::unary_fetch<Transform>{transform});
  const auto all = detail::combine_in_rank_order(backend.comm, mine, reduce_op);
  return all ? reduce_op(init, *all) : init;
}

namespace detail {
// The local extreme with its index made global, then the first extreme in
// rank order (the select operators keep the left operand on ties).
template <bool Max, class Local, class R>
auto dist_extreme_element(mpi<Local> backend, const R& in, nan_rule rule) {
  auto found = Max ? max_element(backend.local, in, rule) : min_element(backend.local, in, rule);
  using VI = decltype(found);
  const std::uint64_t n = [&] {
    if constexpr (device_range<R>) {
      return static_cast<std::uint64_t>(as_device_span(in).size());
    } else {
      return static_cast<std::uint64_t>(std::ranges::size(in));
    }
  }();
  const dist_layout layout = layout_of(backend.comm, n);
  std::optional<VI> mine;
  if (n > 0) {
    found.index += layout.offset();
    mine = found;
  }
  auto pick = [&](const VI& a, const VI& b) {
    if (rule == nan_rule::skip) {
      return Max ? select_max_number{}(a, b) : select_min_number{}(a, b);
    }
    return Max ? select_max{}(a, b) : select_min{}(a, b);
  };
  const auto all = combine_in_rank_order(backend.comm, mine, pick);
  return all ? *all : VI{{}, 0};
}
}  // namespace detail

template <class Local, class R>
auto min_element(mpi<Local> backend, const R& in, nan_rule rule = nan_rule::propagate) {
  return detail::dist_extreme_element<false>(backend, in, rule);
}

template <class Local, class R>
auto max_element(mpi<Local> backend, const R& in, nan_rule rule = nan_rule::propagate) {
  return detail::dist_extreme_element<true>(backend, in, rule);
}

}  // namespace gpuprim
