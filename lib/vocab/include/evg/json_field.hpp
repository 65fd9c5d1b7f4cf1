// One field of a JSON object read as T, for the readers of the project's own JSON reports (reports/: the
// conformance report and the sync table; upstream/check: the check report): std::runtime_error naming the
// document, the object and the field when it is missing or of another type. Header-only; include it where
// nlohmann_json and fmt are linked.
#pragma once
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>

namespace evg {

template <class T>
T json_field(const nlohmann::json& j, const char* name, std::string_view where, std::string_view document) {
    if (!j.is_object() || !j.contains(name))
        throw std::runtime_error(fmt::format("{}: {} has no field '{}'", document, where, name));
    try {
        return j.at(name).get<T>();
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(fmt::format("{}: field '{}' of {}: {}", document, name, where, e.what()));
    }
}

}  // namespace evg
