// Explicit instantiations of the device convolution for the library's
// image types (float, double, std::uint8_t; one file each, so the 2-core CI
// compiles them in parallel). Each holds the general and the separable
// kernel at the six filter capacities.
#pragma once

#include "gpuprim/cuda/device/device_convolve.cuh"

#define GPUPRIM_INSTANTIATE_CONVOLVE(T)                                                       \
  template void gpuprim::detail::cuda_convolve<T>(const gpuprim::detail::convolve_images<T>&, \
                                                  const gpuprim::detail::convolve_plan&,      \
                                                  gpuprim::stream_t);
