// The one place where a facade's GPU overload reaches the CUDA backend.
//
// Each family declares its entry points (detail::cuda_reduce_into, ...) in
// its detail header, unconditionally; they are defined in
// gpuprim/cuda/device/ and compiled into the library by src/<family>/.
// A facade calls them through on_cuda:
//
//   on_cuda("reduce", [&] { cuda_reduce_into(in, n, out, init, op, fetch, stream); });
//
// In a build with the CUDA backend this is the call itself. In a build
// without it, the call is a discarded branch, so the entry point is never
// referenced (nothing is left undefined at link time), and on_cuda throws
// gp::cuda_error naming the algorithm instead.
#pragma once

#include <type_traits>
#include <utility>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/core/runtime.hpp"

namespace gpuprim::detail {

inline constexpr bool has_cuda_backend = GPUPRIM_HAS_CUDA != 0;

template <class Call>
std::invoke_result_t<Call> on_cuda(const char* algorithm, Call&& call) {
  if constexpr (has_cuda_backend) {
    return std::forward<Call>(call)();
  } else {
    no_cuda_backend(algorithm);
  }
}

}  // namespace gpuprim::detail
