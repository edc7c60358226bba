// GPU reductions of the package: all elements through the library's
// single-pass reduction (gp::reduce_into's core), rows through its
// segmented reduction (sum, min, max and their NaN-skipping forms) or, for
// what needs an element's position or a transform (argmin/argmax,
// nansum), through its row reduction (detail/segmented/rows.hpp). This file
// launches nothing itself: it instantiates the library's templates for the
// dtypes the package takes beyond the precompiled set (integer sums widened
// as NumPy's).
#include <cmath>
#include <limits>

#include "gpu.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/cuda/reduce.cuh"
#include "gpuprim/cuda/segmented.cuh"
#include "gpuprim/detail/segmented/rows.hpp"

namespace gpuprim::python::gpu {

namespace {

// What a GPU sum accumulates in and returns: NumPy's sum type (int64 /
// uint64 for integers; float32 stays float32, as CuPy and PyTorch do).
template <class In>
using sum_t = std::conditional_t<
    std::is_floating_point_v<In>, In,
    std::conditional_t<
        std::is_unsigned_v<In> && !std::is_same_v<In, std::uint8_t>, std::uint64_t,
        std::conditional_t<std::is_same_v<In, std::uint8_t>, std::uint64_t, std::int64_t>>>;

template <class In, class Op>
void segmented(const In* x, std::size_t rows, std::size_t cols, void* out, sum_t<In> init_sum,
               In init, Op op, bool is_sum, stream_t stream) {
  const detail::scratch_buffer offsets((rows + 1) * sizeof(std::int64_t), stream);
  fill_offsets(offsets.get<std::int64_t>(), rows + 1, static_cast<std::int64_t>(cols), stream);
  if (is_sum) {
    detail::cuda_segmented_reduce_into(x, rows * cols, offsets.get<const std::int64_t>(), rows,
                                       static_cast<sum_t<In>*>(out), init_sum, plus{}, stream);
  } else {
    detail::cuda_segmented_reduce_into(x, rows * cols, offsets.get<const std::int64_t>(), rows,
                                       static_cast<In*>(out), init, op, stream);
  }
}

template <class In>
void reduce_typed(reduce_op op, const In* x, std::size_t rows, std::size_t cols, void* out,
                  stream_t stream) {
  using S = sum_t<In>;
  constexpr bool is_float = std::is_floating_point_v<In>;
  constexpr In lowest =
      is_float ? -std::numeric_limits<In>::infinity() : std::numeric_limits<In>::lowest();
  constexpr In highest =
      is_float ? std::numeric_limits<In>::infinity() : std::numeric_limits<In>::max();
  // nanmin / nanmax start from NaN, which loses to every number: an
  // all-NaN row gives NaN, as NumPy's.
  const In nan_start = is_float ? std::numeric_limits<In>::quiet_NaN() : In{};
  const std::size_t n = rows * cols;
  const bool all = rows == 1;
  const value_index<In> none{In{}, value_index<In>::none};
  const auto arg = [&](auto select) {
    if (all) {
      // The pair lands in scratch memory; its index (8 bytes at offset 8)
      // is copied into the int64 result, all in stream order.
      const detail::scratch_buffer pair(sizeof(value_index<In>), stream);
      detail::cuda_reduce_into(x, n, pair.get<value_index<In>>(), none, select,
                               detail::value_index_fetch{}, stream);
      static_assert(offsetof(value_index<In>, index) == 8);
      detail::copy_device_to_device(out, pair.get<char>() + 8, 8, stream);
    } else {
      detail::cuda_reduce_rows_into(x, rows, cols, static_cast<std::int64_t*>(out), none, select,
                                    detail::value_index_fetch{}, detail::take_index{}, stream);
    }
  };
  switch (op) {
    case reduce_op::nansum:
      if constexpr (is_float) {
        if (all) {
          detail::cuda_reduce_into(x, n, static_cast<In*>(out), In{0}, plus{},
                                   detail::unary_fetch<nan_to_zero>{}, stream);
        } else {
          detail::cuda_reduce_rows_into(x, rows, cols, static_cast<In*>(out), In{0}, plus{},
                                        detail::unary_fetch<nan_to_zero>{}, detail::take_value{},
                                        stream);
        }
        return;
      }
      [[fallthrough]];
    case reduce_op::sum:
      if (all) {
        detail::cuda_reduce_into(x, n, static_cast<S*>(out), S{0}, plus{},
                                 detail::unary_fetch<identity>{}, stream);
      } else {
        segmented(x, rows, cols, out, S{0}, In{}, plus{}, true, stream);
      }
      return;
    case reduce_op::min:
    case reduce_op::nanmin:
    case reduce_op::max:
    case reduce_op::nanmax: {
      const bool skip = op == reduce_op::nanmin || op == reduce_op::nanmax;
      const bool is_min = op == reduce_op::min || op == reduce_op::nanmin;
      const In init = skip && is_float ? nan_start : is_min ? highest : lowest;
      const auto run = [&](auto o) {
        if (all) {
          detail::cuda_reduce_into(x, n, static_cast<In*>(out), init, o,
                                   detail::unary_fetch<identity>{}, stream);
        } else {
          segmented(x, rows, cols, out, S{0}, init, o, false, stream);
        }
      };
      if (is_float && skip) {
        is_min ? run(minimum_number{}) : run(maximum_number{});
      } else {
        is_min ? run(minimum{}) : run(maximum{});
      }
      return;
    }
    case reduce_op::argmin:
      arg(detail::select_min{});
      return;
    case reduce_op::argmax:
      arg(detail::select_max{});
      return;
    // Integers hold no NaN: their nanargmin / nanargmax are the plain ones
    // (the library precompiles the NaN-skipping selections for floats only).
    case reduce_op::nanargmin:
      arg(detail::without_needless_nan_rule_t<In, detail::select_min_number>{});
      return;
    case reduce_op::nanargmax:
      arg(detail::without_needless_nan_rule_t<In, detail::select_max_number>{});
      return;
  }
}

}  // namespace

void fill_offsets(std::int64_t* offsets, std::size_t count, std::int64_t step, stream_t stream) {
  detail::cuda_regular_offsets(offsets, count, step, stream);
}

void reduce(reduce_op op, dtype in, const void* x, std::size_t rows, std::size_t cols, void* out,
            stream_t stream) {
  visit_dtype(in, [&]<class T>(type_tag<T>) {
    using S = stored_t<T>;
    reduce_typed<S>(op, static_cast<const S*>(x), rows, cols, out, stream);
  });
}

}  // namespace gpuprim::python::gpu
