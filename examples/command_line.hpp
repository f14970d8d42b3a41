// The command lines of ecmeta, ecmeta-worker and ecmeta-scheduler, on CLI11: the help generated
// from the options, --version, and one contract for usage errors: one line on stderr,
// "<program>: <what> (see --help)", and exit status 2.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include <ecmeta/metadata.hpp>

namespace command_line {

[[nodiscard]] inline std::string version() {
    return std::to_string(ECMETA_VERSION_MAJOR) + "." + std::to_string(ECMETA_VERSION_MINOR) + "." +
           std::to_string(ECMETA_VERSION_PATCH);
}

// Lines on stdout and stderr stay lines: control characters are written as \u00xx.
[[nodiscard]] inline std::string one_line(std::string_view text) {
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

// A number as the programs take it: decimal digits only, no sign, spaces or exponent.
inline const CLI::Validator digits{[](const std::string& s) {
                                       const bool ok =
                                           !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
                                       return ok ? std::string{} : "takes a non-negative integer, got \"" + s + "\"";
                                   },
                                   "N"};

// An option that takes one of `words`.
inline CLI::Option* add_choice(CLI::App& app, const std::string& name, std::string& value,
                               const std::vector<std::string>& words, const std::string& description) {
    return app.add_option(name, value, description)->check(CLI::IsMember(words));
}

// What every program's app has: --version ("<program> <ecmeta's version>") and the help's layout.
inline void common(CLI::App& app) {
    app.set_version_flag("--version", app.get_name() + " " + version(), "Print the version and exit");
    app.get_formatter()->column_width(28);
}

// Parses argv; nullopt to go on, or the exit status to stop with: 0 after printing the help or
// the version, 2 after a usage error.
[[nodiscard]] inline std::optional<int> parse(CLI::App& app, int argc, const char* const* argv) {
    try {
        app.parse(argc, argv);
        return std::nullopt;
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) {  // --help, --version
            return app.exit(e);
        }
        std::cerr << app.get_name() << ": " << one_line(e.what()) << " (see --help)\n";
        return 2;
    }
}

}  // namespace command_line
