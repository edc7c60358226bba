// gp::mpi: the algorithms over MPI ranks, each rank holding one contiguous
// slice of the data in rank order (rank 0 the first elements).
//
//   MPI_Init(&argc, &argv);
//   const auto [begin, end] = gp::even_slice(n, gp::mpi_rank(MPI_COMM_WORLD),
//                                            gp::mpi_size(MPI_COMM_WORLD));
//   std::vector<float> mine = /* elements [begin, end) */;
//   double s = gp::reduce(gp::mpi{MPI_COMM_WORLD}, mine, 0.0);       // every rank gets it
//   gp::reduce(gp::mpi{MPI_COMM_WORLD, gp::cuda}, d_mine, 0.0f);      // GPU ranks
//
// The backend is the communicator and the backend of each rank's local work
// (gp::host or gp::cuda). The slices may have any sizes, empty ones
// included; the algorithms learn them (an MPI_Allgather of the sizes), so a
// "distributed array" is each rank's span plus its rank: dist_layout says
// which global elements live where.
//
// Results: reductions are combined in rank order on every rank (never
// MPI_Allreduce, whose order is unspecified), so a floating result is the
// same on every run for a given number of ranks and the same on every rank.
// Every rank must make the same calls with the same arguments (other than
// its slice): a rank that throws on a bad argument throws on every rank.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpuprim/core/backend.hpp"

namespace gpuprim {

// The backend tag: gp::mpi{comm} (host ranks) or gp::mpi{comm, gp::cuda}.
template <class Local = host_backend>
struct mpi {
  MPI_Comm comm = MPI_COMM_WORLD;
  Local local{};
};
mpi(MPI_Comm)->mpi<host_backend>;
template <class Local>
mpi(MPI_Comm, Local) -> mpi<Local>;

// An MPI call failed (the communicator's error handler returned instead of
// aborting).
class mpi_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {
inline void mpi_check(int code, const char* call) {
  if (code != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw mpi_error(std::string("gpuprim: ") + call + " failed: " + std::string(text, length));
  }
}
}  // namespace detail

inline int mpi_rank(MPI_Comm comm) {
  int r = 0;
  detail::mpi_check(MPI_Comm_rank(comm, &r), "MPI_Comm_rank");
  return r;
}
inline int mpi_size(MPI_Comm comm) {
  int s = 0;
  detail::mpi_check(MPI_Comm_size(comm, &s), "MPI_Comm_size");
  return s;
}

// This rank's number among the ranks on its node (shared memory), 0 ..
// node ranks - 1: GPU ranks use device mpi_node_rank(comm) % devices.
inline int mpi_node_rank(MPI_Comm comm) {
  MPI_Comm node;
  detail::mpi_check(
      MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, mpi_rank(comm), MPI_INFO_NULL, &node),
      "MPI_Comm_split_type");
  const int r = mpi_rank(node);
  MPI_Comm_free(&node);
  return r;
}

// Elements [begin, end) of n for `rank` of `ranks` in an even split: the
// first n % ranks ranks one element more than the others.
inline std::pair<std::uint64_t, std::uint64_t> even_slice(std::uint64_t n, int rank, int ranks) {
  const std::uint64_t base = n / ranks, extra = n % ranks;
  const auto r = static_cast<std::uint64_t>(rank);
  const std::uint64_t begin = r * base + std::min(r, extra);
  return {begin, begin + base + (r < extra ? 1 : 0)};
}

// Where each rank's slice sits in the whole: offsets[r] .. offsets[r + 1].
struct dist_layout {
  int rank = 0;
  std::vector<std::uint64_t> offsets;  // ranks + 1 entries

  int ranks() const { return static_cast<int>(offsets.size()) - 1; }
  std::uint64_t total() const { return offsets.back(); }
  std::uint64_t offset() const { return offsets[rank]; }
  std::uint64_t count(int r) const { return offsets[r + 1] - offsets[r]; }
  std::uint64_t count() const { return count(rank); }
};

// Collective: every rank passes the size of its own slice.
inline dist_layout layout_of(MPI_Comm comm, std::uint64_t local_count) {
  const int ranks = mpi_size(comm);
  std::vector<std::uint64_t> counts(ranks);
  detail::mpi_check(
      MPI_Allgather(&local_count, 1, MPI_UINT64_T, counts.data(), 1, MPI_UINT64_T, comm),
      "MPI_Allgather");
  dist_layout layout;
  layout.rank = mpi_rank(comm);
  layout.offsets.assign(ranks + 1, 0);
  for (int r = 0; r < ranks; ++r)
    layout.offsets[r + 1] = layout.offsets[r] + counts[r];
  return layout;
}

// Whether this MPI library can send and receive GPU memory (CUDA-aware
// OpenMPI and MVAPICH2 say so through MPIX_Query_cuda_support); when it
// cannot, GPU ranks stage their messages through pinned host memory.
// GPUPRIM_MPI_CUDA_AWARE=0 / 1 in the environment overrides the answer.
bool mpi_cuda_aware() noexcept;

namespace detail {

// A contiguous MPI datatype of `bytes` bytes (sizeof(T) for elements of
// T), freed at scope exit: counts in elements rather than bytes keep
// messages up to 2^31 elements.
class mpi_bytes_type {
 public:
  explicit mpi_bytes_type(std::size_t bytes) {
    mpi_check(MPI_Type_contiguous(static_cast<int>(bytes), MPI_BYTE, &type_),
              "MPI_Type_contiguous");
    mpi_check(MPI_Type_commit(&type_), "MPI_Type_commit");
  }
  ~mpi_bytes_type() { MPI_Type_free(&type_); }
  mpi_bytes_type(const mpi_bytes_type&) = delete;
  mpi_bytes_type& operator=(const mpi_bytes_type&) = delete;
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_{};
};

// An attribute key of communicators whose values `destroy` frees when
// their communicator goes away (made once per process per caller).
int mpi_make_keyval(MPI_Comm_delete_attr_function* destroy);

inline int mpi_count(std::uint64_t n, const char* what) {
  if (n > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
    throw std::invalid_argument(std::string("gpuprim::mpi: ") + what + " of " + std::to_string(n) +
                                " elements is over MPI's 2^31 - 1 per message");
  }
  return static_cast<int>(n);
}

// Every rank's `value`, in rank order.
template <class T>
std::vector<T> allgather(MPI_Comm comm, const T& value) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<T> all(mpi_size(comm));
  const mpi_bytes_type type(sizeof(T));
  mpi_check(MPI_Allgather(&value, 1, type.get(), all.data(), 1, type.get(), comm), "MPI_Allgather");
  return all;
}

// Every rank's `values` (any number), concatenated in rank order.
template <class T>
std::vector<T> allgatherv(MPI_Comm comm, std::span<const T> values) {
  const int ranks = mpi_size(comm);
  const std::vector<int> counts = allgather(comm, mpi_count(values.size(), "an allgather"));
  std::vector<int> displs(ranks, 0);
  std::uint64_t total = 0;
  for (int r = 0; r < ranks; ++r) {
    displs[r] = mpi_count(total, "an allgather");
    total += counts[r];
  }
  std::vector<T> all(total);
  const mpi_bytes_type type(sizeof(T));
  mpi_check(MPI_Allgatherv(values.data(), counts[mpi_rank(comm)], type.get(), all.data(),
                           counts.data(), displs.data(), type.get(), comm),
            "MPI_Allgatherv");
  return all;
}

// An optional value as a trivially copyable slot (a rank with an empty
// slice has no partial result).
template <class T>
struct maybe {
  T value;
  std::uint8_t present;
};

// init op v_0 op v_1 ... over the ranks that have a value, in rank order:
// the same on every rank and from run to run.
template <class T, class Op>
std::optional<T> combine_in_rank_order(MPI_Comm comm, const std::optional<T>& mine, Op op,
                                       int upto = -1) {
  maybe<T> slot{};
  if (mine) slot = {*mine, 1};
  const std::vector<maybe<T>> all = allgather(comm, slot);
  const int end = upto < 0 ? static_cast<int>(all.size()) : upto;
  std::optional<T> acc;
  for (int r = 0; r < end; ++r) {
    if (!all[r].present) continue;
    acc = acc ? op(*acc, all[r].value) : all[r].value;
  }
  return acc;
}

}  // namespace detail
}  // namespace gpuprim
