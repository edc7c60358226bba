// The binding functions of each family (one bind_<family>.cpp each), called
// by module.cpp, and small helpers they share.
#pragma once

#include <nanobind/nanobind.h>

#include <initializer_list>

#include "arrays.hpp"

namespace gpuprim::python {

void bind_reduce(nb::module_& m);
void bind_scan(nb::module_& m);
void bind_sort(nb::module_& m);
void bind_histogram(nb::module_& m);
void bind_dense(nb::module_& m);
void bind_tune(nb::module_& m);
void bind_ndimage(nb::module_& m);
void bind_sparse(nb::module_& m);
void bind_spatial(nb::module_& m);
void bind_select(nb::module_& m);

// NumPy's sum / cumsum result type: bool and signed integers -> int64,
// unsigned -> uint64, floats as they are.
dtype sum_type(dtype in);

// One function of a group bound alike (cumsum, cummax, cummin): its Python
// name, what sets it apart within the group (an op, a flag) and its
// docstring.
template <class Variant>
struct bound_variant {
  const char* name;
  Variant variant;
  const char* doc;
};

// Binds each function of `group` alike: make(name, variant) is the function
// object bound under that name, with the arguments `extra` (nb::arg, ...)
// and its own docstring.
template <class Variant, class Make, class... Extra>
void def_group(nb::module_& m, std::initializer_list<bound_variant<Variant>> group, Make make,
               const Extra&... extra) {
  for (const bound_variant<Variant>& f : group)
    m.def(f.name, make(f.name, f.variant), extra..., f.doc);
}

}  // namespace gpuprim::python
