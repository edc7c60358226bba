// transpose(a) (a contiguous copy of a.T) and matmul(a, b) (2-D and
// stacked), through the library's transpose and gemm (cuBLAS on the GPU,
// OpenBLAS or the library's loop on the host).
#include <string>

#include "arrays.hpp"
#include "bind.hpp"
#include "gpuprim/gemm.hpp"
#include "gpuprim/transpose.hpp"

namespace gpuprim::python {

namespace {

nb::object transpose_call(nb::handle a_obj, nb::handle stream) {
  array a = import_array(a_obj, "transpose: a");
  if (a.ndim > 2) {
    value_error("transpose: a has " + std::to_string(a.ndim) +
                " dimensions; gpuprim transposes 1-D and 2-D arrays");
  }
  const context ctx = make_context("transpose", {&a}, stream);
  const std::size_t rows = a.ndim == 2 ? static_cast<std::size_t>(a.shape[0]) : 1;
  const std::size_t cols = a.ndim == 0 ? 1 : static_cast<std::size_t>(a.shape[a.ndim - 1]);
  std::vector<std::int64_t> shape = a.shape_vector();
  if (a.ndim == 2) std::swap(shape[0], shape[1]);
  array out = empty_array(ctx, shape, a.type);
  if (a.size() == 0) return result_object(ctx, out);
  const std::size_t size = dtype_size(a.type);
  if (ctx.on_device) {
    device_guard guard(ctx);
    nb::gil_scoped_release release;
    transpose_bytes(cuda.on(ctx.stream), size, a.data, rows, cols, cols, out.data, rows);
  } else {
    nb::gil_scoped_release release;
    transpose_bytes(host, size, a.data, rows, cols, cols, out.data, rows);
  }
  return result_object(ctx, out);
}

nb::object matmul_call(nb::handle a_obj, nb::handle b_obj, nb::handle stream) {
  array a = import_array(a_obj, "matmul: a");
  array b = import_array(b_obj, "matmul: b");
  if (a.type != b.type) {
    type_error(std::string("matmul: a is ") + dtype_name(a.type) + " and b " + dtype_name(b.type) +
               "; gpuprim multiplies two float32 or two float64 arrays");
  }
  if (a.type != dtype::float32 && a.type != dtype::float64) {
    unsupported_dtype("matmul", a, "matmul takes float32 and float64");
  }
  if (a.ndim < 2 || b.ndim < 2 || a.ndim > 3 || b.ndim > 3) {
    value_error("matmul: a and b must be 2-D matrices or 3-D stacks of them");
  }
  const std::size_t m = static_cast<std::size_t>(a.shape[a.ndim - 2]);
  const std::size_t k = static_cast<std::size_t>(a.shape[a.ndim - 1]);
  const std::size_t kb = static_cast<std::size_t>(b.shape[b.ndim - 2]);
  const std::size_t n = static_cast<std::size_t>(b.shape[b.ndim - 1]);
  if (k != kb) {
    value_error("matmul: a's last dimension (" + std::to_string(k) + ") differs from b's " +
                "second-to-last (" + std::to_string(kb) + ")");
  }
  const std::size_t batch_a = a.ndim == 3 ? static_cast<std::size_t>(a.shape[0]) : 1;
  const std::size_t batch_b = b.ndim == 3 ? static_cast<std::size_t>(b.shape[0]) : 1;
  if (batch_a != batch_b && batch_a != 1 && batch_b != 1) {
    value_error("matmul: stacks of " + std::to_string(batch_a) + " and " + std::to_string(batch_b) +
                " matrices do not broadcast");
  }
  const std::size_t batch = std::max(batch_a, batch_b);
  const bool stacked = a.ndim == 3 || b.ndim == 3;
  const context ctx = make_context("matmul", {&a, &b}, stream);
  std::vector<std::int64_t> shape{std::int64_t(m), std::int64_t(n)};
  if (stacked) shape.insert(shape.begin(), std::int64_t(batch));
  array c = empty_array(ctx, shape, a.type);
  if (c.size() == 0) return result_object(ctx, c);
  // A stack of one broadcasts with stride 0.
  const std::size_t stride_a = batch_a == 1 ? 0 : m * k;
  const std::size_t stride_b = batch_b == 1 ? 0 : k * n;
  const auto run = [&]<class T>(type_tag<T>) {
    if (ctx.on_device) {
      const device_matrix_view<const T> va(a.ptr<const T>(), m, k);
      const device_matrix_view<const T> vb(b.ptr<const T>(), k, n);
      const device_matrix_view<T> vc(c.ptr<T>(), m, n);
      gemm_batched(cuda.on(ctx.stream), va, stride_a, vb, stride_b, vc, m * n, batch);
    } else {
      const matrix_view<const T> va(a.ptr<const T>(), m, k);
      const matrix_view<const T> vb(b.ptr<const T>(), k, n);
      const matrix_view<T> vc(c.ptr<T>(), m, n);
      gemm_batched(host, va, stride_a, vb, stride_b, vc, m * n, batch);
    }
  };
  {
    device_guard guard(ctx);
    nb::gil_scoped_release release;
    if (a.type == dtype::float32) {
      run(type_tag<float>{});
    } else {
      run(type_tag<double>{});
    }
  }
  return result_object(ctx, c);
}

}  // namespace

void bind_dense(nb::module_& m) {
  m.def(
      "_transpose", [](nb::object a, nb::object stream) { return transpose_call(a, stream); },
      nb::arg("a"), nb::arg("stream").none(),
      "The transpose of a 2-D array as a new C-contiguous array, as "
      "numpy.ascontiguousarray(a.T) (a 1-D array is copied). Any dtype.");
  m.def(
      "_matmul",
      [](nb::object a, nb::object b, nb::object stream) { return matmul_call(a, b, stream); },
      nb::arg("a"), nb::arg("b"), nb::arg("stream").none(),
      "a @ b for 2-D float32 or float64 matrices, or 3-D stacks of them (a stack of one, or a "
      "2-D operand, broadcasts), as numpy.matmul. Full fp32 (no TF32) on the GPU, through "
      "cuBLAS.");
}

}  // namespace gpuprim::python
