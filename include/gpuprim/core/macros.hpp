// Portability macros: the public headers compile with a plain C++20 compiler,
// and the same operator types are usable inside CUDA kernels.
#pragma once

#if defined(__CUDACC__)
#define GPUPRIM_HD __host__ __device__
#define GPUPRIM_DEVICE __device__
// Kept out of line: a rarely taken path whose registers should not count
// against the kernel that calls it.
#define GPUPRIM_NOINLINE __noinline__
#else
#define GPUPRIM_HD
#define GPUPRIM_DEVICE
#define GPUPRIM_NOINLINE
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
