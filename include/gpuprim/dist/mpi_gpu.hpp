// How GPU ranks of gp::mpi move device data between them, and the group of
// one rank's device that the GPU sample sort (dist/gpu_sort.hpp) runs on.
//
// Three paths, chosen once per communicator (the same on every rank):
//  - nccl: an NCCL communicator bootstrapped over MPI (rank 0's
//    ncclGetUniqueId sent with MPI_Bcast, ncclCommInitRank on every rank,
//    each on its current device), kept with the MPI communicator; NVLink
//    and the GPUs' own copy engines, no host round trip. Needs gpuprim_dist
//    built with NCCL and every rank on a device of its own (NCCL refuses
//    two ranks on one GPU);
//  - cuda-aware: MPI itself on device pointers, when mpi_cuda_aware();
//  - staged: through pinned host buffers kept between calls, the last
//    resort.
// GPUPRIM_MPI_GPU_PATH=nccl|cuda-aware|staged in the environment asks for
// one (nccl only where it can run; every rank must see the same value).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/dist/gpu_sort.hpp"
#include "gpuprim/dist/mpi.hpp"

namespace gpuprim {

enum class mpi_gpu_path { nccl, cuda_aware, staged };

// Collective over comm on its first call (then remembered with comm).
mpi_gpu_path gpu_path_of(MPI_Comm comm);
const char* path_name(mpi_gpu_path path) noexcept;

namespace detail {

// NCCL over an MPI communicator (src/dist/mpi_nccl.cpp; throw when built
// without NCCL). Every rank calls them, in the same order; they are
// enqueued on `stream` and return without waiting.
bool nccl_usable(MPI_Comm comm);  // collective: NCCL built, one device per rank
void nccl_allgather(MPI_Comm comm, void* buffer, std::size_t bytes, stream_t stream);
void nccl_alltoallv(MPI_Comm comm, const void* send, const std::uint64_t* send_counts,
                    const std::uint64_t* send_offsets, void* recv, const std::uint64_t* recv_counts,
                    const std::uint64_t* recv_offsets, std::size_t element_bytes, stream_t stream);
void nccl_allreduce_sum(MPI_Comm comm, void* buffer, std::size_t count, int counter_bytes,
                        stream_t stream);

// Buffers of this process kept between calls (never shrunk): on the
// current device, and pinned host memory, one per workspace_slot.
void* rank_workspace(int slot, std::size_t bytes, stream_t stream);
void* rank_host_workspace(int slot, std::size_t bytes);

// One GPU rank as the group of gpu_sort.hpp.
class mpi_gpu_group {
 public:
  mpi_gpu_group(MPI_Comm comm, cuda_backend local)
      : comm_(comm),
        local_(local),
        rank_(mpi_rank(comm)),
        ranks_(mpi_size(comm)),
        path_(gpu_path_of(comm)) {}

  mpi_gpu_path path() const { return path_; }
  int ranks() const { return ranks_; }
  int local_devices() const { return 1; }
  int rank_of(int) const { return rank_; }
  void use(int) const {}  // the rank's device is current
  stream_t stream(int) const { return local_.stream; }
  cuda_backend backend(int) const { return local_; }
  void synchronize() const { gpuprim::synchronize(local_.stream); }
  void* workspace(int, int slot, std::size_t bytes) const {
    return rank_workspace(slot, bytes, local_.stream);
  }
  void* host_workspace(std::size_t bytes) const { return rank_host_workspace(ws_bounds, bytes); }

  void allgather(const std::vector<void*>& buffers, std::size_t bytes) const;
  void alltoallv(const std::vector<const void*>& sends, const detail::rank_table& send_counts,
                 const detail::rank_table& send_offsets, const std::vector<void*>& recvs,
                 const detail::rank_table& recv_counts, const detail::rank_table& recv_offsets,
                 std::size_t element_bytes) const;
  // Sums `count` counters of 4 or 8 bytes in device memory over the ranks,
  // in place; waits.
  void allreduce_sum(void* buffer, std::size_t count, int counter_bytes) const;

 private:
  MPI_Comm comm_;
  cuda_backend local_;
  int rank_, ranks_;
  mpi_gpu_path path_;
};

}  // namespace detail
}  // namespace gpuprim
