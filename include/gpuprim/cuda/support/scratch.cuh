// Stream-ordered temporary device memory (gpuprim/core/memory.hpp).
#pragma once

#include "gpuprim/core/memory.hpp"

namespace gpuprim::cuda_impl {

using detail::scratch_buffer;

}  // namespace gpuprim::cuda_impl
