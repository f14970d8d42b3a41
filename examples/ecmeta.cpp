// The ecmeta command: a demo of one scheduler step, and canonicalisation, folding and validation
// of metadata read from a file or stdin.
// SPDX-License-Identifier: Apache-2.0
#include <cstdint>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>  // the schema pretty-printed

#include <ecmeta/ecmeta.hpp>

#include "command_line.hpp"

namespace {

struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct options {
    std::string from = "json";
    std::string to = "json";
    ecmeta::decode_options decoding{};
    std::string command;  // empty: the demo
    std::string type;
    std::string file = "-";
};

using command_line::one_line;

// The command's word for each message type, in the order its help lists them: the one table that
// the help, the checks of TYPE and with_type read.
using rank_reports = std::vector<std::optional<ecmeta::ECMooncakeWorkerMetadata>>;
template <class T>
constexpr std::string_view type_word{};
template <>
constexpr std::string_view type_word<ecmeta::ECMooncakeLoadSpec> = "load";
template <>
constexpr std::string_view type_word<ecmeta::ECMooncakePushSpec> = "push";
template <>
constexpr std::string_view type_word<ecmeta::ECMooncakeConnectorMetadata> = "connector";
template <>
constexpr std::string_view type_word<ecmeta::ECMooncakeWorkerMetadata> = "worker";
template <>
constexpr std::string_view type_word<rank_reports> = "ranks";  // the list aggregate reads: schema only
using message_types = std::tuple<ecmeta::ECMooncakeLoadSpec, ecmeta::ECMooncakePushSpec,
                                 ecmeta::ECMooncakeConnectorMetadata, ecmeta::ECMooncakeWorkerMetadata>;

// The words for the message types, and "load, push, connector or worker".
std::vector<std::string> type_words() {
    return std::apply([](auto... t) { return std::vector<std::string>{std::string{type_word<decltype(t)>}...}; },
                      message_types{});
}
std::string type_list(const std::vector<std::string>& words, std::string_view last_join) {
    std::string out;
    for (std::size_t i = 0; i < words.size(); ++i) {
        out += i == 0 ? "" : i + 1 == words.size() ? std::string{last_join} : ", ";
        out += words[i];
    }
    return out;
}

// A JSON Pointer as printed, on one line; the document's own, "", as decode_error::root.
std::string where(std::string_view pointer) {
    return pointer.empty() ? std::string{ecmeta::decode_error::root} : one_line(pointer);
}

// The command line: the help is generated from these, and docs/cli.md's usage block is its output.
void describe(CLI::App& app, options& o) {
    command_line::common(app);
    app.fallthrough();  // the options below go anywhere on the line, after the command too
    app.require_subcommand(0, 1);
    const std::vector<std::string> formats{"json", "msgpack"};
    command_line::add_choice(app, "--from", o.from, formats, "The input's encoding: json (default) or msgpack");
    command_line::add_choice(app, "--to", o.to, formats, "The output's encoding: json (default) or msgpack");
    app.add_flag("--strict", o.decoding.reject_unknown_keys, "Refuse unknown keys (ignored by default)");
    app.add_option("--max-input-bytes", o.decoding.max_input_bytes, "Refuse longer input before parsing")
        ->check(command_line::digits)
        ->option_text("N");

    const std::vector<std::string> types = type_words();
    const auto add = [&](const char* name, const char* what, bool typed, bool file) {
        CLI::App* command = app.add_subcommand(name, what);
        command->callback([&o, command] { o.command = command->get_name(); });
        command->footer("--from, --to, --strict and --max-input-bytes go anywhere on the line (ecmeta --help).");
        if (typed) {
            command->add_option("TYPE", o.type, type_list(types, " or "))->required()->check(CLI::IsMember(types));
        }
        if (file) {
            command->add_option("FILE", o.file, "The input; none or - reads stdin");
        }
        return command;
    };
    add("canon", "Decode strictly, print the canonical form", true, true);
    add("aggregate", "Fold a JSON array of worker reports (null: a silent rank); print it, or null", false, true);
    add("validate", "Print each finding as \"<pointer>: <message>\"; exit 1 if any", true, true);
    add("schema", "Print the JSON Schema (draft 2020-12) of TYPE's JSON form", false, false)
        ->add_option(
            "TYPE", o.type,
            type_list(types, ", ") + ", or " + std::string{type_word<rank_reports>} + " (the list aggregate reads)")
        ->required()
        ->check(CLI::IsMember([&] {
            std::vector<std::string> all = types;
            all.emplace_back(type_word<rank_reports>);
            return all;
        }()));
    app.footer(
        "With no command: a demo of one scheduler step, four ranks and their aggregate.\n"
        "Exit status: 0 success, 1 validation findings, 2 bad input or usage (one line on stderr,\n"
        "\"ecmeta: <pointer>: <what>\", where the pointer of the document itself reads \"" +
        std::string{ecmeta::decode_error::root} + "\").");
}

std::string read_input(const std::string& file) {
    if (file == "-") {
        return {std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw usage_error("cannot open " + file);
    }
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

template <class T>
T decode_as(const std::string& bytes, const options& o) {
    if (o.from == "msgpack") {
        return ecmeta::decode_msgpack<T>(bytes, o.decoding);
    }
    return ecmeta::decode<T>(bytes, o.decoding);
}

template <class T>
void print(const T& value, const std::string& to) {
    if (to == "msgpack") {
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
    std::optional<int> result;
    std::apply(
        [&](auto... t) {
            static_cast<void>(
                ((type == type_word<decltype(t)> && (result = f.template operator()<decltype(t)>(), true)) || ...));
        },
        message_types{});
    if (!result) {
        throw usage_error("TYPE is " + type_list(type_words(), " or ") + ", got \"" + std::string{type} + "\"");
    }
    return *result;
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
        std::cout << (it == ids.begin() ? "" : ", ") << ecmeta::short_id(*it);
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
    const auto ranks = ecmeta::decode<rank_reports>(demo_ranks);

    std::cout << "Scheduler -> workers (one engine step)\n";
    for (const auto& l : step.loads) {
        std::cout << "  load  " << ecmeta::short_id(l.mm_hash) << "  " << shape_text(l.shape) << ' ' << l.dtype << ", "
                  << l.nbytes << " bytes"
                  << (l.local ? ", local hand-off" : ", transfer " + ecmeta::short_id(l.transfer_id)) << '\n';
    }
    for (const auto& p : step.pushes) {
        std::cout << "  push  " << ecmeta::short_id(p.mm_hash) << "  " << shape_text(p.shape) << ' ' << p.dtype
                  << " -> " << p.consumer_zmq << " for " << p.request_id << '\n';
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
    std::cout << "\nWhat the scheduler sees (" << ecmeta::fold_description<ecmeta::ECMooncakeWorkerMetadata>() << ")\n";
    print_report(*seen);
    std::cout << "\nCanonical JSON of the aggregate\n  " << ecmeta::encode(*seen) << '\n';
    return 0;
}

// The JSON Schema, indented for reading (json_schema gives it compact).
template <class T>
int print_schema() {
    std::cout << nlohmann::ordered_json::parse(ecmeta::json_schema<T>()).dump(2) << '\n';
    return 0;
}

int run(const options& o) {
    if (o.command.empty()) {
        return demo();
    }
    if (o.command == "schema") {
        if (o.type == type_word<rank_reports>) {
            return print_schema<rank_reports>();
        }
        return with_type(o.type, []<class T>() { return print_schema<T>(); });
    }
    if (o.command == "canon" || o.command == "validate") {
        return with_type(o.type, [&]<class T>() {
            const std::string bytes = read_input(o.file);
            if (o.command == "validate") {
                return validate<T>(bytes, o);
            }
            print(decode_as<T>(bytes, o), o.to);
            return 0;
        });
    }
    // aggregate
    const std::string bytes = read_input(o.file);
    const auto ranks = decode_as<rank_reports>(bytes, o);
    if (const auto folded = ecmeta::aggregate(ranks)) {
        print(*folded, o.to);
    } else if (o.to == "msgpack") {
        std::cout.put('\xC0');  // MessagePack's nil
    } else {
        std::cout << "null\n";
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    options o;
    CLI::App app{"ecmeta " + command_line::version() +
                     ": vLLM Mooncake encoder-cache connector metadata. Canonical forms, the fold of\n"
                     "the ranks' reports, validation and the JSON Schema.",
                 "ecmeta"};
    describe(app, o);
    if (const std::optional<int> stop = command_line::parse(app, argc, argv)) {
        return *stop;
    }
    // Nothing reaches stdout before the whole answer is known, so a failure leaves it empty.
    std::ostringstream buffer;
    auto* const original = std::cout.rdbuf(buffer.rdbuf());
    int status = 2;
    try {
        status = run(o);
    } catch (const ecmeta::decode_error& e) {
        std::cerr << "ecmeta: " << where(e.pointer()) << ": " << one_line(e.message()) << '\n';
    } catch (const std::exception& e) {
        std::cerr << "ecmeta: " << one_line(e.what()) << '\n';
    }
    std::cout.rdbuf(original);
    if (status != 2) {
        std::cout << buffer.str() << std::flush;
    }
    return status;
}
