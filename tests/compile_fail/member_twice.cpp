// Must not compile: a schema that lists one member twice (and so leaves another out, with the
// count still right) is refused at compile time, with its message. See tests/CMakeLists.txt.
#include <ecmeta/msgpack.hpp>

struct pair_of_ids {
    std::string first;
    std::string second;
};

template <>
struct ecmeta::detail::schema<pair_of_ids> {
    static constexpr std::tuple fields{field{"first", &pair_of_ids::first, true, "one id"},
                                       field{"second", &pair_of_ids::first, true, "the same id, by mistake"}};
};

auto decoded(std::span<const std::uint8_t> bytes) {
    return ecmeta::decode_msgpack<pair_of_ids>(bytes);
}
