// The row reductions of detail/segmented/rows.hpp: argmin / argmax rows of
// every radix sort key type, NaN-as-zero row sums of float and double, and
// the regular offsets.
#include <cstdint>

#include "gpuprim/cuda/device/device_reduce_rows.cuh"
#include "gpuprim/detail/sort/precompiled.hpp"

namespace gpuprim::detail {

void cuda_regular_offsets(std::int64_t* offsets, std::size_t count, std::int64_t step,
                          stream_t stream) {
  regular_offsets_into(offsets, count, step, stream);
}

#define GPUPRIM_ARG_ROWS(In, Select)                                                               \
  template void                                                                                    \
  cuda_reduce_rows_into<In, value_index<In>, Select, value_index_fetch, std::int64_t, take_index>( \
      const In*, std::size_t, std::size_t, std::int64_t*, value_index<In>, Select,                 \
      value_index_fetch, take_index, stream_t);
#define GPUPRIM_ARGS_OF(name, In) GPUPRIM_ARG_ROWS(In, select_min) GPUPRIM_ARG_ROWS(In, select_max)
GPUPRIM_SORT_TYPES(GPUPRIM_ARGS_OF)

#define GPUPRIM_FLOAT_ROWS(In)                                                                  \
  GPUPRIM_ARG_ROWS(In, select_min_number)                                                       \
  GPUPRIM_ARG_ROWS(In, select_max_number)                                                       \
  template void cuda_reduce_rows_into<In, In, plus, unary_fetch<nan_to_zero>, In, take_value>(  \
      const In*, std::size_t, std::size_t, In*, In, plus, unary_fetch<nan_to_zero>, take_value, \
      stream_t);
GPUPRIM_FLOAT_ROWS(float)
GPUPRIM_FLOAT_ROWS(double)

#undef GPUPRIM_FLOAT_ROWS
#undef GPUPRIM_ARGS_OF
#undef GPUPRIM_ARG_ROWS

}  // namespace gpuprim::detail
