// The order family's CUB anchor and its record row's gpuprim side
// (anchors_order.hpp).
#include <cuda_runtime_api.h>

#include <cub/device/device_merge_sort.cuh>

#include <string>

#include "anchors_cub.cuh"
#include "anchors_order.hpp"
#include "gpuprim/core/device_span.hpp"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/merge.cuh"

namespace gpuprim::bench {
namespace {

struct by_score {
  __host__ __device__ bool operator()(const order_record& a, const order_record& b) const {
    return a.score < b.score;
  }
};

__device__ std::uint64_t record_hash(std::uint64_t i) {
  std::uint64_t z = i + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

__global__ void fill_records_kernel(order_record* x, std::uint64_t n) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    x[i] = order_record{static_cast<float>(record_hash(i) >> 44), static_cast<std::int32_t>(i),
                        static_cast<std::int64_t>(i)};
}

// counts[0]: pairs out of order; counts[1]: the sum of the ids.
__global__ void check_records_kernel(const order_record* x, std::uint64_t n, bool stable,
                                     unsigned long long* counts) {
  unsigned long long bad = 0, sum = 0;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    sum += static_cast<unsigned long long>(x[i].id);
    if (i + 1 < n) {
      const order_record p = x[i], q = x[i + 1];
      bad += q.score < p.score || (stable && q.score == p.score && q.id < p.id);
    }
  }
  atomicAdd(&counts[0], bad);
  atomicAdd(&counts[1], sum);
}

}  // namespace

void fill_order_records(order_record* records, std::size_t n, stream_t stream) {
  if (n == 0) return;
  cuda_impl::launch("fill_records_kernel", "bench order", fill_records_kernel,
                      {4096, 256, 0, stream}, records, std::uint64_t{n});
}

void gpuprim_sort_order_records(order_record* records, std::size_t n, stream_t stream) {
  merge_sort(cuda.on(stream), device_span<order_record>(records, n), by_score{});
}

std::string check_order_records(const order_record* records, std::size_t n, bool stable,
                                stream_t stream) {
  unsigned long long* counts = nullptr;
  GPUPRIM_CUDA_CHECK(cudaMalloc(&counts, 2 * sizeof(unsigned long long)), "bench order");
  GPUPRIM_CUDA_CHECK(cudaMemsetAsync(counts, 0, 2 * sizeof(unsigned long long), stream),
                     "bench order");
  cuda_impl::launch("check_records_kernel", "bench order", check_records_kernel,
                      {1024, 256, 0, stream}, records, std::uint64_t{n}, stable, counts);
  unsigned long long host[2] = {0, 0};
  GPUPRIM_CUDA_CHECK(cudaMemcpyAsync(host, counts, sizeof host, cudaMemcpyDeviceToHost, stream),
                     "bench order");
  GPUPRIM_CUDA_CHECK(cudaStreamSynchronize(stream), "bench order");
  GPUPRIM_CUDA_CHECK(cudaFree(counts), "bench order");
  const unsigned long long want = static_cast<unsigned long long>(n) * (n - 1) / 2;
  if (host[1] != want) return "the ids are not a permutation";
  if (host[0] != 0) {
    return std::to_string(host[0]) + " neighbours out of order" + (stable ? " (stably)" : "");
  }
  return "ok";
}

namespace {

cudaError_t call_cub(void* temp, std::size_t& bytes, order_record* records, std::size_t n,
                     cudaStream_t stream) {
  return call_with_cub_size(n, [&](auto size) {
    return cub::DeviceMergeSort::SortKeys(temp, bytes, records, size, by_score{}, stream);
  });
}

}  // namespace

cub_merge_sort_records::cub_merge_sort_records(std::size_t n, stream_t stream)
    : cub_anchor(stream, make_cub_storage([&](void* temp, std::size_t& bytes) {
                   return call_cub(temp, bytes, nullptr, n, stream);
                 })),
      n_(n) {}

void cub_merge_sort_records::enqueue(order_record* records) const {
  run_cub(temp_, [&](void* temp, std::size_t& bytes) {
    return call_cub(temp, bytes, records, n_, stream_);
  });
}

}  // namespace gpuprim::bench
