// The CUB anchors for the selection family (anchors_select.hpp).
#include <cuda_runtime_api.h>

#include <cub/device/device_partition.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/std/functional>

#include "anchors_cub.cuh"
#include "anchors_select.hpp"
#include "enum_name.hpp"

namespace gpuprim::bench {
namespace {

struct above_one {
  __host__ __device__ bool operator()(float x) const { return x > 1.0f; }
};

cudaError_t call_cub(cub_select_kind kind, void* temp, std::size_t& bytes, const void* in,
                     const void* aux, void* out, void* out2, int* count, int n,
                     cudaStream_t stream) {
  const auto* x = static_cast<const float*>(in);
  const auto* keys = static_cast<const std::int32_t*>(in);
  switch (kind) {
    case cub_select_kind::flagged:
      return cub::DeviceSelect::Flagged(temp, bytes, x, static_cast<const std::uint8_t*>(aux),
                                        static_cast<float*>(out), count, n, stream);
    case cub_select_kind::if_above_one:
      return cub::DeviceSelect::If(temp, bytes, x, static_cast<float*>(out), count, n, above_one{},
                                   stream);
    case cub_select_kind::partition:
      return cub::DevicePartition::If(temp, bytes, x, static_cast<float*>(out), count, n,
                                      above_one{}, stream);
    case cub_select_kind::unique:
      return cub::DeviceSelect::Unique(temp, bytes, keys, static_cast<std::int32_t*>(out), count, n,
                                       stream);
    case cub_select_kind::run_length:
      return cub::DeviceRunLengthEncode::Encode(temp, bytes, keys, static_cast<std::int32_t*>(out),
                                                static_cast<std::int32_t*>(out2), count, n, stream);
    case cub_select_kind::reduce_by_key:
      return cub::DeviceReduce::ReduceByKey(
          temp, bytes, keys, static_cast<std::int32_t*>(out), static_cast<const float*>(aux),
          static_cast<float*>(out2), count, cuda::std::plus<>{}, n, stream);
  }
  return cudaErrorInvalidValue;
}

}  // namespace

cub_select::cub_select(cub_select_kind kind, std::size_t n, stream_t stream)
    : cub_anchor(stream, make_cub_storage([&](void* temp, std::size_t& bytes) {
                   return call_cub(kind, temp, bytes, nullptr, nullptr, nullptr, nullptr, nullptr,
                                   static_cast<int>(n), stream);
                 })),
      kind_(kind),
      n_(n) {}

void cub_select::enqueue(const void* in, const void* aux, void* out, void* out2, int* count) const {
  run_cub(temp_, [&](void* temp, std::size_t& bytes) {
    return call_cub(kind_, temp, bytes, in, aux, out, out2, count, static_cast<int>(n_), stream_);
  });
}

const char* cub_select::name(cub_select_kind kind) {
  return enum_name(kind, {"cub::DeviceSelect::Flagged", "cub::DeviceSelect::If",
                          "cub::DevicePartition::If", "cub::DeviceSelect::Unique",
                          "cub::DeviceRunLengthEncode::Encode", "cub::DeviceReduce::ReduceByKey"});
}

}  // namespace gpuprim::bench
