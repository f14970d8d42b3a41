// ecmeta — places in a value and their RFC 6901 pointers, spelled only when an error or a finding
// names one. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>

namespace ecmeta::inline ECMETA_ABI::detail {

// RFC 6901: '~' becomes "~0" and '/' becomes "~1".
inline void append_pointer_token(std::string& pointer, std::string_view token) {
    pointer += '/';
    for (const char c : token) {
        if (c == '~') {
            pointer += "~0";
        } else if (c == '/') {
            pointer += "~1";
        } else {
            pointer += c;
        }
    }
}

// A place in a value: a field (by name) or an element (by index) of the place above it, or the
// root. Walks build places on the stack; the pointer is spelled only when something is reported.
struct place {
    const place* above = nullptr;  // null: the root
    std::string_view name{};       // a field's name (never empty); empty: element `index`
    std::size_t index = 0;

    void append_to(std::string& pointer) const {
        if (above == nullptr) {
            return;
        }
        above->append_to(pointer);
        if (!name.empty()) {
            append_pointer_token(pointer, name);
        } else {
            char digits[24];
            pointer += '/';
            pointer.append(digits, std::to_chars(digits, digits + sizeof digits, index).ptr);
        }
    }
    [[nodiscard]] std::string pointer() const {
        std::string out;
        append_to(out);
        return out;
    }
};

}  // namespace ecmeta::detail
