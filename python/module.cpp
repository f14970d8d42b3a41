// ecmeta._ecmeta: the Python module's C++ half, on <ecmeta/pybind11.hpp>'s casters. The GIL is
// released while C++ works on values already converted (encoding, decoding, validation); the fold
// of Python report objects works on their sets with CPython's set API.
// SPDX-License-Identifier: Apache-2.0
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <ecmeta/ecmeta.hpp>
#include <ecmeta/pybind11.hpp>

namespace py = pybind11;

namespace {

using W = ecmeta::ECMooncakeWorkerMetadata;
using ranks = std::vector<std::optional<W>>;  // what aggregate folds: one report per rank, None for a silent one

template <class T>
constexpr std::string_view class_name() {
    if constexpr (std::is_same_v<T, ranks>) {
        return "ranks";  // a list of reports, as aggregate reads them
    } else {
        return ecmeta::detail::schema<T>::name;
    }
}

// Calls f(std::type_identity<T>{}) for the type `type` names: one of the four classes (vLLM's,
// ecmeta's: by name), its name, or "ranks" for a list of rank reports. Without one, the type of
// `value`: a list or tuple is the ranks' reports, any other object its class's name.
template <class F>
auto with_type(py::handle type, py::handle value, F&& f) {
    std::string name;
    if (type.is_none()) {
        if (PyList_Check(value.ptr()) || PyTuple_Check(value.ptr())) {
            name = class_name<ranks>();
        } else if (PyDict_Check(value.ptr())) {
            throw py::type_error("ecmeta: a dict does not say which type it is: pass type=");
        } else {
            name = py::str(py::type::handle_of(value).attr("__name__"));
        }
    } else if (py::isinstance<py::str>(type)) {
        name = type.cast<std::string>();
    } else {
        name = py::str(type.attr("__name__"));
    }
    using types = std::tuple<ecmeta::ECMooncakeLoadSpec, ecmeta::ECMooncakePushSpec,
                             ecmeta::ECMooncakeConnectorMetadata, W, ranks>;
    using result = decltype(f(std::type_identity<W>{}));
    std::optional<result> out;
    std::apply(
        [&](auto... t) {
            const auto one = [&](auto tag) {
                using T = decltype(tag);
                if (!out && name == class_name<T>()) {
                    out.emplace(f(std::type_identity<T>{}));
                }
            };
            (one(t), ...);
        },
        types{});
    if (!out) {
        throw py::type_error("ecmeta: no type named '" + name +
                             "': ECMooncakeLoadSpec, ECMooncakePushSpec, ECMooncakeConnectorMetadata, "
                             "ECMooncakeWorkerMetadata (the class or its name), or ranks");
    }
    return std::move(*out);
}

// The bytes of str, bytes, bytearray or memoryview: borrowed from an immutable str or bytes, else
// copied into `copy` (a mutable buffer could change while the GIL is released).
std::string_view input_bytes(py::handle data, std::string& copy) {
    if (PyUnicode_Check(data.ptr())) {
        Py_ssize_t size = 0;
        const char* utf8 = PyUnicode_AsUTF8AndSize(data.ptr(), &size);
        if (utf8 == nullptr) {
            throw py::error_already_set();
        }
        return {utf8, static_cast<std::size_t>(size)};
    }
    if (PyBytes_Check(data.ptr())) {
        return {PyBytes_AS_STRING(data.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(data.ptr()))};
    }
    const py::buffer_info info = py::buffer(py::reinterpret_borrow<py::object>(data)).request();
    copy.assign(static_cast<const char*>(info.ptr), static_cast<std::size_t>(info.size * info.itemsize));
    return copy;
}

[[noreturn]] void raise(bool decoding, const ecmeta::error& e) {
    ecmeta::python::detail::raise(ecmeta::python::detail::error_class(decoding), e);
}

// `value` (of `type`) written by encode_into(v, std::string&) with the GIL released, as Text
// (py::str or py::bytes).
template <class Text, class Encode>
py::object encode(py::handle value, py::handle type, Encode encode_into) {
    return with_type(type, value, [&]<class T>(std::type_identity<T>) -> py::object {
        const T v = ecmeta::python::from_python<T>(value);
        std::string out;
        std::optional<ecmeta::encode_error> error;
        {
            const py::gil_scoped_release released;
            error = encode_into(v, out);
        }
        if (error) {
            raise(false, *error);
        }
        return Text(out);
    });
}

// `data` read as `type` by decode_into(std::string_view, T&) with the GIL released.
template <class Decode>
py::object decode(py::handle data, py::handle type, Decode decode_into) {
    return with_type(type, py::none(), [&]<class T>(std::type_identity<T>) -> py::object {
        std::string copy;
        const std::string_view input = input_bytes(data, copy);
        std::optional<ecmeta::decode_error> error;
        T out{};
        {
            const py::gil_scoped_release released;
            error = decode_into(input, out);
        }
        if (error) {
            raise(true, *error);
        }
        return ecmeta::python::to_python(out);
    });
}

// ---- the fold of Python report objects ------------------------------------------------------
// The reports' own sets folded by CPython's set API, as the Python fold would, by the rules of
// fold_rules<W>: no id is converted to C++. An intersected set is one pass over the smallest
// input probing the others; a united one is built once. The result is new: no input's set is
// changed or handed back.

namespace fold {

namespace ed = ecmeta::detail;
using ecmeta::detail::python::ref;

enum class rule { intersect, unite, any };
template <class C>
constexpr rule kind(ed::intersected<C> /*unused*/) {
    return rule::intersect;
}
template <class C>
constexpr rule kind(ed::united<C> /*unused*/) {
    return rule::unite;
}
template <class C>
constexpr rule kind(ed::any_of<C> /*unused*/) {
    return rule::any;
}
constexpr auto rules =
    std::apply([](auto... r) { return std::array<rule, sizeof...(r)>{kind(r)...}; }, ed::fold_rules<W>::fields);
constexpr std::size_t fields = rules.size();

// The rules are in the schema's order, so that field i of one is field i of the other.
template <std::size_t... I>
consteval bool schema_order(std::index_sequence<I...> /*unused*/) {
    return (ed::same_member(std::get<I>(ed::schema<W>::fields).member, std::get<I>(ed::fold_rules<W>::fields).member) &&
            ...);
}
static_assert(schema_order(std::make_index_sequence<fields>{}));

using report = std::array<ref, fields>;  // each field's value, null where the report lacks it

ref checked(PyObject* made) {
    if (made == nullptr) {
        throw py::error_already_set();
    }
    return ref{made};
}

// Reads `r`'s fields as the casters do (a dict's keys, else attributes); false where anything is
// off the way the fold takes it (no message; a field that is no set, list or tuple, or no bool; a
// dataclass whose fields are not W's): the caller converts the reports then, which raises the
// error in decode's words. The ids are taken as the sets hold them, as the Python fold takes
// them: checking that each is a str would read every id's object, which costs more than the fold
// (docs/python.md). A Python exception from the object's own code is thrown.
bool read(PyObject* r, report& out) {
    const auto& names = ecmeta::detail::python::field_names<W>();
    const bool dict = PyDict_Check(r);
    if (ecmeta::detail::python::scalar_or_text(r)) {
        return false;
    }
    if (!dict) {
        bool error = false;
        if (!ecmeta::detail::python::readable_from<W>(Py_TYPE(r), error).empty() || error) {
            PyErr_Clear();
            return false;
        }
    }
    for (std::size_t i = 0; i < fields; ++i) {
        if (dict) {
            out[i] = ref::borrow(PyDict_GetItemWithError(r, names[i]));
        } else {
            out[i].reset(PyObject_GetAttr(r, names[i]));
            if (!out[i] && PyErr_ExceptionMatches(PyExc_AttributeError) != 0) {
                PyErr_Clear();  // not there: its default
            }
        }
        if (!out[i]) {
            if (PyErr_Occurred() != nullptr) {
                throw py::error_already_set();
            }
            continue;
        }
        PyObject* v = out[i].get();
        if (rules[i] == rule::any) {
            if (!PyBool_Check(v)) {
                return false;
            }
            continue;
        }
        if (PyList_Check(v) || PyTuple_Check(v)) {
            out[i].reset(PySet_New(v));  // ids as the casters take them
            if (!out[i]) {
                throw py::error_already_set();
            }
        } else if (!PyAnySet_Check(v)) {
            return false;
        }
    }
    return true;
}

// The ids every set has: the smallest probed against the others.
ref intersection(const std::vector<PyObject*>& sets) {
    ref out = checked(PySet_New(nullptr));
    if (sets.empty()) {
        return out;
    }
    PyObject* smallest = sets.front();
    for (PyObject* s : sets) {
        smallest = PySet_GET_SIZE(s) < PySet_GET_SIZE(smallest) ? s : smallest;
    }
    const ref ids = checked(PyObject_GetIter(smallest));
    for (ref id{PyIter_Next(ids.get())}; id; id.reset(PyIter_Next(ids.get()))) {
        bool everywhere = true;
        for (PyObject* s : sets) {
            if (s == smallest) {
                continue;
            }
            const int in = PySet_Contains(s, id.get());
            if (in < 0) {
                throw py::error_already_set();
            }
            if (in == 0) {
                everywhere = false;
                break;
            }
        }
        if (everywhere && PySet_Add(out.get(), id.get()) != 0) {
            throw py::error_already_set();
        }
    }
    if (PyErr_Occurred() != nullptr) {
        throw py::error_already_set();
    }
    return out;
}

// The ids any set has.
ref union_of(const std::vector<PyObject*>& sets) {
    ref out = checked(PySet_New(nullptr));
    for (PyObject* s : sets) {
        if (PySet_GET_SIZE(s) != 0) {
            checked(PyNumber_InPlaceOr(out.get(), s));  // set |= s: merges by the stored hashes
        }
    }
    return out;
}

// The fold, or null where a report is off the way it takes them (read()).
std::optional<py::object> of(py::handle reports) {
    PyObject* list = reports.ptr();
    if (!PyList_Check(list) && !PyTuple_Check(list)) {
        return std::nullopt;
    }
    std::vector<ref> held;  // the reports, held while their fields are read
    std::vector<report> read_reports;
    // Sized again at each step: reading a report's fields may run Python code that resizes the list.
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(list); ++i) {
        PyObject* r = PySequence_Fast_GET_ITEM(list, i);
        if (r == Py_None) {
            continue;
        }
        held.push_back(ref::borrow(r));
        if (!read(r, read_reports.emplace_back())) {
            return std::nullopt;
        }
    }
    if (read_reports.empty()) {
        return py::none();
    }
    std::array<ref, fields> folded;
    for (std::size_t i = 0; i < fields; ++i) {
        if (rules[i] == rule::any) {
            bool any = false;
            for (const report& r : read_reports) {
                any = any || r[i].get() == Py_True;
            }
            folded[i] = ref::borrow(any ? Py_True : Py_False);
            continue;
        }
        std::vector<PyObject*> sets;
        bool lacking = false;  // a report without the field has an empty set there
        for (const report& r : read_reports) {
            if (r[i]) {
                sets.push_back(r[i].get());
            } else {
                lacking = true;
            }
        }
        folded[i] =
            rules[i] == rule::unite ? union_of(sets) : (lacking ? checked(PySet_New(nullptr)) : intersection(sets));
    }
    // The first report's class where it is a dataclass that passed the check, else the one in use.
    PyObject* first = held.front().get();
    PyObject* cls = reinterpret_cast<PyObject*>(Py_TYPE(first));
    const int dataclass = PyDict_Check(first) ? 0 : ecmeta::detail::python::is_dataclass(cls);
    if (dataclass < 0) {
        throw py::error_already_set();
    }
    if (dataclass == 0) {
        const ecmeta::detail::python::classes* in_use = ecmeta::detail::python::current_classes();
        if (in_use == nullptr) {
            throw py::error_already_set();
        }
        cls = in_use->worker;
    }
    return py::reinterpret_steal<py::object>(
        checked(ecmeta::detail::python::instance_with(cls, ecmeta::detail::python::field_names<W>(), folded))
            .release());
}

}  // namespace fold

}  // namespace

PYBIND11_MODULE(_ecmeta, m) {
    m.doc() = "ecmeta's C++: conversion, the fold, the wire forms, validation";
    m.attr("__version__") = std::to_string(ECMETA_VERSION_MAJOR) + "." + std::to_string(ECMETA_VERSION_MINOR) + "." +
                            std::to_string(ECMETA_VERSION_PATCH);

    m.def(
        "aggregate",
        [](py::handle reports) -> py::object {
            if (std::optional<py::object> folded = fold::of(reports)) {
                return *folded;
            }
            // Off the way the fold takes them: converted, which raises the error in decode's words
            // (and folded in C++ should it not).
            ranks converted = ecmeta::python::from_python<ranks>(reports);
            std::optional<W> folded;
            {
                const py::gil_scoped_release released;
                folded = ecmeta::aggregate(std::move(converted));
            }
            return ecmeta::python::to_python(folded);
        },
        py::arg("reports"),
        "The ranks' reports folded in rank order with aggregate's rules, None skipped (a rank that said "
        "nothing); None if no rank reported. Folds the reports' own sets; returns the first report's class.");

    m.def(
        "encode",
        [](py::handle value, py::handle type) {
            return encode<py::str>(value, type,
                                   [](const auto& v, std::string& out) { return ecmeta::try_encode_into(v, out); });
        },
        py::arg("value"), py::arg("type") = py::none(), "value as ecmeta's canonical JSON text.");
    m.def(
        "encode_msgpack",
        [](py::handle value, py::handle type) {
            return encode<py::bytes>(
                value, type, [](const auto& v, std::string& out) { return ecmeta::try_encode_msgpack_into(v, out); });
        },
        py::arg("value"), py::arg("type") = py::none(), "value as canonical MessagePack (msgpack.packb's bytes).");
    m.def(
        "decode",
        [](py::handle data, py::handle type) {
            return decode(data, type,
                          [](std::string_view input, auto& out) { return ecmeta::try_decode_into(input, out); });
        },
        py::arg("data"), py::arg("type"), "JSON text (str or bytes) decoded as `type`, by decode's rules.");
    m.def(
        "decode_msgpack",
        [](py::handle data, py::handle type) {
            return decode(data, type, [](std::string_view input, auto& out) {
                return ecmeta::try_decode_msgpack_into(
                    std::span{reinterpret_cast<const std::uint8_t*>(input.data()), input.size()}, out);
            });
        },
        py::arg("data"), py::arg("type"), "MessagePack bytes decoded as `type`, by decode's rules.");

    m.def(
        "validate",
        [](py::handle value, py::handle type) {
            return with_type(type, value, [&]<class T>(std::type_identity<T>) {
                T v{};
                bool type_error = false;
                std::vector<ecmeta::problem> found;
                if (auto error = ecmeta::python::try_from_python(value, v, type_error)) {
                    // What does not convert is one problem: the conversion's first fault.
                    found.push_back({std::string{error->pointer()}, std::string{error->message()}});
                } else {
                    const py::gil_scoped_release released;
                    found = ecmeta::validate(v);
                }
                py::list out;
                for (const ecmeta::problem& p : found) {
                    out.append(py::make_tuple(p.pointer, p.message));
                }
                return out;
            });
        },
        py::arg("value"), py::arg("type") = py::none(),
        "What the running system would refuse in value, as (pointer, message) pairs in wire order; a value "
        "that does not convert gives one pair, the conversion's error.");

    m.def(
        "json_schema",
        [](py::handle type) {
            return with_type(type, py::none(),
                             [&]<class T>(std::type_identity<T>) { return ecmeta::json_schema<T>(); });
        },
        py::arg("type"), "The JSON Schema (draft 2020-12) of `type`'s JSON form.");

    m.def(
        "use_classes",
        [](py::handle load, py::handle push, py::handle connector, py::handle worker) {
            ecmeta::python::use_classes(load, push, connector, worker);
        },
        py::arg("load"), py::arg("push"), py::arg("connector"), py::arg("worker"),
        "Build values returned to Python as these classes (each called as pickle calls it).");
    m.def("use_default_classes", &ecmeta::python::use_default_classes,
          "Build them as vLLM's classes if vLLM is loaded at the next conversion, else as ecmeta's.");
}
