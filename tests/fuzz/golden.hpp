// Golden outcomes of the committed corpus. Replayed as a test, each input's decodes record what
// they gave, in order (a value as canonical JSON, or an error's message, pointer and offset), and
// the record is held to the line committed for that input in tests/fuzz/golden/<target>.jsonl. So
// every verdict and every wording on the corpus is pinned, for MessagePack and JSON alike.
//
// ECMETA_WRITE_GOLDEN=1 build/test/tests/ecmeta_tests "[fuzz]" rewrites the files from what the
// decoders give now; review their diff as a change of behaviour. Under libFuzzer nothing is
// recorded: a new input has no golden line, and the fuzz targets' differential checks hold it.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ecmeta_fuzz {

// The outcomes of the input being replayed; null when no replay is recording (the fuzzer).
inline std::vector<std::string>*& golden_outcomes() {
    static std::vector<std::string>* recording = nullptr;
    return recording;
}

// Records describe() (an outcome as one line of JSON) if a replay is recording.
template <class Describe>
void record(Describe&& describe) {
    if (auto* outcomes = golden_outcomes()) {
        outcomes->push_back(std::forward<Describe>(describe)());
    }
}

}  // namespace ecmeta_fuzz

#ifndef ECMETA_LIBFUZZER

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "test.hpp"

namespace ecmeta_fuzz {

// One target's golden file: read at the start of its replay, checked input by input, and at the
// end either checked for lines no input claimed or, with ECMETA_WRITE_GOLDEN set, rewritten.
class golden_file {
public:
    explicit golden_file(std::filesystem::path path)
        : path_(std::move(path)), write_(std::getenv("ECMETA_WRITE_GOLDEN") != nullptr) {
        std::ifstream in(path_);
        for (std::string line; std::getline(in, line);) {
            expected_.emplace(nlohmann::json::parse(line).at("input").get<std::string>(), line);
        }
    }

    // Replays one input: runs replay() while recording its outcomes, then holds them to the line.
    template <class Replay>
    void replay(const std::string& input, Replay&& replay) {
        std::vector<std::string> outcomes;
        golden_outcomes() = &outcomes;
        try {
            std::forward<Replay>(replay)();
        } catch (...) {
            golden_outcomes() = nullptr;
            throw;
        }
        golden_outcomes() = nullptr;
        if (outcomes.empty()) {
            return;  // a target, or an input, that decodes nothing
        }
        nlohmann::ordered_json line{{"input", input}, {"outcomes", nlohmann::ordered_json::array()}};
        for (const std::string& outcome : outcomes) {
            line["outcomes"].push_back(nlohmann::ordered_json::parse(outcome));
        }
        std::string text = line.dump();
        if (!write_) {
            INFO("golden line of " << input << " in " << path_.string()
                                   << " (ECMETA_WRITE_GOLDEN=1 rewrites it: review the diff)");
            const auto it = expected_.find(input);
            REQUIRE(it != expected_.end());
            CHECK(text == it->second);
            expected_.erase(it);
        }
        written_.emplace(input, std::move(text));
    }

    // Every golden line was some input's; or, when writing, the file holds exactly this replay's.
    void finish() {
        if (write_) {
            std::ofstream out(path_, std::ios::trunc);
            for (const auto& entry : written_) {
                out << entry.second << '\n';
            }
            REQUIRE(out.good());
            return;
        }
        std::string stale;
        for (const auto& entry : expected_) {
            stale += ' ' + entry.first;
        }
        INFO("golden lines in " << path_.string() << " of inputs no longer in the corpus:" << stale);
        CHECK(expected_.empty());
    }

private:
    std::filesystem::path path_;
    bool write_;
    std::map<std::string, std::string> expected_;  // input -> line, until the input is replayed
    std::map<std::string, std::string> written_;   // by input, so a rewrite is in a stable order
};

}  // namespace ecmeta_fuzz

#endif
