#include "system_info.hpp"

#include <omp.h>

#include <cctype>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>

#include "gpuprim/core/device_info.hpp"

#if GPUPRIM_HAS_CUDA
#include <cuda_runtime_api.h>

#include "gpuprim/cuda/support/check.cuh"
#endif

namespace gpuprim::bench {
namespace {

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string cpu_model() {
  std::ifstream file("/proc/cpuinfo");
  std::string line;
  while (std::getline(file, line)) {
    if (line.rfind("model name", 0) == 0) {
      const std::size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown CPU";
}

#if GPUPRIM_HAS_CUDA
// "580.65.06" from the NVRM line of /proc/driver/nvidia/version (whose
// wording differs between the open and the proprietary kernel module).
std::string nvidia_driver_version() {
  std::ifstream file("/proc/driver/nvidia/version");
  std::string line;
  if (!std::getline(file, line)) return "";
  std::istringstream words(line);
  std::string word;
  while (words >> word) {
    if (std::isdigit(static_cast<unsigned char>(word[0])) && word.find('.') != std::string::npos) {
      return word;
    }
  }
  return "";
}

std::string cuda_version_string(int version) {  // 13000 -> "13.0"
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}
#endif

}  // namespace

run_info describe_system(bool with_gpu) {
  run_info info;
  info.date_utc = utc_now();
  info.host_cpu = cpu_model();
  info.host_threads = omp_get_max_threads();
#if GPUPRIM_HAS_CUDA
  if (with_gpu) {
    const device_info device = get_device_info();
    info.device = device.name;
    info.compute_capability = std::to_string(device.compute_capability_major) +
                              std::to_string(device.compute_capability_minor);
    info.multiprocessors = device.multiprocessor_count;
    info.l2_cache_bytes = device.l2_cache_bytes;
    int driver = 0, runtime = 0;
    GPUPRIM_CUDA_CHECK(cudaDriverGetVersion(&driver), "bench");
    GPUPRIM_CUDA_CHECK(cudaRuntimeGetVersion(&runtime), "bench");
    info.driver_cuda_version = cuda_version_string(driver);
    info.runtime_cuda_version = cuda_version_string(runtime);
    info.nvidia_driver = nvidia_driver_version();
  }
#else
  (void)with_gpu;
#endif
  return info;
}

}  // namespace gpuprim::bench
