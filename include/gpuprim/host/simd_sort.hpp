// The host keys-only sort of 32- and 64-bit keys on processors with
// AVX-512: a vectorised quicksort (src/sort/host_simd_sort.cpp, compiled
// into the library with per-function target attributes, so the library
// itself stays baseline x86-64 and the choice is made at run time).
//
// Order: gpuprim's (radix_key.hpp): floats by value with -0.0 before +0.0
// and every NaN last in either direction, NaNs in their input order. The
// sort is not stable, which no caller can observe: keys-only, over all of
// a key's bits, two keys that compare equal have the same bits (NaNs aside,
// which are moved out before the sort and back after it in input order).
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpuprim::host_impl {

// Sorts in[0, n) into out[0, n) (out may be in itself; otherwise disjoint),
// one thread. Returns false, having touched nothing, when the processor (or
// the build) has no AVX-512 or allow_simd_sort(false) was called; the
// caller then sorts another way.
bool simd_sort_keys(const std::int32_t* in, std::int32_t* out, std::size_t n, bool descending);
bool simd_sort_keys(const std::uint32_t* in, std::uint32_t* out, std::size_t n, bool descending);
bool simd_sort_keys(const std::int64_t* in, std::int64_t* out, std::size_t n, bool descending);
bool simd_sort_keys(const std::uint64_t* in, std::uint64_t* out, std::size_t n, bool descending);
bool simd_sort_keys(const float* in, float* out, std::size_t n, bool descending);
bool simd_sort_keys(const double* in, double* out, std::size_t n, bool descending);

// Whether simd_sort_keys runs (the processor has AVX-512F and it is allowed).
bool simd_sort_available();

// Tests switch the vectorised sort off to reach the radix sort's keys-only
// paths on machines with AVX-512. Not thread-safe against running sorts.
void allow_simd_sort(bool allowed);

}  // namespace gpuprim::host_impl
