// Must not compile: a described struct with a member type that has no wire form (a double: the
// Python mirror has no floats) is refused by form_of, with its message. ctest builds this target
// and passes only if the build fails with that message (tests/CMakeLists.txt).
#include <ecmeta/msgpack.hpp>

struct with_float {
    double ratio = 0;
};

template <>
struct ecmeta::detail::schema<with_float> {
    static constexpr std::tuple fields{field{"ratio", &with_float::ratio, true, "a ratio"}};
};

auto encoded() {
    return ecmeta::encode_msgpack(with_float{});
}
