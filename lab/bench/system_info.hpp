// The facts about the machine that every report starts with.
#pragma once

#include "report.hpp"

namespace gpuprim::bench {

// Date, host CPU and thread count; with `with_gpu`, also the current
// device, its driver and the CUDA versions (the bandwidths are left 0 for
// the caller to measure).
run_info describe_system(bool with_gpu);

}  // namespace gpuprim::bench
