// The CUB anchor for the reduction family.
#include <cuda_runtime_api.h>

#include <climits>
#include <cub/device/device_reduce.cuh>

#include "anchors_cub.cuh"

namespace gpuprim::bench {
namespace {

// CUB picks its offset type from the type of num_items; a user with fewer
// than 2^31 elements passes an int and gets the faster 32-bit offsets.
template <class T, class Size>
cudaError_t call_cub_sized(reduce_op op, void* temp, std::size_t& temp_bytes, const T* in, T* out,
                           Size n, cudaStream_t stream) {
  switch (op) {
    case reduce_op::sum:
      return cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n, stream);
    case reduce_op::min:
      return cub::DeviceReduce::Min(temp, temp_bytes, in, out, n, stream);
    case reduce_op::max:
      return cub::DeviceReduce::Max(temp, temp_bytes, in, out, n, stream);
  }
  return cudaErrorInvalidValue;
}

template <class T>
cudaError_t call_cub(reduce_op op, void* temp, std::size_t& temp_bytes, const T* in, T* out,
                     std::size_t n, cudaStream_t stream) {
  if (n <= static_cast<std::size_t>(INT_MAX)) {
    return call_cub_sized(op, temp, temp_bytes, in, out, static_cast<int>(n), stream);
  }
  return call_cub_sized(op, temp, temp_bytes, in, out, n, stream);
}

}  // namespace

template <class T>
cub_reduce<T>::cub_reduce(reduce_op op, std::size_t n, stream_t stream)
    : op_(op), n_(n), stream_(stream), temp_(make_cub_storage([&](void* temp, std::size_t& bytes) {
        return call_cub<T>(op, temp, bytes, nullptr, nullptr, n, stream);
      })) {}

template <class T>
void cub_reduce<T>::enqueue(const T* in, T* out) const {
  run_cub(temp_, [&](void* temp, std::size_t& bytes) {
    return call_cub<T>(op_, temp, bytes, in, out, n_, stream_);
  });
}

template <class T>
const char* cub_reduce<T>::name(reduce_op op) {
  return enum_name(op,
                   {"cub::DeviceReduce::Sum", "cub::DeviceReduce::Min", "cub::DeviceReduce::Max"});
}

template class cub_reduce<float>;
template class cub_reduce<double>;
template class cub_reduce<std::int32_t>;

}  // namespace gpuprim::bench
