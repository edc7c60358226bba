// The device transpose of 4-byte elements.
#include "gpuprim/cuda/device/device_transpose.cuh"

template void gpuprim::detail::cuda_transpose_sized<4>(const void*, void*,
                                                       const gpuprim::detail::transpose_shape&,
                                                       gpuprim::stream_t);
