// ecmeta — what a type is on the wire: the member-kind dispatch, said once, and the words messages
// use for each kind. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "../id_set.hpp"
#include "reflect.hpp"
#include "schema.hpp"

namespace ecmeta::inline ECMETA_ABI::detail {

// The forms a value takes: JSON's and MessagePack's shared data model, as the Python mirror's
// field types use it. Every consumer dispatches on form_of and on nothing else: the writers,
// the size walks and the DOM hook through visit (visit.hpp); the decoder, form_text, to_default,
// validate and the JSON Schema directly. So a member type is classified here once, and one with
// no wire form fails to compile here.
enum class form : std::uint8_t {
    string,    // std::string
    u64,       // std::uint64_t
    i64,       // std::int64_t (a shape's extent, non-negative on the wire)
    boolean,   // bool
    ids,       // id_set: a list of strings
    nullable,  // std::optional<E>: E or null
    list,      // std::vector<E>
    message,   // a struct schema<T> describes: an object (JSON) or map (MessagePack) of its fields
};

template <class T>
constexpr form form_of() {
    if constexpr (std::is_same_v<T, std::string>) {
        return form::string;
    } else if constexpr (std::is_same_v<T, std::uint64_t>) {
        return form::u64;
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
        return form::i64;
    } else if constexpr (std::is_same_v<T, bool>) {
        return form::boolean;
    } else if constexpr (std::is_same_v<T, id_set>) {
        return form::ids;
    } else if constexpr (is_optional_v<T>) {
        return form::nullable;
    } else if constexpr (is_vector<T>::value) {
        return form::list;
    } else {
        static_assert(described<T>, "no wire form for this type");
        return form::message;
    }
}

// A scalar member: its default is T{}'s value, and it holds no storage to keep.
template <class T>
inline constexpr bool scalar_form = form_of<T>() == form::u64 || form_of<T>() == form::i64
                                    || form_of<T>() == form::boolean;
// Whether M is a std::vector of elements of form e.
template <class M>
constexpr bool list_of(form e) {
    if constexpr (form_of<M>() == form::list) {
        return form_of<typename M::value_type>() == e;
    } else {
        return false;
    }
}

// What messages call a value of type T: "expected <form_text<T>()>, got ...". Said here once for
// every decoder; there are names for the shapes the Python mirror's fields take.
template <class T>
constexpr std::string_view form_text() {
    constexpr form f = form_of<T>();
    if constexpr (f == form::string) {
        return "string";
    } else if constexpr (f == form::u64 || f == form::i64) {
        return "non-negative integer";
    } else if constexpr (f == form::boolean) {
        return "true or false";
    } else if constexpr (f == form::message) {
        return "object";
    } else if constexpr (f == form::ids || list_of<T>(form::string)) {
        return "array of strings";
    } else if constexpr (list_of<T>(form::i64)) {
        return "array of non-negative integers";
    } else if constexpr (list_of<T>(form::message)) {
        return "array of objects";
    } else if constexpr (form_text<typename T::value_type>() == std::string_view{"object or null"}) {
        return "array of objects or nulls";  // a list of optional messages
    } else if constexpr (f == form::nullable && form_of<typename T::value_type>() == form::message) {
        return "object or null";
    } else {
        static_assert(f == form::nullable && list_of<typename T::value_type>(form::string),
                      "no name for this type in messages");
        return "null or array of strings";
    }
}

}  // namespace ecmeta::detail
