// The CUB anchors for the scan family: plain and by-key (segmented) scans.
#include <cuda_runtime_api.h>

#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>

#include "anchors_cub.cuh"

namespace gpuprim::bench {

template <class T, class Size>
cudaError_t cub_span_call(scan_kind kind, void* temp, std::size_t& temp_bytes, const T* in, T* out,
                          Size n, cudaStream_t stream) {
  if (kind == scan_kind::exclusive) {
    return cub::DeviceScan::ExclusiveSum(temp, temp_bytes, in, out, n, stream);
  }
  return cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, n, stream);
}

const char* cub_span_name(scan_kind kind) {
  return kind == scan_kind::exclusive ? "cub::DeviceScan::ExclusiveSum"
                                      : "cub::DeviceScan::InclusiveSum";
}

template class cub_span_anchor<float, scan_kind>;
template class cub_span_anchor<double, scan_kind>;
template class cub_span_anchor<std::int32_t, scan_kind>;

namespace {

template <class T>
cudaError_t call_cub_by_key(void* temp, std::size_t& temp_bytes, const std::int32_t* keys,
                            const T* in, T* out, std::size_t n, cudaStream_t stream) {
  return call_with_cub_size(n, [&](auto size) {
    return cub::DeviceScan::InclusiveSumByKey(temp, temp_bytes, keys, in, out, size,
                                              cuda::std::equal_to<>{}, stream);
  });
}

}  // namespace

template <class T>
cub_inclusive_sum_by_key<T>::cub_inclusive_sum_by_key(std::size_t n, stream_t stream)
    : cub_anchor(stream, make_cub_storage([&](void* temp, std::size_t& bytes) {
                   return call_cub_by_key<T>(temp, bytes, nullptr, nullptr, nullptr, n, stream);
                 })),
      n_(n) {}

template <class T>
void cub_inclusive_sum_by_key<T>::enqueue(const std::int32_t* keys, const T* in, T* out) const {
  run_cub(temp_, [&](void* temp, std::size_t& bytes) {
    return call_cub_by_key<T>(temp, bytes, keys, in, out, n_, stream_);
  });
}

template class cub_inclusive_sum_by_key<float>;

}  // namespace gpuprim::bench
