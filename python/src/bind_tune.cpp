// info(): what the package runs on; tune(): the autotuner of `gpuprim tune`
// for one algorithm, type and size, optionally storing the winner in the
// per-device cache that later calls read.
#include <omp.h>

#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include <nanobind/stl/string.h>

#include "arrays.hpp"
#include "bind.hpp"
#include "gpuprim/core/device_info.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/host/gemm.hpp"
#include "gpuprim/tune/cache.hpp"
#include "gpuprim/tune/tuner.hpp"

namespace gpuprim::python {

namespace {

nb::dict info() {
  nb::dict d;
  d["version"] = GPUPRIM_VERSION;
  d["cuda_built"] = cuda_built();
  d["cpu_threads"] = omp_get_max_threads();
  const char* wait = std::getenv("OMP_WAIT_POLICY");
  d["omp_wait_policy"] = std::string(wait ? wait : "default");
  // The host matmul's path: "OpenBLAS <version> (...)" or "own loop".
  const char* blas = detail::host_blas_name();
  d["host_gemm"] = blas[0] ? std::string(blas) : std::string("own loop");
  nb::list devices;
  const int count = cuda_device_count();
  for (int i = 0; i < count; ++i) {
    const device_info g = get_device_info(i);
    nb::dict e;
    e["ordinal"] = g.ordinal;
    e["name"] = g.name;
    e["compute_capability"] =
        nb::make_tuple(g.compute_capability_major, g.compute_capability_minor);
    e["multiprocessors"] = g.multiprocessor_count;
    e["memory_bytes"] = g.global_memory_bytes;
    e["l2_cache_bytes"] = g.l2_cache_bytes;
    e["theoretical_bandwidth_gbs"] = g.theoretical_bandwidth_gbs;
    devices.append(e);
  }
  d["devices"] = devices;
  return d;
}

nb::dict tune(const std::string& algorithm, const std::string& type, std::uint64_t n, bool store,
              std::size_t max_trials) {
  namespace tn = tuning;
  if (!tn::tuning_available()) {
    throw nb::value_error(
        "tune: tuning needs the CUDA backend and a CUDA device (this package or machine has none)");
  }
  if (!tn::find_space(algorithm)) {
    std::string names;
    for (const tn::space& s : tn::spaces())
      names += (names.empty() ? "" : ", ") + s.name;
    throw nb::value_error(
        ("tune: unknown algorithm '" + algorithm + "' (one of: " + names + ")").c_str());
  }
  if (n == 0) throw nb::value_error("tune: n must be at least 1");
  tn::tune_options options;
  options.search.max_trials = max_trials;
  tn::tune_result r;
  {
    nb::gil_scoped_release release;
    try {
      r = gpuprim::tune(algorithm, type, n, options);
    } catch (const std::invalid_argument& e) {
      nb::gil_scoped_acquire acquire;
      throw nb::value_error((std::string("tune: ") + e.what()).c_str());
    }
  }
  nb::dict d;
  d["algorithm"] = r.algorithm->name;
  d["type"] = std::string(tn::element_type_name(r.type));
  d["n"] = r.n;
  d["exhaustive"] = r.exhaustive;
  nb::list rows;
  for (const tn::candidate_row& row : r.rows) {
    nb::dict e;
    e["config"] = r.algorithm->describe(row.candidate);
    e["median_us"] = row.time.median_us;
    e["spread_us"] = row.time.spread_us;
    e["ok"] = row.time.ok;
    e["gbs"] = row.gbs;
    rows.append(e);
  }
  d["candidates"] = rows;
  d["default"] = r.algorithm->describe(r.rows[0].candidate);
  d["winner"] = r.algorithm->describe(r.rows[r.winner].candidate);
  d["gain"] = r.gain();
  d["stored_in"] = nb::none();
  if (store) {
    const tn::device_key device = tn::current_device_key();
    const auto path = tn::cache_path(device);
    if (path) {
      const int log2_size = static_cast<int>(std::lround(std::log2(static_cast<double>(n))));
      {
        // File work (a lock, a write, an fsync): other threads run meanwhile.
        nb::gil_scoped_release release;
        tn::store_cache(*path, device,
                        {{r.algorithm->id, r.type, log2_size, r.rows[r.winner].candidate,
                          r.rows[r.winner].time.median_us, r.rows[0].time.median_us}});
      }
      d["stored_in"] = path->string();
    }
  }
  return d;
}

}  // namespace

void bind_tune(nb::module_& m) {
  m.def("info", &info,
        "What gpuprim runs on: version, whether the CUDA backend is built, the CPU threads and "
        "the CUDA devices (name, compute capability, memory, ...).");
  m.def("tune", &tune, nb::arg("algorithm"), nb::arg("type") = "float32",
        nb::arg("n") = std::uint64_t{1} << 24, nb::kw_only(), nb::arg("store") = false,
        nb::arg("max_trials") = std::size_t{64},
        "Measures an algorithm's launch configurations on the current GPU for one element type "
        "('float32', 'uint32', ...: NumPy's dtype names) and size, as `gpuprim tune` does; returns "
        "the candidates' times and "
        "the winner (max_trials bounds the candidates measured). store=True writes the winner to "
        "the per-device tuning cache, which later "
        "calls (in any process) use. Needs a CUDA device.");
}

}  // namespace gpuprim::python
