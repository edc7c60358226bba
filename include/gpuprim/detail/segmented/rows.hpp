// Reductions of the rows of a matrix (regular segments), what NumPy's
// axis=-1 reductions need beyond gp::segmented_reduce: a fetch (an
// element's position for argmin / argmax, NaN as zero for nansum) and a
// result transform, and the offsets of regular segments for
// segmented_reduce itself. CUDA entry points; the kernels are in
// gpuprim/cuda/device/device_reduce_rows.cuh.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/core/operators.hpp"
#include "gpuprim/core/value_index.hpp"

namespace gpuprim::detail {

// What a row's reduced value becomes in the output: the value itself, or
// the position of a value_index pair (argmin / argmax rows).
struct take_value {
  template <class V>
  GPUPRIM_HD constexpr V operator()(const V& v) const {
    return v;
  }
};
struct take_index {
  template <class V>
  GPUPRIM_HD constexpr std::int64_t operator()(const value_index<V>& v) const {
    return static_cast<std::int64_t>(v.index);
  }
};

// out[r] = result(init op fetch(x[r * cols], 0) op ... op fetch(x[r * cols
// + cols - 1], cols - 1)) for r < rows; enqueued on `stream`. The grouping
// of terms depends only on cols (deterministic). Precompiled (src/segmented/
// reduce_rows.cu) for argmin / argmax rows (select_min, select_max and, for
// floats, select_min_number / select_max_number with value_index_fetch and
// take_index) of every radix key type, and NaN-as-zero sums of float and
// double; others from a .cu file including the device header.
template <class In, class T, class Op, class Fetch, class Out, class Result>
void cuda_reduce_rows_into(const In* x, std::size_t rows, std::size_t cols, Out* out, T init, Op op,
                           Fetch fetch, Result result, stream_t stream);

// offsets[i] = i * step for i < count: the num_segments + 1 offsets of
// segments of `step` elements each, for segmented_reduce / segmented scans.
void cuda_regular_offsets(std::int64_t* offsets, std::size_t count, std::int64_t step,
                          stream_t stream);

}  // namespace gpuprim::detail
