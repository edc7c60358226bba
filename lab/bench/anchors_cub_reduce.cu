// The CUB anchor for the reduction family.
#include <cuda_runtime_api.h>

#include <cub/device/device_reduce.cuh>

#include "anchors_cub.cuh"

namespace gpuprim::bench {

template <class T, class Size>
cudaError_t cub_span_call(reduce_op op, void* temp, std::size_t& temp_bytes, const T* in, T* out,
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

const char* cub_span_name(reduce_op op) {
  return enum_name(op,
                   {"cub::DeviceReduce::Sum", "cub::DeviceReduce::Min", "cub::DeviceReduce::Max"});
}

template class cub_span_anchor<float, reduce_op>;
template class cub_span_anchor<double, reduce_op>;
template class cub_span_anchor<std::int32_t, reduce_op>;

}  // namespace gpuprim::bench
