// One GPU's part of an all-to-all through NCCL, shared by gp::multi_gpu (all
// devices of one process) and the GPU ranks of gp::mpi (one device each).
#pragma once

#include <cuda_runtime.h>
#include <nccl.h>

#include <cstddef>
#include <cstdint>

namespace gpuprim::detail {

// Enqueues, between the caller's ncclGroupStart and ncclGroupEnd, the sends
// and receives of rank `me` of a p-rank communicator: to every other rank
// r, send_counts[r] elements of `element_bytes` from send +
// send_offsets[r]; from it, recv_counts[r] elements to recv +
// recv_offsets[r]. Nothing moves from `me` to itself. `check(result,
// call)` reports a failed NCCL call.
template <class Check>
void nccl_enqueue_exchange(int me, int p, const void* send, const std::uint64_t* send_counts,
                           const std::uint64_t* send_offsets, void* recv,
                           const std::uint64_t* recv_counts, const std::uint64_t* recv_offsets,
                           std::size_t element_bytes, ncclComm_t comm, cudaStream_t stream,
                           Check check) {
  for (int r = 0; r < p; ++r) {
    if (r == me) continue;
    if (send_counts[r]) {
      check(ncclSend(static_cast<const char*>(send) + send_offsets[r] * element_bytes,
                     send_counts[r] * element_bytes, ncclChar, r, comm, stream),
            "ncclSend");
    }
    if (recv_counts[r]) {
      check(ncclRecv(static_cast<char*>(recv) + recv_offsets[r] * element_bytes,
                     recv_counts[r] * element_bytes, ncclChar, r, comm, stream),
            "ncclRecv");
    }
  }
}

}  // namespace gpuprim::detail
