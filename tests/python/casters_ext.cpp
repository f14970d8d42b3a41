// The casters as an extension meets them, beside pybind11/stl.h's: each function hands back what it
// took, so that a test sees both directions; and a few read the value in C++.
// SPDX-License-Identifier: Apache-2.0
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>  // included as extensions do: ecmeta's casters of the types still take over

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
    // Lists and optionals of every message, through ecmeta's casters (not stl.h's).
    m.def("loads", [](const std::vector<ECMooncakeLoadSpec>& v) { return v; });
    m.def("pushes", [](const std::vector<ECMooncakePushSpec>& v) { return v; });
    m.def("steps", [](const std::vector<ECMooncakeConnectorMetadata>& v) { return v; });
    m.def("maybe_connector", [](const std::optional<ECMooncakeConnectorMetadata>& v) { return v; });
    m.def("maybe_load", [](const std::optional<ECMooncakeLoadSpec>& v) { return v; });
    // Overloads: an object that is no message of a caster's kind falls through to the next one.
    m.def("which", [](const ECMooncakeWorkerMetadata& /*unused*/) { return "worker"; });
    m.def("which", [](const ECMooncakeLoadSpec& /*unused*/) { return "load"; });
    m.def("which", [](const ECMooncakePushSpec& /*unused*/) { return "push"; });
    m.def("which", [](const std::vector<ECMooncakeLoadSpec>& /*unused*/) { return "loads"; });
    m.def("which", [](std::int64_t /*unused*/) { return "int"; });
    m.def("which", [](const std::string& /*unused*/) { return "str"; });
    m.def("which", [](py::none /*unused*/) { return "None"; });
    // Read in C++: the canonical JSON of what arrived.
    m.def("canonical_connector", [](const ECMooncakeConnectorMetadata& v) { return encode(v); });
    // A value built in C++ whose string is not UTF-8.
    m.def("bad_utf8", [] {
        ECMooncakeConnectorMetadata step;
        step.freed = std::vector<std::string>{"ok", std::string{"\xff"}};
        return step;
    });
}
