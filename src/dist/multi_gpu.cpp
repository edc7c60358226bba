// gp::multi_gpu: the NCCL communicator and streams of one process's GPUs.
#include "gpuprim/dist/multi_gpu.hpp"

#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "gpuprim/core/error.hpp"

namespace gpuprim {
namespace {

void check(cudaError_t code, const char* call) {
  if (code != cudaSuccess) {
    throw cuda_error(static_cast<int>(code), call, "gpuprim::multi_gpu", cudaGetErrorString(code));
  }
}

void check(ncclResult_t code, const char* call) {
  if (code != ncclSuccess) {
    throw std::runtime_error(std::string("gpuprim::multi_gpu: ") + call +
                             " failed: " + ncclGetErrorString(code));
  }
}

}  // namespace

struct multi_gpu::context {
  struct buffer {
    void* data = nullptr;
    std::size_t bytes = 0;
  };
  std::vector<int> devices;
  std::vector<ncclComm_t> comms;
  std::vector<cudaStream_t> streams;
  // workspace[i][slot]: device i's kept buffers; host: the pinned one.
  std::vector<std::vector<buffer>> workspace;
  buffer host;

  ~context() {
    for (std::size_t i = 0; i < streams.size(); ++i) {
      cudaSetDevice(devices[i]);
      if (streams[i]) cudaStreamSynchronize(streams[i]);
      for (buffer& b : workspace[i])
        if (b.data) cudaFree(b.data);
      if (streams[i]) cudaStreamDestroy(streams[i]);
    }
    if (host.data) cudaFreeHost(host.data);
    for (ncclComm_t c : comms)
      if (c) ncclCommDestroy(c);
  }
};

multi_gpu::multi_gpu(std::vector<int> devices) : devices_(std::move(devices)) {
  if (devices_.empty()) throw std::invalid_argument("gpuprim::multi_gpu: no devices");
  int count = 0;
  check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  for (int d : devices_) {
    if (d < 0 || d >= count) {
      throw std::invalid_argument("gpuprim::multi_gpu: device " + std::to_string(d) + " of " +
                                  std::to_string(count));
    }
  }
  auto c = std::make_shared<context>();
  c->devices = devices_;
  c->comms.assign(devices_.size(), nullptr);
  c->streams.assign(devices_.size(), nullptr);
  c->workspace.assign(devices_.size(), std::vector<context::buffer>(detail::ws_slots));
  check(ncclCommInitAll(c->comms.data(), static_cast<int>(devices_.size()), devices_.data()),
        "ncclCommInitAll");
  for (std::size_t i = 0; i < devices_.size(); ++i) {
    check(cudaSetDevice(devices_[i]), "cudaSetDevice");
    check(cudaStreamCreateWithFlags(&c->streams[i], cudaStreamNonBlocking),
          "cudaStreamCreateWithFlags");
  }
  context_ = std::move(c);
}

stream_t multi_gpu::stream(int i) const {
  return reinterpret_cast<stream_t>(context_->streams[i]);
}

void multi_gpu::use(int i) const {
  check(cudaSetDevice(devices_[i]), "cudaSetDevice");
}

void multi_gpu::synchronize_all() const {
  for (int i = 0; i < size(); ++i) {
    use(i);
    check(cudaStreamSynchronize(context_->streams[i]), "cudaStreamSynchronize");
  }
}

void multi_gpu::allreduce_sum(const std::vector<void*>& buffers, std::size_t count,
                              int counter_bytes) const {
  const ncclDataType_t type = counter_bytes == 4 ? ncclUint32 : ncclUint64;
  check(ncclGroupStart(), "ncclGroupStart");
  for (int i = 0; i < size(); ++i) {
    check(ncclAllReduce(buffers[i], buffers[i], count, type, ncclSum, context_->comms[i],
                        context_->streams[i]),
          "ncclAllReduce");
  }
  check(ncclGroupEnd(), "ncclGroupEnd");
}

void* multi_gpu::workspace(int i, int slot, std::size_t bytes) const {
  context::buffer& b = context_->workspace[i][slot];
  if (b.bytes < bytes || (bytes > 0 && !b.data)) {
    // The old buffer may still be read by work enqueued before: wait for it.
    check(cudaStreamSynchronize(context_->streams[i]), "cudaStreamSynchronize");
    if (b.data) check(cudaFree(b.data), "cudaFree");
    b = {};
    check(cudaMalloc(&b.data, bytes), "cudaMalloc");
    b.bytes = bytes;
  }
  return b.data;
}

void* multi_gpu::host_workspace(std::size_t bytes) const {
  context::buffer& b = context_->host;
  if (b.bytes < bytes || !b.data) {
    synchronize_all();
    if (b.data) check(cudaFreeHost(b.data), "cudaFreeHost");
    b = {};
    const std::size_t size = std::max<std::size_t>(bytes, 4096);
    check(cudaMallocHost(&b.data, size), "cudaMallocHost");
    b.bytes = size;
  }
  return b.data;
}

void multi_gpu::allgather(const std::vector<void*>& buffers, std::size_t bytes) const {
  if (bytes == 0) return;
  check(ncclGroupStart(), "ncclGroupStart");
  for (int i = 0; i < size(); ++i) {
    char* b = static_cast<char*>(buffers[i]);
    check(
        ncclAllGather(b + i * bytes, b, bytes, ncclChar, context_->comms[i], context_->streams[i]),
        "ncclAllGather");
  }
  check(ncclGroupEnd(), "ncclGroupEnd");
}

void multi_gpu::alltoallv(const std::vector<const void*>& sends,
                          const detail::rank_table& send_counts,
                          const detail::rank_table& send_offsets, const std::vector<void*>& recvs,
                          const detail::rank_table& recv_counts,
                          const detail::rank_table& recv_offsets, std::size_t element_bytes) const {
  const int p = size();
  check(ncclGroupStart(), "ncclGroupStart");
  for (int d = 0; d < p; ++d) {
    for (int e = 0; e < p; ++e) {
      if (d == e) continue;
      if (const std::uint64_t n = send_counts[d][e]) {
        const char* from = static_cast<const char*>(sends[d]) + send_offsets[d][e] * element_bytes;
        check(ncclSend(from, n * element_bytes, ncclChar, e, context_->comms[d],
                       context_->streams[d]),
              "ncclSend");
      }
      if (const std::uint64_t n = recv_counts[d][e]) {
        char* to = static_cast<char*>(recvs[d]) + recv_offsets[d][e] * element_bytes;
        check(
            ncclRecv(to, n * element_bytes, ncclChar, e, context_->comms[d], context_->streams[d]),
            "ncclRecv");
      }
    }
  }
  check(ncclGroupEnd(), "ncclGroupEnd");
}

}  // namespace gpuprim
