// Property: a value warmed on one message allocates nothing to decode any message it covers, in any
// order and either wire form. A warm-up covers a message when each list is no longer, and each
// string no longer, than the longest the warm-up held in the same field, wherever it sat. The
// warm-up here holds exactly that: at each field, one list of the most elements and one string of
// the longest length of the whole sequence, everything else empty or null, so the long strings
// and the non-null values of the messages that follow always sit where the warm-up had none.
// The messages are rendered as an engine's peer might send them: keys in any order, unknown keys
// with nested values, ids repeated and out of order, non-ASCII characters escaped or not.
#include <algorithm>
#include <map>
#include <random>

#include "allocations.hpp"
#include "test.hpp"
#include "wild.hpp"

using namespace ecmeta_test;

namespace {

using ordered = nlohmann::ordered_json;

// Per field ("ECMooncakeLoadSpec.mm_hash"): the most elements and the longest string anywhere.
struct extent {
    std::size_t count = 0;
    std::size_t length = 0;
};
using extents = std::map<std::string, extent>;

void measure(const ordered& doc, const std::string& field, extents& out) {
    extent& e = out[field];
    if (doc.is_string()) {
        e.length = std::max(e.length, doc.get_ref<const std::string&>().size());
    } else if (doc.is_array()) {
        e.count = std::max(e.count, doc.size());
        for (const auto& item : doc) {
            measure(item, field, out);
        }
    }
}

// The document's type at each depth: what a list of its objects holds.
void measure_object(const ordered& doc, const std::string& type, const std::map<std::string, std::string>& nested,
                    extents& out) {
    for (const auto& [key, value] : doc.items()) {
        const std::string field = type + "." + key;
        if (const auto inner = nested.find(field); inner != nested.end()) {
            out[field].count = std::max(out[field].count, value.size());
            for (const auto& item : value) {
                measure_object(item, inner->second, nested, out);
            }
        } else {
            measure(value, field, out);
        }
    }
}

// A warm-up object of a type with no nested objects: per field one string of the longest length
// and one list of the most elements; `filler` gives each field's form.
ordered warm_object(const std::string& type, const std::vector<std::string>& fields, const extents& of,
                    const std::map<std::string, ordered>& filler) {
    ordered o = ordered::object();
    for (const std::string& key : fields) {
        const std::string field = type + "." + key;
        const extent e = of.count(field) != 0 ? of.at(field) : extent{};
        const ordered& form = filler.at(field);
        if (form.is_string()) {
            o[key] = std::string(e.length, 'w');
        } else if (form.is_array()) {
            o[key] = ordered::array();
            for (std::size_t i = 0; i < e.count; ++i) {
                o[key].push_back(form[0]);
            }
        } else {
            o[key] = form;
        }
    }
    return o;
}

// Renders doc as a peer might: keys shuffled, unknown keys added, some ids repeated.
void scramble(ordered& doc, std::mt19937_64& rng) {
    if (doc.is_array()) {
        for (auto& item : doc) {
            scramble(item, rng);
        }
        return;
    }
    if (!doc.is_object()) {
        return;
    }
    std::vector<std::pair<std::string, ordered>> items;
    for (auto& [key, value] : doc.items()) {
        scramble(value, rng);
        items.emplace_back(key, value);
    }
    if (rng() % 2 == 0) {
        items.emplace_back("zz_unknown", ordered::array({1, {{"x", "\xc3\xa9\\\"q"}}, nullptr, ordered::array()}));
    }
    std::shuffle(items.begin(), items.end(), rng);
    doc = ordered::object();
    for (auto& [key, value] : items) {
        doc[key] = std::move(value);
    }
}

struct rendered {
    std::string json;
    std::vector<std::uint8_t> msgpack;
};

rendered render(ordered doc, std::mt19937_64& rng) {
    scramble(doc, rng);
    const bool ascii = rng() % 2 == 0;  // every non-ASCII character as \u escapes
    return {doc.dump(-1, ' ', ascii), ordered::to_msgpack(doc)};
}

// A set of ids as a peer may send it: repeats and any order (what decoding sorts out).
ordered loose_ids(const ecmeta::id_set& ids, std::mt19937_64& rng) {
    ordered a = ordered::array();
    for (const std::string_view id : ids) {
        a.push_back(std::string(id));
        if (rng() % 4 == 0) {
            a.push_back(std::string(id));
        }
    }
    std::shuffle(a.begin(), a.end(), rng);
    return a;
}

template <class T>
void no_allocation_for_covered(const std::vector<ordered>& docs, const ordered& warm, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    ecmeta::decode_storage<T> storage;
    T out{};
    const rendered first = render(warm, rng);
    if (rng() % 2 == 0) {
        ecmeta::decode_into(first.json, out, storage);
    } else {
        ecmeta::decode_msgpack_into(first.msgpack, out, storage);
    }
    for (const ordered& doc : docs) {
        const rendered r = render(doc, rng);
        const bool as_msgpack = rng() % 2 == 0;
        const T expected = ecmeta::decode<T>(r.json);
        const std::size_t before = ecmeta_support::allocations();
        if (as_msgpack) {
            ecmeta::decode_msgpack_into(r.msgpack, out, storage);
        } else {
            ecmeta::decode_into(r.json, out, storage);
        }
        const std::size_t allocated = ecmeta_support::allocations() - before;  // before RC_ASSERT, which allocates
        RC_ASSERT(out == expected);
        RC_ASSERT(allocated == 0U);
    }
}

const std::map<std::string, std::string> connector_nested{
    {"ECMooncakeConnectorMetadata.loads", "ECMooncakeLoadSpec"},
    {"ECMooncakeConnectorMetadata.pushes", "ECMooncakePushSpec"},
};

// The connector step's fields, by type, and a value of the right shape for each.
const std::map<std::string, std::vector<std::string>> connector_fields{
    {"ECMooncakeConnectorMetadata", {"loads", "pushes", "freed"}},
    {"ECMooncakeLoadSpec", {"mm_hash", "nbytes", "shape", "dtype", "transfer_id", "local"}},
    {"ECMooncakePushSpec", {"mm_hash", "nbytes", "shape", "dtype", "consumer_zmq", "transfer_id", "request_id"}},
};

ordered connector_warm(const extents& of) {
    std::map<std::string, ordered> filler;
    for (const std::string type : {"ECMooncakeLoadSpec", "ECMooncakePushSpec"}) {
        for (const std::string field : {"mm_hash", "dtype", "transfer_id", "consumer_zmq", "request_id"}) {
            filler[type + "." + field] = "";
        }
        filler[type + ".nbytes"] = 1;
        filler[type + ".shape"] = ordered::array({7});
    }
    filler["ECMooncakeLoadSpec.local"] = false;
    filler["ECMooncakeConnectorMetadata.freed"] = ordered::array({"w"});
    ordered o = ordered::object();
    const std::string top = "ECMooncakeConnectorMetadata";
    for (const auto& [field, type] : connector_nested) {
        const extent e = of.count(field) != 0 ? of.at(field) : extent{};
        ordered list = ordered::array();
        for (std::size_t i = 0; i < e.count; ++i) {
            list.push_back(warm_object(type, connector_fields.at(type), i == 0 ? of : extents{}, filler));
        }
        o[field.substr(top.size() + 1)] = std::move(list);
    }
    const extent freed = of.count(top + ".freed") != 0 ? of.at(top + ".freed") : extent{};
    o["freed"] = ordered::array();
    for (std::size_t i = 0; i < freed.count; ++i) {
        o["freed"].push_back(std::string(i == 0 ? freed.length : 0, 'w'));
    }
    return o;
}

const std::vector<std::string> worker_fields{"loaded", "failed_loads", "reclaimed", "pending_saves", "failed_saves"};

ordered worker_doc(const ECMooncakeWorkerMetadata& w, std::mt19937_64& rng) {
    return {{"loaded", loose_ids(w.loaded, rng)},
            {"failed_loads", loose_ids(w.failed_loads, rng)},
            {"reclaimed", loose_ids(w.reclaimed, rng)},
            {"pending_saves", w.pending_saves},
            {"failed_saves", loose_ids(w.failed_saves, rng)}};
}

ordered worker_warm(const extents& of) {
    ordered o = ordered::object();
    for (const std::string& f : worker_fields) {
        const std::string field = "ECMooncakeWorkerMetadata." + f;
        const extent e = of.count(field) != 0 ? of.at(field) : extent{};
        if (f == "pending_saves") {
            o[f] = true;
            continue;
        }
        o[f] = ordered::array();
        for (std::size_t i = 0; i < e.count; ++i) {
            o[f].push_back(i == 0 ? std::string(e.length, 'w') : std::to_string(i));
        }
    }
    return o;
}

}  // namespace

TEST_CASE("a warm connector step allocates nothing for any step it covers", "[decode_into][property]") {
    ECMETA_PROP("JSON and MessagePack, mixed", [] {
        const auto steps = *rc::gen::resize(
            20, rc::gen::container<std::vector<ECMooncakeConnectorMetadata>>(wild::connector_metadata()));
        const auto seed = *rc::gen::arbitrary<std::uint64_t>();
        std::vector<ordered> docs;
        extents of;
        for (const auto& step : steps) {
            docs.push_back(ordered::parse(ecmeta::encode(step)));
            measure_object(docs.back(), "ECMooncakeConnectorMetadata", connector_nested, of);
        }
        no_allocation_for_covered<ECMooncakeConnectorMetadata>(docs, connector_warm(of), seed);
    });
}

TEST_CASE("a warm worker report allocates nothing for any report it covers", "[decode_into][property]") {
    ECMETA_PROP("JSON and MessagePack, mixed", [] {
        const auto reports =
            *rc::gen::resize(30, rc::gen::container<std::vector<ECMooncakeWorkerMetadata>>(wild::worker_metadata()));
        const auto seed = *rc::gen::arbitrary<std::uint64_t>();
        std::mt19937_64 rng(seed);
        std::vector<ordered> docs;
        extents of;
        for (const auto& report : reports) {
            docs.push_back(worker_doc(report, rng));
            measure_object(docs.back(), "ECMooncakeWorkerMetadata", {}, of);
        }
        no_allocation_for_covered<ECMooncakeWorkerMetadata>(docs, worker_warm(of), seed + 1);
    });
}

TEST_CASE("warm rank reports allocate nothing for any ranks they cover, null or not", "[decode_into][property]") {
    // The warm-up has one report and nulls; later, every rank may report.
    ECMETA_PROP("JSON and MessagePack, mixed", [] {
        using ranks = std::vector<std::optional<ECMooncakeWorkerMetadata>>;
        const auto steps = *rc::gen::resize(
            12, rc::gen::container<std::vector<ranks>>(rc::gen::container<ranks>(rc::gen::oneOf(
                    rc::gen::just(std::optional<ECMooncakeWorkerMetadata>{}),
                    rc::gen::map(wild::worker_metadata(),
                                 [](ECMooncakeWorkerMetadata w) { return std::optional{std::move(w)}; })))));
        const auto seed = *rc::gen::arbitrary<std::uint64_t>();
        std::mt19937_64 rng(seed);
        std::vector<ordered> docs;
        extents of;
        std::size_t most = 0;
        for (const auto& step : steps) {
            ordered doc = ordered::array();
            for (const auto& rank : step) {
                doc.push_back(rank ? worker_doc(*rank, rng) : ordered(nullptr));
                if (rank) {
                    measure_object(doc.back(), "ECMooncakeWorkerMetadata", {}, of);
                }
            }
            most = std::max(most, step.size());
            docs.push_back(std::move(doc));
        }
        ordered warm = ordered::array();
        for (std::size_t i = 0; i < most; ++i) {
            warm.push_back(i == 0 ? worker_warm(of) : ordered(nullptr));
        }
        no_allocation_for_covered<ranks>(docs, warm, seed + 1);
    });
}
