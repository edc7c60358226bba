// NCCL over an MPI communicator, for GPU ranks (dist/mpi_gpu.hpp): rank
// 0's ncclGetUniqueId goes to every rank with MPI_Bcast, every rank calls
// ncclCommInitRank on its current device; the NCCL communicator is kept as
// an attribute of the MPI communicator and destroyed with it.
#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuprim/dist/mpi_gpu.hpp"

namespace gpuprim::detail {
namespace {

void check(ncclResult_t code, const char* call) {
  if (code != ncclSuccess) {
    throw std::runtime_error(std::string("gpuprim::mpi (NCCL): ") + call +
                             " failed: " + ncclGetErrorString(code));
  }
}

int comm_keyval() {
  static const int keyval = mpi_make_keyval([](MPI_Comm, int, void* value, void*) {
    ncclCommDestroy(static_cast<ncclComm_t>(value));
    return MPI_SUCCESS;
  });
  return keyval;
}

ncclComm_t nccl_of(MPI_Comm comm) {
  void* value = nullptr;
  int found = 0;
  mpi_check(MPI_Comm_get_attr(comm, comm_keyval(), &value, &found), "MPI_Comm_get_attr");
  if (found) return static_cast<ncclComm_t>(value);
  ncclUniqueId id;
  if (mpi_rank(comm) == 0) check(ncclGetUniqueId(&id), "ncclGetUniqueId");
  mpi_check(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, comm), "MPI_Bcast");
  ncclComm_t nccl = nullptr;
  check(ncclCommInitRank(&nccl, mpi_size(comm), id, mpi_rank(comm)), "ncclCommInitRank");
  mpi_check(MPI_Comm_set_attr(comm, comm_keyval(), nccl), "MPI_Comm_set_attr");
  return nccl;
}

cudaStream_t as_cuda(stream_t s) {
  return reinterpret_cast<cudaStream_t>(s);
}

}  // namespace

bool nccl_usable(MPI_Comm comm) {
  // Every rank's device, by UUID: NCCL takes one rank per GPU.
  int device = -1, count = 0;
  char uuid[16] = {};
  if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0 &&
      cudaGetDevice(&device) == cudaSuccess) {
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, device) == cudaSuccess) {
      std::memcpy(uuid, &prop.uuid, sizeof uuid);
    } else {
      device = -1;
    }
  } else {
    cudaGetLastError();
  }
  struct mine_t {
    char uuid[16];
    int device;
  } mine{};
  std::memcpy(mine.uuid, uuid, sizeof uuid);
  mine.device = device;
  std::vector<mine_t> all(mpi_size(comm));
  mpi_check(MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, comm),
            "MPI_Allgather");
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i].device < 0) return false;
    for (std::size_t j = 0; j < i; ++j)
      if (std::memcmp(all[i].uuid, all[j].uuid, sizeof uuid) == 0) return false;
  }
  return true;
}

void nccl_allgather(MPI_Comm comm, void* buffer, std::size_t bytes, stream_t stream) {
  if (bytes == 0) return;
  ncclComm_t nccl = nccl_of(comm);
  char* b = static_cast<char*>(buffer);
  check(ncclAllGather(b + std::size_t(mpi_rank(comm)) * bytes, b, bytes, ncclChar, nccl,
                      as_cuda(stream)),
        "ncclAllGather");
}

void nccl_alltoallv(MPI_Comm comm, const void* send, const std::uint64_t* send_counts,
                    const std::uint64_t* send_offsets, void* recv, const std::uint64_t* recv_counts,
                    const std::uint64_t* recv_offsets, std::size_t element_bytes, stream_t stream) {
  ncclComm_t nccl = nccl_of(comm);
  const int p = mpi_size(comm), me = mpi_rank(comm);
  check(ncclGroupStart(), "ncclGroupStart");
  for (int r = 0; r < p; ++r) {
    if (r == me) continue;
    if (send_counts[r]) {
      check(ncclSend(static_cast<const char*>(send) + send_offsets[r] * element_bytes,
                     send_counts[r] * element_bytes, ncclChar, r, nccl, as_cuda(stream)),
            "ncclSend");
    }
    if (recv_counts[r]) {
      check(ncclRecv(static_cast<char*>(recv) + recv_offsets[r] * element_bytes,
                     recv_counts[r] * element_bytes, ncclChar, r, nccl, as_cuda(stream)),
            "ncclRecv");
    }
  }
  check(ncclGroupEnd(), "ncclGroupEnd");
}

void nccl_allreduce_sum(MPI_Comm comm, void* buffer, std::size_t count, int counter_bytes,
                        stream_t stream) {
  if (count == 0) return;
  ncclComm_t nccl = nccl_of(comm);
  check(ncclAllReduce(buffer, buffer, count, counter_bytes == 4 ? ncclUint32 : ncclUint64, ncclSum,
                      nccl, as_cuda(stream)),
        "ncclAllReduce");
}

}  // namespace gpuprim::detail
