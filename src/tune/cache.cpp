// The tuner's per-device JSON cache: reading (every problem is a warning,
// never a crash), atomic writing, and the lazily loaded table the launch
// paths consult.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <stdexcept>

#include "gpuprim/core/device_info.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/tune/cache.hpp"

namespace gpuprim::tuning {

using json = nlohmann::json;

std::string device_key::file_stem() const {
  std::string stem;
  for (char c : name) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '.';
    stem += plain ? c : '_';
  }
  return stem + "-sm" + std::to_string(compute_capability_major) +
         std::to_string(compute_capability_minor) + "-" + std::to_string(multiprocessors) + "sm";
}

device_key current_device_key() {
  const device_info info = get_device_info();
  return {info.name, info.compute_capability_major, info.compute_capability_minor,
          info.multiprocessor_count};
}

std::optional<std::filesystem::path> cache_path(const device_key& device) {
  const std::string file = "tune-" + device.file_stem() + ".json";
  if (const char* explicit_path = std::getenv("GPUPRIM_TUNE_CACHE");
      explicit_path && *explicit_path) {
    if (std::string_view(explicit_path) == "off") return std::nullopt;
    return std::filesystem::path(explicit_path);
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::filesystem::path(xdg) / "gpuprim" / file;
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".cache" / "gpuprim" / file;
  return std::nullopt;
}

namespace {

json device_json(const device_key& d) {
  return {{"name", d.name},
          {"compute_capability", std::to_string(d.compute_capability_major) + "." +
                                     std::to_string(d.compute_capability_minor)},
          {"multiprocessors", d.multiprocessors}};
}

// Throws (json or std::runtime_error) on anything unexpected.
device_key device_of(const json& d) {
  device_key key;
  key.name = d.at("name").get<std::string>();
  const std::string cc = d.at("compute_capability").get<std::string>();
  const auto dot = cc.find('.');
  if (dot == std::string::npos) throw std::runtime_error("bad compute_capability");
  key.compute_capability_major = std::stoi(cc.substr(0, dot));
  key.compute_capability_minor = std::stoi(cc.substr(dot + 1));
  key.multiprocessors = d.at("multiprocessors").get<int>();
  return key;
}

// device == nullptr: any device (the file's own).
cache_contents parse(const json& doc, const device_key* wanted) {
  if (!doc.is_object()) throw std::runtime_error("not a JSON object");
  if (!doc.contains("gpuprim_tune_cache") || !doc["gpuprim_tune_cache"].is_number_integer())
    throw std::runtime_error("no \"gpuprim_tune_cache\" version");
  const int version = doc["gpuprim_tune_cache"].get<int>();
  if (version != cache_version)
    throw std::runtime_error("version " + std::to_string(version) +
                             ", this gpuprim reads version " + std::to_string(cache_version));
  const device_key device = wanted ? *wanted : device_of(doc.at("device"));
  if (doc.at("device") != device_json(device))
    throw std::runtime_error("written for another device (" + doc.at("device").dump() + ")");
  cache_contents contents{device, {}};
  for (const json& e : doc.at("entries")) {
    const space* s = find_space(e.at("algorithm").get<std::string>());
    if (!s) throw std::runtime_error("unknown algorithm " + e.at("algorithm").dump());
    cache_entry entry;
    entry.id = s->id;
    entry.type = parse_element_type(e.at("type").get<std::string>());
    if (entry.type == element_type::other)
      throw std::runtime_error("unknown type " + e.at("type").dump());
    entry.log2_size = e.at("log2_size").get<int>();
    if (entry.log2_size < 0 || entry.log2_size > 63) throw std::runtime_error("bad log2_size");
    const json& c = e.at("config");
    if (!c.is_object() || c.size() != s->parameters.size())
      throw std::runtime_error("config of " + s->name + " does not name its parameters");
    for (const std::string& p : s->parameters) {
      entry.choice.values[static_cast<std::size_t>(entry.choice.count++)] = c.at(p).get<int>();
    }
    if (s->index_of(entry.choice) < 0)
      throw std::runtime_error(s->name + " config " + c.dump() + " is not one of its candidates");
    entry.time_us = e.value("time_us", 0.0);
    entry.default_time_us = e.value("default_time_us", 0.0);
    contents.entries.push_back(entry);
  }
  return contents;
}

}  // namespace

std::string format_cache(const cache_contents& contents) {
  json entries = json::array();
  for (const cache_entry& e : contents.entries) {
    const space& s = space_of(e.id);
    json c = json::object();
    for (int d = 0; d < e.choice.count && d < static_cast<int>(s.parameters.size()); ++d)
      c[s.parameters[static_cast<std::size_t>(d)]] = e.choice[d];
    entries.push_back({{"algorithm", s.name},
                       {"type", std::string(element_type_name(e.type))},
                       {"log2_size", e.log2_size},
                       {"config", c},
                       {"time_us", e.time_us},
                       {"default_time_us", e.default_time_us}});
  }
  const json doc = {{"gpuprim_tune_cache", cache_version},
                    {"device", device_json(contents.device)},
                    {"entries", entries}};
  return doc.dump(2) + "\n";
}

namespace {

std::optional<cache_contents> read_file(const std::filesystem::path& path, const device_key* device,
                                        std::string* problem) {
  auto fail = [&](const std::string& why) -> std::optional<cache_contents> {
    if (problem) *problem = why;
    return std::nullopt;
  };
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail("cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  try {
    return parse(json::parse(text.str()), device);
  } catch (const json::exception& e) {
    return fail(std::string("is not a valid cache (") + e.what() + ")");
  } catch (const std::exception& e) {
    return fail(std::string("is not usable: ") + e.what());
  }
}

}  // namespace

std::optional<cache_contents> read_cache(const std::filesystem::path& path,
                                         const device_key& device, std::string* problem) {
  return read_file(path, &device, problem);
}

std::optional<cache_contents> read_cache_any_device(const std::filesystem::path& path,
                                                    std::string* problem) {
  return read_file(path, nullptr, problem);
}

namespace {

// Holds an advisory lock on `path` for its lifetime (no-op if it cannot
// be had: atomic renames still keep the file whole).
class file_lock {
 public:
  explicit file_lock(const std::filesystem::path& path) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ >= 0) ::flock(fd_, LOCK_EX);
  }
  ~file_lock() {
    if (fd_ >= 0) {
      ::flock(fd_, LOCK_UN);
      ::close(fd_);
    }
  }
  file_lock(const file_lock&) = delete;
  file_lock& operator=(const file_lock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace

void store_cache(const std::filesystem::path& path, const device_key& device,
                 const std::vector<cache_entry>& entries) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  std::filesystem::path lock_path = path;
  lock_path += ".lock";
  const file_lock lock(lock_path);

  cache_contents merged{device, {}};
  if (std::filesystem::exists(path)) {
    std::string problem;
    if (auto old = read_cache(path, device, &problem)) merged = std::move(*old);
  }
  for (const cache_entry& e : entries) {
    bool replaced = false;
    for (cache_entry& m : merged.entries) {
      if (m.id == e.id && m.type == e.type && m.log2_size == e.log2_size) {
        m = e;
        replaced = true;
      }
    }
    if (!replaced) merged.entries.push_back(e);
  }
  const std::string text = format_cache(merged);

  // A temporary file beside the target, then rename: readers see the old
  // file or the new one, never a part of either.
  std::random_device entropy;
  std::filesystem::path temp = path;
  temp += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(entropy());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot create " + temp.string());
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t w = ::write(fd, text.data() + written, text.size() - written);
    if (w <= 0) {
      ::close(fd);
      std::filesystem::remove(temp, ec);
      throw std::runtime_error("cannot write " + temp.string());
    }
    written += static_cast<std::size_t>(w);
  }
  ::fsync(fd);
  ::close(fd);
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    throw std::runtime_error("cannot rename the new cache onto " + path.string());
  }
}

// ---- the table the launch paths read -----------------------------------------

namespace {

constexpr int max_devices = 64;

// A device's choices: for each algorithm and type, the tuned config per
// size bucket (count == 0: none).
struct table {
  std::array<std::array<std::array<config, 64>, static_cast<int>(element_type::other) + 1>,
             static_cast<int>(algorithm::count)>
      choices{};
  std::array<std::array<bool, static_cast<int>(element_type::other) + 1>,
             static_cast<int>(algorithm::count)>
      any{};
};

struct loaded_state {
  std::mutex mutex;
  std::array<std::atomic<const table*>, max_devices> tables{};
  // Tables are never freed while the process runs (a reset keeps the old
  // ones here), so a reader holding a pointer cannot be left dangling.
  std::vector<std::unique_ptr<table>> all;
  std::optional<device_key> test_device;  // read and written under the mutex
  std::atomic<bool> testing{false};       // test_device is set (read without it)
};

loaded_state& state() {
  static loaded_state s;
  return s;
}

thread_local std::array<const config*, static_cast<int>(algorithm::count)> forced{};
thread_local std::array<std::optional<used_config>, static_cast<int>(algorithm::count)> used{};

void warn(const std::string& message) {
  std::fprintf(stderr, "gpuprim: warning: %s; using the default launch configurations\n",
               message.c_str());
}

std::unique_ptr<table> load_table(int ordinal) {
  auto t = std::make_unique<table>();
  device_key key;
  if (state().test_device) {
    key = *state().test_device;
  } else {
    const device_info info = get_device_info(ordinal);
    key = {info.name, info.compute_capability_major, info.compute_capability_minor,
           info.multiprocessor_count};
  }
  // (current_device_key() is the same for the current device.)
  const std::optional<std::filesystem::path> path = cache_path(key);
  if (!path) return t;  // GPUPRIM_TUNE_CACHE=off
  std::error_code ec;
  if (!std::filesystem::exists(*path, ec)) return t;  // never tuned: quietly the defaults
  std::string problem;
  const std::optional<cache_contents> contents = read_cache(*path, key, &problem);
  if (!contents) {
    warn("tuning cache " + path->string() + " " + problem);
    return t;
  }
  for (const cache_entry& e : contents->entries) {
    const int a = static_cast<int>(e.id);
    const int ty = static_cast<int>(e.type);
    t->choices[a][ty][e.log2_size] = e.choice;
    t->any[a][ty] = true;
  }
  return t;
}

const table* table_for_current_device() {
  loaded_state& s = state();
  // Lock-free after the first call on a device: one atomic load of the
  // table (and cudaGetDevice).
  const int ordinal = s.testing.load(std::memory_order_acquire) ? 0 : current_device();
  if (ordinal < 0 || ordinal >= max_devices) return nullptr;
  if (const table* t = s.tables[ordinal].load(std::memory_order_acquire)) return t;
  std::lock_guard lock(s.mutex);
  if (const table* t = s.tables[ordinal].load(std::memory_order_acquire)) return t;
  s.all.push_back(load_table(ordinal));
  s.tables[ordinal].store(s.all.back().get(), std::memory_order_release);
  return s.all.back().get();
}

}  // namespace

const config* lookup(algorithm a, element_type type, std::uint64_t n) {
  const int ai = static_cast<int>(a);
  if (const config* f = forced[ai]) return f;
  const table* t = table_for_current_device();
  const int ty = static_cast<int>(type);
  if (!t || !t->any[ai][ty]) return nullptr;
  // The nearest tuned bucket (the smaller one on a tie).
  const int bucket = size_bucket(n);
  for (int distance = 0; distance < 64; ++distance) {
    for (int b : {bucket - distance, bucket + distance}) {
      if (b >= 0 && b < 64 && t->choices[ai][ty][b].count > 0) return &t->choices[ai][ty][b];
    }
  }
  return nullptr;
}

void record_use(algorithm a, const config& c, choice_source source) {
  used[static_cast<int>(a)] = used_config{c, source};
}

std::optional<used_config> last_use(algorithm a) {
  return used[static_cast<int>(a)];
}

used_config choose(algorithm a, element_type type, std::uint64_t n) {
  used_config choice{space_of(a).default_config, choice_source::default_config};
  if (const config* f = forced[static_cast<int>(a)]) {
    choice = {*f, choice_source::forced};
  } else if (const config* tuned = lookup(a, type, n)) {
    choice = {*tuned, choice_source::cache};
  }
  used[static_cast<int>(a)] = choice;
  return choice;
}

namespace detail {

void force(algorithm a, const config* c) {
  forced[static_cast<int>(a)] = c;
}

void reset_loaded_caches() {
  loaded_state& s = state();
  std::lock_guard lock(s.mutex);
  for (auto& t : s.tables)
    t.store(nullptr, std::memory_order_release);
}

void set_device_for_testing(std::optional<device_key> device) {
  loaded_state& s = state();
  std::lock_guard lock(s.mutex);
  s.testing.store(device.has_value(), std::memory_order_release);
  s.test_device = std::move(device);
}

}  // namespace detail
}  // namespace gpuprim::tuning
