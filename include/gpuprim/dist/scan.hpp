// Scans over MPI ranks: inclusive_scan, exclusive_scan with gp::mpi.
//
//   gp::inclusive_scan(gp::mpi{comm}, my_in, my_out);            // global prefix sums
//   gp::exclusive_scan(gp::mpi{comm, gp::cuda}, d_in, d_out, 0);
//
// out is the rank's slice of the scan of the whole array (the slices
// concatenated in rank order). Each rank needs the total of its slice and
// then the exclusive scan of the totals of the ranks before it (its carry,
// combined in rank order: deterministic for floats). On host ranks the
// total is a local reduction and the carry is the scan's starting value, so
// the data is read twice and written once. On GPU ranks the inclusive scan
// is scanned first (its last element is the total) and the carry applied
// after by a small kernel; the exclusive scan reduces first and scans from
// the carry, as on the host.
#pragma once

#include <optional>

#include "gpuprim/dist/mpi.hpp"
#include "gpuprim/dist/reduce.hpp"
#include "gpuprim/dist/staging.hpp"
#include "gpuprim/scan.hpp"

namespace gpuprim {
namespace detail {

template <class T, class Op>
std::optional<T> carry_of(MPI_Comm comm, const std::optional<T>& total, Op op) {
  return combine_in_rank_order(comm, total, op, mpi_rank(comm));
}

}  // namespace detail

template <host_range R, class O, class Op = plus>
requires detail::host_output_range<O>
void inclusive_scan(mpi<host_backend> backend, const R& in, O&& out, Op op = {}) {
  using T = std::ranges::range_value_t<O>;
  const auto total =
      detail::local_partial<T>(backend.local, in, op, detail::unary_fetch<identity>{});
  const std::optional<T> carry = detail::carry_of(backend.comm, total, op);
  detail::host_scan<false>(backend.local, in, out, carry, op, detail::unary_fetch<identity>{},
                           "inclusive_scan");
}

template <host_range R, class O, class T, class Op = plus>
requires detail::host_output_range<O>
void exclusive_scan(mpi<host_backend> backend, const R& in, O&& out, T init, Op op = {}) {
  const auto total =
      detail::local_partial<T>(backend.local, in, op, detail::unary_fetch<identity>{});
  const std::optional<T> carry = detail::carry_of(backend.comm, total, op);
  detail::host_scan<true>(backend.local, in, out, std::optional<T>{carry ? op(init, *carry) : init},
                          op, detail::unary_fetch<identity>{}, "exclusive_scan");
}

template <device_range R, device_range O, class Op = plus>
void inclusive_scan(mpi<cuda_backend> backend, const R& in, O&& out, Op op = {}) {
  using T = device_range_value_t<O>;
  inclusive_scan(backend.local, in, out, op);
  auto o = writable_device_span(out);
  std::optional<T> total;
  if (!o.empty()) {
    T last;
    detail::copy_to_host(&last, o.data() + o.size() - 1, sizeof last, backend.local.stream);
    synchronize(backend.local.stream);
    total = last;
  }
  const std::optional<T> carry = detail::carry_of(backend.comm, total, op);
  if (carry && !o.empty()) {
    detail::cuda_apply_carry(o.data(), o.size(), *carry, op, backend.local.stream);
    synchronize(backend.local.stream);
  }
}

template <device_range R, device_range O, class T, class Op = plus>
void exclusive_scan(mpi<cuda_backend> backend, const R& in, O&& out, T init, Op op = {}) {
  const auto total =
      detail::local_partial<T>(backend.local, in, op, detail::unary_fetch<identity>{});
  const std::optional<T> carry = detail::carry_of(backend.comm, total, op);
  exclusive_scan(backend.local, in, out, carry ? op(init, *carry) : init, op);
  synchronize(backend.local.stream);
}

}  // namespace gpuprim
