// The scans as typed entries: _scan (cumsum, cummax, cummin, exclusive_scan:
// python/gpuprim/_scan.py holds their NumPy argument rules) and
// segmented_sum, segmented_cumsum.
#include <cstring>
#include <deque>
#include <span>
#include <string>
#include <vector>

#include <nanobind/stl/string.h>

#include "arrays.hpp"
#include "bind.hpp"
#include "gpu.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/scan.hpp"
#include "gpuprim/segmented.hpp"

namespace gpuprim::python {

namespace {

using gpu::scan_op;

void check_scan_dtype(const char* fn, const array& x) {
  if (x.type == dtype::float16) unsupported_dtype(fn, x, "float16 is not taken");
}

void host_scan(scan_op op, bool exclusive, const array& x, dtype acc, void* out, const void* init) {
  visit_pair(x.type, acc, [&]<class In, class T>(type_tag<In>, type_tag<T>) {
    const std::span<const In> in(x.ptr<const In>(), x.size());
    const std::span<T> o(static_cast<T*>(out), x.size());
    T start{};
    if (init) std::memcpy(&start, init, sizeof(T));
    const auto run = [&](auto f) {
      if (exclusive) {
        exclusive_scan(host, in, o, start, f);
      } else {
        inclusive_scan(host, in, o, f);
      }
    };
    gpu::visit_scan_op<T>(op, run);
  });
}

// The start of an exclusive scan in the result dtype: `init` converted as
// NumPy would assign it (a float for an integer scan is a TypeError), or
// with init None the operator's identity (gp::identity_of, as the C++
// exclusive_scan without init and the CLI's --exclusive).
void exclusive_start(const char* fn, scan_op op, dtype acc, nb::handle init_obj,
                     unsigned char* init) {
  visit_dtype(acc, [&]<class T>(type_tag<T>) {
    T v{};
    if (init_obj.is_none()) {
      gpu::visit_scan_op<T>(op, [&](auto o) { v = identity_of<T>(o); });
    } else {
      try {
        if constexpr (std::is_same_v<T, bool>) {
          v = nb::cast<bool>(init_obj);
        } else if constexpr (std::is_floating_point_v<T>) {
          v = static_cast<T>(nb::cast<double>(init_obj));
        } else {
          if (!PyLong_Check(init_obj.ptr()) && !PyIndex_Check(init_obj.ptr())) {
            type_error(std::string(fn) + ": init must be an integer for an integer scan");
          }
          v = nb::cast<T>(init_obj);
        }
      } catch (const nb::cast_error&) {
        type_error(std::string(fn) + ": init is not a number of the result's dtype " +
                   dtype_name(acc));
      }
    }
    std::memcpy(init, &v, sizeof(T));
  });
}

// rows: each row along the last axis (sums only; the result has x's
// shape), else the flattened array (1-D result).
nb::object scan_call(const char* fn, scan_op op, bool exclusive, nb::handle x_obj, bool rows_form,
                     nb::handle init_obj, nb::handle stream) {
  array x = import_array(x_obj, std::string(fn) + ": x");
  check_scan_dtype(fn, x);
  if (rows_form && (op != scan_op::sum || exclusive || x.ndim < 2)) {
    value_error(std::string(fn) + ": rows are scanned for inclusive sums of 2-D or larger arrays");
  }
  const dtype acc = op == scan_op::sum ? sum_type(x.type) : x.type;
  alignas(8) unsigned char init[8] = {};
  if (exclusive) exclusive_start(fn, op, acc, init_obj, init);
  const context ctx = make_context(fn, {&x}, stream);
  std::vector<std::int64_t> shape =
      rows_form ? x.shape_vector() : std::vector<std::int64_t>{std::int64_t(x.size())};
  array out = empty_array(ctx, shape, acc);
  const std::size_t n = x.size();
  if (n == 0) return result_object(ctx, out);
  if (rows_form) {
    const std::size_t cols = static_cast<std::size_t>(x.shape[x.ndim - 1]);
    const std::size_t rows = n / cols;
    if (ctx.on_device) {
      device_guard guard(ctx);
      nb::gil_scoped_release release;
      const detail::scratch_buffer offsets((rows + 1) * sizeof(std::int64_t), ctx.stream);
      gpu::fill_offsets(offsets.get<std::int64_t>(), rows + 1, static_cast<std::int64_t>(cols),
                        ctx.stream);
      gpu::segmented_cumsum(x.type, acc, x.data, n, offsets.get<const std::int64_t>(), rows + 1,
                            out.data, ctx.stream);
    } else {
      nb::gil_scoped_release release;
      std::vector<std::int64_t> offsets(rows + 1);
      for (std::size_t r = 0; r <= rows; ++r)
        offsets[r] = static_cast<std::int64_t>(r * cols);
      visit_pair(x.type, acc, [&]<class In, class T>(type_tag<In>, type_tag<T>) {
        inclusive_segmented_scan(host, std::span<const In>(x.ptr<const In>(), n), offsets,
                                 std::span<T>(static_cast<T*>(out.data), n));
      });
    }
    return result_object(ctx, out);
  }
  if (ctx.on_device) {
    device_guard guard(ctx);
    nb::gil_scoped_release release;
    gpu::scan(op, exclusive, x.type, acc, x.data, out.data, n, exclusive ? init : nullptr,
              ctx.stream);
  } else {
    nb::gil_scoped_release release;
    host_scan(op, exclusive, x, acc, out.data, exclusive ? init : nullptr);
  }
  return result_object(ctx, out);
}

// Offsets: a 1-D integer array on the data's side; on the host any integer
// dtype (read as int64), on the GPU int64.
std::vector<std::int64_t> host_offsets(const char* fn, const array& o) {
  std::vector<std::int64_t> v(o.size());
  visit_dtype(o.type, [&]<class T>(type_tag<T>) {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      const T* p = o.ptr<const T>();
      for (std::size_t i = 0; i < v.size(); ++i) {
        if constexpr (std::is_unsigned_v<T>) {
          if (p[i] > static_cast<T>(INT64_MAX)) {
            value_error(std::string(fn) + ": offsets[" + std::to_string(i) + "] is too large");
          }
        }
        v[i] = static_cast<std::int64_t>(p[i]);
      }
    } else {
      type_error(std::string(fn) + ": offsets must be an integer array, not " + dtype_name(o.type));
    }
  });
  return v;
}

void check_offsets(const char* fn, const std::vector<std::int64_t>& o, std::size_t n,
                   bool partition) {
  if (o.empty())
    value_error(std::string(fn) + ": offsets is empty (it needs num_segments + 1 entries)");
  if (o[0] < 0) value_error(std::string(fn) + ": offsets[0] is negative");
  for (std::size_t i = 1; i < o.size(); ++i) {
    if (o[i] < o[i - 1]) {
      value_error(std::string(fn) + ": offsets[" + std::to_string(i) +
                  "] is smaller than the offset before it");
    }
  }
  if (static_cast<std::uint64_t>(o.back()) > n) {
    value_error(std::string(fn) + ": offsets end at " + std::to_string(o.back()) + ", past the " +
                std::to_string(n) + " values");
  }
  if (partition && (o[0] != 0 || static_cast<std::uint64_t>(o.back()) != n)) {
    value_error(std::string(fn) + ": offsets must start at 0 and end at the size of x (" +
                std::to_string(n) + ")");
  }
}

nb::object segmented_call(const char* fn, bool cumulative, nb::handle x_obj, nb::handle o_obj,
                          bool check, nb::handle stream) {
  array x = import_array(x_obj, std::string(fn) + ": x");
  array o = import_array(o_obj, std::string(fn) + ": offsets");
  check_scan_dtype(fn, x);
  if (x.ndim != 1) value_error(std::string(fn) + ": x must be 1-D");
  if (o.ndim != 1) value_error(std::string(fn) + ": offsets must be 1-D");
  if (o.size() == 0) {
    value_error(std::string(fn) + ": offsets is empty (it needs num_segments + 1 entries)");
  }
  const dtype acc = sum_type(x.type);
  const context ctx = make_context(fn, {&x, &o}, stream);
  const std::size_t n = x.size();
  const std::size_t segments = o.size() - 1;
  if (ctx.on_device) {
    if (o.type != dtype::int64) {
      type_error(std::string(fn) + ": offsets on the GPU must be int64, not " + dtype_name(o.type));
    }
    if (check) {
      refuse_capture(ctx, fn,
                     "it copies the offsets to the host to check them (one wait); pass "
                     "check=False to capture it");
      // One small copy and a wait: the GPU kernels trust the offsets.
      std::vector<std::int64_t> host_copy(o.size());
      {
        device_guard guard(ctx);
        nb::gil_scoped_release release;
        detail::copy_to_host(host_copy.data(), o.data, o.bytes(), ctx.stream);
        synchronize(ctx.stream);
      }
      check_offsets(fn, host_copy, n, cumulative);
    }
    array out = empty_array(ctx, {std::int64_t(cumulative ? n : segments)}, acc);
    {
      device_guard guard(ctx);
      nb::gil_scoped_release release;
      if (cumulative) {
        if (n) {
          gpu::segmented_cumsum(x.type, acc, x.data, n, o.ptr<const std::int64_t>(), o.size(),
                                out.data, ctx.stream);
        }
      } else {
        gpu::segmented_sum(x.type, acc, x.data, n, o.ptr<const std::int64_t>(), segments, out.data,
                           ctx.stream);
      }
    }
    return result_object(ctx, out);
  }
  const std::vector<std::int64_t> offsets = host_offsets(fn, o);
  check_offsets(fn, offsets, n, cumulative);
  array out = empty_array(ctx, {std::int64_t(cumulative ? n : segments)}, acc);
  {
    nb::gil_scoped_release release;
    visit_pair(x.type, acc, [&]<class In, class T>(type_tag<In>, type_tag<T>) {
      const std::span<const In> v(x.ptr<const In>(), n);
      if (cumulative) {
        if (n) inclusive_segmented_scan(host, v, offsets, std::span<T>(out.ptr<T>(), n));
      } else {
        segmented_reduce(host, v, offsets, std::span<T>(out.ptr<T>(), segments), T{0}, plus{});
      }
    });
  }
  return result_object(ctx, out);
}

}  // namespace

void bind_scan(nb::module_& m) {
  nb::enum_<scan_op>(m, "scan_op")
      .value("sum", scan_op::sum)
      .value("min", scan_op::min)
      .value("max", scan_op::max)
      .value("nanmin", scan_op::nanmin)
      .value("nanmax", scan_op::nanmax);
  m.def(
      "_scan",
      [](const std::string& name, scan_op op, nb::object x, bool rows, bool exclusive,
         nb::object init, nb::object stream) {
        return scan_call(name.c_str(), op, exclusive, x, rows, init, stream);
      },
      nb::arg("name"), nb::arg("op"), nb::arg("x"), nb::arg("rows"), nb::arg("exclusive"),
      nb::arg("init").none(), nb::arg("stream").none(),
      "The inclusive (or exclusive, from init; None: op's identity) scan of the flattened x, "
      "or with rows=True the inclusive sums of each row; `name` names the caller in errors. "
      "Use gpuprim.cumsum etc.");
  // Per segment: the sums, or the running sums restarted at every segment.
  m.def(
      "_segmented",
      [](const std::string& name, bool cumulative, nb::object x, nb::object offsets, bool check,
         nb::object stream) {
        return segmented_call(name.c_str(), cumulative, x, offsets, check, stream);
      },
      nb::arg("name"), nb::arg("cumulative"), nb::arg("x"), nb::arg("offsets"), nb::arg("check"),
      nb::arg("stream").none(),
      "Segment sums (cumulative: running sums restarted at every segment). Use "
      "gpuprim.segmented_sum / segmented_cumsum.");
}

}  // namespace gpuprim::python
