// ecmeta — values as Python objects, for the pybind11 casters: each message an instance of the
// class given for its type (classes.hpp chooses them), built as pickle builds one; id sets as
// sets, shapes as tuples, lists as lists. Every call needs the GIL held.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../../version.hpp"

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>

#include "../../id_set.hpp"
#include "../form.hpp"
#include "object.hpp"

namespace ecmeta::inline ECMETA_ABI::detail::python {

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
        // Field by field, as pickle builds an instance (object.hpp).
        constexpr std::size_t n = std::tuple_size_v<decltype(schema<T>::fields)>;
        std::array<ref, n> values;
        std::size_t i = 0;
        bool ok = true;
        for_each_field<T>([&](const auto& fd) {
            if (ok) {
                values[i].reset(build(value.*fd.member, c));
                ok = static_cast<bool>(values[i]);
            }
            ++i;
        });
        return ok ? instance_with(class_of<T>(c), field_names<T>(), values) : nullptr;
    }
}

}  // namespace ecmeta::detail::python
