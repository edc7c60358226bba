// libFuzzer target: a PNG file in memory through the command line's PNG
// reader (chunk checks, then libpng). cli::usage_error and io::format_error
// are the expected answers to a bad file; anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <span>

#include "apps/gpuprim/commands.hpp"
#include "apps/gpuprim/png_image.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const gpuprim::cli::png_pixels pixels =
        gpuprim::cli::decode_png(std::span(data, size), "fuzz.png");
    const bool wide = pixels.bit_depth == 16;
    if ((wide ? pixels.values16.size() : pixels.values.size()) != pixels.samples() ||
        !(wide ? pixels.values.empty() : pixels.values16.empty())) {
      __builtin_trap();
    }
  } catch (const gpuprim::cli::usage_error&) {
  } catch (const gpuprim::io::format_error&) {
  }
  return 0;
}
