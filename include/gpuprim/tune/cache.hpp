// The tuner's per-device cache: a versioned JSON file of winners keyed by
// algorithm, element type and size bucket, read once per process (lazily,
// thread-safely) by the launch paths. A missing, stale, corrupted or
// foreign-device file is ignored with one warning on stderr.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gpuprim/tune/choice.hpp"
#include "gpuprim/tune/config.hpp"

namespace gpuprim::tuning {

inline constexpr int cache_version = 1;

// What a cache belongs to: tuned choices do not carry over to another GPU.
struct device_key {
  std::string name;
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int multiprocessors = 0;
  friend bool operator==(const device_key&, const device_key&) = default;
  // For the file name: "NVIDIA_H100_80GB_HBM3-sm90-132sm".
  std::string file_stem() const;
};

// The current CUDA device's key (throws gp::cuda_error without one).
device_key current_device_key();

struct cache_entry {
  algorithm id{};
  element_type type{};
  int log2_size = 0;
  config choice;
  double time_us = 0.0;          // the winner's median
  double default_time_us = 0.0;  // the default's median in the same run
};

struct cache_contents {
  device_key device;
  std::vector<cache_entry> entries;
};

// Where the cache of `device` lives: $GPUPRIM_TUNE_CACHE if set (a file),
// else $XDG_CACHE_HOME/gpuprim/tune-<stem>.json, else
// $HOME/.cache/gpuprim/tune-<stem>.json. nullopt: GPUPRIM_TUNE_CACHE=off
// (or no HOME either).
std::optional<std::filesystem::path> cache_path(const device_key& device);

// Reads a cache file for `device`. On any problem (missing, unreadable,
// not JSON, another version, another device, an entry outside its
// algorithm's candidates) returns nullopt and says why in *problem.
std::optional<cache_contents> read_cache(const std::filesystem::path& path,
                                         const device_key& device, std::string* problem);

// read_cache for a file of any device (its own key is returned): what
// `gpuprim tune --show` prints.
std::optional<cache_contents> read_cache_any_device(const std::filesystem::path& path,
                                                    std::string* problem);

// Merges `entries` into the file's (replacing the same algorithm, type and
// bucket), keeping nothing from an unusable file, and writes it atomically:
// a temporary file in the same directory, then rename, under an advisory
// lock (path + ".lock") so concurrent writers do not lose each other's
// entries. Throws std::runtime_error when it cannot write.
void store_cache(const std::filesystem::path& path, const device_key& device,
                 const std::vector<cache_entry>& entries);

// The JSON text of a cache (what store_cache writes).
std::string format_cache(const cache_contents& contents);

namespace detail {
// Forget the loaded caches, so that the next lookup on each device reads
// its file again (tests). Safe beside concurrent lookups: each sees the
// old table or the new one (old tables are kept until the process ends).
void reset_loaded_caches();
// Use this device key instead of asking the CUDA runtime (host tests).
void set_device_for_testing(std::optional<device_key> device);
}  // namespace detail

}  // namespace gpuprim::tuning
