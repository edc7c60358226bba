// gp::multi_gpu: the NCCL communicator and streams of one process's GPUs.
#include "gpuprim/dist/multi_gpu.hpp"

#include <cuda_runtime.h>
#include <nccl.h>

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
  std::vector<int> devices;
  std::vector<ncclComm_t> comms;
  std::vector<cudaStream_t> streams;

  ~context() {
    for (std::size_t i = 0; i < streams.size(); ++i) {
      cudaSetDevice(devices[i]);
      if (streams[i]) cudaStreamDestroy(streams[i]);
    }
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

void multi_gpu::exchange(const std::vector<const void*>& sends,
                         const std::vector<std::vector<std::uint64_t>>& send_counts,
                         const std::vector<std::vector<std::uint64_t>>& send_offsets,
                         const std::vector<void*>& recvs,
                         const std::vector<std::vector<std::uint64_t>>& recv_offsets) const {
  const int p = size();
  check(ncclGroupStart(), "ncclGroupStart");
  for (int d = 0; d < p; ++d) {
    for (int e = 0; e < p; ++e) {
      // d -> e; device e's receive from d has the same byte count.
      const std::uint64_t bytes = send_counts[d][e];
      if (bytes == 0) continue;
      const char* from = static_cast<const char*>(sends[d]) + send_offsets[d][e];
      char* to = static_cast<char*>(recvs[e]) + recv_offsets[e][d];
      if (d == e) {  // a device's own piece: a copy, no message
        use(d);
        check(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, context_->streams[d]),
              "cudaMemcpyAsync");
        continue;
      }
      check(ncclSend(from, bytes, ncclChar, e, context_->comms[d], context_->streams[d]),
            "ncclSend");
      check(ncclRecv(to, bytes, ncclChar, d, context_->comms[e], context_->streams[e]), "ncclRecv");
    }
  }
  check(ncclGroupEnd(), "ncclGroupEnd");
}

}  // namespace gpuprim
