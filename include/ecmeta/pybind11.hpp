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
// To Python: instances of the classes in use for the four types: vLLM's
// (vllm.distributed.ec_transfer.ec_connector.mooncake.metadata) while that module is in
// sys.modules, looked up at each conversion and never imported; otherwise those of the Python
// package `ecmeta`; or those use_classes chose. Each message is built as pickle builds one (the
// class's __new__, then its fields set as pickle sets an object's state, without __init__); id
// sets become sets, shapes tuples, lists lists. A string that is not UTF-8 (a value built in C++)
// raises ecmeta.EncodeError naming its place.
//
// Every dataclass, whether values are built as it or read from it, is first compared with the
// schema (its fields' names, order, defaults); one that differs is refused with TypeError naming
// what differs, never half-converted.
//
// By pybind11's rules, a caster declines (load() returns false, so the next overload is tried) an
// object that is no message of its kind at all: None, a bool, a number (anything with __index__,
// __int__ or __float__), a str, bytes or another buffer; a list, tuple or set where one message is
// expected; an instance of another of the four classes. A
// message-shaped object with a bad field raises. The casters of std::vector and std::optional of
// the four types take over from pybind11/stl.h's, so an element's index stays in the pointer
// ("/2/loaded/0"). Every call needs the GIL; release it (pybind11::gil_scoped_release) only
// around work on values already converted.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "version.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>

#include "detail/decode.hpp"
#include "detail/encode.hpp"
#include "detail/python/builder.hpp"
#include "detail/python/classes.hpp"
#include "detail/python/reader.hpp"
#include "detail/storage.hpp"
#include "id_set.hpp"
#include "metadata.hpp"

namespace ecmeta::inline ECMETA_ABI::python {

// Builds values on their way to Python as instances of these classes instead of those of vLLM or
// ecmeta, in every extension module that shares pybind11's internals with this one, until
// use_default_classes; each is built as pickle builds one. A dataclass among them whose fields are
// not its type's raises TypeError naming what differs, and the classes in use stay as they were.
inline void use_classes(pybind11::handle load, pybind11::handle push, pybind11::handle connector,
                        pybind11::handle worker) {
    namespace py = ecmeta::detail::python;
    const py::classes given{load.ptr(), push.ptr(), connector.ptr(), worker.ptr()};
    bool error = false;
    const std::string refused = py::refusal(given, error);
    if (error) {
        throw pybind11::error_already_set();
    }
    if (!refused.empty()) {
        throw pybind11::type_error(refused);
    }
    py::choose({load.inc_ref().ptr(), push.inc_ref().ptr(), connector.inc_ref().ptr(), worker.inc_ref().ptr()}, nullptr,
               true, {});
}

// Back to the default: vLLM's classes while its module is loaded, else ecmeta's.
inline void use_default_classes() {
    ecmeta::detail::python::forget_choice();
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

// Whether `source` is of T's kind at all, so that T's caster takes it (and raises if a field is
// bad) rather than declining it for the next overload (the header's comment lists what is not).
template <class T>
[[nodiscard]] bool of_kind(PyObject* source) {
    namespace py = ecmeta::detail::python;
    if constexpr (ecmeta::detail::is_optional_v<T>) {
        return source == Py_None || of_kind<typename T::value_type>(source);
    } else if constexpr (ecmeta::detail::is_vector<T>::value) {
        return PyList_Check(source) || PyTuple_Check(source);
    } else if constexpr (std::is_same_v<T, id_set>) {
        return PyList_Check(source) || PyTuple_Check(source) || PyAnySet_Check(source);
    } else {
        // Numbers of any kind (NumPy's and torch's scalars too) and other bytes-like objects.
        if (py::scalar_or_text(source) || PyNumber_Check(source) != 0 || PyObject_CheckBuffer(source) != 0) {
            return false;
        }
        // An instance of another message's class: that message's caster takes it.
        const std::string_view name = py::type_name(reinterpret_cast<PyObject*>(Py_TYPE(source)));
        bool other = false;
        std::apply(
            [&](auto... type) {
                ((other = other ||
                          (!std::is_same_v<decltype(type), T> && name == ecmeta::detail::schema<decltype(type)>::name)),
                 ...);
            },
            py::message_types{});
        return !other;
    }
}

}  // namespace detail

// The value `source` holds, as T (one of the four types, id_set, or a list or optional of them),
// into `out`; or the error that says why it cannot be, with `out` left as T{}. `type_error` says
// whether that error is a value of the wrong Python type (TypeError) rather than a wrong value.
// Throws pybind11::error_already_set for a Python exception raised by the object's own code (a
// property that raises), as it was raised.
template <class T>
[[nodiscard]] std::optional<decode_error> try_from_python(pybind11::handle source, T& out, bool& type_error) {
    ecmeta::detail::python::reader reader{source.ptr()};
    ecmeta::detail::no_storage fresh;
    ecmeta::detail::read_document(reader, out, fresh, false);
    type_error = false;
    if (!reader.failed()) {
        return std::nullopt;
    }
    out = T{};
    if (reader.raised()) {
        reader.restore_error();
        throw pybind11::error_already_set();
    }
    type_error = reader.wrong_type();
    return ecmeta::detail::to_error(reader.recorded());
}

// The value `source` holds, as T. Throws pybind11::error_already_set with ecmeta.DecodeError or
// TypeError set, or the object's own exception.
template <class T>
[[nodiscard]] T from_python(pybind11::handle source) {
    T out{};
    bool type_error = false;
    if (auto error = try_from_python(source, out, type_error)) {
        detail::raise(type_error ? PyExc_TypeError : detail::error_class(true), *error);
    }
    return out;
}

// value as a new Python object. Throws pybind11::error_already_set with ecmeta.EncodeError set for
// a string that is not UTF-8, TypeError where the classes in use do not match the schema, or the
// error that stopped the classes being found.
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
            if (!::ecmeta::python::detail::of_kind<Type>(source.ptr())) {                      \
                return false;                                                                  \
            }                                                                                  \
            value = ::ecmeta::python::from_python<Type>(source);                               \
            return true;                                                                       \
        }                                                                                      \
        static handle cast(const Type& v, return_value_policy /*policy*/, handle /*parent*/) { \
            return ::ecmeta::python::to_python(v).release();                                   \
        }                                                                                      \
    }
// A message, and a list and an optional of it.
#define ECMETA_PYBIND11_MESSAGE_CASTERS(Type, Name)              \
    ECMETA_PYBIND11_CASTER(Type, Name);                          \
    ECMETA_PYBIND11_CASTER(std::vector<Type>, "list[" Name "]"); \
    ECMETA_PYBIND11_CASTER(std::optional<Type>, Name " | None")

namespace pybind11::detail {
ECMETA_PYBIND11_MESSAGE_CASTERS(::ecmeta::ECMooncakeLoadSpec, "ECMooncakeLoadSpec");
ECMETA_PYBIND11_MESSAGE_CASTERS(::ecmeta::ECMooncakePushSpec, "ECMooncakePushSpec");
ECMETA_PYBIND11_MESSAGE_CASTERS(::ecmeta::ECMooncakeConnectorMetadata, "ECMooncakeConnectorMetadata");
ECMETA_PYBIND11_MESSAGE_CASTERS(::ecmeta::ECMooncakeWorkerMetadata, "ECMooncakeWorkerMetadata");
ECMETA_PYBIND11_CASTER(::ecmeta::id_set, "set[str]");
ECMETA_PYBIND11_CASTER(std::vector<std::optional<::ecmeta::ECMooncakeWorkerMetadata>>,
                       "list[ECMooncakeWorkerMetadata | None]");
}  // namespace pybind11::detail

#undef ECMETA_PYBIND11_MESSAGE_CASTERS
#undef ECMETA_PYBIND11_CASTER
