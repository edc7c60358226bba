// Streaming (non-temporal) stores for the host backends: writing a whole,
// aligned cache line that will not be read again soon without first
// reading it into the cache, as an ordinary store must. For outputs far
// larger than the caches this saves a third of the memory traffic.
#pragma once

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gpuprim::host_impl {

// Writes one 64-byte-aligned cache line from `line` (any alignment)
// without reading it into the cache first (x86 streaming stores; a plain
// copy elsewhere). Streaming stores are weakly ordered: call
// streaming_stores_done() before other threads read what they wrote.
inline void store_line_streaming(void* dst, const void* line) {
#if defined(__SSE2__)
  auto* d = static_cast<__m128i*>(dst);
  const auto* s = static_cast<const __m128i*>(line);
  for (int i = 0; i < 4; ++i)
    _mm_stream_si128(d + i, _mm_loadu_si128(s + i));
#else
  std::memcpy(dst, line, 64);
#endif
}

inline void streaming_stores_done() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

}  // namespace gpuprim::host_impl
