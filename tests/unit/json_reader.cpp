// ecmeta's JSON reader: nlohmann's verdicts on JSONTestSuite and every committed corpus, its own
// words for each kind of error, the string scanners, the number grammar's edges, deep nesting.
#include "test.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "allocations.hpp"
#include "json_verdicts.hpp"

using namespace ecmeta_test;

namespace {

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

std::string error_of(std::string_view json) {
    try {
        static_cast<void>(ecmeta::decode<ECMooncakeConnectorMetadata>(json));
    } catch (const ecmeta::decode_error& e) {
        return e.what();
    }
    return "(decoded)";
}

}  // namespace

#ifdef ECMETA_JSON_TEST_SUITE  // the release archive was given (ECMETA_JSON_TEST_SUITE_ARCHIVE)
TEST_CASE("JSONTestSuite: accepted and refused exactly as nlohmann's json::accept", "[json_reader]") {
    std::size_t files = 0;
    std::size_t must = 0;
    for (const auto& entry : std::filesystem::directory_iterator(ECMETA_JSON_TEST_SUITE)) {
        const std::string name = entry.path().filename().string();
        if (entry.path().extension() != ".json") {
            continue;
        }
        const std::string text = read_file(entry.path());
        INFO(name);
        const bool accepted = ecmeta_accepts(text);
        CHECK(accepted == nlohmann_accepts(text));
        if (name.starts_with("y_")) {  // must accept
            CHECK(accepted);
            ++must;
        } else if (name.starts_with("n_")) {  // must refuse
            CHECK_FALSE(accepted);
            ++must;
        }
        // decode refuses whatever the text refuses, whichever type it asks for.
        if (!accepted) {
            CHECK_THROWS_AS(ecmeta::decode<ECMooncakeWorkerMetadata>(text), ecmeta::decode_error);
        }
        ++files;
    }
    CHECK(files == 318);
    CHECK(must == 283);
}
#endif

TEST_CASE("every committed fuzz corpus file, read as JSON text, gets nlohmann's verdict", "[json_reader]") {
    std::size_t files = 0;
    for (const auto& dir : std::filesystem::directory_iterator(ECMETA_FUZZ_CORPUS)) {
        for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
            const std::string bytes = read_file(entry.path());
            INFO(entry.path().string());
            // Whole, and without the first byte, which the JSON fuzz targets spend on the type.
            for (const std::string_view text : {std::string_view{bytes}, std::string_view{bytes}.substr(1)}) {
                CHECK(ecmeta_accepts(text) == nlohmann_accepts(text));
            }
            ++files;
        }
    }
    CHECK(files > 2000);
}

TEST_CASE("JSON errors are ecmeta's own words: what was expected, what was found, where", "[json_reader]") {
    using namespace std::string_view_literals;
    const std::pair<std::string_view, std::string_view> cases[] = {
        // syntax: the byte offset of what broke
        {"", "(root): expected a JSON value, got end of input at byte 0"},
        {"{", "(root): expected a string key or '}', got end of input at byte 1"},
        {R"({"loads" [])", "(root): expected ':' after an object key, got '[' at byte 9"},
        {R"({"loads":[],})", "(root): expected a string key, got '}' at byte 12"},
        {R"({"loads":[] "pushes":[]})", "(root): expected ',' or '}', got '\"' at byte 12"},
        {R"({"freed":["a" "b"]})", "/freed/1: expected ',' or ']', got '\"' at byte 14"},
        {R"({"freed":["a",]})", "/freed/1: expected a JSON value, got ']' at byte 14"},
        {R"({"freed":["abc)",
         "/freed/0: expected '\"' closing the string begun at byte 10, got end of input at byte 14"},
        {"{\"freed\":[\"a\nb\"]}",
         "/freed/0: expected a control character escaped as \\u00XX, got byte 0x0a at byte 12"},
        {"{\"freed\":[\"a\xff\"]}", "/freed/0: expected a UTF-8 string, got invalid UTF-8 at byte 12"},
        {R"({"freed":["a\x"]})",
         R"(/freed/0: expected an escape: \" \\ \/ \b \f \n \r \t or \uXXXX, got '\x' at byte 12)"},
        {R"({"freed":["\u12g4"]})", "/freed/0: expected 4 hex digits after \\u, got 'g' at byte 15"},
        {R"({"freed":["\ud800x"]})",
         "/freed/0: expected \\uDC00 to \\uDFFF after a high surrogate, got 'x' at byte 17"},
        {R"({"freed":["\ud800\u0041"]})",
         "/freed/0: expected \\uDC00 to \\uDFFF after a high surrogate, got '\\u0041' at byte 17"},
        {R"({"freed":["\udc00"]})",
         "/freed/0: expected a high surrogate \\uD800 to \\uDBFF before a low one, got '\\udc00' at byte 11"},
        {R"({"freed":nul})", "/freed: expected 'null', got 'nul}' at byte 9"},
        {R"({"x":[1.]})", "(root): expected a digit, got ']' at byte 8"},
        {R"({"x":-})", "(root): expected a digit, got '}' at byte 6"},
        {R"({"x":1e400})", "(root): expected a number within double's range, got 1e400 at byte 5"},
        {"{} x", "(root): expected end of input, got 'x' at byte 3"},
        {"{}\0"sv, "(root): expected end of input, got byte 0x00 at byte 2"},
        // meaning: the pointer of the value, no offset
        {R"({"loads":{}})", "/loads: expected array of objects, got object"},
        {R"({"freed":[7]})", "/freed/0: expected string, got integer 7"},
        {R"({"freed":[-7]})", "/freed/0: expected string, got integer -7"},
        {R"({"freed":[1.5e3]})", "/freed/0: expected string, got float 1.5e3"},
        {R"({"freed":[18446744073709551616]})",
         "/freed/0: expected string, got integer out of range 18446744073709551616"},
        {R"({"freed":true})", "/freed: expected null or array of strings, got true"},
        {R"({"loads":[{"mm_hash":"h","nbytes":-1}]})",
         "/loads/0/nbytes: expected non-negative integer, got integer -1"},
        {R"({"loads":[{"mm_hash":"h"}]})",
         "/loads/0/nbytes: expected non-negative integer, got nothing (required key missing)"},
    };
    for (const auto& [json, what] : cases) {
        INFO(json);
        CHECK(error_of(json) == what);
    }
    const auto syntax = decode_failure([] { static_cast<void>(ecmeta::decode<ECMooncakeConnectorMetadata>("{} x")); });
    CHECK(syntax.offset() == std::optional<std::size_t>{3});
    CHECK(syntax.pointer().empty());
    const auto meaning =
        decode_failure([] { static_cast<void>(ecmeta::decode<ECMooncakeConnectorMetadata>(R"({"freed":[7]})")); });
    CHECK_FALSE(meaning.offset().has_value());
    // A long number is echoed in part.
    CHECK(error_of(R"({"freed":[)" + std::string(50, '1') + ".5]}") ==
          "/freed/0: expected string, got float " + std::string(40, '1') + "...");
}

TEST_CASE("a number is refused exactly where strtod overflows, as nlohmann refuses it", "[json_reader]") {
    for (const std::string_view n :
         {"1.7976931348623157e308", "1.7976931348623158e308",
          "1.79769313486231580793728971405303415079934132710037826e308",
          "1.79769313486231580793728971405303415079934132710037827e308",
          "1."
          "797693134862315807937289714053034150799341327100378269361737789804449682927647509466490179775872070963302864"
          "166928879109465555478519404026306574886715058206819089020007083836762738548458177115317644757302700698555713"
          "669596228429148198608349364752927190741684443655107043427115596995080930428801779041744977919999e308",
          "1."
          "797693134862315807937289714053034150799341327100378269361737789804449682927647509466490179775872070963302864"
          "166928879109465555478519404026306574886715058206819089020007083836762738548458177115317644757302700698555713"
          "669596228429148198608349364752927190741684443655107043427115596995080930428801779041744977920000e308",
          "1e309", "-1e309", "0.1e310", "0.01e310", "1e-400", "0e99999", "0.0000e400", "1E+308", "10E307",
          "-17976931348623158e292", "17976931348623157e292", "1e99999999999999999999999",
          "0.000000000000000000000000001e335"}) {
        INFO(n);
        const bool inf = std::isinf(std::strtod(std::string{n}.c_str(), nullptr));
        CHECK(ecmeta::detail::json::overflows_double(n.data(), n.data() + n.size()) == inf);
        CHECK(ecmeta_accepts(n) == !inf);
        CHECK(nlohmann_accepts(n) == !inf);
    }
    // Integers beyond 64 bits are doubles to nlohmann: refused only past double's range too.
    const std::string huge(309, '9');
    CHECK(ecmeta_accepts("[" + std::string(308, '9') + "]"));
    CHECK_FALSE(ecmeta_accepts("[" + huge + "]"));
    CHECK_FALSE(nlohmann_accepts("[" + huge + "]"));
}

TEST_CASE("a value nested 100,000 deep is skipped without recursion, and checked", "[json_reader]") {
    const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
    const std::string json = R"({"unknown":)" + deep + R"(,"loaded":["a"]})";
    CHECK(ecmeta::decode<ECMooncakeWorkerMetadata>(json).loaded == id_set{"a"});
    const std::string objects = [] {
        std::string s;
        for (int i = 0; i < 50'000; ++i) {
            s += R"({"k":[)";
        }
        s += "1";
        for (int i = 0; i < 50'000; ++i) {
            s += "]}";
        }
        return s;
    }();
    CHECK(ecmeta_accepts(objects));
    CHECK(ecmeta_accepts(objects) == nlohmann_accepts(objects));
    std::string broken = objects;
    broken.back() = ']';  // the outermost object closed by ']'
    CHECK_FALSE(ecmeta_accepts(broken));
    CHECK_FALSE(nlohmann_accepts(broken));
}

TEST_CASE("a decode of canonical JSON into a fresh value allocates only for what it stores", "[json_reader]") {
    // No parser state, no copy of the input: a string without escapes is read where it is.
    const std::string json = R"({"loaded":["a","b"],"failed_loads":[],"reclaimed":[],"pending_saves":false,)"
                             R"("failed_saves":[]})";
    static_cast<void>(ecmeta::decode<ECMooncakeWorkerMetadata>(json));
    const std::size_t before = ecmeta_support::allocations();
    const auto w = ecmeta::decode<ECMooncakeWorkerMetadata>(json);
    CHECK(ecmeta_support::allocations() - before <= 2);  // loaded's entries and bytes
    CHECK(w.loaded == id_set{"a", "b"});
}

TEST_CASE("regression: a string that ends the input right after an escape is unterminated, not read past",
          "[json_reader]") {
    // Found by fuzz_decode_json under ASan: after an escape the next byte was read unchecked.
    for (const std::string_view text : {"\"\\n", "{\"a\":\"\\t", "{\"freed\":[\"x\\u0041", "\"\\\\"}) {
        INFO(text);
        const auto exact = std::make_unique<char[]>(text.size());  // nothing readable past the end
        std::copy(text.begin(), text.end(), exact.get());
        const std::string_view json{exact.get(), text.size()};
        CHECK_FALSE(ecmeta_accepts(json));
        CHECK_THAT(error_of(json), ContainsSubstring("closing the string begun at byte"));
    }
}
