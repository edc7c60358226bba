// Shared by the readers' libFuzzer targets: a memory budget of 16 MiB, far
// under libFuzzer's 2 GB RSS limit, so that a size the reader would allocate
// only on a big machine is refused as on a small one, and each input runs
// in microseconds.
#pragma once

#include <cstdint>

#include "gpuprim/io/memory_limit.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  gpuprim::io::set_memory_limit(std::uint64_t{16} << 20);
  return 0;
}
