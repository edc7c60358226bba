// The binding functions of each family (one bind_<family>.cpp each), called
// by module.cpp, and small helpers they share. The bindings take typed
// arguments; NumPy's argument rules are in python/gpuprim/*.py.
#pragma once

#include <nanobind/nanobind.h>

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
void bind_order(nb::module_& m);
void bind_memory(nb::module_& m);

// NumPy's sum / cumsum result type: bool and signed integers -> int64,
// unsigned -> uint64, floats as they are.
dtype sum_type(dtype in);

}  // namespace gpuprim::python
