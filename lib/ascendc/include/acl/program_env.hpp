// The environment of a program built with evgcheck_add_program, from its one table (program_env.def): what
// the ACL shim reads and `evgcheck run-program` sets.
#pragma once
#include <string_view>

namespace evg::acl {

enum class ProgramEnv {
#define EVG_PROGRAM_ENV(id, name, value, effect) id,
#include "acl/program_env.def"
};

struct ProgramEnvVar {
    ProgramEnv id;
    std::string_view name;    // "EVG_SEED"
    std::string_view value;   // what it takes: "N", "path"
    std::string_view effect;  // what it does
};

inline constexpr ProgramEnvVar kProgramEnv[] = {
#define EVG_PROGRAM_ENV(id, name, value, effect) {ProgramEnv::id, name, value, effect},
#include "acl/program_env.def"
};

// The variable's name: program_env_name(ProgramEnv::seed) == "EVG_SEED".
constexpr const char* program_env_name(ProgramEnv v) {
    switch (v) {
#define EVG_PROGRAM_ENV(id, name, value, effect) \
    case ProgramEnv::id:                         \
        return name;
#include "acl/program_env.def"
    }
    return "";
}

}  // namespace evg::acl
