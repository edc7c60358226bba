// libFuzzer target: a .npy file in memory through read_npy_bytes and the
// conversion every command applies. A format_error is the expected answer
// to a bad file; any other exception, crash, leak or undefined behavior is
// a bug.
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz_common.hpp"
#include "gpuprim/io/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const gpuprim::io::npy_array array =
        gpuprim::io::read_npy_bytes(std::as_bytes(std::span(data, size)), "fuzz.npy");
    const auto values = gpuprim::io::values_as<double>(array);
    if (values.size() != array.size()) __builtin_trap();
  } catch (const gpuprim::io::format_error&) {
  }
  return 0;
}
