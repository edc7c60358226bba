// `gpuprim info`: the GPUs and the CPU this program would run on, with their
// measured memory bandwidth (the rooflines the benchmarks are compared to).
#include <omp.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "commands.hpp"
#include "gpuprim/core/device_info.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/host/gemm.hpp"
#include "lab/bench/bench.hpp"
#include "options.hpp"

namespace gpuprim::cli {
namespace {

struct info_options {
  bool no_measure = false;  // --no-measure: only list the hardware
};

std::string format_bytes(std::size_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 4) {
    value /= 1024.0;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, value == static_cast<long long>(value) ? "%.0f %s" : "%.1f %s",
                value, units[unit]);
  return text;
}

// The "model name" line of /proc/cpuinfo (x86), or its "Model" line (some
// Arm kernels); empty when neither is there.
std::string cpu_model_name() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  std::string fallback;
  while (std::getline(cpuinfo, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    key.erase(key.find_last_not_of(" \t") + 1);
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    if (key == "model name") return value;
    if (key == "Model" && fallback.empty()) fallback = value;
  }
  return fallback;
}

void print_device(const device_info& d) {
  std::printf("GPU %d: %s\n", d.ordinal, d.name.c_str());
  std::printf("  compute capability     %d.%d\n", d.compute_capability_major,
              d.compute_capability_minor);
  std::printf("  multiprocessors        %d (%d threads each)\n", d.multiprocessor_count,
              d.max_threads_per_multiprocessor);
  std::printf("  memory                 %s, %d-bit bus at %d MHz\n",
              format_bytes(d.global_memory_bytes).c_str(), d.memory_bus_width_bits,
              d.memory_clock_khz / 1000);
  std::printf("  L2 cache               %s\n", format_bytes(d.l2_cache_bytes).c_str());
  std::printf("  shared memory          %s per block (%s opt-in), %s per multiprocessor\n",
              format_bytes(d.shared_memory_per_block).c_str(),
              format_bytes(d.shared_memory_per_block_optin).c_str(),
              format_bytes(d.shared_memory_per_multiprocessor).c_str());
  std::printf("  theoretical bandwidth  %.0f GB/s\n", d.theoretical_bandwidth_gbs);
}

int run_info(const info_options& opts) {
  const int devices = cuda_device_count();
  std::printf("gpuprim %s, CUDA backend %s\n", GPUPRIM_VERSION,
              GPUPRIM_HAS_CUDA ? "built" : "not built");
  std::printf("CUDA devices: %d\n", devices);
  for (int i = 0; i < devices; ++i)
    print_device(get_device_info(i));
  if (devices > 0 && !opts.no_measure) {
    std::fflush(stdout);
    const double copy = bench::measure_device_copy_bandwidth_gbs();
    std::printf("  measured copy bandwidth %.0f GB/s on GPU %d (device to device, read + write)\n",
                copy, current_device());
  }

  const std::string model = cpu_model_name();
  std::printf("CPU: %s, %u logical CPUs\n", model.empty() ? "unknown model" : model.c_str(),
              std::thread::hardware_concurrency());
  std::printf("  OpenMP threads         %d\n", omp_get_max_threads());
  const char* wait = std::getenv("OMP_WAIT_POLICY");
  std::printf("  OpenMP wait policy     %s\n",
              wait ? wait : "the runtime's default (spins, then sleeps)");
  const char* blas = detail::host_blas_name();
  std::printf("  host gemm              %s\n",
              blas[0] ? blas : "the library's own loop (built without OpenBLAS)");
  if (!opts.no_measure) {
    std::fflush(stdout);
    std::printf("  measured read bandwidth %.1f GB/s (all OpenMP threads)\n",
                bench::measure_host_read_bandwidth_gbs());
  }
  return exit_success;
}

// `gpuprim info --help`: what the command does, then each of its options.
constexpr command_help help(R"(
info: Show the GPUs and the CPU, with measured bandwidth
--no-measure: Only list the hardware; skip the bandwidth measurements
)");

}  // namespace

command add_info_command(CLI::App& app) {
  const auto [sub, opts] = help.add_to<info_options>(app);
  sub->add_flag("--no-measure", opts->no_measure, help["--no-measure"]);
  return [opts] { return run_info(*opts); };
}

}  // namespace gpuprim::cli
