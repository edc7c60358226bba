// libFuzzer target: a CSV file of points in memory through the reader of
// `gpuprim closest-pair`. cli::usage_error is the expected answer to a bad
// file; anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "apps/gpuprim/commands.hpp"
#include "apps/gpuprim/point_csv.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const gpuprim::cli::point_csv points = gpuprim::cli::parse_point_csv(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.csv");
    if (points.values.size() != points.rows * static_cast<std::size_t>(points.dim)) {
      __builtin_trap();
    }
  } catch (const gpuprim::cli::usage_error&) {
  }
  return 0;
}
