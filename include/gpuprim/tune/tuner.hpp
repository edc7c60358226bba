// gp::tune: measure an algorithm's candidates on the current GPU for one
// element type and size, and pick the fastest (ties within the noise go to
// the default). `gpuprim tune` runs it over the spaces and stores the
// winners in the cache (tune/cache.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuprim/tune/choice.hpp"
#include "gpuprim/tune/config.hpp"
#include "gpuprim/tune/search.hpp"

namespace gpuprim {
namespace tuning {

struct candidate_row {
  config candidate;
  measurement time;
  double gbs = 0.0;  // bytes the algorithm must move / median time
  kernel_report kernel;
};

struct tune_result {
  const space* algorithm = nullptr;
  element_type type{};
  std::uint64_t n = 0;
  std::vector<candidate_row> rows;  // rows[0] is the default
  std::size_t winner = 0;
  bool exhaustive = false;
  double gain() const;  // default time / winner time
};

struct tune_options {
  search_options search;
  int warmup_runs = 3;
  int timed_runs = 25;
  // Called before each candidate is measured (progress on stderr).
  std::function<void(const config&)> progress;
};

// True when this build has a CUDA backend and a device is present.
bool tuning_available();

namespace detail {
// The tuner's side: ask for the reports of the next launches on this
// thread, then take the one of the call's largest kernel.
void want_kernel_report();
kernel_report take_kernel_report();
}  // namespace detail

}  // namespace tuning

// Measures `algorithm`'s candidates for `type` and n elements on the
// current device. Throws std::invalid_argument for an unknown algorithm or
// a type the tuner does not generate, gp::cuda_error without a device.
tuning::tune_result tune(std::string_view algorithm, std::string_view type, std::uint64_t n,
                         const tuning::tune_options& options = {});

}  // namespace gpuprim
