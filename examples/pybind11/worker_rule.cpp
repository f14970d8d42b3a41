// worker_rule.report(step, rank): what `rank` reports for a step, computed in C++ on the step as
// the connector's Python code holds it (vLLM's ECMooncakeConnectorMetadata, or ecmeta's), and
// handed back as a Python ECMooncakeWorkerMetadata, or None for a rank with nothing to say.
#include <cstdint>
#include <optional>

#include <pybind11/pybind11.h>

#include <ecmeta/pybind11.hpp>

#include "rule.hpp"

PYBIND11_MODULE(worker_rule, m) {
    m.def(
        "report",
        [](const ecmeta::ECMooncakeConnectorMetadata& step, std::uint64_t rank) { return zmq_step::play(step, rank); },
        pybind11::arg("step"), pybind11::arg("rank"));
}
