// ecmeta — what the Python glue shares: a strong reference, the field names as interned strings,
// the classes values are built as, and bare instances of them. Python's C API comes through
// pybind11's header, which includes <Python.h> as it must be; every call needs the GIL held.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../../version.hpp"

#include <array>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include <pybind11/pybind11.h>

#include "../../metadata.hpp"
#include "../schema.hpp"

namespace ecmeta::inline ECMETA_ABI::detail::python {

// A strong reference, released when it goes.
class ref {
public:
    ref() noexcept = default;
    explicit ref(PyObject* owned) noexcept : p_(owned) {}
    ref(const ref&) = delete;
    ref& operator=(const ref&) = delete;
    ref(ref&& other) noexcept : p_(std::exchange(other.p_, nullptr)) {}
    ref& operator=(ref&& other) noexcept {
        std::swap(p_, other.p_);
        return *this;
    }
    ~ref() { Py_XDECREF(p_); }

    // A new strong reference to `borrowed` (null stays null).
    [[nodiscard]] static ref borrow(PyObject* borrowed) noexcept {
        Py_XINCREF(borrowed);
        return ref{borrowed};
    }

    [[nodiscard]] PyObject* get() const noexcept { return p_; }
    [[nodiscard]] PyObject* release() noexcept { return std::exchange(p_, nullptr); }
    void reset(PyObject* owned = nullptr) noexcept { Py_XDECREF(std::exchange(p_, owned)); }
    explicit operator bool() const noexcept { return p_ != nullptr; }

private:
    PyObject* p_ = nullptr;
};

// An interned Python string, made once and kept for the life of the process (as CPython keeps
// interned strings).
inline PyObject* interned(const char* text) {
    return PyUnicode_InternFromString(text);
}

// The field names of S as interned Python strings, in schema order.
template <class S>
const std::array<PyObject*, std::tuple_size_v<decltype(schema<S>::fields)>>& field_names() {
    static const auto names = std::apply(
        [](const auto&... fd) {
            return std::array<PyObject*, sizeof...(fd)>{interned(std::string{fd.name}.c_str())...};
        },
        schema<S>::fields);
    return names;
}

// The field names of S as the schema has them.
template <class S>
inline constexpr auto key_names = std::apply(
    [](const auto&... fd) { return std::array<std::string_view, sizeof...(fd)>{fd.name...}; }, schema<S>::fields);

// The four message types, each with its class's name.
using message_types =
    std::tuple<ECMooncakeLoadSpec, ECMooncakePushSpec, ECMooncakeConnectorMetadata, ECMooncakeWorkerMetadata>;

// The classes values are built as (strong references, null until chosen), and where they came
// from (classes.hpp).
struct classes {
    PyObject* load = nullptr;
    PyObject* push = nullptr;
    PyObject* connector = nullptr;
    PyObject* worker = nullptr;
};

template <class T>
PyObject*& class_of(classes& c) {
    if constexpr (std::is_same_v<T, ECMooncakeLoadSpec>) {
        return c.load;
    } else if constexpr (std::is_same_v<T, ECMooncakePushSpec>) {
        return c.push;
    } else if constexpr (std::is_same_v<T, ECMooncakeConnectorMetadata>) {
        return c.connector;
    } else {
        static_assert(std::is_same_v<T, ECMooncakeWorkerMetadata>);
        return c.worker;
    }
}
template <class T>
PyObject* class_of(const classes& c) {
    return class_of<T>(const_cast<classes&>(c));
}

inline PyObject* empty_tuple() {
    static PyObject* const empty = PyTuple_New(0);
    return empty;
}

// A bare instance of cls, as pickle makes one (cls.__new__(cls), no __init__), or null (no error
// set) where cls is no class whose instances can be made so.
inline PyObject* bare_instance(PyObject* cls) {
    if (!PyType_Check(cls)) {
        return nullptr;
    }
    auto* type = reinterpret_cast<PyTypeObject*>(cls);
    if (type->tp_new == nullptr) {
        return nullptr;
    }
    PyObject* made = type->tp_new(type, empty_tuple(), nullptr);
    if (made == nullptr) {
        PyErr_Clear();
    }
    return made;
}

// An instance of cls with these fields (names[i] = values[i]), as pickle sets an object's state
// (into its managed dict or its slots, past any __setattr__); by cls(**fields) where there is no
// bare instance. Null with a Python error set.
template <std::size_t N>
PyObject* instance_with(PyObject* cls, const std::array<PyObject*, N>& names, const std::array<ref, N>& values) {
    ref made{bare_instance(cls)};
    if (made) {
        for (std::size_t i = 0; i < N; ++i) {
            if (PyObject_GenericSetAttr(made.get(), names[i], values[i].get()) != 0) {
                return nullptr;
            }
        }
        return made.release();
    }
    const ref fields{PyDict_New()};
    if (!fields) {
        return nullptr;
    }
    for (std::size_t i = 0; i < N; ++i) {
        if (PyDict_SetItem(fields.get(), names[i], values[i].get()) != 0) {
            return nullptr;
        }
    }
    return PyObject_Call(cls, empty_tuple(), fields.get());
}

inline PyObject* text(std::string_view s) {
    return PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), nullptr);
}

// A class's name without its module: what Python's cls.__name__ says.
inline std::string_view type_name(PyObject* cls) {
    const std::string_view full = reinterpret_cast<PyTypeObject*>(cls)->tp_name;
    const std::size_t dot = full.rfind('.');
    return dot == std::string_view::npos ? full : full.substr(dot + 1);
}

}  // namespace ecmeta::detail::python
