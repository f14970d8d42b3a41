// ecmeta::core in a program built with other flags than the suite's: both wire forms, the fold,
// validation and id_set work through the calls that return their errors. Built twice:
//   ECMETA_EXPECT_NO_EXCEPTIONS: with -fno-exceptions. With the argument "throwing", a throwing call
//     meets bad input, which must print the error and stop the program (ctest checks the output).
//   ECMETA_EXPECT_OLD_STRING_ABI: with libstdc++'s pre-C++11 std::string (_GLIBCXX_USE_CXX11_ABI=0),
//     as programs linked with older libraries are.
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <ecmeta/ecmeta.hpp>

#if ECMETA_EXPECT_NO_EXCEPTIONS && defined(__cpp_exceptions)
#error "this program is built with -fno-exceptions"
#endif
#if ECMETA_EXPECT_OLD_STRING_ABI && (!defined(_GLIBCXX_USE_CXX11_ABI) || _GLIBCXX_USE_CXX11_ABI != 0)
#error "this program is built with _GLIBCXX_USE_CXX11_ABI=0"
#endif

#define ECMETA_STRING_(x) #x
#define ECMETA_STRING(x) ECMETA_STRING_(x)

#if defined(__cpp_exceptions)
#define ECMETA_EXPECT_EXCEPTIONS true
#else
#define ECMETA_EXPECT_EXCEPTIONS false
#endif

namespace {

int failures = 0;

void check(bool ok, const char* what) {
    if (!ok) {
        std::printf("FAILED: %s\n", what);
        ++failures;
    }
}

}  // namespace

int main(int argc, char** argv) {
    using namespace ecmeta;
    if (argc > 1 && std::string_view{argv[1]} == "throwing") {
        static_cast<void>(decode<ECMooncakeConnectorMetadata>("[]"));
        std::puts("not stopped");
        return 0;
    }
    // Units built without exceptions have their own inline namespace.
    check(std::string_view{ECMETA_STRING(ECMETA_ABI)}.ends_with("_noexceptions") == !ECMETA_EXPECT_EXCEPTIONS,
          "the ABI namespace is tagged as exceptions are");

    const ECMooncakeConnectorMetadata step{
        .loads = {{.mm_hash = "h", .nbytes = 4, .shape = {2}, .dtype = "float16", .transfer_id = "t"}},
        .freed = std::vector<std::string>{}};
    const auto [json, json_error] = try_encode(step);
    check(!json_error, "try_encode");
    const auto [back, back_error] = try_decode<ECMooncakeConnectorMetadata>(json);
    check(!back_error && back == step, "try_decode round trip");
    const auto [packed, packed_error] = try_encode_msgpack(step);
    check(!packed_error, "try_encode_msgpack");
    ECMooncakeConnectorMetadata into;
    check(!try_decode_msgpack_into(packed, into) && into == step, "try_decode_msgpack_into round trip");

    // Bad input: the error as a value, the target back to T{}.
    const auto bad = try_decode_into(R"({"loads":[{"mm_hash":"h","nbytes":-1}]})", into);
    check(bad && bad->pointer() == "/loads/0/nbytes" && into == ECMooncakeConnectorMetadata{}, "try_decode_into error");
    const auto truncated = try_decode_msgpack<ECMooncakeWorkerMetadata>(std::vector<std::uint8_t>{0x81, 0xA1});
    check(truncated.error && truncated.error->offset().has_value(), "try_decode_msgpack error");
    const ECMooncakeWorkerMetadata not_utf8{.loaded = {"\xff"}};
    std::string out = "old";
    const auto encode_failed = try_encode_into(not_utf8, out);
    check(encode_failed && encode_failed->pointer() == "/loaded/0" && out.empty(), "try_encode_into error");

    // The fold and validation.
    const std::vector<std::optional<ECMooncakeWorkerMetadata>> ranks{
        ECMooncakeWorkerMetadata{.loaded = {"a", "b"}}, std::nullopt, ECMooncakeWorkerMetadata{.loaded = {"b"}}};
    const auto folded = aggregate(ranks);
    check(folded && folded->loaded == id_set{"b"}, "aggregate");
    check(validate(step).empty(), "validate a valid step");
    ECMooncakeConnectorMetadata wrong_size = step;
    wrong_size.loads[0].nbytes = 5;
    const auto problems = validate(wrong_size);
    check(problems.size() == 1 && problems[0].pointer == "/loads/0/nbytes", "validate finds nbytes");
    std::printf("%d failures\n", failures);
    return failures == 0 ? 0 : 1;
}
