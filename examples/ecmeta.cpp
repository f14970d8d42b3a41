// The ecmeta command: a demo of one scheduler step, and canonicalisation, folding and validation
// of metadata read from a file or stdin.
// SPDX-License-Identifier: Apache-2.0
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <ecmeta/ecmeta.hpp>

namespace {

constexpr std::string_view usage =
    R"usage(usage: ecmeta [--from json|msgpack] [--to json|msgpack] [--strict] [--max-input-bytes N]
              COMMAND [ARGS]

  ecmeta                          demo: one scheduler step, four ranks, the aggregate
  ecmeta canon TYPE [FILE]        decode strictly, print the canonical form
  ecmeta aggregate [FILE]         fold a JSON array of worker reports (null: a rank that
                                  reported nothing); print the result, or null
  ecmeta validate TYPE [FILE]     print one finding per line as "<pointer>: <message>";
                                  exit 1 when there are findings
  ecmeta --help                   this text

TYPE is load, push, connector or worker. No FILE, or "-", reads stdin.
--strict refuses unknown keys; --max-input-bytes refuses longer input before parsing.
Exit status: 0 success, 1 validation findings, 2 bad input or usage (one line on stderr,
"ecmeta: <pointer>: <what>", where the pointer of the document itself reads "(root)").
)usage";

struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class format { json, msgpack };

struct options {
    format from = format::json;
    format to = format::json;
    ecmeta::decode_options decoding{};
    std::vector<std::string> words;
};

std::size_t parse_size(std::string_view value) {
    std::size_t n = 0;
    const auto r = std::from_chars(value.data(), value.data() + value.size(), n);
    if (value.empty() || r.ec != std::errc{} || r.ptr != value.data() + value.size()) {
        throw usage_error("--max-input-bytes takes a number of bytes, got \"" + std::string{value} + "\"");
    }
    return n;
}

// Lines on stdout and stderr stay lines: control characters from the input are escaped.
std::string one_line(std::string_view text) {
    std::string out;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7F) {
            constexpr std::string_view hex = "0123456789abcdef";
            out += "\\u00";
            out += hex[u >> 4U];
            out += hex[u & 0xFU];
        } else {
            out += c;
        }
    }
    return out;
}

// A JSON Pointer as printed: the document root's is the empty string, which reads as nothing.
std::string where(std::string_view pointer) {
    return pointer.empty() ? "(root)" : one_line(pointer);
}

format parse_format(std::string_view flag, std::string_view value) {
    if (value == "json") {
        return format::json;
    }
    if (value == "msgpack") {
        return format::msgpack;
    }
    throw usage_error(std::string{flag} + " takes json or msgpack, got \"" + std::string{value} + "\"");
}

options parse_arguments(std::span<char* const> args) {
    options o;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string_view a = args[i];
        if (a == "--strict") {
            o.decoding.reject_unknown_keys = true;
        } else if (a == "--max-input-bytes") {
            if (i + 1 == args.size()) {
                throw usage_error("--max-input-bytes needs a number of bytes");
            }
            o.decoding.max_input_bytes = parse_size(args[++i]);
        } else if (a.starts_with("--max-input-bytes=")) {
            o.decoding.max_input_bytes = parse_size(a.substr(a.find('=') + 1));
        } else if (a == "--from" || a == "--to") {
            if (i + 1 == args.size()) {
                throw usage_error(std::string{a} + " needs a value: json or msgpack");
            }
            (a == "--from" ? o.from : o.to) = parse_format(a, args[++i]);
        } else if (a.starts_with("--from=") || a.starts_with("--to=")) {
            const auto eq = a.find('=');
            (a.starts_with("--from") ? o.from : o.to) = parse_format(a.substr(0, eq), a.substr(eq + 1));
        } else if (a.size() > 1 && a.starts_with('-')) {
            throw usage_error("unknown option " + std::string{a});
        } else {
            o.words.emplace_back(a);
        }
    }
    return o;
}

std::string read_input(const std::optional<std::string>& file) {
    if (!file || *file == "-") {
        return {std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    }
    std::ifstream in(*file, std::ios::binary);
    if (!in) {
        throw usage_error("cannot open " + *file);
    }
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

template <class T>
T decode_as(const std::string& bytes, const options& o) {
    if (o.from == format::msgpack) {
        return ecmeta::decode_msgpack<T>(std::span{reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()},
                                         o.decoding);
    }
    return ecmeta::decode<T>(bytes, o.decoding);
}

template <class T>
void print(const T& value, format to) {
    if (to == format::msgpack) {
        const auto bytes = ecmeta::encode_msgpack(value);
        std::cout.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    } else {
        std::cout << ecmeta::encode(value) << '\n';
    }
}

template <class T>
int validate(const std::string& bytes, const options& o) {
    const auto problems = ecmeta::validate(decode_as<T>(bytes, o));
    for (const auto& p : problems) {
        std::cout << where(p.pointer) << ": " << one_line(p.message) << '\n';
    }
    return problems.empty() ? 0 : 1;
}

// Runs `f.template operator()<T>()` for the message type named by `type`.
template <class F>
int with_type(std::string_view type, F&& f) {
    if (type == "load") {
        return f.template operator()<ecmeta::ECMooncakeLoadSpec>();
    }
    if (type == "push") {
        return f.template operator()<ecmeta::ECMooncakePushSpec>();
    }
    if (type == "connector") {
        return f.template operator()<ecmeta::ECMooncakeConnectorMetadata>();
    }
    if (type == "worker") {
        return f.template operator()<ecmeta::ECMooncakeWorkerMetadata>();
    }
    throw usage_error("TYPE is load, push, connector or worker, got \"" + std::string{type} + "\"");
}

std::optional<std::string> file_argument(const options& o, std::size_t at) {
    if (o.words.size() > at + 1) {
        throw usage_error("unexpected argument \"" + o.words[at + 1] + "\"");
    }
    return o.words.size() > at ? std::optional{o.words[at]} : std::nullopt;
}

// ---- the demo ---------------------------------------------------------------------------

constexpr std::string_view demo_step = R"({
  "loads": [
    {"mm_hash": "9f2c4e1a7b3d5f60817263544536271809a1b2c3d4e5f60718293a4b5c6d7e8f", "nbytes": 7340032,
     "shape": [1024, 3584], "dtype": "bfloat16", "transfer_id": "5b0e6c1f2a3d4e5f60718293a4b5c6d7"},
    {"mm_hash": "qwen-lora:0c1d2e3f405162738495a6b7c8d9eafb0c1d2e3f405162738495a6b7c8d9eafb", "nbytes": 1835008,
     "shape": [256, 3584], "dtype": "bfloat16", "transfer_id": "req-17:0", "local": true}
  ],
  "pushes": [
    {"mm_hash": "77aa00ff11ee22dd33cc44bb55aa66997788aabbccddeeff0011223344556677", "nbytes": 3670016,
     "shape": [512, 3584], "dtype": "bfloat16", "consumer_zmq": "tcp://10.0.0.7:19019",
     "transfer_id": "a1b2c3d4e5f60718293a4b5c6d7e8f90", "request_id": "req-42"}
  ],
  "freed": ["3e3e3e3e3e3e3e3e3e3e3e3e3e3e3e3e3e3e3e3e3e3e3e3e3e3e3e3e3e3e3e3e"]
})";

// Rank 2 fails one load; rank 3 has nothing to say (null), which is not the same as an empty report.
constexpr std::string_view demo_ranks = R"([
  {"loaded": ["9f2c4e1a7b3d5f60817263544536271809a1b2c3d4e5f60718293a4b5c6d7e8f",
              "qwen-lora:0c1d2e3f405162738495a6b7c8d9eafb0c1d2e3f405162738495a6b7c8d9eafb"],
   "pending_saves": true},
  {"loaded": ["9f2c4e1a7b3d5f60817263544536271809a1b2c3d4e5f60718293a4b5c6d7e8f",
              "qwen-lora:0c1d2e3f405162738495a6b7c8d9eafb0c1d2e3f405162738495a6b7c8d9eafb"],
   "reclaimed": ["5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d"]},
  {"loaded": ["qwen-lora:0c1d2e3f405162738495a6b7c8d9eafb0c1d2e3f405162738495a6b7c8d9eafb"],
   "failed_loads": ["9f2c4e1a7b3d5f60817263544536271809a1b2c3d4e5f60718293a4b5c6d7e8f"]},
  null
])";

std::string short_id(std::string_view id) {
    return id.size() > 20 ? std::string{id.substr(0, 16)} + "…" : std::string{id};
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        s += (i ? ", " : "") + std::to_string(shape[i]);
    }
    return s + "]";
}

void print_ids(std::string_view label, const ecmeta::id_set& ids) {
    std::cout << "    " << label << ": ";
    if (ids.empty()) {
        std::cout << "-";
    }
    for (auto it = ids.begin(); it != ids.end(); ++it) {
        std::cout << (it == ids.begin() ? "" : ", ") << short_id(*it);
    }
    std::cout << '\n';
}

void print_report(const ecmeta::ECMooncakeWorkerMetadata& w) {
    print_ids("loaded      ", w.loaded);
    print_ids("failed_loads", w.failed_loads);
    print_ids("reclaimed   ", w.reclaimed);
    std::cout << "    pending_saves: " << (w.pending_saves ? "yes" : "no") << '\n';
    print_ids("failed_saves", w.failed_saves);
}

int demo() {
    const auto step = ecmeta::decode<ecmeta::ECMooncakeConnectorMetadata>(demo_step);
    const auto ranks = ecmeta::decode<std::vector<std::optional<ecmeta::ECMooncakeWorkerMetadata>>>(demo_ranks);

    std::cout << "Scheduler -> workers (one engine step)\n";
    for (const auto& l : step.loads) {
        std::cout << "  load  " << short_id(l.mm_hash) << "  " << shape_text(l.shape) << ' ' << l.dtype << ", "
                  << l.nbytes << " bytes" << (l.local ? ", local hand-off" : ", transfer " + short_id(l.transfer_id))
                  << '\n';
    }
    for (const auto& p : step.pushes) {
        std::cout << "  push  " << short_id(p.mm_hash) << "  " << shape_text(p.shape) << ' ' << p.dtype << " -> "
                  << p.consumer_zmq << " for " << p.request_id << '\n';
    }
    std::cout << "  freed " << (step.freed ? std::to_string(step.freed->size()) + " id(s)" : "null: scan all")
              << "\n\n";

    std::cout << "Workers -> scheduler (one report per tensor-parallel rank)\n";
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        std::cout << "  rank " << r << (ranks[r] ? "\n" : ": reported nothing (skipped by the fold)\n");
        if (ranks[r]) {
            print_report(*ranks[r]);
        }
    }

    const auto seen = ecmeta::aggregate(ranks);
    std::cout << "\nWhat the scheduler sees (loaded intersected, failures united)\n";
    print_report(*seen);
    std::cout << "\nCanonical JSON of the aggregate\n  " << ecmeta::encode(*seen) << '\n';
    return 0;
}

int run(const options& o) {
    if (o.words.empty()) {
        return demo();
    }
    const std::string& command = o.words[0];
    if (command == "canon" || command == "validate") {
        if (o.words.size() < 2) {
            throw usage_error(command + " needs a TYPE: load, push, connector or worker");
        }
        const auto file = file_argument(o, 2);
        return with_type(o.words[1], [&]<class T>() {
            const std::string bytes = read_input(file);
            if (command == "validate") {
                return validate<T>(bytes, o);
            }
            print(decode_as<T>(bytes, o), o.to);
            return 0;
        });
    }
    if (command == "aggregate") {
        const std::string bytes = read_input(file_argument(o, 1));
        const auto ranks = decode_as<std::vector<std::optional<ecmeta::ECMooncakeWorkerMetadata>>>(bytes, o);
        if (const auto folded = ecmeta::aggregate(ranks)) {
            print(*folded, o.to);
        } else if (o.to == format::msgpack) {
            std::cout.put(static_cast<char>(0xC0));  // nil
        } else {
            std::cout << "null\n";
        }
        return 0;
    }
    throw usage_error("unknown command \"" + command + "\" (see ecmeta --help)");
}

}  // namespace

int main(int argc, char** argv) {
    const std::span<char* const> args{argv + 1, static_cast<std::size_t>(argc > 0 ? argc - 1 : 0)};
    for (std::string_view a : args) {
        if (a == "--help" || a == "-h") {
            std::cout << usage;
            return 0;
        }
    }
    // Nothing reaches stdout before the whole answer is known, so a failure leaves it empty.
    std::ostringstream buffer;
    auto* const original = std::cout.rdbuf(buffer.rdbuf());
    int status = 2;
    try {
        status = run(parse_arguments(args));
    } catch (const ecmeta::decode_error& e) {
        // what() is "<pointer>: <message>"; print the pointer readably.
        const std::string_view message = std::string_view{e.what()}.substr(e.pointer().size() + 2);
        std::cerr << "ecmeta: " << where(e.pointer()) << ": " << one_line(message) << '\n';
    } catch (const std::exception& e) {
        std::cerr << "ecmeta: " << one_line(e.what()) << '\n';
    }
    std::cout.rdbuf(original);
    if (status != 2) {
        std::cout << buffer.str() << std::flush;
    }
    return status;
}
