// ecmeta — what decoding into a kept value keeps for the next decode (decode_storage<T> owns one;
// the plain calls use one per thread and type), and the rule that makes a warm value allocate
// nothing:
//   - pools: the elements a shortened list drops and the value an optional loses to null, moved
//     there and back with their buffers, so that a list may shrink and grow again;
//   - marks: per field, the most elements a list there held and the longest string there. After
//     a decode that raised a mark, every list and string of that field (in the value and in the
//     pools) is given room for it, so that a later message whose every list and string is no
//     longer than its field's mark needs no allocation, wherever its long strings sit;
//   - the buffer the JSON reader decodes a string with escapes into.
// Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <array>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "../id_set.hpp"
#include "exceptions.hpp"
#include "form.hpp"
#include "schema.hpp"

namespace ecmeta::inline ECMETA_ABI::detail {

// The most elements and the longest string (or id) decoded at one field.
struct mark {
    std::size_t count = 0;
    std::size_t length = 0;

    void take(const mark& other) noexcept {
        count = other.count > count ? other.count : count;
        length = other.length > length ? other.length : length;
    }
};

template <class E>
struct spare_pool {
    std::vector<E> items;
    std::size_t wanted = 0;  // counted by make_room's first walk, reserved by its second

    void reserve_wanted() {
        if (const std::size_t need = items.size() + wanted; need > items.capacity()) {
            items.reserve(need > 2 * items.capacity() ? need : 2 * items.capacity());
        }
        wanted = 0;
    }
};

// Scalars have no storage to keep.
template <class E>
inline constexpr bool keeps_storage = !std::is_arithmetic_v<E>;

// ---- the types a storage holds, from T's schema ---------------------------------------------

template <class... Ts>
struct type_list {};

template <class List, class T>
struct with_type;
template <class... Ts, class T>
struct with_type<type_list<Ts...>, T> {
    using type = std::conditional_t<(std::is_same_v<T, Ts> || ...), type_list<Ts...>, type_list<Ts..., T>>;
};

template <class T, class... Ts>
consteval std::size_t index_in(type_list<Ts...> /*unused*/) {
    constexpr bool same[] = {std::is_same_v<T, Ts>...};
    std::size_t i = 0;
    while (!same[i]) {
        ++i;
    }
    return i;
}

template <class T, std::size_t I>
using member_t = typename std::tuple_element_t<I, std::remove_const_t<decltype(schema<T>::fields)>>::member_type;

// Messages: every struct a T holds, at any depth. Pooled: every type a list or optional in it
// holds whose storage a pool keeps.
template <class T, class Messages, class Pooled, form F = form_of<T>()>
struct reach {
    using messages = Messages;
    using pooled = Pooled;
};
template <class T, class Messages, class Pooled>
struct reach<T, Messages, Pooled, form::list>
    : reach<typename T::value_type, Messages,
            std::conditional_t<keeps_storage<typename T::value_type>,
                               typename with_type<Pooled, typename T::value_type>::type, Pooled>> {};
template <class T, class Messages, class Pooled>
struct reach<T, Messages, Pooled, form::nullable>
    : reach<typename T::value_type, Messages, typename with_type<Pooled, typename T::value_type>::type> {};

template <class T, class Messages, class Pooled, std::size_t I = 0, bool End = I == field_count<T>()>
struct reach_fields {
    using field = reach<member_t<T, I>, Messages, Pooled>;
    using rest = reach_fields<T, typename field::messages, typename field::pooled, I + 1>;
    using messages = typename rest::messages;
    using pooled = typename rest::pooled;
};
template <class T, class Messages, class Pooled, std::size_t I>
struct reach_fields<T, Messages, Pooled, I, true> {
    using messages = Messages;
    using pooled = Pooled;
};
template <class T, class Messages, class Pooled, bool Seen>
struct reach_message : reach_fields<T, typename with_type<Messages, T>::type, Pooled> {};
template <class T, class Messages, class Pooled>
struct reach_message<T, Messages, Pooled, true> {  // reached before: its fields are in already
    using messages = Messages;
    using pooled = Pooled;
};
template <class T, class... Ms, class Pooled>
struct reach<T, type_list<Ms...>, Pooled, form::message>
    : reach_message<T, type_list<Ms...>, Pooled, (std::is_same_v<T, Ms> || ...)> {};

// Whether a value of type M holds E's directly, through lists and optionals (not inside a message).
template <class M, class E>
consteval bool holds() {
    if constexpr (std::is_same_v<M, E>) {
        return true;
    } else if constexpr (form_of<M>() == form::list || form_of<M>() == form::nullable) {
        return holds<typename M::value_type, E>();
    } else {
        return false;
    }
}

// Heap bytes a value owns (an SSO string owns none).
template <class X>
std::size_t heap_bytes(const X& x) noexcept {
    constexpr form f = form_of<X>();
    if constexpr (f == form::string) {
        return id_set_access::string_heap_bytes(x.capacity());
    } else if constexpr (f == form::ids) {
        return id_set_access::heap_bytes(x);
    } else if constexpr (f == form::nullable) {
        return x ? heap_bytes(*x) : 0;
    } else if constexpr (f == form::list) {
        std::size_t n = x.capacity() * sizeof(typename X::value_type);
        if constexpr (keeps_storage<typename X::value_type>) {
            for (const auto& e : x) {
                n += heap_bytes(e);
            }
        }
        return n;
    } else if constexpr (f == form::message) {
        std::size_t n = 0;
        for_each_field<X>([&](const auto& fd) { n += heap_bytes(x.*fd.member); });
        return n;
    } else {
        return 0;
    }
}

template <class List, template <class...> class To>
struct rebind_list;
template <class... Ts, template <class...> class To>
struct rebind_list<type_list<Ts...>, To> {
    using type = To<Ts...>;
};

template <class... Ms>
using marks_of = std::tuple<std::array<mark, field_count<Ms>()>...>;
template <class... Es>
using pools_of = std::tuple<spare_pool<Es>...>;

// The storage decoding into a T keeps. One thread at a time.
template <class T>
class storage {
    using reached = reach<T, type_list<>, type_list<>>;
    using messages = typename reached::messages;
    using pooled = typename reached::pooled;

public:
    static constexpr bool keeps = true;

    // ---- what the decoder asks of it

    template <class S, std::size_t I>
    [[nodiscard]] mark& field_mark() noexcept {
        return std::get<index_in<S>(messages{})>(marks_)[I];
    }
    [[nodiscard]] mark& root_mark() noexcept { return root_; }

    void saw_length(mark& m, std::size_t n) noexcept {
        if (n > m.length) [[unlikely]] {
            rise();
            m.length = n;
        }
    }
    void saw_count(mark& m, std::size_t n) noexcept {
        if (n > m.count) [[unlikely]] {
            rise();
            m.count = n;
        }
    }

    [[nodiscard]] std::string& escapes() noexcept { return escapes_; }

    // A kept value's id set is sorted in place: laying its bytes out again would allocate.
    static void finish_ids(id_set& set) { id_set_access::finish(set); }

    // Cuts `list` to n elements, keeping the dropped ones for a later append(). Last first, so that
    // growing the list again gives each place back the element it had.
    template <class E>
    void shorten(std::vector<E>& list, std::size_t n) {
        if constexpr (keeps_storage<E>) {
            if (n < list.size()) {
                std::vector<E>& pool = pool_of<E>().items;
                if_memory_allows([&] {  // if not, those left are freed below, as without a pool
                    for (std::size_t i = list.size(); i-- > n;) {
                        pool.push_back(std::move(list[i]));
                    }
                });
            }
        }
        list.erase(list.begin() + static_cast<std::ptrdiff_t>(n), list.end());
    }

    // Appends an element, a spare one when there is one (its old value is to be overwritten).
    template <class E>
    E& append(std::vector<E>& list) {
        if constexpr (keeps_storage<E>) {
            std::vector<E>& pool = pool_of<E>().items;
            if (!pool.empty()) {
                list.push_back(std::move(pool.back()));
                pool.pop_back();
                return list.back();
            }
        }
        return list.emplace_back();
    }

    // Makes `o` null, keeping its value for a later make_present().
    template <class E>
    void make_null(std::optional<E>& o) noexcept {
        if (o) {
            if_memory_allows([&] { pool_of<E>().items.push_back(std::move(*o)); });  // if not, it is freed
            o.reset();
        }
    }

    // The value of `o`, made from a spare one when it is null (its old value is to be overwritten).
    template <class E>
    E& make_present(std::optional<E>& o) {
        if (!o) {
            std::vector<E>& pool = pool_of<E>().items;
            if (pool.empty()) {
                return o.emplace();
            }
            o.emplace(std::move(pool.back()));
            pool.pop_back();
        }
        return *o;
    }

    // After each decode of `input_size` bytes into `value`: if the decode succeeded and raised a
    // mark, room in every list and string for its field's mark (unless that would exceed the
    // budget); if it failed, the marks as they were. Then room in the pools for all that a later
    // decode may drop from the value, and everything freed if what is kept exceeds the limit.
    void settle(T& value, std::size_t input_size, bool ok) {
        if (ok) {
            largest_ = input_size > largest_ ? input_size : largest_;
        }
        if (rose_) [[unlikely]] {
            if (!ok) {
                marks_ = before_.first;
                root_ = before_.second;
            } else if (lifted<false>(value) <= budget()) {
                lifted<true>(value);
            }
            rose_ = false;
        }
        make_room(value, false);
        make_room(value, true);
        if (limit_ != std::numeric_limits<std::size_t>::max() && bytes() > limit_) {
            release();
        }
    }

    // What the value and the pools may hold once given room for the marks: four times the
    // largest input decoded (strings and lists in memory take about twice their JSON's bytes),
    // and at least 1 MiB. Past it a value may still allocate for a message it covers, but marks
    // raised by different messages (the most ids and the longest id) never multiply into more.
    [[nodiscard]] std::size_t budget() const noexcept {
        constexpr std::size_t floor = std::size_t{1} << 20U;
        const std::size_t scaled = largest_ > std::numeric_limits<std::size_t>::max() / 4 ? largest_ : 4 * largest_;
        return scaled > floor ? scaled : floor;
    }

    // ---- what decode_storage offers

    [[nodiscard]] std::size_t bytes() const noexcept {
        std::size_t n = heap_bytes(escapes_);
        std::apply([&](const auto&... pool) { ((n += heap_bytes(pool.items)), ...); }, pools_);
        return n;
    }
    [[nodiscard]] std::size_t limit() const noexcept { return limit_; }
    void set_limit(std::size_t bytes) noexcept { limit_ = bytes; }

    // Frees the pools and the buffer, and forgets the marks.
    void release() noexcept {
        pools_ = decltype(pools_){};
        marks_ = decltype(marks_){};
        root_ = {};
        largest_ = 0;
        std::string{}.swap(escapes_);  // assigning a short string would keep the buffer
        rose_ = false;
    }

private:
    template <class E>
    [[nodiscard]] spare_pool<E>& pool_of() noexcept {
        return std::get<spare_pool<E>>(pools_);
    }

    template <std::size_t N>
    static mark widest(const std::array<mark, N>& fields) noexcept {
        mark m{};
        for (const mark& field : fields) {
            m.take(field);
        }
        return m;
    }

    // Whether a later decode into a T may drop anything into the pools: list elements that keep
    // storage, or an optional's value, at any depth.
    template <class X>
    static consteval bool may_drop() {
        constexpr form f = form_of<X>();
        if constexpr (f == form::nullable) {
            return true;
        } else if constexpr (f == form::list) {
            return keeps_storage<typename X::value_type> || may_drop<typename X::value_type>();
        } else if constexpr (f == form::message) {
            return std::apply(
                [](const auto&... fd) {
                    return (may_drop<typename std::remove_cvref_t<decltype(fd)>::member_type>() || ...);
                },
                schema<X>::fields);
        } else {
            return false;
        }
    }

    // Room in the pools for all `value` holds that a later decode into it may drop, so that
    // dropping never allocates. Walked twice: the first walk counts into each pool, the second
    // reserves. Room follows what the decoded value holds, not how many values were ever decoded.
    template <class X>
    void make_room(const X& value, bool reserve) {
        constexpr form f = form_of<X>();
        if constexpr (f == form::nullable) {
            if (value) {
                spare_pool<typename X::value_type>& pool = pool_of<typename X::value_type>();
                reserve ? pool.reserve_wanted() : static_cast<void>(++pool.wanted);
                make_room(*value, reserve);
            }
        } else if constexpr (f == form::list) {
            using E = typename X::value_type;
            if constexpr (keeps_storage<E>) {
                spare_pool<E>& pool = pool_of<E>();
                reserve ? pool.reserve_wanted() : static_cast<void>(pool.wanted += value.size());
            }
            if constexpr (may_drop<E>()) {
                for (const E& e : value) {
                    make_room(e, reserve);
                }
            }
        } else if constexpr (f == form::message && may_drop<X>()) {
            for_each_field<X>([&](const auto& fd) { make_room(value.*fd.member, reserve); });
        }
    }

    // The marks as they were before this decode raised one, to put back if it fails: garbage
    // does not raise them.
    void rise() noexcept {
        if (!rose_) {
            before_ = {marks_, root_};
            rose_ = true;
        }
    }

    // The heap bytes the value and the pools hold once given room for the marks; Apply: given it.
    template <bool Apply>
    std::size_t lifted(T& value) {
        std::size_t n = lift<Apply>(value, root_);
        std::apply([&](auto&... pool) { ((n += lift_pool<Apply>(pool)), ...); }, pools_);
        mark most = root_;  // a string with escapes is decoded whole into escapes_
        std::apply([&](const auto&... fields) { (most.take(widest(fields)), ...); }, marks_);
        n += most.length + 1;
        if constexpr (Apply) {
            escapes_.reserve(most.length);
        }
        return n;
    }

    // Room in x, at a field whose mark is m, for the longest list and string seen there (Apply),
    // and the heap bytes x then owns.
    template <bool Apply, class X>
    std::size_t lift(X& x, const mark& m) {
        constexpr form f = form_of<X>();
        if constexpr (f == form::string) {
            if constexpr (Apply) {
                x.reserve(m.length);
            }
            const std::size_t room = x.capacity() > m.length ? x.capacity() : m.length;
            return id_set_access::string_heap_bytes(room);
        } else if constexpr (f == form::ids) {
            const std::size_t most = m.length == 0 ? 0 : id_set::max_bytes() / m.length;
            const std::size_t bytes = (m.count < most ? m.count : most) * m.length;
            if constexpr (Apply) {
                id_set_access::reserve(x, m.count, bytes);
            }
            const std::size_t held = heap_bytes(x);
            const std::size_t wanted = m.count * sizeof(id_set_access::entry) + bytes + 1;
            return held > wanted ? held : wanted;
        } else if constexpr (f == form::nullable) {
            return x ? lift<Apply>(*x, m) : 0;
        } else if constexpr (f == form::list) {
            using E = typename X::value_type;
            if constexpr (Apply) {
                x.reserve(m.count);
            }
            std::size_t n = (x.capacity() > m.count ? x.capacity() : m.count) * sizeof(E);
            if constexpr (form_of<E>() == form::nullable) {
                // Values for the nulls too, in the pool, as a later list may have none.
                std::size_t held = 0;
                for (const auto& e : x) {
                    held += e.has_value() ? 1 : 0;
                }
                std::vector<typename E::value_type>& pool = pool_of<typename E::value_type>().items;
                const std::size_t have = pool.size() + held;
                if (have < m.count) {
                    if constexpr (Apply) {
                        pool.resize(m.count - held);  // given their room with the pool's
                    } else {
                        typename E::value_type fresh{};
                        n += (m.count - have) * (sizeof fresh + lift<false>(fresh, m));
                    }
                }
            }
            if constexpr (keeps_storage<E>) {
                for (auto& e : x) {
                    n += lift<Apply>(e, m);
                }
            }
            return n;
        } else if constexpr (f == form::message) {
            return lift_fields<Apply>(x, std::make_index_sequence<field_count<X>()>{});
        } else {
            return 0;
        }
    }
    template <bool Apply, class S, std::size_t... I>
    std::size_t lift_fields(S& s, std::index_sequence<I...> /*unused*/) {
        return (std::size_t{0} + ... + lift<Apply>(s.*std::get<I>(schema<S>::fields).member, field_mark<S, I>()));
    }

    // A pool's elements come from every field that holds E's: each gets room for all of theirs.
    template <bool Apply, class E>
    std::size_t lift_pool(spare_pool<E>& pool) {
        mark m{};
        if constexpr (holds<T, E>()) {
            m.take(root_);
        }
        each_field(messages{}, [&]<class S, std::size_t I>() {
            if constexpr (holds<member_t<S, I>, E>()) {
                m.take(field_mark<S, I>());
            }
        });
        std::size_t n = pool.items.capacity() * sizeof(E);
        for (E& e : pool.items) {
            n += lift<Apply>(e, m);
        }
        return n;
    }
    template <class... Ms, class F>
    static void each_field(type_list<Ms...> /*unused*/, F&& f) {
        (each_field_of<Ms>(f, std::make_index_sequence<field_count<Ms>()>{}), ...);
    }
    template <class S, class F, std::size_t... I>
    static void each_field_of(F& f, std::index_sequence<I...> /*unused*/) {
        (f.template operator()<S, I>(), ...);
    }

    typename rebind_list<messages, marks_of>::type marks_{};
    typename rebind_list<pooled, pools_of>::type pools_{};
    mark root_{};                                 // a list of messages: its length
    std::pair<decltype(marks_), mark> before_{};  // the marks before this decode raised one
    std::string escapes_{};
    std::size_t largest_ = 0;  // the longest input decoded, in bytes
    std::size_t limit_ = std::numeric_limits<std::size_t>::max();
    bool rose_ = false;
};

// A fresh value's decode keeps nothing: lists grow and optionals fill as they would anyway.
class no_storage {
public:
    static constexpr bool keeps = false;

    template <class S, std::size_t I>
    [[nodiscard]] mark& field_mark() noexcept {
        return unused_;
    }
    [[nodiscard]] mark& root_mark() noexcept { return unused_; }
    void saw_length(mark& /*unused*/, std::size_t /*unused*/) const noexcept {}
    void saw_count(mark& /*unused*/, std::size_t /*unused*/) const noexcept {}
    [[nodiscard]] std::string& escapes() noexcept { return escapes_; }

    template <class E>
    static void shorten(std::vector<E>& list, std::size_t n) {
        list.erase(list.begin() + static_cast<std::ptrdiff_t>(n), list.end());
    }
    template <class E>
    static E& append(std::vector<E>& list) {
        return list.emplace_back();
    }
    template <class E>
    static void make_null(std::optional<E>& o) noexcept {
        o.reset();
    }
    template <class E>
    static E& make_present(std::optional<E>& o) {
        return o ? *o : o.emplace();
    }
    // A fresh value's id set may allocate to lay its bytes out in order.
    static void finish_ids(id_set& set) { id_set_access::finish_fresh(set); }
    template <class T>
    static void settle(const T& /*unused*/, std::size_t /*unused*/, bool /*unused*/) noexcept {}

private:
    mark unused_{};
    std::string escapes_{};
};

// How to free every storage the plain calls made on this thread (release_thread_buffers).
inline std::vector<void (*)() noexcept>& thread_storages() noexcept {
    thread_local std::vector<void (*)() noexcept> releases;
    return releases;
}

template <class T>
storage<T>& thread_storage() {
    thread_local storage<T> kept = [] {
        thread_storages().push_back([]() noexcept { thread_storage<T>().release(); });
        return storage<T>{};
    }();
    return kept;
}

}  // namespace ecmeta::detail
