// Include from a .cu file to run top-k on the GPU for element types other
// than the precompiled arithmetic ones (see gpuprim/topk.hpp).
#pragma once

#include "gpuprim/cuda/device/device_topk.cuh"
#include "gpuprim/topk.hpp"
