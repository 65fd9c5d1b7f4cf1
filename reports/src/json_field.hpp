// Internal to the report readers (sync_table.cpp, read_report.cpp): one field of a JSON object read as T, or
// std::runtime_error naming the document, the object and the field.
#pragma once
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace evg::reports::detail {

template <class T>
T json_field(const nlohmann::json& j, const char* name, const char* where, const char* document) {
    if (!j.is_object() || !j.contains(name))
        throw std::runtime_error(fmt::format("{}: {} has no field '{}'", document, where, name));
    try {
        return j.at(name).get<T>();
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(fmt::format("{}: field '{}' of {}: {}", document, name, where, e.what()));
    }
}

}  // namespace evg::reports::detail
