// Memory errors, the scratch limit and the capture check, under gpuprim._core:
//   the exception translation of gp::out_of_memory (MemoryError), the one
//   place the package maps it, for every binding;
//   _set_scratch_limit(bytes | None) -> the previous limit (None: none)
//                                  caps the scratch the library draws
//                                  (gpuprim.scratch_limit, python/gpuprim/
//                                  _memory.py, is the public form);
//   _refuse_capture(fn, why, like, stream)
//                                  refuse_capture (arrays.hpp) for the waits
//                                  the Python layer makes itself;
//   _scratch_allocate(bytes, stream) draws `bytes` of scratch from the
//                                  current resource and gives them back.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <string>

#include "arrays.hpp"
#include "bind.hpp"
#include "gpuprim/core/error.hpp"
#include "gpuprim/core/memory.hpp"

namespace gpuprim::python {

namespace {

// The resource in force under a limit: at most `limit` bytes drawn from
// `upstream` at once (counted from when the limit was set). A request
// beyond that throws gp::out_of_memory before the upstream is asked, as a
// full device would.
class capped_resource final : public memory_resource {
 public:
  capped_resource(memory_resource* upstream, std::size_t limit)
      : upstream_(upstream), limit_(limit) {}

  void* allocate(std::size_t bytes, stream_t stream) override {
    std::size_t used = in_use_.load(std::memory_order_relaxed);
    do {
      if (bytes > limit_ - used) {
        throw out_of_memory(
            bytes, limit_ - used,
            "scratch (limited to " + std::to_string(limit_) + " bytes by gpuprim.scratch_limit)");
      }
    } while (!in_use_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
    try {
      return upstream_->allocate(bytes, stream);
    } catch (...) {
      in_use_.fetch_sub(bytes, std::memory_order_relaxed);
      throw;
    }
  }

  void deallocate(void* ptr, std::size_t bytes, stream_t stream) noexcept override {
    upstream_->deallocate(ptr, bytes, stream);
    in_use_.fetch_sub(bytes, std::memory_order_relaxed);
  }

  std::size_t limit() const { return limit_; }

 private:
  memory_resource* upstream_;
  std::size_t limit_;
  std::atomic<std::size_t> in_use_{0};
};

std::mutex limit_mutex;
capped_resource* current_cap = nullptr;  // null: no limit
memory_resource* uncapped = nullptr;     // the resource a limit wraps

std::optional<std::size_t> set_scratch_limit(std::optional<std::int64_t> bytes) {
  if (bytes && *bytes < 0) value_error("scratch_limit: the limit must be >= 0 bytes");
  std::lock_guard lock(limit_mutex);
  std::optional<std::size_t> previous;
  if (current_cap) {
    previous = current_cap->limit();
  } else {
    uncapped = get_scratch_resource();
  }
  if (bytes) {
    // Never freed: a scratch buffer of another thread may still hold it to
    // give its memory back (a few bytes per limit set).
    current_cap = new capped_resource(uncapped, static_cast<std::size_t>(*bytes));
    set_scratch_resource(current_cap);
  } else {
    current_cap = nullptr;
    set_scratch_resource(uncapped == default_scratch_resource() ? nullptr : uncapped);
  }
  return previous;
}

void scratch_allocate(std::size_t bytes, nb::handle stream) {
  std::intptr_t handle = stream.is_none() ? 0 : nb::cast<std::intptr_t>(stream);
  const nb::gil_scoped_release release;
  const detail::scratch_buffer b(bytes, reinterpret_cast<stream_t>(handle));
}

// refuse_capture for a wait made by the Python layer (a check that reads
// device data): the stream as the bindings resolve it for `like`.
void refuse_capture_call(const std::string& fn, const std::string& why, nb::handle like,
                         nb::handle stream) {
  const array a = import_array(like, fn + ": array");
  const context ctx = make_context(fn.c_str(), {&a}, stream);
  refuse_capture(ctx, fn, why.c_str());
}

}  // namespace

void bind_memory(nb::module_& m) {
  // Every binding's gp::out_of_memory (a std::runtime_error, which would
  // otherwise be RuntimeError) becomes MemoryError with the library's
  // message: the bytes asked for and the bytes free.
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const out_of_memory& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    }
  });
  m.def("_set_scratch_limit", &set_scratch_limit, nb::arg("bytes").none(),
        "Caps the scratch memory the library draws at once to `bytes` (None: no cap); "
        "returns the previous cap. A call whose scratch would pass the cap raises "
        "MemoryError. Use gpuprim.scratch_limit.");
  m.def("_refuse_capture", &refuse_capture_call, nb::arg("fn"), nb::arg("why"), nb::arg("like"),
        nb::arg("stream").none() = nb::none(),
        "RuntimeError '<fn> cannot be captured in a CUDA graph: <why>' when the stream a call on "
        "`like` would use (stream, or the framework's current one) is capturing.");
  m.def("_scratch_allocate", &scratch_allocate, nb::arg("bytes"),
        nb::arg("stream").none() = nb::none(),
        "Draws `bytes` of scratch from the library's current resource on `stream` (an int "
        "cudaStream_t, default 0) and gives them back: MemoryError past a scratch_limit.");
}

}  // namespace gpuprim::python
