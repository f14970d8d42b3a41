// ecmeta — which classes values go to Python as, and whether a class has the fields ecmeta converts
// by. The classes follow what is loaded: vLLM's while its metadata module is in sys.modules (looked
// up at each conversion, never imported: importing vLLM imports torch), else the Python package
// `ecmeta`'s, unless use_classes chose others. A dataclass is compared with the schema (its fields'
// names, order, which have defaults, and the defaults' values) before it is used, whether values
// are built as it or read from its instances; one that differs is refused, naming what differs.
// Every call needs the GIL held.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../../version.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "../messages.hpp"
#include "builder.hpp"
#include "object.hpp"

namespace ecmeta::inline ECMETA_ABI::detail::python {

// Where vLLM's classes live.
inline constexpr const char* vllm_module = "vllm.distributed.ec_transfer.ec_connector.mooncake.metadata";

// ---- a class against the schema ------------------------------------------------------------

// What the dataclasses module gives the check (strong references, kept for the process).
struct dataclasses_api {
    PyObject* fields = nullptr;   // dataclasses.fields
    PyObject* missing = nullptr;  // dataclasses.MISSING
    PyObject* marker = nullptr;   // "__dataclass_fields__"
};
inline const dataclasses_api* dataclasses() {
    static dataclasses_api api;
    if (api.fields == nullptr) {
        const ref module{PyImport_ImportModule("dataclasses")};
        if (!module) {
            return nullptr;
        }
        ref fields{PyObject_GetAttrString(module.get(), "fields")};
        ref missing{PyObject_GetAttrString(module.get(), "MISSING")};
        if (!fields || !missing) {
            return nullptr;
        }
        api = {fields.release(), missing.release(), interned("__dataclass_fields__")};
    }
    return &api;
}

// Whether cls is a dataclass (has __dataclass_fields__); -1 with a Python error set.
inline int is_dataclass(PyObject* cls) {
    const dataclasses_api* api = dataclasses();
    if (api == nullptr) {
        return -1;
    }
    return PyObject_HasAttr(cls, api->marker);
}

inline std::string repr(PyObject* v) {
    const ref text{PyObject_Repr(v)};
    const char* utf8 = text ? PyUnicode_AsUTF8(text.get()) : nullptr;
    if (utf8 == nullptr) {
        PyErr_Clear();
        return "?";
    }
    return utf8;
}

inline std::string listed(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) {
        out += (out.empty() ? "" : ", ") + n;
    }
    return out;
}

// How dataclass `cls` differs from S's schema: "" where it does not, else what differs, in the
// class's terms ("there") against ecmeta's ("here"). Sets `error` where Python raised on the way
// (a default_factory that raises, say), with the Python error set.
template <class S>
std::string differences(PyObject* cls, bool& error) {
    error = true;
    const dataclasses_api* api = dataclasses();
    const ref fields{api != nullptr ? PyObject_CallFunctionObjArgs(api->fields, cls, nullptr) : nullptr};
    if (!fields || !PyTuple_Check(fields.get())) {
        return {};
    }
    constexpr auto& keys = key_names<S>;
    constexpr std::size_t n = keys.size();
    // Ours: each field's required-ness, and its default as Python has it.
    std::array<bool, n> required{};
    std::array<ref, n> defaults;
    {
        const S blank{};
        std::size_t i = 0;
        bool built = true;
        for_each_field<S>([&](const auto& fd) {
            required[i] = fd.required;
            if (!fd.required && built) {
                defaults[i].reset(build(blank.*fd.member, classes{}));  // never a message: no class
                built = static_cast<bool>(defaults[i]);
            }
            ++i;
        });
        if (!built) {
            return {};
        }
    }
    std::vector<std::string> theirs;
    std::vector<std::string> extra;
    std::vector<std::string> parts;
    std::array<bool, n> present{};
    const Py_ssize_t count = PyTuple_GET_SIZE(fields.get());
    for (Py_ssize_t k = 0; k < count; ++k) {
        PyObject* f = PyTuple_GET_ITEM(fields.get(), k);
        const ref name{PyObject_GetAttrString(f, "name")};
        const char* utf8 = name ? PyUnicode_AsUTF8(name.get()) : nullptr;
        const ref value{utf8 != nullptr ? PyObject_GetAttrString(f, "default") : nullptr};
        const ref factory{value ? PyObject_GetAttrString(f, "default_factory") : nullptr};
        if (!factory) {
            return {};
        }
        const std::string_view field_name = utf8;
        theirs.emplace_back(field_name);
        std::size_t i = 0;
        while (i < n && keys[i] != field_name) {
            ++i;
        }
        if (i == n) {
            extra.emplace_back(field_name);
            continue;
        }
        present[i] = true;
        const bool has_default = value.get() != api->missing || factory.get() != api->missing;
        if (has_default && required[i]) {
            parts.push_back(message::class_differs::default_there(field_name));
        } else if (!has_default && !required[i]) {
            parts.push_back(message::class_differs::default_here(field_name, repr(defaults[i].get())));
        } else if (has_default) {
            const ref made{value.get() != api->missing ? ref::borrow(value.get())
                                                       : ref{PyObject_CallObject(factory.get(), nullptr)}};
            const int same = made ? PyObject_RichCompareBool(made.get(), defaults[i].get(), Py_EQ) : -1;
            if (same < 0) {
                return {};
            }
            if (same == 0) {
                parts.push_back(
                    message::class_differs::defaults(field_name, repr(made.get()), repr(defaults[i].get())));
            }
        }
    }
    error = false;
    std::vector<std::string> missing;
    for (std::size_t i = 0; i < n; ++i) {
        if (!present[i]) {
            missing.emplace_back(keys[i]);
        }
    }
    if (!missing.empty()) {
        parts.insert(parts.begin(), message::class_differs::lacks(listed(missing)));
    }
    if (!extra.empty()) {
        parts.insert(parts.begin(), message::class_differs::has(listed(extra)));
    }
    if (parts.empty() && !std::equal(theirs.begin(), theirs.end(), keys.begin(), keys.end())) {
        parts.push_back(
            message::class_differs::order(listed(theirs), listed(std::vector<std::string>(keys.begin(), keys.end()))));
    }
    if (parts.empty()) {
        return {};
    }
    std::string out = std::string{type_name(cls)} + ": ";
    for (std::size_t i = 0; i < parts.size(); ++i) {
        out += (i == 0 ? "" : "; ") + parts[i];
    }
    return out;
}

// Whether values of S may be read from instances of `type` (a dataclass whose fields are S's, or
// no dataclass at all: read by attribute), remembered for the last type that may: a one-entry
// cache, so that reading many instances of one class checks it once. Returns "" where they may,
// else why not; sets `error` where Python raised.
template <class S>
std::string readable_from(PyTypeObject* type, bool& error) {
    static PyObject* last = nullptr;  // a strong reference: its address is never another class's
    error = false;
    if (reinterpret_cast<PyObject*>(type) == last) {
        return {};
    }
    auto* cls = reinterpret_cast<PyObject*>(type);
    const int dataclass = is_dataclass(cls);
    if (dataclass < 0) {
        error = true;
        return {};
    }
    if (dataclass == 1) {
        std::string why = differences<S>(cls, error);
        if (error || !why.empty()) {
            return why;
        }
    }
    Py_INCREF(cls);
    Py_XDECREF(std::exchange(last, cls));
    return {};
}

// ---- the choice ------------------------------------------------------------------------------

// The classes chosen, and what they were chosen by. One per process, shared by every extension
// module built with these casters and the same pybind11 internals (pybind11's shared data), so
// that ecmeta.use_classes holds for all of them.
struct choice {
    classes chosen;              // null until first chosen
    PyObject* module = nullptr;  // the vLLM module they are taken from (strong), or null
    bool explicitly = false;     // by use_classes: kept until changed
    std::string refused;         // why the classes cannot be used ("" when they can)
};
#define ECMETA_PYTHON_STRING_(name) #name
#define ECMETA_PYTHON_STRING(name) ECMETA_PYTHON_STRING_(name)
inline choice& the_choice() {
    static choice* const shared = [] {
        constexpr const char* key = "ecmeta." ECMETA_PYTHON_STRING(ECMETA_ABI) ".choice";
        void* found = pybind11::get_shared_data(key);
        return static_cast<choice*>(found != nullptr ? found : pybind11::set_shared_data(key, new choice{}));
    }();
    return *shared;
}
#undef ECMETA_PYTHON_STRING
#undef ECMETA_PYTHON_STRING_

inline void forget_choice() {
    choice& c = the_choice();
    for (PyObject** p : {&c.chosen.load, &c.chosen.push, &c.chosen.connector, &c.chosen.worker, &c.module}) {
        Py_CLEAR(*p);
    }
    c.explicitly = false;
    c.refused.clear();
}

// Why these classes cannot be used ("" when they can): each that is a dataclass is compared with
// its type's schema. Sets `error` where Python raised.
inline std::string refusal(const classes& made, bool& error) {
    std::string why;
    error = false;
    std::apply(
        [&](auto... type) {
            const auto one = [&](auto t) {
                using S = decltype(t);
                PyObject* cls = class_of<S>(made);
                if (error) {
                    return;
                }
                const int dataclass = is_dataclass(cls);
                error = dataclass < 0;
                if (dataclass == 1) {
                    const std::string differs = differences<S>(cls, error);
                    if (!differs.empty()) {
                        why += (why.empty() ? "" : "; and ") + differs;
                    }
                }
            };
            (one(type), ...);
        },
        message_types{});
    return why;
}

// The four classes `source` has as attributes (a module, or any object), or all null where it
// lacks one (a module still importing: no error is left set).
inline classes classes_of(PyObject* source) {
    classes found;
    bool whole = true;
    std::apply(
        [&](auto... type) {
            const auto one = [&](auto t) {
                using S = decltype(t);
                if (whole) {
                    PyObject*& cls = class_of<S>(found);
                    cls = PyObject_GetAttrString(source, std::string{schema<S>::name}.c_str());
                    whole = cls != nullptr;
                }
            };
            (one(type), ...);
        },
        message_types{});
    if (!whole) {
        PyErr_Clear();
        for (PyObject** p : {&found.load, &found.push, &found.connector, &found.worker}) {
            Py_CLEAR(*p);
        }
    }
    return found;
}

// Whether `module` still holds the four classes chosen: false once it was reloaded (its classes
// defined again) or changed.
inline bool still_holds(PyObject* module, const classes& chosen) {
    PyObject* names = PyModule_Check(module) ? PyModule_GetDict(module) : nullptr;  // borrowed
    if (names == nullptr) {
        return false;
    }
    static const std::array<PyObject*, 4> keys = std::apply(
        [](auto... type) {
            return std::array<PyObject*, 4>{interned(std::string{schema<decltype(type)>::name}.c_str())...};
        },
        message_types{});
    const std::array<PyObject*, 4> held = {chosen.load, chosen.push, chosen.connector, chosen.worker};
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (PyDict_GetItemWithError(names, keys[i]) != held[i]) {  // borrowed
            PyErr_Clear();
            return false;
        }
    }
    return true;
}

// Makes `made` (strong references) the choice, taken from `module` (borrowed, or null).
inline void choose(classes made, PyObject* module, bool explicitly, std::string refused) {
    forget_choice();
    choice& c = the_choice();
    c.chosen = made;
    Py_XINCREF(module);
    c.module = module;
    c.explicitly = explicitly;
    c.refused = std::move(refused);
}

// The classes to build values as, or null with a Python error set (TypeError naming what differs
// where the classes in use do not match the schema). Chosen again whenever vLLM's module has
// appeared, gone, or been reloaded since the last call; a choice by use_classes stays.
inline const classes* current_classes() {
    choice& c = the_choice();
    if (!c.explicitly) {
        static PyObject* const key = interned(vllm_module);
        PyObject* module = PyDict_GetItemWithError(PyImport_GetModuleDict(), key);  // borrowed
        if (module == nullptr) {
            PyErr_Clear();
        }
        const bool current =
            c.chosen.load != nullptr && module == c.module && (module == nullptr || still_holds(module, c.chosen));
        if (!current) {
            classes made = module != nullptr ? classes_of(module) : classes{};
            PyObject* from = module;
            if (made.load == nullptr) {  // no vLLM, or a vLLM module still importing: ecmeta's own
                from = nullptr;
                if (c.chosen.load != nullptr && c.module == nullptr) {
                    made = {};  // ecmeta's already
                } else {
                    const ref package{PyImport_ImportModule("ecmeta")};
                    if (!package) {
                        return nullptr;
                    }
                    made = classes_of(package.get());
                    if (made.load == nullptr) {
                        PyErr_SetString(PyExc_ImportError, "ecmeta: the package ecmeta lacks its dataclasses");
                        return nullptr;
                    }
                }
            }
            if (made.load != nullptr) {
                bool error = false;
                std::string refused = refusal(made, error);
                if (error) {
                    for (PyObject** p : {&made.load, &made.push, &made.connector, &made.worker}) {
                        Py_CLEAR(*p);
                    }
                    return nullptr;
                }
                choose(made, from, false, std::move(refused));
            }
        }
    }
    if (!c.refused.empty()) {
        PyErr_SetString(PyExc_TypeError, c.refused.c_str());
        return nullptr;
    }
    return &c.chosen;
}

}  // namespace ecmeta::detail::python
