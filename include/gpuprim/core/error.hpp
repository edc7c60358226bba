// Error types. Every CUDA call and launch in gpuprim is checked; a failure
// becomes one of these, naming the call and the algorithm it happened in.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace gpuprim {

// A CUDA runtime call or kernel launch failed.
class cuda_error : public std::runtime_error {
 public:
  cuda_error(int code, std::string call, std::string algorithm, const std::string& message)
      : std::runtime_error(algorithm + ": " + call + " failed: " + message),
        code_(code),
        call_(std::move(call)),
        algorithm_(std::move(algorithm)) {}

  // The cudaError_t value, as an int so this header needs no CUDA include.
  int code() const noexcept { return code_; }
  const std::string& call() const noexcept { return call_; }
  const std::string& algorithm() const noexcept { return algorithm_; }

 private:
  int code_;
  std::string call_;
  std::string algorithm_;
};

// Device memory could not be allocated.
class out_of_memory : public std::runtime_error {
 public:
  out_of_memory(std::size_t bytes_requested, std::size_t bytes_free, const std::string& algorithm)
      : std::runtime_error(algorithm + ": out of device memory: asked for " +
                           std::to_string(bytes_requested) + " bytes, " +
                           std::to_string(bytes_free) + " bytes free"),
        requested_(bytes_requested),
        free_(bytes_free) {}

  std::size_t bytes_requested() const noexcept { return requested_; }
  std::size_t bytes_free() const noexcept { return free_; }

 private:
  std::size_t requested_;
  std::size_t free_;
};

}  // namespace gpuprim
