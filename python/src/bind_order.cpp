// The order family's typed bindings, under gpuprim._core (NumPy's and
// torch's names and their arguments are in python/gpuprim/order.py):
//   _searchsorted(a, v, right)     int64 insertion points of v's elements in
//                                  the sorted 1-D a (NaN last, as NumPy)
//   _topk_rows(x, k, largest)      (values, int64 indices) of the k largest
//                                  (smallest) of each row of the 2-D x (of
//                                  the 1-D x as one row), sorted, ties to
//                                  the smaller index
// Both take one dtype for all their arrays (the Python side casts). Host
// arrays run on the CPU backend; CUDA arrays on the GPU through the
// library's precompiled instances (the arithmetic types of 4 and 8 bytes:
// the Python side widens 1- and 2-byte types), enqueued on the stream,
// nothing synchronized. Results are arrays of the input's kind.
#include <nanobind/stl/tuple.h>

#include <cstdint>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "bind.hpp"
#include "gpuprim/core/matrix_view.hpp"
#include "gpuprim/detail/type_list.hpp"
#include "gpuprim/search.hpp"
#include "gpuprim/topk.hpp"

namespace gpuprim::python {

namespace {

// The element types taken: every integer and float32 / float64 (bool as
// its byte; float16 is widened by the caller).
template <class F>
void visit_order_type(const char* fn, const array& a, F&& f) {
  if (a.type == dtype::float16) unsupported_dtype(fn, a, "float16 is widened by the caller");
  visit_dtype(a.type, [&]<class T>(type_tag<T>) { f(type_tag<stored_t<T>>{}); });
}

// The types the GPU calls take: those the library precompiles for plain
// C++ callers (the Python functions widen the narrower integers).
template <class T>
inline constexpr bool device_order_type =
    detail::one_of<T GPUPRIM_ARITHMETIC_TYPES(GPUPRIM_TYPE_OF)>;

[[noreturn]] void not_device_type(const char* fn, const array& a) {
  unsupported_dtype(fn, a,
                    "on the GPU: int32, uint32, int64, uint64, float32, float64; "
                    "gpuprim.order widens the narrower types before it calls this");
}

template <class T>
void device_search(const context& ctx, const array& a, bool right, const T* s, std::size_t n,
                   const T* q, std::size_t m, std::int64_t* o) {
  if constexpr (detail::precompiled_search<false, T, T, std::int64_t, nan_last_less> &&
                detail::precompiled_search<true, T, T, std::int64_t, nan_last_less>) {
    device_guard guard(ctx);
    nb::gil_scoped_release release;
    const cuda_backend b = cuda.on(ctx.stream);
    const device_span<const T> table(s, n), queries(q, m);
    const device_span<std::int64_t> out(o, m);
    if (right) {
      upper_bound(b, table, queries, out, nan_last_less{});
    } else {
      lower_bound(b, table, queries, out, nan_last_less{});
    }
  } else {
    not_device_type("searchsorted", a);
  }
}

nb::object searchsorted_call(nb::handle a_obj, nb::handle v_obj, bool right, nb::handle stream) {
  const char* fn = "searchsorted";
  array a = import_array(a_obj, "searchsorted: a");
  array v = import_array(v_obj, "searchsorted: v");
  if (a.ndim != 1) value_error("searchsorted: a must be 1-D");
  if (a.type != v.type) type_error("searchsorted: a and v must have one dtype");
  const context ctx = make_context(fn, {&a, &v}, stream);
  array out = empty_array(ctx, v.shape_vector(), dtype::int64);
  if (v.size() == 0) return result_object(ctx, out);
  visit_order_type(fn, a, [&]<class T>(type_tag<T>) {
    const T* s = a.ptr<const T>();
    const T* q = v.ptr<const T>();
    std::int64_t* o = out.ptr<std::int64_t>();
    if (ctx.on_device) {
      device_search<T>(ctx, a, right, s, a.size(), q, v.size(), o);
      return;
    }
    nb::gil_scoped_release release;
    if (right) {
      host_impl::search<true>(host, s, a.size(), q, v.size(), o, nan_last_less{});
    } else {
      host_impl::search<false>(host, s, a.size(), q, v.size(), o, nan_last_less{});
    }
  });
  return result_object(ctx, out);
}

// One array (rows == 1) through topk, more through topk_rows, on the GPU.
template <class T>
void device_topk(const context& ctx, const array& x, const T* in, std::size_t rows,
                 std::size_t cols, std::size_t k, bool take_largest, T* values,
                 std::int64_t* indices) {
  if constexpr (device_order_type<T>) {
    device_guard guard(ctx);
    nb::gil_scoped_release release;
    const cuda_backend b = cuda.on(ctx.stream);
    const topk_end end = take_largest ? topk_end::largest : topk_end::smallest;
    if (rows == 1) {
      topk(b, device_span<const T>(in, cols), k, device_span<T>(values, k),
           device_span<std::int64_t>(indices, k), end);
    } else {
      topk_rows(b, device_matrix_view<const T>(in, rows, cols), k,
                device_matrix_view<T>(values, rows, k),
                device_matrix_view<std::int64_t>(indices, rows, k), end);
    }
  } else {
    not_device_type("topk", x);
  }
}

nb::tuple topk_rows_call(nb::handle x_obj, std::int64_t k, bool largest, nb::handle stream) {
  const char* fn = "topk";
  array x = import_array(x_obj, "topk: x");
  if (x.ndim != 1 && x.ndim != 2) value_error("topk: the rows are taken of a 1-D or 2-D array");
  const bool one_row = x.ndim == 1;
  const std::int64_t rows = one_row ? 1 : x.shape[0], cols = x.shape[x.ndim - 1];
  if (k < 1 || k > cols) {
    value_error("topk: k (" + std::to_string(k) + ") must be from 1 to the row length (" +
                std::to_string(cols) + ")");
  }
  const context ctx = make_context(fn, {&x}, stream);
  const std::vector<std::int64_t> shape =
      one_row ? std::vector<std::int64_t>{k} : std::vector<std::int64_t>{rows, k};
  array values = empty_array(ctx, shape, x.type);
  array indices = empty_array(ctx, shape, dtype::int64);
  if (rows > 0) {
    visit_order_type(fn, x, [&]<class T>(type_tag<T>) {
      const auto r = static_cast<std::size_t>(rows), c = static_cast<std::size_t>(cols),
                 kk = static_cast<std::size_t>(k);
      const T* in = x.ptr<const T>();
      T* v = values.ptr<T>();
      std::int64_t* ix = indices.ptr<std::int64_t>();
      if (ctx.on_device) {
        device_topk<T>(ctx, x, in, r, c, kk, largest, v, ix);
        return;
      }
      nb::gil_scoped_release release;
      if (r == 1) {
        host_impl::topk(host, in, c, kk, largest, v, ix);
      } else {
        host_impl::topk_rows(host, in, r, c, c, kk, largest, v, kk, ix, kk);
      }
    });
  }
  return nb::make_tuple(result_object(ctx, values), result_object(ctx, indices));
}

}  // namespace

void bind_order(nb::module_& m) {
  m.def("_searchsorted", &searchsorted_call, nb::arg("a"), nb::arg("v"), nb::arg("right"),
        nb::kw_only(), nb::arg("stream").none() = nb::none(),
        "int64 insertion points (left, or right when `right`) of v's elements in the sorted 1-D "
        "a of the same dtype, NaN sorting last; on the GPU enqueued on the stream.");
  m.def("_topk_rows", &topk_rows_call, nb::arg("x"), nb::arg("k"), nb::arg("largest"),
        nb::kw_only(), nb::arg("stream").none() = nb::none(),
        "(values, int64 indices) of the k largest (smallest) elements of each row of the 2-D x "
        "(of the 1-D x), "
        "sorted, NaN largest, ties to the smaller index; on the GPU enqueued on the stream.");
}

}  // namespace gpuprim::python
