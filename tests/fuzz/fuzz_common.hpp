// Shared by the readers' libFuzzer targets: a memory budget well under
// libFuzzer's default 2 GB RSS limit, so that a size the reader would
// allocate only on a big machine is refused as it would be on a small one.
#pragma once

#include <cstdint>

#include "gpuprim/io/memory_limit.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  gpuprim::io::set_memory_limit(std::uint64_t{256} << 20);
  return 0;
}
