// How much memory a reader may ask for. A reader checks every size a
// file's header declares against the file's own length where the format
// ties them together (a .npy header, the values of a dense Matrix Market
// file, a PNG chunk); what the file cannot bound (the row offsets of a
// sparse matrix with empty rows, a PNG's pixels, up to zlib's ratio of
// 1032 bytes per compressed byte) is checked against memory_limit() before
// anything is allocated, so a 100-byte file is refused rather than asking
// for terabytes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "gpuprim/io/npy.hpp"  // format_error

namespace gpuprim::io {

// Bytes this process may allocate: the machine's physical memory, or the
// address-space or data-segment limit (ulimit -v, ulimit -d) when lower;
// or what set_memory_limit chose.
std::uint64_t memory_limit() noexcept;

// Sets memory_limit() (0: back to the machine's). Tests and fuzzers use it
// to run under a small budget.
void set_memory_limit(std::uint64_t bytes) noexcept;

// "8 GiB", "0.5 GiB": bytes in GiB with at most one decimal.
std::string gib_text(std::uint64_t bytes);

// The message of a refused allocation: "<file>: <what> needs N GiB, more
// than this machine can give".
std::string out_of_memory_message(const std::filesystem::path& file, std::string_view what,
                                  std::uint64_t bytes);

// Throws format_error(out_of_memory_message(...)) when `bytes` (nullopt: it
// does not fit 64 bits) is more than memory_limit().
void check_memory(const std::filesystem::path& file, std::optional<std::uint64_t> bytes,
                  std::string_view what);

// a * b, or nullopt when it does not fit 64 bits.
constexpr std::optional<std::uint64_t> checked_product(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > UINT64_MAX / a) return std::nullopt;
  return a * b;
}

// Resizes `v` to `n` elements after check_memory; an allocation that still
// fails (std::bad_alloc, std::length_error) becomes the same format_error.
template <class Vector>
void resize_checked(Vector& v, std::uint64_t n, const std::filesystem::path& file,
                    std::string_view what) {
  const std::optional<std::uint64_t> bytes =
      checked_product(n, sizeof(typename Vector::value_type));
  check_memory(file, bytes, what);
  try {
    v.resize(static_cast<typename Vector::size_type>(n));
  } catch (const std::bad_alloc&) {
    throw format_error(out_of_memory_message(file, what, *bytes));
  } catch (const std::length_error&) {
    throw format_error(out_of_memory_message(file, what, *bytes));
  }
}

}  // namespace gpuprim::io
