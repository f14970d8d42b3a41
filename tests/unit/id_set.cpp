// id_set: every member on cases small enough to check by hand.
#include "test.hpp"

#include <compare>
#include <iterator>
#include <set>
#include <stdexcept>
#include <unordered_set>

#if defined(__linux__)
#include <sys/mman.h>
#endif

using namespace ecmeta_test;

static_assert(std::ranges::random_access_range<id_set>);
static_assert(std::ranges::sized_range<id_set>);
static_assert(std::regular<id_set>);
static_assert(std::totally_ordered<id_set>);
static_assert(std::random_access_iterator<id_set::const_iterator>);
static_assert(std::same_as<std::ranges::range_reference_t<id_set>, std::string_view>);
static_assert(std::is_nothrow_move_constructible_v<id_set> && std::is_nothrow_swappable_v<id_set>);
// Not implicitly convertible from a range: id_set x = some_vector; must be spelled out.
static_assert(!std::is_convertible_v<std::vector<std::string>, id_set>);
static_assert(std::is_constructible_v<id_set, std::vector<std::string>>);

namespace {

std::vector<std::string> items(const id_set& s) {
    return {s.begin(), s.end()};
}

}  // namespace

TEST_CASE("id_set: an initializer list is sorted by bytes and deduplicated", "[id_set]") {
    const id_set s{"b", "a", "a", "c", "b"};
    CHECK(items(s) == std::vector<std::string>{"a", "b", "c"});
    CHECK(s.size() == 3);
    CHECK_FALSE(s.empty());
    CHECK(id_set{}.empty());
    const ECMooncakeWorkerMetadata w{.loaded = {"z", "y", "z"}};  // a designated initializer
    CHECK(items(w.loaded) == std::vector<std::string>{"y", "z"});
}

TEST_CASE("id_set: order is std::string's (unsigned bytes), NUL and 0xff included", "[id_set]") {
    const std::string nul("ab\0c", 4);
    const id_set s{"\xff", "ab", nul, "abcdefgh", "abcdefghi", "", "B", "a"};
    const std::set<std::string> model{"\xff", "ab", nul, "abcdefgh", "abcdefghi", "", "B", "a"};
    CHECK(items(s) == std::vector<std::string>(model.begin(), model.end()));
    CHECK(s.contains(nul));
    CHECK_FALSE(s.contains(std::string_view{"ab\0", 3}));
}

TEST_CASE("id_set: built from any range of string-like elements", "[id_set]") {
    const std::vector<std::string> expected{"a", "b", "c"};
    CHECK(items(id_set(std::set<std::string>{"c", "a", "b"})) == expected);
    CHECK(items(id_set(std::vector<std::string>{"c", "a", "b", "a"})) == expected);
    CHECK(items(id_set(std::unordered_set<std::string>{"c", "a", "b"})) == expected);
    CHECK(items(id_set(std::vector<std::string_view>{"b", "c", "a"})) == expected);
    const char* const raw[] = {"b", "a", "c"};
    CHECK(items(id_set(raw)) == expected);
    const std::vector<std::string> v{"c", "b", "a"};
    CHECK(items(id_set(v.rbegin(), v.rend())) == expected);
    CHECK(items(id_set(ecmeta::sorted_unique, expected)) == expected);
    CHECK(items(id_set(ecmeta::sorted_unique, {"a", "b", "c"})) == expected);
}

#ifndef NDEBUG
TEST_CASE("id_set: sorted_unique input is checked in debug builds", "[id_set]") {
    CHECK_THROWS_AS(id_set(ecmeta::sorted_unique, {"b", "a"}), std::invalid_argument);
    CHECK_THROWS_AS(id_set(ecmeta::sorted_unique, {"a", "a"}), std::invalid_argument);
}
#endif

TEST_CASE("id_set: insert reports whether the id was new and where it is", "[id_set]") {
    id_set s{"b", "d"};
    const auto [at, added] = s.insert("c");
    CHECK(added);
    CHECK(*at == "c");
    CHECK(at - s.begin() == 1);
    const auto [again, added_again] = s.insert("c");
    CHECK_FALSE(added_again);
    CHECK(*again == "c");
    CHECK(items(s) == std::vector<std::string>{"b", "c", "d"});
    // A right hint is used, a wrong one ignored; either way the set stays sorted.
    CHECK(*s.insert(s.end(), "e") == "e");
    CHECK(*s.insert(s.begin(), "a") == "a");
    CHECK(*s.insert(s.begin(), "z") == "z");
    CHECK(*s.insert(s.end(), "c") == "c");
    CHECK(items(s) == std::vector<std::string>{"a", "b", "c", "d", "e", "z"});
    std::set<std::string> model{"q", "p"};
    std::copy(model.begin(), model.end(), std::inserter(s, s.end()));
    CHECK(s.size() == 8);
    CHECK(s.contains("p"));
}

TEST_CASE("id_set: bulk insertion appends, then sorts and deduplicates once", "[id_set]") {
    id_set s{"m", "c"};
    s.insert_range(std::vector<std::string>{"z", "a", "m", "a"});
    CHECK(items(s) == std::vector<std::string>{"a", "c", "m", "z"});
    const std::vector<std::string> more{"b", "c"};
    s.insert(more.begin(), more.end());
    s.insert({"y", "b"});
    CHECK(items(s) == std::vector<std::string>{"a", "b", "c", "m", "y", "z"});
}

TEST_CASE("id_set: erase by id, by position and by range", "[id_set]") {
    id_set s{"a", "b", "c", "d", "e"};
    CHECK(s.erase("c") == 1);
    CHECK(s.erase("c") == 0);
    const auto next = s.erase(s.begin());
    CHECK(*next == "b");
    CHECK(items(s) == std::vector<std::string>{"b", "d", "e"});
    const auto after = s.erase(s.begin() + 1, s.end());
    CHECK(after == s.end());
    CHECK(items(s) == std::vector<std::string>{"b"});
    id_set t{"x1", "y1", "x2", "y2"};
    CHECK(erase_if(t, [](std::string_view id) { return id.starts_with("x"); }) == 2);
    CHECK(items(t) == std::vector<std::string>{"y1", "y2"});
    t.clear();
    CHECK(t.empty());
    CHECK(t.begin() == t.end());
}

TEST_CASE("id_set: what erase leaves behind is reclaimed, and the ids stay right", "[id_set]") {
    id_set s;
    std::set<std::string> model;
    for (int i = 0; i < 200; ++i) {
        const std::string id = "item-" + std::to_string(1000 + i) + std::string(40, 'x');
        s.insert(id);
        model.insert(id);
    }
    for (int i = 0; i < 200; i += 3) {
        const std::string id = "item-" + std::to_string(1000 + i) + std::string(40, 'x');
        CHECK(s.erase(id) == 1);
        model.erase(id);
    }
    CHECK(items(s) == std::vector<std::string>(model.begin(), model.end()));
    const id_set copy = s;  // copies hold only live bytes
    CHECK(copy == s);
    s.shrink_to_fit();
    CHECK(copy == s);
    s.reserve(1000, 64000);
    CHECK(copy == s);
}

TEST_CASE("id_set: lookups", "[id_set]") {
    const id_set s{"b", "d", "f"};
    CHECK(s.contains("d"));
    CHECK_FALSE(s.contains("e"));
    CHECK(s.count("d") == 1);
    CHECK(s.count("e") == 0);
    CHECK(*s.find("f") == "f");
    CHECK(s.find("a") == s.end());
    CHECK(*s.lower_bound("c") == "d");
    CHECK(*s.lower_bound("d") == "d");
    CHECK(*s.upper_bound("d") == "f");
    CHECK(s.lower_bound("g") == s.end());
    const auto [first, last] = s.equal_range("d");
    CHECK(last - first == 1);
    const auto [none, none_end] = s.equal_range("c");
    CHECK(none == none_end);
}

TEST_CASE("id_set: iterators are random access over string_views", "[id_set]") {
    const id_set s{"a", "b", "c", "d"};
    auto it = s.begin();
    CHECK(it[2] == "c");
    CHECK(*(it + 3) == "d");
    CHECK(*(3 + it) == "d");
    it += 2;
    CHECK(*it-- == "c");
    CHECK(*it == "b");
    CHECK(s.end() - s.begin() == 4);
    CHECK(s.begin() < s.end());
    CHECK(std::vector<std::string>(s.rbegin(), s.rend()) == std::vector<std::string>{"d", "c", "b", "a"});
    CHECK(std::ranges::distance(s) == 4);
}

TEST_CASE("id_set: == and <=> follow std::set<std::string>", "[id_set]") {
    CHECK(id_set{"a", "b"} == id_set{"b", "a"});
    CHECK(id_set{"a", "b"} != id_set{"a"});
    CHECK((id_set{"a"} <=> id_set{"a", "b"}) == std::strong_ordering::less);
    CHECK((id_set{"b"} <=> id_set{"a", "z"}) == std::strong_ordering::greater);
    CHECK((id_set{"\xff"} <=> id_set{"a"}) == std::strong_ordering::greater);  // bytes compare unsigned
    CHECK((id_set{} <=> id_set{}) == std::strong_ordering::equal);
    CHECK(id_set{"abcdefgh1"} < id_set{"abcdefgh2"});  // past the 8-byte head
}

TEST_CASE("id_set: copy, move and swap", "[id_set]") {
    id_set a{"a", "b"};
    id_set b = a;
    CHECK(b == a);
    b.insert("c");
    CHECK(a.size() == 2);  // a deep copy
    id_set c = std::move(b);
    CHECK(items(c) == std::vector<std::string>{"a", "b", "c"});
    CHECK(b.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
    swap(a, c);
    CHECK(a.size() == 3);
    CHECK(c.size() == 2);
    a = c;
    CHECK(a == c);
    a = {"q"};
    CHECK(items(a) == std::vector<std::string>{"q"});
}

#if defined(__linux__)
TEST_CASE("id_set: past max_bytes() a clear length_error, and the set unchanged", "[id_set]") {
    // A read-only, never-touched mapping: an id longer than any set may hold, costing no memory.
    const std::size_t size = id_set::max_bytes() + std::size_t{1};
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    REQUIRE(p != MAP_FAILED);
    const std::string_view huge{static_cast<const char*>(p), size};
    id_set s{"a"};
    try {
        s.insert(huge);
        FAIL("expected std::length_error");
    } catch (const std::length_error& e) {
        CHECK_THAT(e.what(), ContainsSubstring("max_bytes()"));
    }
    CHECK(items(s) == std::vector<std::string>{"a"});
    CHECK_THROWS_AS(id_set({huge}), std::length_error);
    ::munmap(p, size);
    CHECK(id_set::max_bytes() == 4294967295U);
}
#endif
