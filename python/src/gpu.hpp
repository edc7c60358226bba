// The package's GPU entry points, defined in python/src/*.cu (nvcc): there
// the library's device templates are reachable for every dtype the package
// takes (integer sums widened as NumPy's, int8/int16 keys, ...), not only
// for the combinations the library precompiles for plain C++ callers.
// Arguments are checked by the callers; every function only enqueues work on
// `stream` (nothing synchronizes), with pointers to device memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "dtypes.hpp"
#include "gpuprim/core/macros.hpp"
#include "gpuprim/core/operators.hpp"
#include "gpuprim/detail/reduce/precompiled.hpp"

namespace gpuprim::python::gpu {

enum class reduce_op {
  sum,
  nansum,
  min,
  max,
  nanmin,
  nanmax,
  argmin,
  argmax,
  nanargmin,
  nanargmax
};

// rows x cols input (C order) -> out[rows] (out[0] for rows == 1): the
// reduction of each row, of the result dtype the caller chose (sum's widened
// type, the input's type, or int64 for the arg- forms). cols >= 1 for every
// op but the sums.
void reduce(reduce_op op, dtype in, const void* x, std::size_t rows, std::size_t cols, void* out,
            stream_t stream);

enum class scan_op { sum, min, max, nanmin, nanmax };

// Calls f with the library's operator of `op` on values of T: min and max
// propagate NaN, as np.minimum.accumulate / np.maximum.accumulate; nanmin
// and nanmax skip it (np.fmin.accumulate), which for integers is the same
// operator.
template <class T, class F>
void visit_scan_op(scan_op op, F&& f) {
  switch (op) {
    case scan_op::sum:
      f(plus{});
      return;
    case scan_op::min:
      f(minimum{});
      return;
    case scan_op::max:
      f(maximum{});
      return;
    case scan_op::nanmin:
      f(detail::without_needless_nan_rule_t<T, minimum_number>{});
      return;
    case scan_op::nanmax:
      f(detail::without_needless_nan_rule_t<T, maximum_number>{});
      return;
  }
}

// out[i] = x[0] op ... op x[i] (inclusive) or init op x[0] op ... op x[i-1]
// (exclusive), in the result dtype `acc` (init points to one value of it, in
// host memory).
void scan(scan_op op, bool exclusive, dtype in, dtype acc, const void* x, void* out, std::size_t n,
          const void* init, stream_t stream);

// Segments given by num_segments + 1 int64 offsets (device memory).
void segmented_sum(dtype in, dtype acc, const void* x, std::size_t n, const std::int64_t* offsets,
                   std::size_t num_segments, void* out, stream_t stream);
void segmented_cumsum(dtype in, dtype acc, const void* x, std::size_t n,
                      const std::int64_t* offsets, std::size_t num_offsets, void* out,
                      stream_t stream);

// Sorts each of `rows` rows of `cols` keys from `in` into `out` (stable, NaN
// last); with `indices`, also writes each key's position in its row (int64),
// as numpy.argsort(kind="stable").
void sort(dtype key, const void* in, void* out, std::int64_t* indices, std::size_t rows,
          std::size_t cols, bool descending, stream_t stream);

// Keys and values (4- or 8-byte values) sorted by key into the outputs.
void sort_by_key(dtype key, std::size_t value_bytes, const void* keys_in, const void* values_in,
                 void* keys_out, void* values_out, std::size_t n, bool descending, stream_t stream);

// offsets[i] = i * step for i < count (row starts for segmented calls).
void fill_offsets(std::int64_t* offsets, std::size_t count, std::int64_t step, stream_t stream);

}  // namespace gpuprim::python::gpu

#if !GPUPRIM_HAS_CUDA
#include "arrays.hpp"

namespace gpuprim::python::gpu {
inline void reduce(reduce_op, dtype, const void*, std::size_t, std::size_t, void*, stream_t) {
  no_cuda("reduce");
}
inline void scan(scan_op, bool, dtype, dtype, const void*, void*, std::size_t, const void*,
                 stream_t) {
  no_cuda("scan");
}
inline void segmented_sum(dtype, dtype, const void*, std::size_t, const std::int64_t*, std::size_t,
                          void*, stream_t) {
  no_cuda("segmented_sum");
}
inline void segmented_cumsum(dtype, dtype, const void*, std::size_t, const std::int64_t*,
                             std::size_t, void*, stream_t) {
  no_cuda("segmented_cumsum");
}
inline void sort(dtype, const void*, void*, std::int64_t*, std::size_t, std::size_t, bool,
                 stream_t) {
  no_cuda("sort");
}
inline void sort_by_key(dtype, std::size_t, const void*, const void*, void*, void*, std::size_t,
                        bool, stream_t) {
  no_cuda("sort_by_key");
}
inline void fill_offsets(std::int64_t*, std::size_t, std::int64_t, stream_t) {
  no_cuda("segmented reduce");
}
}  // namespace gpuprim::python::gpu
#endif
