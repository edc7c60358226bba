// The untyped GPU transpose: the element size, known only at run time,
// picks the compiled instance. Kept apart from detail/transpose/transpose.hpp
// so that the instantiation files (which include that header, not this one)
// compile only their own size.
#pragma once

#include <cstddef>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/detail/cuda_dispatch.hpp"
#include "gpuprim/detail/transpose/transpose.hpp"

namespace gpuprim::detail {

inline void cuda_transpose_bytes(std::size_t element_size, const void* in, void* out,
                                 const transpose_shape& shape, stream_t stream) {
  on_cuda("transpose", [&] {
    with_element_size(element_size, [&](auto bytes) {
      cuda_transpose_sized<decltype(bytes)::value>(in, out, shape, stream);
    });
  });
}

}  // namespace gpuprim::detail
