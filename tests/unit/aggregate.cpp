// aggregate: the member forms and the range fold, on cases small enough to check by hand.
#include "test.hpp"

#include <algorithm>
#include <initializer_list>
#include <iterator>
#include <list>
#include <optional>

using namespace ecmeta_test;

namespace {

const ECMooncakeWorkerMetadata rank0{.loaded = {"a", "b", "c"}, .failed_loads = {"x"}, .pending_saves = false};
const ECMooncakeWorkerMetadata rank1{.loaded = {"b", "c", "d"}, .reclaimed = {"r"}, .failed_saves = {"req-1"}};
const ECMooncakeWorkerMetadata rank2{.loaded = {"c", "b"}, .failed_loads = {"a"}, .pending_saves = true};

const ECMooncakeWorkerMetadata expected{.loaded = {"b", "c"},
                                        .failed_loads = {"a", "x"},
                                        .reclaimed = {"r"},
                                        .pending_saves = true,
                                        .failed_saves = {"req-1"}};

// A report type of someone else's: the range fold only needs the concept.
struct max_report {
    int value = 0;
    [[nodiscard]] max_report aggregate(const max_report& o) const { return {std::max(value, o.value)}; }
    friend bool operator==(const max_report&, const max_report&) = default;
};
static_assert(ecmeta::connector_worker_metadata<max_report>);

// A minimal view over an iterator pair (clang 14 cannot instantiate libstdc++ 12's subrange).
template <class It>
class iterator_view : public std::ranges::view_base {
public:
    iterator_view(It first, It last) : first_(first), last_(last) {}
    It begin() const { return first_; }
    It end() const { return last_; }

private:
    It first_, last_;
};

}  // namespace

TEST_CASE("a.aggregate(b): loaded intersected, failures united, pending or-ed", "[aggregate]") {
    const auto r = rank0.aggregate(rank1).aggregate(rank2);
    CHECK(r == expected);
}

TEST_CASE("the const& form leaves both operands untouched", "[aggregate]") {
    const auto a = rank0;
    const auto b = rank1;
    static_cast<void>(a.aggregate(b));
    CHECK(a == rank0);
    CHECK(b == rank1);
}

TEST_CASE("the && forms give the same result as the const& form", "[aggregate]") {
    auto a = rank0;
    CHECK(std::move(a).aggregate(rank1) == rank0.aggregate(rank1));
    auto c = rank0;
    auto d = rank1;
    CHECK(std::move(c).aggregate(std::move(d)) == rank0.aggregate(rank1));
}

TEST_CASE("the range fold skips ranks that reported nothing", "[aggregate]") {
    const std::vector<std::optional<ECMooncakeWorkerMetadata>> ranks{std::nullopt, rank0, std::nullopt, rank1, rank2};
    const auto r = ecmeta::aggregate(ranks);
    REQUIRE(r.has_value());
    CHECK(*r == expected);
}

TEST_CASE("no report at all folds to no report, but one empty report is a report", "[aggregate]") {
    CHECK_FALSE(ecmeta::aggregate(std::vector<ECMooncakeWorkerMetadata>{}).has_value());
    CHECK_FALSE(ecmeta::aggregate(std::vector<std::optional<ECMooncakeWorkerMetadata>>{std::nullopt, std::nullopt})
                    .has_value());
    const auto one_empty = ecmeta::aggregate(
        std::vector<std::optional<ECMooncakeWorkerMetadata>>{std::nullopt, ECMooncakeWorkerMetadata{}});
    REQUIRE(one_empty.has_value());
    CHECK(*one_empty == ECMooncakeWorkerMetadata{});
    // An empty report empties the intersection: this is why silence must not become {}.
    const std::vector<ECMooncakeWorkerMetadata> with_empty{rank0, ECMooncakeWorkerMetadata{}};
    CHECK(ecmeta::aggregate(with_empty)->loaded.empty());
}

TEST_CASE("the range fold accepts any input range, owned or borrowed", "[aggregate]") {
    const std::list<ECMooncakeWorkerMetadata> list{rank0, rank1, rank2};
    CHECK(*ecmeta::aggregate(list) == expected);

    std::vector<ECMooncakeWorkerMetadata> owned{rank0, rank1, rank2};
    CHECK(*ecmeta::aggregate(std::move(owned)) == expected);

    std::vector<ECMooncakeWorkerMetadata> source{rank0, rank1, rank2};
    const iterator_view moved{std::make_move_iterator(source.begin()), std::make_move_iterator(source.end())};
    CHECK(*ecmeta::aggregate(moved) == expected);

    const ECMooncakeWorkerMetadata array[] = {rank0, rank1, rank2};
    CHECK(*ecmeta::aggregate(array) == expected);
}

TEST_CASE("borrowed reports are not moved from", "[aggregate]") {
    std::vector<ECMooncakeWorkerMetadata> ranks{rank0, rank1, rank2};
    static_cast<void>(ecmeta::aggregate(ranks));
    CHECK(ranks == std::vector<ECMooncakeWorkerMetadata>{rank0, rank1, rank2});
    std::vector<std::optional<ECMooncakeWorkerMetadata>> maybe{rank0, std::nullopt, rank1};
    static_cast<void>(ecmeta::aggregate(iterator_view{maybe.begin(), maybe.end()}));  // an rvalue view
    CHECK(maybe[0] == rank0);
    CHECK(maybe[2] == rank1);
}

TEST_CASE("the range fold works for any type modelling connector_worker_metadata", "[aggregate]") {
    const std::vector<std::optional<max_report>> ranks{max_report{3}, std::nullopt, max_report{7}, max_report{5}};
    CHECK(ecmeta::aggregate(ranks) == max_report{7});
    CHECK_FALSE(ecmeta::aggregate(std::vector<max_report>{}).has_value());
}

TEST_CASE("ids compare by bytes, so the fold is exact for any id", "[aggregate]") {
    const ECMooncakeWorkerMetadata a{.loaded = {"lora:1", "é", "Z", "z"}};
    const ECMooncakeWorkerMetadata b{.loaded = {"z", "é", "lora:2"}};
    CHECK(a.aggregate(b).loaded == id_set{"z", "é"});
}

TEST_CASE("regression: aggregating a report with itself, in every form, is the report", "[aggregate]") {
    auto a = rank0;
    CHECK(a.aggregate(a) == rank0);
    CHECK(std::move(a).aggregate(a) == rank0);
    auto b = rank1;
    CHECK(std::move(b).aggregate(std::move(b)) == rank1);  // once emptied the failure sets
    const std::vector<ECMooncakeWorkerMetadata> same{rank2, rank2, rank2};
    CHECK(*ecmeta::aggregate(same) == rank2);
}

TEST_CASE("moved folds equal borrowed ones, whichever share of the ids survives", "[aggregate]") {
    // The moved fold keeps the smallest set's buffer and drops what does not survive, and unites
    // the failure sets into the largest moved-in one: check it for every share of survivors, on
    // more ranks and ids than the fold keeps on the stack.
    const auto ids = [](int from, int to) {
        id_set out;
        for (int i = from; i < to; ++i) {
            out.insert("item-" + std::to_string(1000 + i));
        }
        return out;
    };
    struct narrowing {
        id_set smallest;  // rank 7's
        id_set other;     // rank 12's
        id_set survivors;
    };
    for (const auto& [smallest, other, survivors] : {
             narrowing{ids(0, 200), ids(0, 200), ids(0, 200)},    // all survive
             narrowing{ids(0, 20), ids(0, 200), ids(0, 20)},      // the smallest set survives whole
             narrowing{ids(0, 100), ids(90, 200), ids(90, 100)},  // a tenth survives
             narrowing{ids(0, 0), ids(0, 200), ids(0, 0)},        // none
         }) {
        std::vector<ECMooncakeWorkerMetadata> ranks(20, ECMooncakeWorkerMetadata{.loaded = ids(0, 200)});
        for (std::size_t r = 0; r < ranks.size(); ++r) {
            for (int f = 0; f < 5; ++f) {
                ranks[r].failed_loads.insert("fail-" + std::to_string(r * 3 + static_cast<std::size_t>(f)));
            }
        }
        ranks[7].loaded = smallest;
        ranks[12].loaded = other;
        const auto borrowed = ecmeta::aggregate(ranks);
        REQUIRE(borrowed.has_value());
        CHECK(borrowed->loaded == survivors);
        CHECK(borrowed->failed_loads.size() == 19 * 3 + 5);
        CHECK(ecmeta::aggregate(std::move(ranks)) == borrowed);
    }
}

TEST_CASE("the fold's description says what aggregate does to each member", "[aggregate]") {
    // The JSON Schema and the command print fold_description; here each of its clauses is played.
    const std::string description = ecmeta::fold_description<ECMooncakeWorkerMetadata>();
    std::size_t clauses = 0;
    for (std::size_t at = 0; at < description.size(); ++clauses) {
        const std::size_t end = std::min(description.find(", ", at), description.size());
        const std::string clause = description.substr(at, end - at);
        at = end + 2;
        INFO(clause);
        const std::string name = clause.substr(0, clause.find(' '));
        const std::string how = clause.substr(name.size() + 1);
        const auto report = [&](const std::string& value) {
            return ecmeta::decode<ECMooncakeWorkerMetadata>("{\"" + name + "\":" + value + "}");
        };
        const auto fold = [&](const char* x, const char* y) {
            return nlohmann::json::parse(ecmeta::encode(report(x).aggregate(report(y)))).at(name);
        };
        if (how == "intersected") {
            CHECK(fold(R"(["a","b"])", R"(["b","c"])") == nlohmann::json::parse(R"(["b"])"));
        } else if (how == "united") {
            CHECK(fold(R"(["a","b"])", R"(["b","c"])") == nlohmann::json::parse(R"(["a","b","c"])"));
        } else {
            REQUIRE(how == "or-ed");
            CHECK(fold("true", "false") == true);
            CHECK(fold("false", "true") == true);
            CHECK(fold("false", "false") == false);
        }
    }
    CHECK(clauses == ecmeta::detail::field_count<ECMooncakeWorkerMetadata>());  // every member, once
}

TEST_CASE("a moved fold copies no id that survives: loaded is the smallest report's own buffer", "[aggregate]") {
    const auto ids = [](int from, int to) {
        ecmeta::id_set out;
        for (int i = from; i < to; ++i) {
            out.insert("item-" + std::to_string(1000 + i) + "-0123456789abcdef");
        }
        return out;
    };
    std::vector<ECMooncakeWorkerMetadata> ranks{
        {.loaded = ids(0, 100)}, {.loaded = ids(50, 100)}, {.loaded = ids(0, 90)}};
    const char* first = (*ranks[1].loaded.begin()).data();
    const char* last = (*(ranks[1].loaded.end() - 1)).data();
    const auto folded = ecmeta::aggregate(std::move(ranks));
    REQUIRE(folded.has_value());
    CHECK(folded->loaded == ids(50, 90));
    for (const std::string_view id : folded->loaded) {
        CHECK((id.data() >= first && id.data() <= last));
    }
}
