#include "arrays.hpp"

#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "gpuprim/core/runtime.hpp"

#if GPUPRIM_HAS_CUDA
#include <cuda_runtime.h>
#endif

namespace gpuprim::python {

[[noreturn]] void type_error(const std::string& msg) {
  throw nb::type_error(msg.c_str());
}
[[noreturn]] void value_error(const std::string& msg) {
  throw nb::value_error(msg.c_str());
}

namespace {

// NumPy's name of the dtype with enum value i (io::dtype's order).
const char* name_of(int i) {
  return dtype_name(static_cast<dtype>(i));
}

// Per-framework objects looked up once. They are never released (the
// interpreter may be finalizing when static destructors run).
struct frameworks {
  PyTypeObject* numpy_ndarray = nullptr;
  nb::handle numpy_empty, numpy_asarray, numpy_ascontiguousarray;
  nb::handle numpy_dtypes[dtype_count];
  nb::handle numpy_scalars[dtype_count];

  PyTypeObject* cupy_ndarray = nullptr;
  nb::handle cupy_empty, cupy_ascontiguousarray, cupy_current_stream;

  PyTypeObject* torch_tensor = nullptr;
  nb::handle torch_dtypes[dtype_count];
  nb::handle torch_raw_stream;  // torch._C._cuda_getCurrentRawStream, or None
  nb::handle torch_current_stream;
};

// A new reference kept for the life of the process.
nb::handle keep(nb::object o) {
  return o.release();
}

frameworks* load_frameworks() {
  auto* p = new frameworks;
  nb::module_ np = nb::module_::import_("numpy");
  p->numpy_ndarray = reinterpret_cast<PyTypeObject*>(keep(np.attr("ndarray")).ptr());
  p->numpy_empty = keep(np.attr("empty"));
  p->numpy_asarray = keep(np.attr("asarray"));
  p->numpy_ascontiguousarray = keep(np.attr("ascontiguousarray"));
  for (int i = 0; i < dtype_count; ++i) {
    const bool is_bool = static_cast<dtype>(i) == dtype::bool8;
    p->numpy_dtypes[i] = keep(np.attr("dtype")(name_of(i)));
    p->numpy_scalars[i] = keep(np.attr(is_bool ? "bool_" : name_of(i)));
  }
  return p;
}

// Looked up once, under the GIL. Not a function-local static with an
// initializer: its guard would be held while the initializer calls into
// Python, which may hand the GIL to another thread that then waits on the
// guard while holding the GIL (a deadlock). Here two threads may both load
// (the GIL can pass between them); the first to finish is kept.
frameworks& fw() {
  static frameworks* f = nullptr;  // constant-initialized: no guard
  if (!f) {
    frameworks* p = load_frameworks();
    if (!f) f = p;
  }
  return *f;
}

// A module already imported by the user (we never import CuPy or PyTorch
// ourselves: an array of theirs can only exist once they are).
PyObject* imported_module(const char* name) {
  PyObject* modules = PyImport_GetModuleDict();
  return PyDict_GetItemString(modules, name);  // borrowed, may be null
}

// The array type of a framework, once the user has imported it: load(m)
// keeps what we need of module m the first time and returns the type
// (null while the module is still importing); null before that.
template <class Load>
PyTypeObject* framework_type(PyTypeObject*& type, const char* module, Load load) {
  if (!type) {
    PyObject* m = imported_module(module);
    if (!m) return nullptr;
    type = load(nb::handle(m));
  }
  return type;
}

PyTypeObject* cupy_type() {
  frameworks& f = fw();
  return framework_type(f.cupy_ndarray, "cupy", [&](nb::handle m) -> PyTypeObject* {
    if (!nb::hasattr(m, "ndarray")) return nullptr;  // still importing
    // The ndarray type itself: cupy.empty is a Python wrapper around it.
    f.cupy_empty = keep(m.attr("ndarray"));
    f.cupy_ascontiguousarray = keep(m.attr("ascontiguousarray"));
    // CuPy keeps the current Stream object per thread: .ptr is cheap.
    f.cupy_current_stream = keep(nb::module_::import_("cupy.cuda").attr("get_current_stream"));
    return reinterpret_cast<PyTypeObject*>(keep(m.attr("ndarray")).ptr());
  });
}

// numpy.ma.MaskedArray, once numpy.ma is imported (a masked array cannot
// exist before).
PyTypeObject* masked_array_type() {
  static PyTypeObject* type = nullptr;
  return framework_type(type, "numpy.ma", [](nb::handle m) -> PyTypeObject* {
    if (!nb::hasattr(m, "MaskedArray")) return nullptr;  // still importing
    return reinterpret_cast<PyTypeObject*>(keep(m.attr("MaskedArray")).ptr());
  });
}

PyTypeObject* torch_type() {
  frameworks& f = fw();
  return framework_type(f.torch_tensor, "torch", [&](nb::handle m) -> PyTypeObject* {
    if (!nb::hasattr(m, "Tensor") || !nb::hasattr(m, "float64")) return nullptr;
    for (int i = 0; i < dtype_count; ++i) {
      f.torch_dtypes[i] = nb::hasattr(m, name_of(i)) ? keep(m.attr(name_of(i))) : keep(nb::none());
    }
    nb::object c = m.attr("_C");
    f.torch_raw_stream = nb::hasattr(c, "_cuda_getCurrentRawStream")
                             ? keep(c.attr("_cuda_getCurrentRawStream"))
                             : keep(nb::none());
    f.torch_current_stream = keep(m.attr("cuda").attr("current_stream"));
    return reinterpret_cast<PyTypeObject*>(keep(m.attr("Tensor")).ptr());
  });
}

bool is_instance(PyTypeObject* tp, PyTypeObject* cls) {
  return cls && (tp == cls || PyType_IsSubtype(tp, cls));
}

// A NumPy type character (dtype.char, buffer format) and item size -> dtype.
bool dtype_from_char(char c, std::size_t itemsize, dtype& out) {
  // The characters of one kind and their dtypes for item sizes 1, 2, 4 and
  // 8 (none: the kind has no such size here).
  struct kind {
    std::string_view chars;
    std::optional<dtype> of_size[4];
  };
  static const kind kinds[] = {
      {"?", {dtype::bool8, {}, {}, {}}},
      {"b", {dtype::int8, {}, {}, {}}},
      {"B", {dtype::uint8, {}, {}, {}}},
      {"e", {{}, dtype::float16, {}, {}}},
      {"f", {{}, {}, dtype::float32, {}}},
      {"d", {{}, {}, {}, dtype::float64}},
      {"hilq", {{}, dtype::int16, dtype::int32, dtype::int64}},
      {"HILQ", {{}, dtype::uint16, dtype::uint32, dtype::uint64}},
  };
  const int size = itemsize == 1   ? 0
                   : itemsize == 2 ? 1
                   : itemsize == 4 ? 2
                   : itemsize == 8 ? 3
                                   : -1;
  for (const kind& k : kinds) {
    if (k.chars.find(c) == std::string_view::npos) continue;
    if (size < 0 || !k.of_size[size]) return false;
    out = *k.of_size[size];
    return true;
  }
  return false;
}

// The type character of an integer of `size` bytes ('b' / 'B' for one byte:
// NumPy's 'q' / 'Q' family covers 2 to 8 bytes only).
char signed_char_of_size(std::size_t size) {
  return size == 1 ? 'b' : 'q';
}
char unsigned_char_of_size(std::size_t size) {
  return size == 1 ? 'B' : 'Q';
}

// "<f4"-style type strings (__cuda_array_interface__'s typestr).
bool dtype_from_typestr(const std::string& s, dtype& out) {
  if (s.size() < 3 || s[0] == '>') return false;
  const std::size_t size = std::stoul(s.substr(2));
  switch (s[1]) {
    case 'b':
      return dtype_from_char('?', size, out);
    case 'i':
      return dtype_from_char(signed_char_of_size(size), size, out);
    case 'u':
      return dtype_from_char(unsigned_char_of_size(size), size, out);
    case 'f':
      return dtype_from_char(size == 2 ? 'e' : size == 4 ? 'f' : 'd', size, out);
    default:
      return false;
  }
}

// Shape and byte strides -> whether the layout is C-contiguous.
bool c_contiguous(const array& a, const std::int64_t* byte_strides) {
  if (!byte_strides) return true;
  // An empty array has no layout to speak of (frameworks report any strides).
  for (int i = 0; i < a.ndim; ++i)
    if (a.shape[i] == 0) return true;
  std::int64_t expected = static_cast<std::int64_t>(dtype_size(a.type));
  for (int i = a.ndim - 1; i >= 0; --i) {
    if (a.shape[i] != 1 && byte_strides[i] != expected) return false;
    expected *= a.shape[i];
  }
  return true;
}

void set_ndim(array& a, std::size_t ndim, const std::string& what) {
  if (ndim > static_cast<std::size_t>(max_ndim)) {
    value_error(what + " has " + std::to_string(ndim) + " dimensions; at most " +
                std::to_string(max_ndim) + " are taken");
  }
  a.ndim = static_cast<int>(ndim);
}

std::int64_t as_int(nb::handle h) {
  return nb::cast<std::int64_t>(h);
}

// Host memory through the buffer protocol. Returns false when the layout
// is not C-contiguous.
bool import_buffer(array& a, nb::handle obj, const std::string& what, bool writable) {
  std::unique_ptr<Py_buffer, buffer_release> view(new Py_buffer{});
  int flags = PyBUF_STRIDES | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
  if (PyObject_GetBuffer(obj.ptr(), view.get(), flags) != 0) {
    view.release();  // nothing to release
    PyErr_Clear();
    if (writable) value_error(what + " is read-only");
    type_error(what + " is not an array of numbers");
  }
  const char* format = view->format ? view->format : "B";
  if (*format == '<' || *format == '@' || *format == '=') ++format;
  if (*format == '>' || *format == '!' || std::strlen(format) != 1 ||
      !dtype_from_char(*format, static_cast<std::size_t>(view->itemsize), a.type)) {
    type_error(what + " has an element type gpuprim does not take (buffer format '" +
               std::string(view->format ? view->format : "B") +
               "'); it takes bool, int8-64, uint8-64, float16 (some functions), float32, "
               "float64");
  }
  set_ndim(a, static_cast<std::size_t>(view->ndim), what);
  for (int i = 0; i < a.ndim; ++i)
    a.shape[i] = view->shape[i];
  if (!c_contiguous(a, view->strides)) return false;
  a.data = view->buf;
  a.readonly = view->readonly != 0;
  a.on_device = false;
  a.view = std::move(view);
  return true;
}

bool import_cupy(array& a, nb::handle obj, const std::string& what) {
  a.kind = framework::cupy;
  a.on_device = true;
  a.data = PyLong_AsVoidPtr(obj.attr("data").attr("ptr").ptr());
  if (PyErr_Occurred()) throw nb::python_error();
  nb::object dt = obj.attr("dtype");
  // NumPy's builtin dtype objects are singletons: compare pointers first.
  int found = -1;
  for (int i = 0; i < dtype_count && found < 0; ++i) {
    if (fw().numpy_dtypes[i].ptr() == dt.ptr()) found = i;
  }
  if (found >= 0) {
    a.type = static_cast<dtype>(found);
  } else if (const std::string c = nb::cast<std::string>(dt.attr("char"));
             c.size() != 1 ||
             !dtype_from_char(c[0], nb::cast<std::size_t>(dt.attr("itemsize")), a.type)) {
    type_error(what + " has dtype " + nb::cast<std::string>(nb::str(dt)) +
               ", which gpuprim does not take");
  }
  nb::tuple shape = nb::borrow<nb::tuple>(obj.attr("shape"));
  nb::tuple strides = nb::borrow<nb::tuple>(obj.attr("strides"));
  set_ndim(a, shape.size(), what);
  std::array<std::int64_t, max_ndim> s{};
  for (int i = 0; i < a.ndim; ++i) {
    a.shape[i] = as_int(shape[i]);
    s[i] = as_int(strides[i]);
  }
  a.device = nb::cast<int>(obj.attr("device").attr("id"));
  return c_contiguous(a, s.data());
}

bool import_torch(array& a, nb::handle obj, const std::string& what) {
  frameworks& f = fw();
  a.kind = framework::torch;
  nb::object dt = obj.attr("dtype");
  int found = -1;
  for (int i = 0; i < dtype_count; ++i) {
    if (f.torch_dtypes[i].ptr() == dt.ptr()) found = i;
  }
  if (found < 0) {
    type_error(what + " has dtype " + nb::cast<std::string>(nb::str(dt)) +
               ", which gpuprim does not take");
  }
  a.type = static_cast<dtype>(found);
  a.data = PyLong_AsVoidPtr(obj.attr("data_ptr")().ptr());
  if (PyErr_Occurred()) throw nb::python_error();
  // torch.Size is a tuple subclass.
  nb::tuple shape = nb::borrow<nb::tuple>(obj.attr("shape"));
  nb::tuple strides = nb::borrow<nb::tuple>(obj.attr("stride")());
  set_ndim(a, shape.size(), what);
  std::array<std::int64_t, max_ndim> s{};
  for (int i = 0; i < a.ndim; ++i) {
    a.shape[i] = as_int(shape[i]);
    s[i] = as_int(strides[i]) * static_cast<std::int64_t>(dtype_size(a.type));
  }
  a.device = nb::cast<int>(obj.attr("get_device")());
  a.on_device = a.device >= 0;
  if (a.on_device && !nb::cast<bool>(obj.attr("is_cuda"))) {
    value_error(what + " is a tensor on a device that is neither the CPU nor CUDA");
  }
  return c_contiguous(a, s.data());
}

int device_of_pointer(const void* p, const std::string& what) {
#if GPUPRIM_HAS_CUDA
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    cudaGetLastError();
    value_error(what + ": its __cuda_array_interface__ pointer is not CUDA memory");
  }
  return attr.device;
#else
  (void)p;
  no_cuda(what.c_str());
#endif
}

// Other CUDA arrays (Numba, ...) through __cuda_array_interface__.
bool import_cai(array& a, nb::handle obj, const std::string& what) {
  nb::dict cai = nb::borrow<nb::dict>(obj.attr("__cuda_array_interface__"));
  a.kind = framework::other;
  a.on_device = true;
  nb::tuple data = nb::borrow<nb::tuple>(cai["data"]);
  a.data = PyLong_AsVoidPtr(data[0].ptr());
  if (PyErr_Occurred()) throw nb::python_error();
  a.readonly = nb::cast<bool>(data[1]);
  if (!dtype_from_typestr(nb::cast<std::string>(cai["typestr"]), a.type)) {
    type_error(what + " has typestr " + nb::cast<std::string>(cai["typestr"]) +
               ", which gpuprim does not take");
  }
  nb::tuple shape = nb::borrow<nb::tuple>(cai["shape"]);
  set_ndim(a, shape.size(), what);
  for (int i = 0; i < a.ndim; ++i)
    a.shape[i] = as_int(shape[i]);
  bool contiguous = true;
  if (cai.contains("strides") && !cai["strides"].is_none()) {
    nb::tuple strides = nb::borrow<nb::tuple>(cai["strides"]);
    std::array<std::int64_t, max_ndim> s{};
    for (int i = 0; i < a.ndim; ++i)
      s[i] = as_int(strides[i]);
    contiguous = c_contiguous(a, s.data());
  }
  a.device = a.size() ? device_of_pointer(a.data, what) : 0;
  return contiguous;
}

// Other DLPack producers (JAX, ...) through nanobind's DLPack import.
bool import_dlpack(array& a, nb::handle obj, const std::string& what) {
  nb::ndarray<> t;
  if (!nb::try_cast(obj, t)) type_error(what + " is not an array gpuprim can read");
  a.kind = framework::other;
  const int device_type = t.device_type();
  if (device_type == nb::device::cpu::value) {
    a.on_device = false;
  } else if (device_type == nb::device::cuda::value ||
             device_type == nb::device::cuda_managed::value) {
    a.on_device = true;
    a.device = t.device_id();
  } else {
    value_error(what + " lives on a device that is neither the CPU nor CUDA");
  }
  const nb::dlpack::dtype d = t.dtype();
  const std::size_t size = d.bits / 8;
  bool ok = d.lanes == 1;
  if (d.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::Int)) {
    ok = ok && dtype_from_char(signed_char_of_size(size), size, a.type);
  } else if (d.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::UInt)) {
    ok = ok && dtype_from_char(unsigned_char_of_size(size), size, a.type);
  } else if (d.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::Float)) {
    ok = ok && dtype_from_char(size == 2 ? 'e' : size == 4 ? 'f' : 'd', size, a.type);
  } else if (d.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::Bool)) {
    ok = ok && dtype_from_char('?', size, a.type);
  } else {
    ok = false;
  }
  if (!ok) type_error(what + " has an element type gpuprim does not take");
  set_ndim(a, t.ndim(), what);
  std::array<std::int64_t, max_ndim> s{};
  for (int i = 0; i < a.ndim; ++i) {
    a.shape[i] = static_cast<std::int64_t>(t.shape(i));
    s[i] = t.stride(i) * static_cast<std::int64_t>(size);
  }
  a.data = t.data();
  return c_contiguous(a, s.data());
}

nb::tuple shape_tuple(const std::vector<std::int64_t>& shape) {
  PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(shape.size()));
  if (!t) throw nb::python_error();
  for (std::size_t i = 0; i < shape.size(); ++i) {
    PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), PyLong_FromLongLong(shape[i]));
  }
  return nb::steal<nb::tuple>(t);
}

}  // namespace

void buffer_release::operator()(Py_buffer* b) const {
  PyBuffer_Release(b);
  delete b;
}

bool cuda_built() {
  return GPUPRIM_HAS_CUDA != 0;
}

void no_cuda(const char* fn) {
  throw nb::value_error((std::string(fn) +
                         ": this gpuprim was built without the CUDA backend; it takes host "
                         "(NumPy) arrays only")
                            .c_str());
}

void unsupported_dtype(const char* fn, const array& a, const char* supported) {
  type_error(std::string(fn) + ": dtype " + dtype_name(a.type) + " is not supported (" + supported +
             ")");
}

namespace {

// jax.Array's implementation type lives in jaxlib (jaxlib.xla_extension,
// jaxlib._jax, ... by version).
bool is_jax_array(PyTypeObject* tp) {
  nb::object module = nb::handle(reinterpret_cast<PyObject*>(tp)).attr("__module__");
  const char* name = PyUnicode_Check(module.ptr()) ? PyUnicode_AsUTF8(module.ptr()) : nullptr;
  if (!name) {
    PyErr_Clear();
    return false;
  }
  return std::string_view(name).starts_with("jax");
}

// A jax.Array: on the CPU through the buffer protocol, on a GPU through
// __cuda_array_interface__ (or DLPack): its type offers a buffer for GPU
// arrays too, which would be a copy on the host. Results become jax.Array.
bool import_jax(array& a, nb::handle obj, const std::string& what, bool writable) {
  nb::tuple where = nb::borrow<nb::tuple>(obj.attr("__dlpack_device__")());
  bool contiguous;
  if (nb::cast<int>(where[0]) == nb::device::cpu::value) {
    contiguous = import_buffer(a, obj, what, writable);
  } else if (nb::hasattr(obj, "__cuda_array_interface__")) {
    contiguous = import_cai(a, obj, what);
  } else {
    contiguous = import_dlpack(a, obj, what);
  }
  a.kind = framework::other;
  a.jax = true;
  return contiguous;
}

array import_impl(nb::handle obj, const std::string& what, bool writable, bool may_copy) {
  frameworks& f = fw();
  PyTypeObject* tp = Py_TYPE(obj.ptr());
  array a;
  a.obj = nb::borrow(obj);
  bool contiguous;
  if (tp == f.numpy_ndarray) {
    contiguous = import_buffer(a, obj, what, writable);
  } else if (is_instance(tp, cupy_type())) {
    contiguous = import_cupy(a, obj, what);
  } else if (is_instance(tp, torch_type())) {
    contiguous = import_torch(a, obj, what);
  } else if (is_jax_array(tp)) {
    contiguous = import_jax(a, obj, what, writable);
  } else if (tp->tp_as_buffer && tp->tp_as_buffer->bf_getbuffer) {
    refuse_masked(obj, what);
    contiguous = import_buffer(a, obj, what, writable);
  } else if (nb::hasattr(obj, "__cuda_array_interface__")) {
    contiguous = import_cai(a, obj, what);
  } else if (nb::hasattr(obj, "__dlpack__")) {
    contiguous = import_dlpack(a, obj, what);
  } else {
    // Lists, tuples, scalars: as NumPy reads them.
    nb::object converted;
    try {
      converted = f.numpy_asarray(obj);
    } catch (nb::python_error&) {
      type_error(what + " is not an array");
    }
    if (!may_copy) type_error(what + " is not an array");
    return import_impl(converted, what, writable, false);
  }
  if (writable && a.readonly) value_error(what + " is read-only");
  if (contiguous) return a;
  if (writable || !may_copy || a.kind == framework::other) {
    value_error(what + " is not C-contiguous");
  }
  // A contiguous copy on the array's own device, by its own framework.
  nb::object c = a.kind == framework::torch  ? nb::object(obj.attr("contiguous")())
                 : a.kind == framework::cupy ? nb::object(f.cupy_ascontiguousarray(obj))
                                             : nb::object(f.numpy_ascontiguousarray(obj));
  return import_impl(c, what, false, false);
}

}  // namespace

void refuse_masked(nb::handle obj, const std::string& what) {
  if (!is_instance(Py_TYPE(obj.ptr()), masked_array_type())) return;
  type_error(what +
             " is a numpy.ma.MaskedArray; gpuprim does not read masks (its data would be used "
             "as if nothing were masked). Pass x.compressed() to drop the masked elements or "
             "x.filled(value) to replace them");
}

array import_array(nb::handle obj, const std::string& what, bool writable) {
  return import_impl(obj, what, writable, true);
}

context make_context(const char* fn, std::initializer_list<const array*> arrays,
                     nb::handle stream) {
  context ctx;
  const array* first = *arrays.begin();
  ctx.kind = first->kind;
  ctx.on_device = first->on_device;
  ctx.device = first->device;
  ctx.like = first->obj;
  ctx.like_type = first->type;
  ctx.jax = first->jax;
  for (const array* a : arrays) {
    if (a->on_device != ctx.on_device) {
      value_error(std::string(fn) +
                  ": the arrays are on the host and on a GPU; gpuprim copies nothing between "
                  "them (move them with your framework first)");
    }
    if (a->on_device && a->device != ctx.device) {
      value_error(std::string(fn) + ": the arrays are on different GPUs (" +
                  std::to_string(ctx.device) + " and " + std::to_string(a->device) + ")");
    }
  }
  // The stream is checked for every call (host calls ignore it).
  std::intptr_t handle = 0;
  bool given = true;
  if (stream.is_none()) {
    given = false;
  } else if (PyLong_Check(stream.ptr())) {
    handle = nb::cast<std::intptr_t>(stream);
  } else if (nb::hasattr(stream, "__cuda_stream__")) {
    nb::object s = stream.attr("__cuda_stream__")();
    handle = nb::cast<std::intptr_t>(nb::borrow<nb::tuple>(s)[1]);
  } else if (nb::hasattr(stream, "cuda_stream")) {  // torch.cuda.Stream
    handle = nb::cast<std::intptr_t>(stream.attr("cuda_stream"));
  } else if (nb::hasattr(stream, "ptr")) {  // cupy.cuda.Stream
    handle = nb::cast<std::intptr_t>(stream.attr("ptr"));
  } else {
    type_error(std::string(fn) +
               ": stream must be None, an int (a cudaStream_t) or a stream object (with "
               "__cuda_stream__, .cuda_stream or .ptr)");
  }
  if (!ctx.on_device) return ctx;
  if (!cuda_built()) no_cuda(fn);
  if (!given) {
    frameworks& f = fw();
    if (ctx.kind == framework::cupy) {
      handle = nb::cast<std::intptr_t>(f.cupy_current_stream().attr("ptr"));
    } else if (ctx.kind == framework::torch) {
      handle =
          !f.torch_raw_stream.is_none()
              ? nb::cast<std::intptr_t>(f.torch_raw_stream(ctx.device))
              : nb::cast<std::intptr_t>(f.torch_current_stream(ctx.device).attr("cuda_stream"));
    }
  }
  ctx.stream = reinterpret_cast<stream_t>(handle);
  return ctx;
}

bool capturing(const context& ctx) {
#if GPUPRIM_HAS_CUDA
  if (!ctx.on_device) return false;
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  const cudaError_t code =
      cudaStreamIsCapturing(reinterpret_cast<cudaStream_t>(ctx.stream), &status);
  if (code != cudaSuccess) {
    cudaGetLastError();  // not sticky
    return code == cudaErrorStreamCaptureImplicit;
  }
  return status != cudaStreamCaptureStatusNone;
#else
  (void)ctx;
  return false;
#endif
}

void refuse_capture(const context& ctx, const std::string& fn, const char* why) {
  if (!capturing(ctx)) return;
  throw std::runtime_error(fn + " cannot be captured in a CUDA graph: " + why);
}

device_guard::device_guard(const context& ctx) {
#if GPUPRIM_HAS_CUDA
  if (!ctx.on_device) return;
  int current = 0;
  cudaGetDevice(&current);
  if (current != ctx.device) {
    previous_ = current;
    cudaSetDevice(ctx.device);
  }
#else
  (void)ctx;
#endif
}

device_guard::~device_guard() {
#if GPUPRIM_HAS_CUDA
  if (previous_ >= 0) cudaSetDevice(previous_);
#endif
}

array empty_array(const context& ctx, const std::vector<std::int64_t>& shape, dtype type) {
  frameworks& f = fw();
  nb::object out;
  // A device array made here: described from what is known (importing it
  // back would read nanobind's ndarray through the buffer protocol, which
  // a device array does not serve).
  const auto made = [&](void* data) {
    array a;
    a.obj = out;
    a.type = type;
    a.kind = ctx.kind;
    a.on_device = ctx.on_device;
    a.device = ctx.device;
    a.ndim = static_cast<int>(shape.size());
    for (int i = 0; i < a.ndim; ++i)
      a.shape[i] = shape[i];
    a.data = data;
    return a;
  };
  switch (ctx.kind) {
    case framework::cupy:
    case framework::torch: {
      // The framework's own allocation; only its pointer is read back.
      if (ctx.kind == framework::cupy) {
        out = f.cupy_empty(shape_tuple(shape), f.numpy_dtypes[static_cast<int>(type)]);
      } else if (type == ctx.like_type) {
        out = ctx.like.attr("new_empty")(shape_tuple(shape));
      } else {
        nb::handle dt = f.torch_dtypes[static_cast<int>(type)];
        if (dt.is_none()) {
          type_error(std::string("this PyTorch has no ") + dtype_name(type) + " dtype");
        }
        out = ctx.like.attr("new_empty")(shape_tuple(shape), nb::arg("dtype") = dt);
      }
      nb::object ptr = ctx.kind == framework::cupy ? nb::object(out.attr("data").attr("ptr"))
                                                   : nb::object(out.attr("data_ptr")());
      void* data = PyLong_AsVoidPtr(ptr.ptr());
      if (PyErr_Occurred()) throw nb::python_error();
      return made(data);
    }
    case framework::other:
      if (ctx.on_device) {
        std::size_t n = dtype_size(type);
        std::vector<std::size_t> dims;
        for (std::int64_t s : shape) {
          n *= static_cast<std::size_t>(s);
          dims.push_back(static_cast<std::size_t>(s));
        }
        void* p = n ? detail::device_allocate(n, "gpuprim") : nullptr;
        nb::capsule owner(p, [](void* q) noexcept {
          if (q) detail::device_free(q);
        });
        nb::dlpack::dtype d{};
        d.code = static_cast<std::uint8_t>(is_floating(type)         ? nb::dlpack::dtype_code::Float
                                           : is_signed_integer(type) ? nb::dlpack::dtype_code::Int
                                           : type == dtype::bool8    ? nb::dlpack::dtype_code::Bool
                                                                  : nb::dlpack::dtype_code::UInt);
        d.bits = static_cast<std::uint8_t>(8 * dtype_size(type));
        d.lanes = 1;
        nb::ndarray<> t(p, dims.size(), dims.data(), owner, nullptr, d, nb::device::cuda::value,
                        ctx.device);
        out = nb::cast(t);
        return made(p);
      }
      [[fallthrough]];
    case framework::numpy:
      out = f.numpy_empty(shape_tuple(shape), f.numpy_dtypes[static_cast<int>(type)]);
      break;
  }
  return import_array(out, "result", true);
}

nb::object result_object(const context& ctx, const array& result) {
  if (!ctx.jax) return result.obj;
  if (ctx.on_device) {
    const device_guard guard(ctx);
    const nb::gil_scoped_release release;
    synchronize(ctx.stream);
  }
  // Looked up once, under the GIL (as fw(): the import runs Python code).
  static PyObject* from_dlpack = nullptr;
  if (!from_dlpack) {
    nb::handle f = keep(nb::module_::import_("jax.dlpack").attr("from_dlpack"));
    if (!from_dlpack) from_dlpack = f.ptr();
  }
  return nb::handle(from_dlpack)(result.obj);
}

nb::handle numpy_dtype(dtype type) {
  return fw().numpy_dtypes[static_cast<int>(type)];
}

nb::object numpy_scalar(dtype type, const void* value) {
  nb::handle make = fw().numpy_scalars[static_cast<int>(type)];
  return visit_dtype(type, [&]<class T>(type_tag<T>) -> nb::object {
    T v;
    std::memcpy(&v, value, sizeof(T));
    if constexpr (std::is_same_v<T, bool>) {
      return make(nb::bool_(v));
    } else if constexpr (std::is_floating_point_v<T>) {
      return make(nb::float_(static_cast<double>(v)));
    } else {
      return make(nb::int_(v));
    }
  });
}

}  // namespace gpuprim::python
