// The extension module gpuprim._core: every family's bindings, and what the
// package says about itself (version, backends).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include "arrays.hpp"
#include "bind.hpp"
#include "gpuprim/core/runtime.hpp"

namespace nb = nanobind;
namespace gpy = gpuprim::python;

NB_MODULE(_core, m) {
  m.doc() = "gpuprim's compiled core; use the gpuprim package.";
  m.attr("__version__") = GPUPRIM_VERSION;
  m.attr("cuda_built") = gpy::cuda_built();
  m.def(
      "cuda_available", [] { return gpuprim::cuda_device_count() > 0; },
      "True when the package has the CUDA backend and a CUDA device is present.");
  m.def(
      "_refuse_masked", [](nb::handle x, const std::string& what) { gpy::refuse_masked(x, what); },
      nb::arg("x"), nb::arg("what"),
      "Raises TypeError if x is a numpy.ma.MaskedArray (the check every array argument passes).");
  gpy::bind_memory(m);
  gpy::bind_reduce(m);
  gpy::bind_scan(m);
  gpy::bind_sort(m);
  gpy::bind_histogram(m);
  gpy::bind_dense(m);
  gpy::bind_tune(m);
  gpy::bind_ndimage(m);
  gpy::bind_sparse(m);
  gpy::bind_spatial(m);
  gpy::bind_select(m);
  gpy::bind_order(m);
}
