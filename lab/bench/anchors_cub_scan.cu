// The CUB anchors for the scan family: plain and by-key (segmented) scans.
#include <cuda_runtime_api.h>

#include <climits>
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>

#include "anchors_cub.cuh"

namespace gpuprim::bench {
namespace {

// As for reductions: fewer than 2^31 elements go through CUB's 32-bit offsets.
template <class T, class Size>
cudaError_t call_cub_sized(scan_kind kind, void* temp, std::size_t& temp_bytes, const T* in, T* out,
                           Size n, cudaStream_t stream) {
  if (kind == scan_kind::exclusive) {
    return cub::DeviceScan::ExclusiveSum(temp, temp_bytes, in, out, n, stream);
  }
  return cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, n, stream);
}

template <class T>
cudaError_t call_cub(scan_kind kind, void* temp, std::size_t& temp_bytes, const T* in, T* out,
                     std::size_t n, cudaStream_t stream) {
  if (n <= static_cast<std::size_t>(INT_MAX)) {
    return call_cub_sized(kind, temp, temp_bytes, in, out, static_cast<int>(n), stream);
  }
  return call_cub_sized(kind, temp, temp_bytes, in, out, n, stream);
}

template <class T>
cudaError_t call_cub_by_key(void* temp, std::size_t& temp_bytes, const std::int32_t* keys,
                            const T* in, T* out, std::size_t n, cudaStream_t stream) {
  if (n <= static_cast<std::size_t>(INT_MAX)) {
    return cub::DeviceScan::InclusiveSumByKey(temp, temp_bytes, keys, in, out, static_cast<int>(n),
                                              cuda::std::equal_to<>{}, stream);
  }
  return cub::DeviceScan::InclusiveSumByKey(temp, temp_bytes, keys, in, out, n,
                                            cuda::std::equal_to<>{}, stream);
}

}  // namespace

template <class T>
cub_scan<T>::cub_scan(scan_kind kind, std::size_t n, stream_t stream)
    : kind_(kind),
      n_(n),
      stream_(stream),
      temp_(make_cub_storage([&](void* temp, std::size_t& bytes) {
        return call_cub<T>(kind, temp, bytes, nullptr, nullptr, n, stream);
      })) {}

template <class T>
void cub_scan<T>::enqueue(const T* in, T* out) const {
  run_cub(temp_, [&](void* temp, std::size_t& bytes) {
    return call_cub<T>(kind_, temp, bytes, in, out, n_, stream_);
  });
}

template <class T>
const char* cub_scan<T>::name(scan_kind kind) {
  return kind == scan_kind::exclusive ? "cub::DeviceScan::ExclusiveSum"
                                      : "cub::DeviceScan::InclusiveSum";
}

template class cub_scan<float>;
template class cub_scan<double>;
template class cub_scan<std::int32_t>;

template <class T>
cub_inclusive_sum_by_key<T>::cub_inclusive_sum_by_key(std::size_t n, stream_t stream)
    : n_(n), stream_(stream), temp_(make_cub_storage([&](void* temp, std::size_t& bytes) {
        return call_cub_by_key<T>(temp, bytes, nullptr, nullptr, nullptr, n, stream);
      })) {}

template <class T>
void cub_inclusive_sum_by_key<T>::enqueue(const std::int32_t* keys, const T* in, T* out) const {
  run_cub(temp_, [&](void* temp, std::size_t& bytes) {
    return call_cub_by_key<T>(temp, bytes, keys, in, out, n_, stream_);
  });
}

template class cub_inclusive_sum_by_key<float>;

}  // namespace gpuprim::bench
