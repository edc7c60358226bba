// The reductions (sum, min, max, argmin, argmax and their nan- forms) as
// one typed entry, _reduce(op, x, rows, stream): over all elements, or with
// rows=True along the last axis (the array seen as rows x cols). NumPy's
// argument rules (axis, keepdims, names) are in python/gpuprim/_reduction.py.
#include <cmath>
#include <span>
#include <string>

#include "arrays.hpp"
#include "bind.hpp"
#include "gpu.hpp"
#include "gpuprim/io/npy.hpp"
#include "gpuprim/reduce.hpp"

namespace gpuprim::python {

namespace {

using gpu::reduce_op;

const char* op_name(reduce_op op) {
  // In the order of the enum.
  constexpr const char* names[] = {"sum",    "nansum", "min",    "max",       "nanmin",
                                   "nanmax", "argmin", "argmax", "nanargmin", "nanargmax"};
  return names[static_cast<int>(op)];
}

bool is_sum(reduce_op op) {
  return op == reduce_op::sum || op == reduce_op::nansum;
}
bool is_arg(reduce_op op) {
  return op == reduce_op::argmin || op == reduce_op::argmax || op == reduce_op::nanargmin ||
         op == reduce_op::nanargmax;
}

dtype result_type(reduce_op op, dtype in) {
  if (is_sum(op)) return sum_type(in);
  if (is_arg(op)) return dtype::int64;
  return in;
}

// The wider type a host sum accumulates in (double for floats, as exact
// as it is cheap on the CPU; NumPy sums float32 pairwise in float32).
template <class In>
using host_accumulator =
    std::conditional_t<std::is_floating_point_v<In>, double, io::numpy_integer_sum_t<In>>;

// One row on the host; returns false for an all-NaN row of nanargmin /
// nanargmax (NumPy raises for it).
template <class In>
bool host_reduce_row(host_backend b, reduce_op op, std::span<const In> r, void* out) {
  using Acc = host_accumulator<In>;
  switch (op) {
    case reduce_op::sum:
    case reduce_op::nansum: {
      Acc s;
      if constexpr (std::is_floating_point_v<In>) {
        s = op == reduce_op::nansum ? transform_reduce(b, r, Acc{0}, plus{}, nan_to_zero{})
                                    : reduce(b, r, Acc{0}, plus{});
        *static_cast<In*>(out) = static_cast<In>(s);
      } else {
        s = reduce(b, r, Acc{0}, plus{});
        *static_cast<Acc*>(out) = s;
      }
      return true;
    }
    case reduce_op::min:
      *static_cast<In*>(out) = reduce(b, r, r[0], minimum{});
      return true;
    case reduce_op::max:
      *static_cast<In*>(out) = reduce(b, r, r[0], maximum{});
      return true;
    case reduce_op::nanmin:
      *static_cast<In*>(out) = reduce(b, r, r[0], minimum_number{});
      return true;
    case reduce_op::nanmax:
      *static_cast<In*>(out) = reduce(b, r, r[0], maximum_number{});
      return true;
    default: {
      const bool skip = op == reduce_op::nanargmin || op == reduce_op::nanargmax;
      const nan_rule rule = skip ? nan_rule::skip : nan_rule::propagate;
      const bool is_min = op == reduce_op::argmin || op == reduce_op::nanargmin;
      const auto best = is_min ? min_element(b, r, rule) : max_element(b, r, rule);
      *static_cast<std::int64_t*>(out) = static_cast<std::int64_t>(best.index);
      return !(skip && detail::is_nan(best.value));
    }
  }
}

void host_reduce(reduce_op op, const array& x, std::size_t rows, std::size_t cols, void* out,
                 std::size_t out_size) {
  visit_dtype(x.type, [&]<class T>(type_tag<T>) {
    const T* p = x.ptr<const T>();
    bool all_nan = false;
    if (rows == 1) {
      all_nan = !host_reduce_row(host, op, std::span<const T>(p, cols), out);
    } else {
      char* o = static_cast<char*>(out);
#pragma omp parallel for schedule(static) reduction(|| : all_nan)
      for (std::int64_t i = 0; i < static_cast<std::int64_t>(rows); ++i) {
        const std::size_t row = static_cast<std::size_t>(i);
        all_nan = !host_reduce_row(host.threads(1), op, std::span<const T>(p + row * cols, cols),
                                   o + row * out_size) ||
                  all_nan;
      }
    }
    if (all_nan) {
      throw nb::value_error((std::string(op_name(op)) + ": All-NaN slice encountered").c_str());
    }
  });
}

nb::object reduce_call(reduce_op op, nb::handle x_obj, bool rows_form, nb::handle stream) {
  const char* fn = op_name(op);
  array x = import_array(x_obj, std::string(fn) + ": x");
  if (x.type == dtype::float16) unsupported_dtype(fn, x, "float16 is not taken");
  if (rows_form && x.ndim < 2) value_error(std::string(fn) + ": rows need a 2-D or larger array");
  std::size_t num_rows = 1;
  std::size_t cols = x.size();
  if (rows_form) {
    cols = static_cast<std::size_t>(x.shape[x.ndim - 1]);
    for (int i = 0; i < x.ndim - 1; ++i)
      num_rows *= static_cast<std::size_t>(x.shape[i]);
  }
  if (!is_sum(op) && cols == 0 && num_rows > 0) {
    if (is_arg(op)) {
      throw nb::value_error(
          (std::string(fn) + ": attempt to get " + fn + " of an empty sequence").c_str());
    }
    throw nb::value_error((std::string(fn) + ": zero-size array to reduction operation " + fn +
                           " which has no identity")
                              .c_str());
  }
  const dtype rt = result_type(op, x.type);
  const context ctx = make_context(fn, {&x}, stream);
  std::vector<std::int64_t> out_shape;
  if (rows_form) out_shape.assign(x.shape.begin(), x.shape.begin() + x.ndim - 1);

  if (!ctx.on_device && ctx.kind == framework::numpy && !rows_form) {
    alignas(8) unsigned char value[8];
    {
      nb::gil_scoped_release release;
      host_reduce(op, x, 1, cols, value, dtype_size(rt));
    }
    return numpy_scalar(rt, value);
  }
  array out = empty_array(ctx, out_shape, rt);
  if (num_rows == 0) return result_object(ctx, out);
  if (ctx.on_device) {
    device_guard guard(ctx);
    nb::gil_scoped_release release;
    gpu::reduce(op, x.type, x.data, num_rows, cols, out.data, ctx.stream);
  } else {
    nb::gil_scoped_release release;
    host_reduce(op, x, num_rows, cols, out.data, dtype_size(rt));
  }
  return result_object(ctx, out);
}

}  // namespace

dtype sum_type(dtype in) {
  if (in == dtype::bool8 || is_signed_integer(in)) return dtype::int64;
  if (is_unsigned_integer(in)) return dtype::uint64;
  return in;
}

void bind_reduce(nb::module_& m) {
  nb::enum_<reduce_op>(m, "reduce_op")
      .value("sum", reduce_op::sum)
      .value("nansum", reduce_op::nansum)
      .value("min", reduce_op::min)
      .value("max", reduce_op::max)
      .value("nanmin", reduce_op::nanmin)
      .value("nanmax", reduce_op::nanmax)
      .value("argmin", reduce_op::argmin)
      .value("argmax", reduce_op::argmax)
      .value("nanargmin", reduce_op::nanargmin)
      .value("nanargmax", reduce_op::nanargmax);
  m.def("_reduce", &reduce_call, nb::arg("op"), nb::arg("x"), nb::arg("rows"),
        nb::arg("stream").none(),
        "op over all elements of x (rows=False: a NumPy scalar for NumPy input, a 0-d array of "
        "x's kind for GPU input) or along its last axis (rows=True). Use gpuprim.sum etc.");
}

}  // namespace gpuprim::python
