// ecmeta._ecmeta: the Python module's C++ half, on <ecmeta/pybind11.hpp>'s casters. The GIL is
// released while C++ works on values already converted (the fold, encoding, decoding).
// SPDX-License-Identifier: Apache-2.0
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

}  // namespace

PYBIND11_MODULE(_ecmeta, m) {
    m.doc() = "ecmeta's C++: conversion, the fold, the wire forms, validation";
    m.attr("__version__") = std::to_string(ECMETA_VERSION_MAJOR) + "." + std::to_string(ECMETA_VERSION_MINOR) + "." +
                            std::to_string(ECMETA_VERSION_PATCH);

    m.def(
        "aggregate",
        [](ranks reports) {
            std::optional<W> folded;
            {
                const py::gil_scoped_release released;
                folded = ecmeta::aggregate(std::move(reports));
            }
            return folded;
        },
        py::arg("reports"),
        "The ranks' reports folded in rank order with aggregate, None skipped (a rank that said nothing); "
        "None if no rank reported.");

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
                const T v = ecmeta::python::from_python<T>(value);
                std::vector<ecmeta::problem> found;
                {
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
        "What the running system would refuse in value, as (pointer, message) pairs in wire order.");

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
