// The size of the allocation that failed, for the one-line message of a
// command that ran out of memory: `gpuprim` replaces the global operator
// new (malloc, as the library's default does; the default operator delete
// frees it) and records the size before throwing std::bad_alloc.
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace gpuprim::cli {
namespace {
std::atomic<std::size_t> failed_allocation{0};
}  // namespace

std::size_t failed_allocation_bytes() noexcept {
  return failed_allocation.load(std::memory_order_relaxed);
}

}  // namespace gpuprim::cli

void* operator new(std::size_t size) {
  for (;;) {
    if (void* p = std::malloc(size ? size : 1)) return p;
    const std::new_handler handler = std::get_new_handler();
    if (!handler) {
      gpuprim::cli::failed_allocation.store(size, std::memory_order_relaxed);
      throw std::bad_alloc();
    }
    handler();
  }
}
