// sort, argsort, sort_by_key as typed entries (_sort, _sort_by_key): the
// library's radix sort (stable; NaN last in both directions) and, for the
// rows of an array, its batched sorts. python/gpuprim/_sort.py holds
// NumPy's argument rules (axis, kind, order).
#include <algorithm>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include <nanobind/stl/string.h>

#include "arrays.hpp"
#include "bind.hpp"
#include "gpu.hpp"
#include "gpuprim/sort.hpp"

namespace gpuprim::python {

namespace {

sort_order order_of(bool descending) {
  return descending ? sort_order::descending : sort_order::ascending;
}

// Rows of `cols` keys sorted on the host, or with `indices` each key's
// position within its row (the library's batched argsort, stable).
template <class K>
void host_sort_rows(const K* in, K* out, std::int64_t* indices, std::size_t rows, std::size_t cols,
                    bool descending) {
  const std::size_t n = rows * cols;
  const sort_order order = order_of(descending);
  if (!indices) {
    if (rows == 1) {
      sort(host, std::span<const K>(in, n), std::span<K>(out, n), order);
    } else {
      std::memcpy(out, in, n * sizeof(K));
      if (descending) {
        sort_batched(host, std::span<K>(out, n), cols, sort_greater{});
      } else {
        sort_batched(host, std::span<K>(out, n), cols, sort_less{});
      }
    }
    return;
  }
  argsort_batched(host, std::span<const K>(in, n), cols, std::span<std::int64_t>(indices, n),
                  order);
}

// sort / argsort: along the last axis (rows), or of the flattened array.
nb::object sort_call(const char* fn, bool want_indices, nb::handle x_obj, bool rows_form,
                     bool descending, nb::handle stream) {
  array x = import_array(x_obj, std::string(fn) + ": x");
  if (x.type == dtype::float16) unsupported_dtype(fn, x, "float16 is not taken");
  std::vector<std::int64_t> shape;
  std::size_t cols;
  if (!rows_form || x.ndim == 0) {
    shape = {std::int64_t(x.size())};
    cols = x.size();
  } else {
    shape = x.shape_vector();
    cols = static_cast<std::size_t>(x.shape[x.ndim - 1]);
  }
  const std::size_t n = x.size();
  const std::size_t rows = cols ? n / cols : 0;
  const context ctx = make_context(fn, {&x}, stream);
  array out = empty_array(ctx, shape, want_indices ? dtype::int64 : x.type);
  if (n == 0) return result_object(ctx, out);
  void* keys_out = want_indices ? nullptr : out.data;
  std::int64_t* indices = want_indices ? out.ptr<std::int64_t>() : nullptr;
  if (ctx.on_device) {
    device_guard guard(ctx);
    nb::gil_scoped_release release;
    gpu::sort(x.type, x.data, keys_out, indices, rows, cols, descending, ctx.stream);
  } else {
    nb::gil_scoped_release release;
    visit_dtype(x.type, [&]<class T>(type_tag<T>) {
      using K = stored_t<T>;
      host_sort_rows<K>(x.ptr<const K>(), static_cast<K*>(keys_out), indices, rows, cols,
                        descending);
    });
  }
  return result_object(ctx, out);
}

nb::object sort_by_key_call(nb::handle k_obj, nb::handle v_obj, bool descending,
                            nb::handle stream) {
  const char* fn = "sort_by_key";
  array k = import_array(k_obj, "sort_by_key: keys");
  array v = import_array(v_obj, "sort_by_key: values");
  if (k.type == dtype::float16) unsupported_dtype(fn, k, "float16 keys are not taken");
  if (k.ndim != 1 || v.ndim != 1) value_error("sort_by_key: keys and values must be 1-D");
  if (k.size() != v.size()) {
    value_error("sort_by_key: " + std::to_string(k.size()) + " keys but " +
                std::to_string(v.size()) + " values");
  }
  const std::size_t vb = dtype_size(v.type);
  if (vb != 4 && vb != 8) {
    throw nb::type_error(("sort_by_key: values of " + std::to_string(vb) + " bytes (" +
                          dtype_name(v.type) + ") are not taken; values are 4- or 8-byte types")
                             .c_str());
  }
  const context ctx = make_context(fn, {&k, &v}, stream);
  const std::vector<std::int64_t> shape{std::int64_t(k.size())};
  array ko = empty_array(ctx, shape, k.type);
  array vo = empty_array(ctx, shape, v.type);
  const std::size_t n = k.size();
  if (n) {
    if (ctx.on_device) {
      device_guard guard(ctx);
      nb::gil_scoped_release release;
      gpu::sort_by_key(k.type, vb, k.data, v.data, ko.data, vo.data, n, descending, ctx.stream);
    } else {
      nb::gil_scoped_release release;
      visit_dtype(k.type, [&]<class T>(type_tag<T>) {
        using K = stored_t<T>;
        const auto run = [&]<class V>(type_tag<V>) {
          sort_by_key(host, std::span<const K>(k.ptr<const K>(), n),
                      std::span<const V>(v.ptr<const V>(), n), std::span<K>(ko.ptr<K>(), n),
                      std::span<V>(vo.ptr<V>(), n), order_of(descending));
        };
        if (vb == 4) {
          run(type_tag<std::uint32_t>{});
        } else {
          run(type_tag<std::uint64_t>{});
        }
      });
    }
  }
  return nb::make_tuple(result_object(ctx, ko), result_object(ctx, vo));
}

}  // namespace

void bind_sort(nb::module_& m) {
  m.def(
      "_sort",
      [](const std::string& name, bool indices, nb::object x, bool rows, bool descending,
         nb::object stream) {
        return sort_call(name.c_str(), indices, x, rows, descending, stream);
      },
      nb::arg("name"), nb::arg("indices"), nb::arg("x"), nb::arg("rows"), nb::arg("descending"),
      nb::arg("stream").none(),
      "A stable sorted copy of x (indices: the int64 positions that sort it) along its last axis "
      "(rows=True) or of the flattened array. Use gpuprim.sort / argsort.");
  m.def(
      "_sort_by_key",
      [](nb::object keys, nb::object values, bool descending, nb::object stream) {
        return sort_by_key_call(keys, values, descending, stream);
      },
      nb::arg("keys"), nb::arg("values"), nb::arg("descending"), nb::arg("stream").none(),
      "(sorted keys, values in the keys' new order). Use gpuprim.sort_by_key.");
}

}  // namespace gpuprim::python
