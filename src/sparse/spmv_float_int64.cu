// Precompiled SpMV of float values with int64 indices.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SPMV(float, std::int64_t)

template gpuprim::csr_row_stats gpuprim::detail::cuda_row_stats<std::int64_t>(std::size_t,
                                                                              const std::int64_t*,
                                                                              gpuprim::stream_t);
