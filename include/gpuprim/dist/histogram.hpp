// Histograms over MPI ranks: histogram_even, histogram_range with gp::mpi.
//
//   std::vector<std::uint64_t> counts(256);
//   auto left_out = gp::histogram_even(gp::mpi{comm}, my_bytes, counts, 0, 256);
//
// Each rank counts its slice with its local backend, then the counts (and
// the left-out numbers) are summed over the ranks with MPI_Allreduce:
// integer sums do not depend on their order, so every rank gets exactly
// the one-process histogram. GPU ranks sum their device counts through the
// communicator's GPU path (dist/mpi_gpu.hpp: ncclAllReduce over MPI,
// CUDA-aware MPI, or pinned staging).
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>

#include "gpuprim/dist/mpi.hpp"
#include "gpuprim/dist/mpi_gpu.hpp"
#include "gpuprim/dist/staging.hpp"
#include "gpuprim/histogram.hpp"

namespace gpuprim {
namespace detail {

template <class C>
MPI_Datatype mpi_counter_type() {
  if constexpr (sizeof(C) == 4) {
    return MPI_UINT32_T;
  } else {
    return MPI_UINT64_T;
  }
}

template <class C>
void allreduce_counts(MPI_Comm comm, C* counts, std::size_t bins) {
  mpi_check(MPI_Allreduce(MPI_IN_PLACE, counts, mpi_count(bins, "a histogram"),
                          mpi_counter_type<C>(), MPI_SUM, comm),
            "MPI_Allreduce");
}

template <class Counts>
void allreduce_counts(mpi<host_backend> backend, Counts& counts) {
  allreduce_counts(backend.comm, std::ranges::data(counts), std::ranges::size(counts));
}

template <class Counts>
void allreduce_counts(mpi<cuda_backend> backend, Counts& counts) {
  auto c = writable_device_span(counts);
  using C = std::remove_const_t<typename decltype(c)::element_type>;
  const mpi_gpu_group group(backend.comm, backend.local);
  group.allreduce_sum(c.data(), c.size(), static_cast<int>(sizeof(C)));
}

inline std::uint64_t allreduce_left_out(MPI_Comm comm, std::uint64_t mine) {
  std::uint64_t all = 0;
  mpi_check(MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, comm), "MPI_Allreduce");
  return all;
}

}  // namespace detail

template <class Local, class R, class C, class L>
std::uint64_t histogram_even(mpi<Local> backend, const R& samples, C&& counts, L lower, L upper) {
  const std::uint64_t left_out = histogram_even(backend.local, samples, counts, lower, upper);
  detail::allreduce_counts(backend, counts);
  return detail::allreduce_left_out(backend.comm, left_out);
}

// The NumPy rule (gp::numpy_bins): every rank bins with the same edges.
template <class Local, class R, class C>
std::uint64_t histogram_even(mpi<Local> backend, const R& samples, C&& counts,
                             const numpy_bins& bins) {
  const std::uint64_t left_out = histogram_even(backend.local, samples, counts, bins);
  detail::allreduce_counts(backend, counts);
  return detail::allreduce_left_out(backend.comm, left_out);
}

template <class Local, class R, class C, class B>
std::uint64_t histogram_range(mpi<Local> backend, const R& samples, C&& counts,
                              const B& boundaries) {
  const std::uint64_t left_out = histogram_range(backend.local, samples, counts, boundaries);
  detail::allreduce_counts(backend, counts);
  return detail::allreduce_left_out(backend.comm, left_out);
}

}  // namespace gpuprim
