// The casters as an extension meets them, beside pybind11/stl.h's: each function hands back what it
// took, so that a test sees both directions; and a few read the value in C++.
// SPDX-License-Identifier: Apache-2.0
#include <optional>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>  // lists and optionals of the types below, through their casters

#include <ecmeta/ecmeta.hpp>
#include <ecmeta/pybind11.hpp>

namespace py = pybind11;

PYBIND11_MODULE(ecmeta_casters, m) {
    using namespace ecmeta;
    m.def("load", [](const ECMooncakeLoadSpec& v) { return v; });
    m.def("push", [](const ECMooncakePushSpec& v) { return v; });
    m.def("connector", [](const ECMooncakeConnectorMetadata& v) { return v; });
    m.def("worker", [](const ECMooncakeWorkerMetadata& v) { return v; });
    m.def("ids", [](const id_set& v) { return v; });
    m.def("ranks", [](const std::vector<std::optional<ECMooncakeWorkerMetadata>>& v) { return v; });
    m.def("reports", [](const std::vector<ECMooncakeWorkerMetadata>& v) { return v; });
    m.def("maybe_worker", [](const std::optional<ECMooncakeWorkerMetadata>& v) { return v; });
    // Through stl.h's casters, element by element.
    m.def("loads", [](const std::vector<ECMooncakeLoadSpec>& v) { return v; });
    m.def("maybe_connector", [](const std::optional<ECMooncakeConnectorMetadata>& v) { return v; });
    // Read in C++: the canonical JSON of what arrived.
    m.def("canonical_connector", [](const ECMooncakeConnectorMetadata& v) { return encode(v); });
    // A value built in C++ whose string is not UTF-8.
    m.def("bad_utf8", [] {
        ECMooncakeConnectorMetadata step;
        step.freed = std::vector<std::string>{"ok", std::string{"\xff"}};
        return step;
    });
}
