// What bench_python.py times on the C++ side of the casters: a step converted from Python and back,
// reports converted in only, and the fold of reports already held in C++.
// SPDX-License-Identifier: Apache-2.0
#include <optional>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>

#include <ecmeta/ecmeta.hpp>
#include <ecmeta/pybind11.hpp>

namespace py = pybind11;

namespace {

using W = ecmeta::ECMooncakeWorkerMetadata;
using ranks = std::vector<std::optional<W>>;

// A step held in C++, converted once.
struct held_step {
    ecmeta::ECMooncakeConnectorMetadata step;
};

// Rank reports held in C++, converted once.
struct held {
    ranks reports;
};

}  // namespace

PYBIND11_MODULE(ecmeta_bench_py, m) {
    m.def("round_trip", [](const ecmeta::ECMooncakeConnectorMetadata& step) { return step; });
    m.def("convert_in", [](const ranks& reports) { return reports.size(); });
    m.def("step_in", [](const ecmeta::ECMooncakeConnectorMetadata& step) { return step.loads.size(); });
    py::class_<held_step>(m, "HeldStep").def("out", [](const held_step& h) { return h.step; });
    m.def("hold_step", [](ecmeta::ECMooncakeConnectorMetadata step) { return held_step{std::move(step)}; });
    py::class_<held>(m, "Held").def("fold", [](const held& h) {
        const py::gil_scoped_release released;
        return ecmeta::aggregate(h.reports)->loaded.size();
    });
    m.def("hold", [](ranks reports) { return held{std::move(reports)}; });
}
