// The NumPy rule's device edges (gpuprim/cuda/device/device_numpy_edges.cuh),
// for float32 / float16 edges (float) and float64 edges (double).
#define GPUPRIM_INSTANTIATING 1
#include "gpuprim/cuda/device/device_numpy_edges.cuh"

namespace gpuprim::detail {
template void cuda_numpy_edges_into<float>(float*, numpy_edge_rule, stream_t);
template void cuda_numpy_edges_into<double>(double*, numpy_edge_rule, stream_t);
}  // namespace gpuprim::detail
