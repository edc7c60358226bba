// The order family's typed bindings, under gpuprim._core (NumPy's and
// torch's names and their arguments are in python/gpuprim/order.py):
//   _searchsorted(a, v, right)     int64 insertion points of v's elements in
//                                  the sorted 1-D a (NaN last, as NumPy)
//   _topk_rows(x, k, largest)      (values, int64 indices) of the k largest
//                                  (smallest) of each row of the 2-D x,
//                                  sorted, ties to the smaller index
// Both take one dtype for all their arrays (the Python side casts) and run
// on the CPU backend; the family has no GPU backend yet.
#include <nanobind/stl/tuple.h>

#include <cstdint>
#include <string>

#include "arrays.hpp"
#include "bind.hpp"
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

context host_context(const char* fn, std::initializer_list<const array*> arrays,
                     nb::handle stream) {
  context ctx = make_context(fn, arrays, stream);
  if (ctx.on_device) {
    type_error(std::string(fn) +
               ": arrays on a CUDA device are not taken yet (the order family runs on the CPU "
               "so far); pass NumPy arrays");
  }
  return ctx;
}

nb::object searchsorted_call(nb::handle a_obj, nb::handle v_obj, bool right) {
  const char* fn = "searchsorted";
  array a = import_array(a_obj, "searchsorted: a");
  array v = import_array(v_obj, "searchsorted: v");
  if (a.ndim != 1) value_error("searchsorted: a must be 1-D");
  if (a.type != v.type) type_error("searchsorted: a and v must have one dtype");
  const context ctx = host_context(fn, {&a, &v}, nb::none());
  array out = empty_array(ctx, v.shape_vector(), dtype::int64);
  visit_order_type(fn, a, [&]<class T>(type_tag<T>) {
    const T* s = a.ptr<const T>();
    const T* q = v.ptr<const T>();
    std::int64_t* o = out.ptr<std::int64_t>();
    nb::gil_scoped_release release;
    if (right) {
      host_detail::search<true>(host, s, a.size(), q, v.size(), o, nan_last_less{});
    } else {
      host_detail::search<false>(host, s, a.size(), q, v.size(), o, nan_last_less{});
    }
  });
  return out.obj;
}

nb::tuple topk_rows_call(nb::handle x_obj, std::int64_t k, bool largest) {
  const char* fn = "topk";
  array x = import_array(x_obj, "topk: x");
  if (x.ndim != 2) value_error("topk: the rows are taken of a 2-D array");
  const std::int64_t rows = x.shape[0], cols = x.shape[1];
  if (k < 1 || k > cols) {
    value_error("topk: k (" + std::to_string(k) + ") must be from 1 to the row length (" +
                std::to_string(cols) + ")");
  }
  const context ctx = host_context(fn, {&x}, nb::none());
  array values = empty_array(ctx, {rows, k}, x.type);
  array indices = empty_array(ctx, {rows, k}, dtype::int64);
  if (rows > 0) {
    visit_order_type(fn, x, [&]<class T>(type_tag<T>) {
      const auto r = static_cast<std::size_t>(rows), c = static_cast<std::size_t>(cols),
                 kk = static_cast<std::size_t>(k);
      const T* in = x.ptr<const T>();
      T* v = values.ptr<T>();
      std::int64_t* ix = indices.ptr<std::int64_t>();
      nb::gil_scoped_release release;
      if (r == 1) {
        host_detail::topk(host, in, c, kk, largest, v, ix);
      } else {
        host_detail::topk_rows(host, in, r, c, c, kk, largest, v, kk, ix, kk);
      }
    });
  }
  return nb::make_tuple(values.obj, indices.obj);
}

}  // namespace

void bind_order(nb::module_& m) {
  m.def("_searchsorted", &searchsorted_call, nb::arg("a"), nb::arg("v"), nb::arg("right"),
        "int64 insertion points (left, or right when `right`) of v's elements in the sorted 1-D "
        "a of the same dtype, NaN sorting last.");
  m.def("_topk_rows", &topk_rows_call, nb::arg("x"), nb::arg("k"), nb::arg("largest"),
        "(values, int64 indices) of the k largest (smallest) elements of each row of the 2-D x, "
        "sorted, NaN largest, ties to the smaller index.");
}

}  // namespace gpuprim::python
