// Portability macros: the public headers compile with a plain C++20 compiler,
// and the same operator types are usable inside CUDA kernels.
#pragma once

#if defined(__CUDACC__)
#define GPUPRIM_HD __host__ __device__
#define GPUPRIM_DEVICE __device__
#else
#define GPUPRIM_HD
#define GPUPRIM_DEVICE
#endif

// Whether the library was built with its CUDA backend. The gpuprim target
// defines it for its users; a .cu file compiled without the target has CUDA.
#ifndef GPUPRIM_HAS_CUDA
#if defined(__CUDACC__)
#define GPUPRIM_HAS_CUDA 1
#else
#define GPUPRIM_HAS_CUDA 0
#endif
#endif

// CUDA's stream handle, declared the way the CUDA headers declare it, so the
// public API can name streams without including the CUDA runtime.
struct CUstream_st;

namespace gpuprim {
using stream_t = CUstream_st*;
}  // namespace gpuprim
