// scipy.ndimage's filters on the library's convolution family. Arrays of
// any real dtype and number of axes, host or GPU, go through the N-D
// filters (convolve_nd.hpp: correlate1d, uniform_filter1d, correlate_nd,
// SciPy's arithmetic and output casts, the same bits on both backends);
// 2-D float images through the 2-D general and separable kernels
// (convolve.hpp), for the GPU arrays that have no N-D path in the package
// (ndimage.py says which).
// python/gpuprim/ndimage.py turns the named filters (gaussian_filter,
// uniform_filter, sobel, laplace, ...) and SciPy's arguments (mode names,
// cval, truncate, axes, origin, output, ...) into these calls.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "bind.hpp"
#include "gpuprim/convolve.hpp"
#include "gpuprim/convolve_nd.hpp"

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

// One pass of the N-D filters: input and output are arrays of one shape in
// one place (the output of any real dtype, made by the caller).
enum class nd_kind { correlate1d, uniform1d, correlate };

std::vector<std::size_t> nd_shape(const array& a) {
  std::vector<std::size_t> s(static_cast<std::size_t>(a.ndim));
  for (int i = 0; i < a.ndim; ++i)
    s[static_cast<std::size_t>(i)] = static_cast<std::size_t>(a.shape[i]);
  return s;
}

void check_nd_dtype(const char* fn, const array& a, const char* what) {
  if (a.type == dtype::float16) {
    // SciPy's own answer for float16 arrays.
    nb::raise("%s: %s array type dtype('float16') not supported", fn, what);
  }
}

// One filter call on views of either backend.
template <class Backend, class In, class Out>
void run_nd(Backend b, nd_kind kind, const In& vin, const Out& vout,
            const std::vector<double>& weights, const std::vector<std::size_t>& wshape,
            std::size_t axis, std::size_t size, border mode, double cval,
            const std::vector<long long>& origins) {
  const long long origin = origins.empty() ? 0 : origins[0];
  if (kind == nd_kind::correlate1d) {
    correlate1d(b, vin, std::span<const double>(weights), axis, vout, mode, cval, origin);
  } else if (kind == nd_kind::uniform1d) {
    uniform_filter1d(b, vin, size, axis, vout, mode, cval, origin);
  } else {
    nd_view<const double> w(weights.data(), wshape);
    correlate_nd(b, vin, w, vout, mode, cval, std::span<const long long>(origins));
  }
}

nb::object filter_nd(const char* fn, nd_kind kind, nb::handle input_obj, nb::handle output_obj,
                     const std::vector<double>& weights, const std::vector<std::size_t>& wshape,
                     std::size_t axis, std::size_t size, int mode, double cval,
                     const std::vector<long long>& origins, nb::handle stream) {
  const std::string f(fn);
  array in = import_array(input_obj, f + ": input");
  array out = import_array(output_obj, f + ": output", true);
  check_nd_dtype(fn, in, "input");
  check_nd_dtype(fn, out, "output");
  if (in.ndim != out.ndim || in.shape_vector() != out.shape_vector()) {
    value_error(f + ": output must have the input's shape");
  }
  const border b = border_of(fn, mode);
  const context ctx = make_context(fn, {&in, &out}, stream);
  // bool arrays as their bytes (stored_t): SciPy reads and writes npy_bool,
  // an unsigned char, so a pass may leave a 2 there that the next reads.
  visit_dtype(in.type, [&]<class VI>(type_tag<VI>) {
    visit_dtype(out.type, [&]<class VO>(type_tag<VO>) {
      using TI = stored_t<VI>;
      using TO = stored_t<VO>;
      try {
        if (ctx.on_device) {
          device_guard guard(ctx);
          nb::gil_scoped_release release;
          run_nd(cuda.on(ctx.stream), kind,
                 device_nd_view<const TI>(in.ptr<const TI>(), nd_shape(in)),
                 device_nd_view<TO>(out.ptr<TO>(), nd_shape(out)), weights, wshape, axis, size, b,
                 cval, origins);
        } else {
          nb::gil_scoped_release release;
          run_nd(host, kind, nd_view<const TI>(in.ptr<const TI>(), nd_shape(in)),
                 nd_view<TO>(out.ptr<TO>(), nd_shape(out)), weights, wshape, axis, size, b, cval,
                 origins);
        }
      } catch (const std::invalid_argument& e) {
        value_error(e.what());
      }
    });
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
  m.def(
      "_filter_nd",
      [](const std::string& name, const std::string& kind, nb::object input, nb::object output,
         std::vector<double> weights, std::vector<std::size_t> wshape, std::size_t axis,
         std::size_t size, int mode, double cval, std::vector<long long> origins,
         nb::object stream) {
        const nd_kind k = kind == "correlate1d" ? nd_kind::correlate1d
                          : kind == "uniform1d" ? nd_kind::uniform1d
                          : kind == "correlate"
                              ? nd_kind::correlate
                              : (value_error("unknown filter " + kind), nd_kind{});
        return filter_nd(name.c_str(), k, input, output, weights, wshape, axis, size, mode, cval,
                         origins, stream);
      },
      nb::arg("name"), nb::arg("kind"), nb::arg("input"), nb::arg("output"), nb::arg("weights"),
      nb::arg("wshape"), nb::arg("axis"), nb::arg("size"), nb::arg("mode"), nb::arg("cval"),
      nb::arg("origins"), nb::arg("stream").none() = nb::none(),
      "One pass of the N-D filters (kind 'correlate1d', 'uniform1d' or 'correlate') from input "
      "into output, host or GPU arrays (on the GPU asynchronously on `stream`, default the "
      "framework's current one), SciPy's arithmetic (use gpuprim.ndimage).");
}

}  // namespace gpuprim::python
