// GPU reductions of the package: all elements through the library's
// single-pass reduction (gp::reduce_into's core), rows through its
// segmented reduction (sum, min, max and their NaN-skipping forms) or, for
// what needs an element's position or a transform (argmin/argmax,
// nansum), through one block per row below.
#include <cmath>
#include <limits>

#include "gpu.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/cuda/detail/check.cuh"
#include "gpuprim/cuda/reduce.cuh"
#include "gpuprim/cuda/segmented.cuh"

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

__global__ void fill_offsets_kernel(std::int64_t* offsets, std::size_t count, std::int64_t step) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < count) offsets[i] = static_cast<std::int64_t>(i) * step;
}

// One block per row: each thread folds a strided part of the row, then the
// block combines the threads' values in a shared-memory tree. `Result`
// turns the row's value into what is stored.
constexpr int row_threads = 256;

template <class In, class T, class Op, class Fetch, class Out, class Result>
__global__ void __launch_bounds__(row_threads)
    row_reduce_kernel(const In* x, std::size_t cols, Out* out, T init, Op op, Fetch fetch,
                      Result result) {
  __shared__ T partial[row_threads];
  const In* row = x + blockIdx.x * cols;
  T acc = init;
  for (std::size_t j = threadIdx.x; j < cols; j += row_threads)
    acc = op(acc, fetch(row[j], j));
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (int stride = row_threads / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) {
      partial[threadIdx.x] = op(partial[threadIdx.x], partial[threadIdx.x + stride]);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = result(partial[0]);
}

struct take_index {
  template <class V>
  __device__ std::int64_t operator()(const value_index<V>& v) const {
    return static_cast<std::int64_t>(v.index);
  }
};
struct take_value {
  template <class V>
  __device__ V operator()(const V& v) const {
    return v;
  }
};

template <class In, class T, class Op, class Fetch, class Out, class Result>
void launch_rows(const In* x, std::size_t rows, std::size_t cols, Out* out, T init, Op op,
                 Fetch fetch, Result result, stream_t stream) {
  // Grids of up to 2^31 - 1 blocks in x: more rows go in several launches.
  const std::size_t max_rows = (std::size_t{1} << 31) - 1;
  for (std::size_t first = 0; first < rows; first += max_rows) {
    const std::size_t count = std::min(max_rows, rows - first);
    row_reduce_kernel<<<static_cast<unsigned>(count), row_threads, 0, stream>>>(
        x + first * cols, cols, out + first, init, op, fetch, result);
  }
  detail::check_launch("row_reduce_kernel", "gpuprim python reduce");
}

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
      launch_rows(x, rows, cols, static_cast<std::int64_t*>(out), none, select,
                  detail::value_index_fetch{}, take_index{}, stream);
    }
  };
  switch (op) {
    case reduce_op::nansum:
      if constexpr (is_float) {
        if (all) {
          detail::cuda_reduce_into(x, n, static_cast<In*>(out), In{0}, plus{},
                                   detail::unary_fetch<nan_to_zero>{}, stream);
        } else {
          launch_rows(x, rows, cols, static_cast<In*>(out), In{0}, plus{},
                      detail::unary_fetch<nan_to_zero>{}, take_value{}, stream);
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
    case reduce_op::nanargmin:
      arg(detail::select_min_number{});
      return;
    case reduce_op::nanargmax:
      arg(detail::select_max_number{});
      return;
  }
}

}  // namespace

void fill_offsets(std::int64_t* offsets, std::size_t count, std::int64_t step, stream_t stream) {
  if (count == 0) return;
  const unsigned blocks = static_cast<unsigned>((count + 255) / 256);
  fill_offsets_kernel<<<blocks, 256, 0, stream>>>(offsets, count, step);
  detail::check_launch("fill_offsets_kernel", "gpuprim python segmented reduce");
}

void reduce(reduce_op op, dtype in, const void* x, std::size_t rows, std::size_t cols, void* out,
            stream_t stream) {
  visit_dtype(in, [&]<class T>(type_tag<T>) {
    using S = stored_t<T>;
    reduce_typed<S>(op, static_cast<const S*>(x), rows, cols, out, stream);
  });
}

}  // namespace gpuprim::python::gpu
