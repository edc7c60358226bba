// The readers' memory budget (gpuprim/io/memory_limit.hpp).
#include "gpuprim/io/memory_limit.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>

namespace gpuprim::io {
namespace {

std::atomic<std::uint64_t> chosen_limit{0};

std::uint64_t machine_memory() noexcept {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  std::uint64_t bytes = UINT64_MAX;
  if (pages > 0 && page_size > 0) {
    bytes = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
  }
  for (const int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    rlimit limit{};
    if (getrlimit(resource, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
      bytes = std::min<std::uint64_t>(bytes, limit.rlim_cur);
    }
  }
  return bytes;
}

}  // namespace

std::uint64_t memory_limit() noexcept {
  const std::uint64_t chosen = chosen_limit.load(std::memory_order_relaxed);
  return chosen ? chosen : machine_memory();
}

void set_memory_limit(std::uint64_t bytes) noexcept {
  chosen_limit.store(bytes, std::memory_order_relaxed);
}

std::string gib_text(std::uint64_t bytes) {
  const double gib = static_cast<double>(bytes) / static_cast<double>(std::uint64_t{1} << 30);
  char text[64];
  if (gib >= 10) {
    std::snprintf(text, sizeof text, "%.0f GiB", gib);
  } else {
    std::snprintf(text, sizeof text, "%.1f GiB", std::max(gib, 0.1));
  }
  return text;
}

std::string out_of_memory_message(const std::filesystem::path& file, std::string_view what,
                                  std::uint64_t bytes) {
  return file.string() + ": " + std::string(what) + " needs " + gib_text(bytes) +
         ", more than this machine can give";
}

void check_memory(const std::filesystem::path& file, std::optional<std::uint64_t> bytes,
                  std::string_view what) {
  if (!bytes) {
    throw format_error(file.string() + ": " + std::string(what) +
                       " needs more than 2^64 bytes, more than this machine can give");
  }
  if (*bytes > memory_limit()) throw format_error(out_of_memory_message(file, what, *bytes));
}

}  // namespace gpuprim::io
