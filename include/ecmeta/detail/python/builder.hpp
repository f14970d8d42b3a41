// ecmeta — values as Python objects, for the pybind11 casters: each message an instance of the
// class chosen for its type (vLLM's dataclasses when vLLM is loaded, else ecmeta's own), built as
// pickle builds one; id sets as sets, shapes as tuples, lists as lists. Every call needs the GIL
// held.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../../version.hpp"

#include <cstddef>
#include <string_view>
#include <type_traits>

#include "../../id_set.hpp"
#include "../../metadata.hpp"
#include "../form.hpp"
#include "../schema.hpp"
#include "reader.hpp"

namespace ecmeta::inline ECMETA_ABI::detail::python {

// Where vLLM's classes live; looked up in sys.modules, never imported (importing vLLM imports torch).
inline constexpr const char* vllm_module = "vllm.distributed.ec_transfer.ec_connector.mooncake.metadata";

// The classes values are built as (strong references), all null until first chosen. One set per
// process, shared by every extension module built with these casters and the same pybind11
// internals (pybind11's shared data), so that ecmeta.use_classes holds for all of them.
struct classes {
    PyObject* load = nullptr;
    PyObject* push = nullptr;
    PyObject* connector = nullptr;
    PyObject* worker = nullptr;
};
#define ECMETA_PYTHON_STRING_(name) #name
#define ECMETA_PYTHON_STRING(name) ECMETA_PYTHON_STRING_(name)
inline classes& chosen() {
    static classes* const shared = [] {
        constexpr const char* key = "ecmeta." ECMETA_PYTHON_STRING(ECMETA_ABI) ".classes";
        void* found = pybind11::get_shared_data(key);
        return static_cast<classes*>(found != nullptr ? found : pybind11::set_shared_data(key, new classes{}));
    }();
    return *shared;
}
#undef ECMETA_PYTHON_STRING
#undef ECMETA_PYTHON_STRING_

inline void forget_classes() {
    classes& c = chosen();
    for (PyObject** p : {&c.load, &c.push, &c.connector, &c.worker}) {
        Py_CLEAR(*p);
    }
}

// Sets the classes, from any object with the four as attributes; false with a Python error set.
inline bool choose_classes_from(PyObject* module) {
    ref load{PyObject_GetAttrString(module, "ECMooncakeLoadSpec")};
    ref push{PyObject_GetAttrString(module, "ECMooncakePushSpec")};
    ref connector{PyObject_GetAttrString(module, "ECMooncakeConnectorMetadata")};
    ref worker{PyObject_GetAttrString(module, "ECMooncakeWorkerMetadata")};
    if (!load || !push || !connector || !worker) {
        return false;
    }
    forget_classes();
    chosen() = {load.release(), push.release(), connector.release(), worker.release()};
    return true;
}

// The classes, chosen on first use if none are: vLLM's if its module is loaded, else ecmeta's own
// (the Python package `ecmeta`). Null with a Python error set if neither can be had.
inline const classes* current_classes() {
    if (chosen().load != nullptr) {
        return &chosen();
    }
    PyObject* module = PyDict_GetItemString(PyImport_GetModuleDict(), vllm_module);  // borrowed
    ref imported;
    if (module == nullptr) {
        imported.reset(PyImport_ImportModule("ecmeta"));
        if (!imported) {
            return nullptr;
        }
        module = imported.get();
    }
    return choose_classes_from(module) ? &chosen() : nullptr;
}

template <class T>
PyObject* class_of(const classes& c) {
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

inline PyObject* text(std::string_view s) {
    return PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), nullptr);
}

// T as a new Python object, or null with a Python error set (UnicodeDecodeError for a string that
// is not UTF-8).
template <class T>
PyObject* build(const T& value, const classes& c) {
    constexpr form f = form_of<T>();
    if constexpr (f == form::string) {
        return text(value);
    } else if constexpr (f == form::u64) {
        return PyLong_FromUnsignedLongLong(value);
    } else if constexpr (f == form::i64) {
        return PyLong_FromLongLong(value);
    } else if constexpr (f == form::boolean) {
        return PyBool_FromLong(value ? 1 : 0);
    } else if constexpr (f == form::nullable) {
        if (!value) {
            Py_RETURN_NONE;
        }
        return build(*value, c);
    } else if constexpr (f == form::ids) {
        ref set{PySet_New(nullptr)};
        if (!set) {
            return nullptr;
        }
        for (const std::string_view id : value) {
            const ref item{text(id)};
            if (!item || PySet_Add(set.get(), item.get()) != 0) {
                return nullptr;
            }
        }
        return set.release();
    } else if constexpr (f == form::list) {
        const auto n = static_cast<Py_ssize_t>(value.size());
        // A shape is a tuple, as torch.Size and the dataclasses have it; other lists are lists.
        constexpr bool tuple = form_of<typename T::value_type>() == form::i64;
        ref list{tuple ? PyTuple_New(n) : PyList_New(n)};
        if (!list) {
            return nullptr;
        }
        for (Py_ssize_t i = 0; i < n; ++i) {
            PyObject* item = build(value[static_cast<std::size_t>(i)], c);
            if (item == nullptr) {
                return nullptr;
            }
            if constexpr (tuple) {
                PyTuple_SET_ITEM(list.get(), i, item);  // steals item
            } else {
                PyList_SET_ITEM(list.get(), i, item);
            }
        }
        return list.release();
    } else {
        // Field by field into a bare instance, as pickle sets an object's state (into its managed
        // dict or its slots, past any __setattr__); by cls(**fields) where there is no bare instance.
        PyObject* cls = class_of<T>(c);
        ref made{bare_instance(cls)};
        ref fields{made ? nullptr : PyDict_New()};
        if (!made && !fields) {
            return nullptr;
        }
        const auto& names = field_names<T>();
        std::size_t i = 0;
        bool ok = true;
        for_each_field<T>([&](const auto& fd) {
            if (ok) {
                const ref item{build(value.*fd.member, c)};
                ok = item && (made ? PyObject_GenericSetAttr(made.get(), names[i], item.get())
                                   : PyDict_SetItem(fields.get(), names[i], item.get())) == 0;
            }
            ++i;
        });
        if (!ok) {
            return nullptr;
        }
        return made ? made.release() : PyObject_Call(cls, empty_tuple(), fields.get());
    }
}

}  // namespace ecmeta::detail::python
