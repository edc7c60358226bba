// scipy.ndimage's 2-D filters on the library's convolution family: a
// general correlation / convolution with a weights array, and a separable
// one (a row filter and a column filter). python/gpuprim/ndimage.py turns
// the named filters (gaussian_filter, uniform_filter, sobel, laplace) and
// SciPy's arguments (mode names, cval, truncate, ...) into these calls.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "bind.hpp"
#include "gpuprim/convolve.hpp"

namespace gpuprim::python {

namespace {

struct filter_spec {
  bool separable = false;
  bool flip = false;  // convolve (true) or correlate (false)
  filter weights;     // the general filter
  std::vector<double> row, column;
  border mode = border::reflect;
};

template <class Backend, class In, class Out>
void apply(Backend b, const filter_spec& s, In in, Out out) {
  if (s.separable) {
    if (s.flip) {
      convolve_separable(b, in, s.row, s.column, out, s.mode);
    } else {
      correlate_separable(b, in, s.row, s.column, out, s.mode);
    }
  } else if (s.flip) {
    convolve(b, in, s.weights, out, s.mode);
  } else {
    correlate(b, in, s.weights, out, s.mode);
  }
}

border border_of(const char* fn, int mode) {
  if (mode < 0 || mode > static_cast<int>(border::wrap)) {
    value_error(std::string(fn) + ": unknown border mode " + std::to_string(mode));
  }
  return static_cast<border>(mode);
}

nb::object filter_call(const char* fn, nb::handle input_obj, const filter_spec& s,
                       nb::handle output_obj, nb::handle stream) {
  const std::string f(fn);
  array in = import_array(input_obj, f + ": input");
  if (in.type != dtype::float32 && in.type != dtype::float64) {
    unsupported_dtype(fn, in, "images are float32 or float64; convert integer images first");
  }
  if (in.ndim != 2) {
    value_error(f + ": input must be a 2-D image (it has " + std::to_string(in.ndim) +
                " dimensions)");
  }
  std::optional<array> given;
  if (!output_obj.is_none()) {
    given.emplace(import_array(output_obj, f + ": output", true));
    if (given->type != in.type) {
      type_error(f + ": output is " + dtype_name(given->type) + " but input is " +
                 dtype_name(in.type) + "; they must match");
    }
    if (given->ndim != 2 || given->shape[0] != in.shape[0] || given->shape[1] != in.shape[1]) {
      value_error(f + ": output must have the input's shape");
    }
  }
  const context ctx =
      given ? make_context(fn, {&in, &*given}, stream) : make_context(fn, {&in}, stream);
  array out = given ? std::move(*given) : empty_array(ctx, in.shape_vector(), in.type);
  const auto rows = static_cast<std::size_t>(in.shape[0]);
  const auto cols = static_cast<std::size_t>(in.shape[1]);
  visit_dtype(in.type, [&]<class T>(type_tag<T>) {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      if (ctx.on_device) {
        device_guard guard(ctx);
        nb::gil_scoped_release release;
        apply(cuda.on(ctx.stream), s, device_matrix_view<const T>(in.ptr<const T>(), rows, cols),
              device_matrix_view<T>(out.ptr<T>(), rows, cols));
      } else {
        nb::gil_scoped_release release;
        apply(host, s, matrix_view<const T>(in.ptr<const T>(), rows, cols),
              matrix_view<T>(out.ptr<T>(), rows, cols));
      }
    }
  });
  return out.obj;
}

}  // namespace

void bind_ndimage(nb::module_& m) {
  // `name` is the SciPy function the call serves (gaussian_filter, sobel,
  // ...): every message names it.
  m.def(
      "_filter2d",
      [](const std::string& name, nb::object input, std::vector<double> weights, std::size_t krows,
         std::size_t kcols, int mode, bool flip, nb::object output, nb::object stream) {
        filter_spec s;
        s.flip = flip;
        s.mode = border_of(name.c_str(), mode);
        s.weights = filter(krows, kcols, std::move(weights));
        return filter_call(name.c_str(), input, s, output, stream);
      },
      nb::arg("name"), nb::arg("input"), nb::arg("weights"), nb::arg("krows"), nb::arg("kcols"),
      nb::arg("mode"), nb::arg("flip"), nb::arg("output").none(), nb::arg("stream").none(),
      "A 2-D correlation (flip: convolution) with krows x kcols weights (use gpuprim.ndimage).");
  m.def(
      "_filter2d_separable",
      [](const std::string& name, nb::object input, std::vector<double> row,
         std::vector<double> column, int mode, bool flip, nb::object output, nb::object stream) {
        filter_spec s;
        s.separable = true;
        s.flip = flip;
        s.mode = border_of(name.c_str(), mode);
        s.row = std::move(row);
        s.column = std::move(column);
        return filter_call(name.c_str(), input, s, output, stream);
      },
      nb::arg("name"), nb::arg("input"), nb::arg("row"), nb::arg("column"), nb::arg("mode"),
      nb::arg("flip"), nb::arg("output").none(), nb::arg("stream").none(),
      "A separable 2-D correlation: `row` along each row, `column` along each column "
      "(use gpuprim.ndimage).");
}

}  // namespace gpuprim::python
