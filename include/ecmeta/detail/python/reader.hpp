// ecmeta — Python objects, for the pybind11 casters: the decoder's reader over a Python object
// graph (vLLM's dataclasses, ecmeta's, a SimpleNamespace, or dicts with the wire form's keys).
// Every call needs the GIL held.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../../version.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include <pybind11/pybind11.h>

#include "../../id_set.hpp"
#include "../fault.hpp"
#include "../messages.hpp"
#include "../schema.hpp"
#include "classes.hpp"
#include "object.hpp"

namespace ecmeta::inline ECMETA_ABI::detail::python {

// What a Python value is called in messages, in the decoders' words where it is one of JSON's
// kinds ("string", "integer -3", "array", ...), else by its type ("bytes object").
inline std::string describe(PyObject* v) {
    if (v == Py_None) {
        return found::null;
    }
    if (PyBool_Check(v)) {
        return found::boolean(v == Py_True);
    }
    if (PyLong_Check(v)) {
        int overflow = 0;
        const long long n = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (overflow == 0) {
            return found::integer(static_cast<std::int64_t>(n));
        }
        PyErr_Clear();
        const ref text{PyObject_Str(v)};
        const char* digits = text ? PyUnicode_AsUTF8(text.get()) : nullptr;
        PyErr_Clear();
        return found::integer_out_of_range(digits != nullptr ? digits : "");
    }
    if (PyFloat_Check(v)) {
        const ref text{PyObject_Repr(v)};
        const char* written = text ? PyUnicode_AsUTF8(text.get()) : nullptr;
        PyErr_Clear();
        return found::floating(written != nullptr ? written : "");
    }
    if (PyUnicode_Check(v)) {
        return found::text;
    }
    if (PyList_Check(v) || PyTuple_Check(v) || PyAnySet_Check(v)) {
        return found::array;
    }
    if (PyDict_Check(v)) {
        return found::object;
    }
    return found::python_object(Py_TYPE(v)->tp_name);
}

// Python's scalars and texts, which are never a message's object form.
inline bool scalar_or_text(PyObject* v) {
    return v == Py_None || PyBool_Check(v) || PyLong_Check(v) || PyFloat_Check(v) || PyUnicode_Check(v) ||
           PyBytes_Check(v) || PyByteArray_Check(v) || PyList_Check(v) || PyTuple_Check(v) || PyAnySet_Check(v);
}

// The decoder's reader over Python objects (a pull reader, decode.hpp). A message is a dict with
// the wire form's keys (others are skipped, as decode skips unknown keys) or any other object,
// whose fields are read as attributes by name (object_of<S>); a missing one is a missing key. A
// list is a list or a tuple (a torch.Size is one), an id set also a set or a frozenset; integers
// are ints or have __index__ (NumPy's and torch's scalars), never bools. Every value in hand is
// held by a strong reference, so a property or __index__ that changes the graph cannot free it.
// A Python exception raised on the way (a property that raises) stops the read and is kept, to be
// raised again by the caller.
class reader : public fault_state<true> {
public:
    static constexpr bool names_errors = true;
    static constexpr bool objects_by_name = true;
    using value = PyObject*;

    struct array_cursor {
        PyObject* source = nullptr;  // what is read (held by whoever holds the value)
        ref items;                   // a list or a tuple (read by index), or an iterator over a set
        bool indexed = false;
        Py_ssize_t at = 0;
        Py_ssize_t size = 0;
        ref current;
    };
    struct object_cursor {
        PyObject* source = nullptr;
        bool dict = false;
        Py_ssize_t position = 0;  // PyDict_Next's
        const std::string_view* names = nullptr;
        PyObject* const* interned = nullptr;
        std::size_t field = 0;
        std::size_t fields = 0;
        ref key;
        ref current;
    };

    explicit reader(PyObject* root) noexcept : root_(root) {}

    [[nodiscard]] value root() const noexcept { return root_; }
    static void finish() noexcept {}

    // Whether the read stopped on a Python exception of its own (kept for the caller), and whether
    // its fault is a value of the wrong Python type (for TypeError rather than a value error).
    [[nodiscard]] bool raised() const noexcept { return static_cast<bool>(error_type_); }
    [[nodiscard]] bool wrong_type() const noexcept { return wrong_type_; }
    // Sets the kept Python exception again (raised() must be true).
    void restore_error() noexcept {
        PyErr_Restore(error_type_.release(), error_value_.release(), error_traceback_.release());
    }

    std::string_view string(value v) {
        if (!PyUnicode_Check(v)) {
            mismatch(v);
            return {};
        }
        Py_ssize_t size = 0;
        const char* utf8 = PyUnicode_AsUTF8AndSize(v, &size);  // kept by the string object
        if (utf8 == nullptr) {                                 // a lone surrogate has no UTF-8
            PyErr_Clear();
            record([&] { return fault{{}, std::string{message::not_utf8}, std::nullopt, false}; });
            return {};
        }
        return {utf8, static_cast<std::size_t>(size)};
    }

    std::uint64_t u64(value v) {
        if (PyBool_Check(v) || !(PyLong_Check(v) || PyIndex_Check(v))) {
            mismatch(v);
            return 0;
        }
        const ref number{PyNumber_Index(v)};
        if (!number) {
            keep_error();
            return 0;
        }
        int overflow = 0;
        const long long n = PyLong_AsLongLongAndOverflow(number.get(), &overflow);
        if (overflow == 0 && n >= 0) {
            return static_cast<std::uint64_t>(n);
        }
        if (overflow > 0) {
            const unsigned long long u = PyLong_AsUnsignedLongLong(number.get());
            if (u != static_cast<unsigned long long>(-1) || PyErr_Occurred() == nullptr) {
                return static_cast<std::uint64_t>(u);
            }
            PyErr_Clear();
        }
        record([&] { return fault{{}, describe(number.get()), std::nullopt, true}; });  // an int, of the wrong value
        return 0;
    }

    bool boolean(value v) {
        if (!PyBool_Check(v)) {
            mismatch(v);
            return false;
        }
        return v == Py_True;
    }

    static bool null(value v) noexcept { return v == Py_None; }

    array_cursor array(value v) {
        array_cursor c;
        c.source = v;
        if (PyList_Check(v) || PyTuple_Check(v)) {
            Py_INCREF(v);
            c.items.reset(v);
            c.indexed = true;
            c.size = Py_SIZE(v);
        } else if (PyAnySet_Check(v)) {
            c.items.reset(PyObject_GetIter(v));
            c.size = PySet_GET_SIZE(v);
            if (!c.items) {
                keep_error();
            }
        } else {
            mismatch(v);
        }
        return c;
    }

    bool next(array_cursor& c, value& item) {
        if (failed_ || !c.items) {
            return false;
        }
        if (c.indexed) {
            PyObject* list = c.items.get();
            // Sized again at each step: reading an element may run Python code that resizes it.
            const Py_ssize_t size = PyList_Check(list) ? PyList_GET_SIZE(list) : PyTuple_GET_SIZE(list);
            if (c.at >= size) {
                return false;
            }
            PyObject* element = PyList_Check(list) ? PyList_GET_ITEM(list, c.at) : PyTuple_GET_ITEM(list, c.at);
            Py_INCREF(element);
            c.current.reset(element);
            ++c.at;
        } else {
            c.current.reset(PyIter_Next(c.items.get()));
            if (!c.current) {
                if (PyErr_Occurred() != nullptr) {  // a set changed size while read
                    keep_error();
                }
                return false;
            }
        }
        item = c.current.get();
        return true;
    }

    // A dict, by its keys; any other object by the attributes S names (decode.hpp asks for the
    // type where a reader has this).
    template <class S>
    object_cursor object_of(value v) {
        object_cursor c;
        if (PyDict_Check(v)) {
            c.source = v;
            c.dict = true;
            return c;
        }
        if (scalar_or_text(v)) {
            mismatch(v);
            return c;
        }
        // A dataclass is read only where its fields are S's (classes.hpp): never a field dropped.
        bool error = false;
        if (std::string why = readable_from<S>(Py_TYPE(v), error); error || !why.empty()) {
            if (error) {
                keep_error();
            } else {
                wrong_type_ = !failed_;
                record([&] { return fault{{}, std::move(why), std::nullopt, false}; });
            }
            return c;
        }
        c.source = v;
        c.names = key_names<S>.data();
        c.interned = field_names<S>().data();
        c.fields = key_names<S>.size();
        return c;
    }

    bool next(object_cursor& c, std::string_view& key, value& field) {
        if (failed_ || c.source == nullptr) {
            return false;
        }
        if (c.dict) {
            PyObject* k = nullptr;
            PyObject* v = nullptr;
            if (PyDict_Next(c.source, &c.position, &k, &v) == 0) {
                return false;
            }
            Py_INCREF(k);
            Py_INCREF(v);
            c.key.reset(k);
            c.current.reset(v);
            if (!PyUnicode_Check(k)) {
                record([&] { return fault{{}, std::string{message::string_key}, std::nullopt, false}; });
                wrong_type_ = true;
                return false;
            }
            Py_ssize_t size = 0;
            const char* utf8 = PyUnicode_AsUTF8AndSize(k, &size);
            if (utf8 == nullptr) {
                PyErr_Clear();
                record([&] { return fault{{}, std::string{message::not_utf8}, std::nullopt, false}; });
                return false;
            }
            key = {utf8, static_cast<std::size_t>(size)};
            field = v;
            return true;
        }
        while (c.field < c.fields) {
            const std::size_t i = c.field++;
            c.current.reset(PyObject_GetAttr(c.source, c.interned[i]));
            if (c.current) {
                key = c.names[i];
                field = c.current.get();
                return true;
            }
            if (PyErr_ExceptionMatches(PyExc_AttributeError) == 0) {
                keep_error();
                return false;
            }
            PyErr_Clear();  // not there: a missing key
        }
        return false;
    }

    static void unknown_key(std::string_view /*key*/) noexcept {}
    [[nodiscard]] static std::size_t reservable(const array_cursor& c, std::size_t /*element_size*/) noexcept {
        return static_cast<std::size_t>(c.size);
    }
    // Room for every id at once: a set grown id by id would copy its bytes over and over.
    static void reserve_ids(const array_cursor& c, id_set& set) {
        std::size_t bytes = 0;
        const auto count = [&bytes](PyObject* id) {
            bytes += PyUnicode_Check(id) ? static_cast<std::size_t>(PyUnicode_GET_LENGTH(id)) : 0;  // ASCII's bytes
        };
        if (c.indexed) {
            PyObject* list = c.items.get();
            PyObject** items = PySequence_Fast_ITEMS(list);
            for (Py_ssize_t i = 0; i < c.size; ++i) {
                count(items[i]);
            }
        } else if (c.items && c.size > 0) {
            // A set's ids, as digests are, mostly share one length: the first one's, for all (at
            // most 128 bytes each: a guess, never a promise to allocate for one long id).
            const ref iterator{PyObject_GetIter(c.source)};
            const ref first{iterator ? PyIter_Next(iterator.get()) : nullptr};
            if (first) {
                count(first.get());
                bytes = std::min<std::size_t>(bytes, 128) * static_cast<std::size_t>(c.size);
            }
            PyErr_Clear();
        }
        id_set_access::reserve_guess(set, static_cast<std::size_t>(c.size), bytes);
    }
    static void skip(value /*unused*/) noexcept {}
    static void stop() noexcept {}  // the cursors stop once the reader has failed

private:
    void mismatch(PyObject* v) {
        if (!failed_) {
            wrong_type_ = true;
        }
        record([&] { return fault{{}, describe(v), std::nullopt, true}; });
    }

    // Keeps the pending Python exception for the caller and stops the read.
    void keep_error() {
        if (failed_) {
            PyErr_Clear();
            return;
        }
        PyObject* type = nullptr;
        PyObject* error = nullptr;
        PyObject* traceback = nullptr;
        PyErr_Fetch(&type, &error, &traceback);
        error_type_.reset(type);
        error_value_.reset(error);
        error_traceback_.reset(traceback);
        record([&] { return fault{{}, found::python_exception, std::nullopt, false}; });
    }

    PyObject* root_;
    bool wrong_type_ = false;
    ref error_type_;
    ref error_value_;
    ref error_traceback_;
};

}  // namespace ecmeta::detail::python
