// Arrays, devices and streams between Python and the library.
//
// An argument is read into an `array`: a pointer, a dtype, a shape (and
// C-order strides), where the memory lives (host, or a CUDA device and its
// ordinal) and which framework made it, so results can be made of the same
// kind:
//  - NumPy arrays and any other buffer-protocol object: host memory, results
//    are NumPy arrays (NumPy scalars for reductions).
//  - CuPy arrays and PyTorch tensors: read through their own attributes (no
//    DLPack capsule, no __cuda_array_interface__ dict: those cost
//    microseconds per call); results are made by the framework (cupy.empty,
//    Tensor.new_empty), so they come from its memory pool, on its current
//    stream, without a synchronization.
//  - other objects with __cuda_array_interface__ or __dlpack__ (Numba, JAX):
//    read zero-copy; results are DLPack-capable arrays of nanobind.
//  - lists, tuples and Python scalars: through numpy.asarray, as NumPy does.
// Nothing is ever copied between host and device; a non-contiguous input is
// first made contiguous by its own framework (on its own device).
#pragma once

#include <nanobind/nanobind.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "dtypes.hpp"
#include "gpuprim/core/macros.hpp"

namespace gpuprim::python {

// TypeError / ValueError with the message, from any binding.
[[noreturn]] void type_error(const std::string& msg);
[[noreturn]] void value_error(const std::string& msg);

namespace nb = nanobind;

enum class framework : std::uint8_t { numpy, cupy, torch, other };

inline constexpr int max_ndim = 32;

struct buffer_release {
  void operator()(Py_buffer* b) const;
};

// A contiguous (C order) array argument. Holds a reference to its Python
// object (and the buffer view of a host array) while it lives; it must be
// destroyed with the GIL held (declare arrays outside gil_scoped_release).
struct array {
  nb::object obj;
  void* data = nullptr;
  dtype type = dtype::float32;
  int ndim = 0;
  std::array<std::int64_t, max_ndim> shape{};
  framework kind = framework::numpy;
  bool on_device = false;
  int device = -1;  // CUDA ordinal when on_device
  bool readonly = false;
  bool jax = false;  // a jax.Array (read through __cuda_array_interface__ or __dlpack__)
  std::unique_ptr<Py_buffer, buffer_release> view;

  std::size_t size() const {
    std::size_t n = 1;
    for (int i = 0; i < ndim; ++i)
      n *= static_cast<std::size_t>(shape[i]);
    return n;
  }
  std::size_t bytes() const { return size() * dtype_size(type); }
  template <class T>
  T* ptr() const {
    return static_cast<T*>(data);
  }
  std::vector<std::int64_t> shape_vector() const {
    return std::vector<std::int64_t>(shape.begin(), shape.begin() + ndim);
  }
};

// Reads an argument (`what` names it in messages: "sum: x"). Raises
// TypeError for what is not an array (or has an unsupported dtype, or is a
// numpy.ma.MaskedArray: see refuse_masked).
array import_array(nb::handle obj, const std::string& what, bool writable = false);

// Raises TypeError when obj is a numpy.ma.MaskedArray: its buffer is the
// data with the masked elements in it, and reading it as a plain array
// would answer as if nothing were masked. The one check every argument
// goes through (import_array; python/gpuprim reaches it as
// _core._refuse_masked for what it reads itself, such as filter weights).
void refuse_masked(nb::handle obj, const std::string& what);

// Where a call runs: the common location of its arrays, and the stream
// (GPU) it is ordered on.
struct context {
  framework kind = framework::numpy;
  bool on_device = false;
  int device = -1;
  stream_t stream = nullptr;
  nb::object like;  // an input, for making results of its kind
  dtype like_type = dtype::float32;
  bool jax = false;  // results are handed back as jax.Array (result_object)
};

// Checks that the arrays are all on the host or all on one device (else
// ValueError), resolves `stream` (None: the framework's current stream; an
// int; an object with __cuda_stream__, .ptr or .cuda_stream) and, on the
// GPU, makes the arrays' device current (restored by the guard).
context make_context(const char* fn, std::initializer_list<const array*> arrays, nb::handle stream);

// Whether the call's stream is being captured into a CUDA graph
// (cudaStreamIsCapturing; false on the host). The legacy default stream
// counts as captured while another stream's global capture is active (using
// it then would break that capture).
bool capturing(const context& ctx);

// Raises RuntimeError "<fn> cannot be captured in a CUDA graph: <why>" when
// capturing(ctx): the one check of every binding (and, through
// _core._refuse_capture, of the Python code) that would wait for the GPU or
// read device data on the host, so that it fails before enqueueing anything
// instead of inside the capture with the driver's error.
void refuse_capture(const context& ctx, const std::string& fn, const char* why);

// The reasons refuse_capture gives.
inline constexpr const char* output_sized_by_data =
    "the size of its output depends on the data, so it waits for the GPU to count it "
    "(nonzero, flatnonzero, count_nonzero, extract, compress, unique and unique_consecutive "
    "all do); call it outside the capture";

// Makes the arrays' device current while it lives (GPU only).
class device_guard {
 public:
  explicit device_guard(const context& ctx);
  ~device_guard();
  device_guard(const device_guard&) = delete;
  device_guard& operator=(const device_guard&) = delete;

 private:
  int previous_ = -1;
};

// A new, uninitialized array of the context's kind (NumPy, CuPy, torch on
// the same device, or a nanobind DLPack array) and its imported view.
array empty_array(const context& ctx, const std::vector<std::int64_t>& shape, dtype type);

// The Python object a binding hands back for a result it made with
// empty_array: the array itself, except when the call's input was a
// jax.Array: then a jax.Array of the same memory (zero-copy, through
// jax.dlpack.from_dlpack), on the GPU after the call's stream is waited for
// (JAX's own streams do not see gpuprim's work; one wait per call).
nb::object result_object(const context& ctx, const array& result);

// A NumPy scalar of `type` holding the bytes at `value` (host reductions).
nb::object numpy_scalar(dtype type, const void* value);

// The NumPy dtype object of `type` (cached).
nb::handle numpy_dtype(dtype type);

// Raised for a device array when the package was built without CUDA.
[[noreturn]] void no_cuda(const char* fn);

// "sum: x has dtype float16; supported: ..." as a TypeError.
[[noreturn]] void unsupported_dtype(const char* fn, const array& a, const char* supported);

bool cuda_built();

}  // namespace gpuprim::python
