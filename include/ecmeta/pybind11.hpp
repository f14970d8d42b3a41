// ecmeta — pybind11 type casters: an extension's functions take and return the four types,
// ecmeta::id_set and lists and optionals of rank reports as the connector's own Python objects.
// Target ecmeta::pybind11 (pybind11 2.10 or later, Python 3.8 or later).
//
//   #include <ecmeta/pybind11.hpp>
//   PYBIND11_MODULE(my_ext, m) {
//       m.def("report", [](const ecmeta::ECMooncakeConnectorMetadata& step) { ... });
//   }
//
// From Python: any object with the dataclasses' attributes (vLLM's dataclasses, ecmeta's, a
// SimpleNamespace) or a dict with the wire form's keys; id sets from a set, frozenset, list or
// tuple of str; a shape from a tuple, list or torch.Size; integers from int or anything with
// __index__ (NumPy and torch scalars), never bool. A missing field follows decode's rule: a required
// one is refused, the others take their defaults; other attributes and keys are ignored. Bad
// input raises ecmeta.DecodeError (a ValueError) or, for a value of the wrong Python type,
// TypeError, worded as decode words it and naming the place as a JSON Pointer, also kept as the
// exception's `pointer` attribute: "/loads/2/nbytes: expected non-negative integer, got integer -1".
// Nothing half-converted is left behind.
//
// To Python: instances of the classes chosen for the four types. By default vLLM's
// (vllm.distributed.ec_transfer.ec_connector.mooncake.metadata) when that module is already
// loaded, looked up in sys.modules on first use and never imported; otherwise those of the
// Python package `ecmeta`. use_classes chooses others. Each message is built as pickle builds
// one (the class's __new__, then its fields set as pickle sets an object's state, without
// __init__); id sets become sets, shapes tuples, lists lists. A string that is not UTF-8 (a value built in C++) raises
// ecmeta.EncodeError naming its place.
//
// The casters stand beside pybind11/stl.h's: a list or an optional of rank reports uses the ones
// here, so a report's errors name its rank ("/2/loaded/0"). Every call needs the GIL; release
// it (pybind11::gil_scoped_release) only around work on values already converted.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "version.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>

#include "detail/decode.hpp"
#include "detail/encode.hpp"
#include "detail/python/builder.hpp"
#include "detail/python/reader.hpp"
#include "detail/storage.hpp"
#include "id_set.hpp"
#include "metadata.hpp"

namespace ecmeta::inline ECMETA_ABI::python {

// Builds values on their way to Python as instances of these classes instead of the default, in
// every extension module that shares pybind11's internals with this one; each is built as pickle
// builds one.
inline void use_classes(pybind11::handle load, pybind11::handle push, pybind11::handle connector,
                        pybind11::handle worker) {
    detail::python::forget_classes();
    detail::python::chosen() = {load.inc_ref().ptr(), push.inc_ref().ptr(), connector.inc_ref().ptr(),
                                worker.inc_ref().ptr()};
}

// Back to the default: chosen again on next use (vLLM's if loaded by then, else ecmeta's).
inline void use_default_classes() {
    detail::python::forget_classes();
}

namespace detail {

// ecmeta.DecodeError or ecmeta.EncodeError, from the Python package; ValueError where it cannot be
// imported. Looked up once.
inline PyObject* error_class(bool decoding) {
    static PyObject* classes[2] = {nullptr, nullptr};
    PyObject*& cached = classes[decoding ? 1 : 0];
    if (cached == nullptr) {
        const ecmeta::detail::python::ref module{PyImport_ImportModule("ecmeta")};
        PyObject* found =
            module ? PyObject_GetAttrString(module.get(), decoding ? "DecodeError" : "EncodeError") : nullptr;
        if (found == nullptr) {
            PyErr_Clear();
            Py_INCREF(PyExc_ValueError);
            found = PyExc_ValueError;
        }
        cached = found;
    }
    return cached;
}

// Raises type(what) with `pointer` (and `offset`, when known) as attributes.
[[noreturn]] inline void raise(PyObject* type, const ecmeta::error& e) {
    ecmeta::detail::python::ref exception{PyObject_CallFunction(type, "s", e.what())};
    if (exception) {
        const ecmeta::detail::python::ref pointer{
            PyUnicode_FromStringAndSize(e.pointer().data(), static_cast<Py_ssize_t>(e.pointer().size()))};
        ecmeta::detail::python::ref offset;
        if (e.offset()) {
            offset.reset(PyLong_FromSize_t(*e.offset()));
        } else {
            Py_INCREF(Py_None);
            offset.reset(Py_None);
        }
        if (pointer && offset && PyObject_SetAttrString(exception.get(), "pointer", pointer.get()) == 0 &&
            PyObject_SetAttrString(exception.get(), "offset", offset.get()) == 0) {
            PyErr_SetObject(type, exception.get());
        }
    }
    throw pybind11::error_already_set();
}

}  // namespace detail

// The value `source` holds, as T: one of the four types, id_set, or a list (or optional) of them.
// Throws pybind11::error_already_set with ecmeta.DecodeError or TypeError set.
template <class T>
[[nodiscard]] T from_python(pybind11::handle source) {
    T out{};
    ecmeta::detail::python::reader reader{source.ptr()};
    ecmeta::detail::no_storage fresh;
    ecmeta::detail::read_document(reader, out, fresh, false);
    if (reader.failed()) {
        if (reader.raised()) {
            reader.restore_error();
            throw pybind11::error_already_set();
        }
        detail::raise(reader.wrong_type() ? PyExc_TypeError : detail::error_class(true),
                      ecmeta::detail::to_error(reader.recorded()));
    }
    return out;
}

// value as a new Python object. Throws pybind11::error_already_set with ecmeta.EncodeError set for
// a string that is not UTF-8, or the error that stopped the classes being found.
template <class T>
[[nodiscard]] pybind11::object to_python(const T& value) {
    if constexpr (ecmeta::detail::is_optional_v<T>) {
        return value ? to_python(*value) : pybind11::none();
    } else {
        const ecmeta::detail::python::classes* classes = ecmeta::detail::python::current_classes();
        if (classes == nullptr) {
            throw pybind11::error_already_set();
        }
        PyObject* built = ecmeta::detail::python::build(value, *classes);
        if (built == nullptr) {
            if (PyErr_ExceptionMatches(PyExc_UnicodeDecodeError) != 0) {
                PyErr_Clear();
                if constexpr (std::is_same_v<T, id_set>) {
                    detail::raise(detail::error_class(false),
                                  encode_error("", std::string{ecmeta::detail::message::not_utf8}));
                } else {
                    detail::raise(detail::error_class(false), ecmeta::detail::not_utf8_error(value));
                }
            }
            throw pybind11::error_already_set();
        }
        return pybind11::reinterpret_steal<pybind11::object>(built);
    }
}

}  // namespace ecmeta::python

// One caster per type, through from_python and to_python.
#define ECMETA_PYBIND11_CASTER(Type, Name)                                                     \
    template <>                                                                                \
    class type_caster<Type> {                                                                  \
    public:                                                                                    \
        PYBIND11_TYPE_CASTER(Type, const_name(Name));                                          \
        bool load(handle source, bool /*convert*/) {                                           \
            value = ::ecmeta::python::from_python<Type>(source);                               \
            return true;                                                                       \
        }                                                                                      \
        static handle cast(const Type& v, return_value_policy /*policy*/, handle /*parent*/) { \
            return ::ecmeta::python::to_python(v).release();                                   \
        }                                                                                      \
    }

namespace pybind11::detail {
ECMETA_PYBIND11_CASTER(::ecmeta::ECMooncakeLoadSpec, "ECMooncakeLoadSpec");
ECMETA_PYBIND11_CASTER(::ecmeta::ECMooncakePushSpec, "ECMooncakePushSpec");
ECMETA_PYBIND11_CASTER(::ecmeta::ECMooncakeConnectorMetadata, "ECMooncakeConnectorMetadata");
ECMETA_PYBIND11_CASTER(::ecmeta::ECMooncakeWorkerMetadata, "ECMooncakeWorkerMetadata");
ECMETA_PYBIND11_CASTER(::ecmeta::id_set, "set[str]");
ECMETA_PYBIND11_CASTER(std::optional<::ecmeta::ECMooncakeWorkerMetadata>, "ECMooncakeWorkerMetadata | None");
ECMETA_PYBIND11_CASTER(std::vector<::ecmeta::ECMooncakeWorkerMetadata>, "list[ECMooncakeWorkerMetadata]");
ECMETA_PYBIND11_CASTER(std::vector<std::optional<::ecmeta::ECMooncakeWorkerMetadata>>,
                       "list[ECMooncakeWorkerMetadata | None]");
}  // namespace pybind11::detail

#undef ECMETA_PYBIND11_CASTER
