// gpuprim.spatial.closest_pair: the library's closest pair of an (n, 2) or
// (n, 3) array of points.
#include <nanobind/stl/tuple.h>

#include <string>

#include "arrays.hpp"
#include "bind.hpp"
#include "gpuprim/closest_pair.hpp"

namespace gpuprim::python {

namespace {

nb::tuple closest_pair_call(nb::handle points_obj, nb::handle stream) {
  const char* fn = "closest_pair";
  array p = import_array(points_obj, "closest_pair: points");
  if (p.type != dtype::float32 && p.type != dtype::float64) {
    unsupported_dtype(fn, p, "points are float32 or float64");
  }
  if (p.ndim != 2 || (p.shape[1] != 2 && p.shape[1] != 3)) {
    std::string shape = "(";
    for (int i = 0; i < p.ndim; ++i)
      shape += (i ? ", " : "") + std::to_string(p.shape[i]);
    throw nb::value_error(
        ("closest_pair: points must be an (n, 2) or (n, 3) array (got shape " + shape + "))")
            .c_str());
  }
  const auto n = static_cast<std::size_t>(p.shape[0]);
  const auto d = static_cast<std::size_t>(p.shape[1]);
  if (n < 2) {
    throw nb::value_error(
        ("closest_pair: " + std::to_string(n) + " points; a pair needs at least 2").c_str());
  }
  const context ctx = make_context(fn, {&p}, stream);
  refuse_capture(ctx, fn, "it returns the pair as Python numbers, read from the GPU (one wait)");
  closest_pair_result r;
  visit_dtype(p.type, [&]<class T>(type_tag<T>) {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      if (ctx.on_device) {
        device_guard guard(ctx);
        nb::gil_scoped_release release;
        r = closest_pair(cuda.on(ctx.stream), device_matrix_view<const T>(p.ptr<const T>(), n, d));
      } else {
        nb::gil_scoped_release release;
        r = closest_pair(host, matrix_view<const T>(p.ptr<const T>(), n, d));
      }
    }
  });
  return nb::make_tuple(static_cast<std::int64_t>(r.i), static_cast<std::int64_t>(r.j), r.distance);
}

}  // namespace

void bind_spatial(nb::module_& m) {
  m.def("_closest_pair", &closest_pair_call, nb::arg("points"), nb::arg("stream") = nb::none(),
        "(i, j, distance) of the closest pair (use gpuprim.spatial.closest_pair).");
}

}  // namespace gpuprim::python
