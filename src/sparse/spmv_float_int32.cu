// Precompiled SpMV of float values with int32 indices.
#include "instantiate.cuh"

GPUPRIM_INSTANTIATE_SPMV(float, std::int32_t)

// The row statistics (one per index type).
template gpuprim::csr_row_stats gpuprim::detail::cuda_row_stats<std::int32_t>(std::size_t,
                                                                              const std::int32_t*,
                                                                              gpuprim::stream_t);
