// Where an instruction was issued: a source position, captured at the AscendC call site.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace evg::hw {

struct Site {
    const char* file = "";
    uint32_t line = 0;
    // Captures the caller's position when used as a default argument: `Site site = Site::here()`.
    static constexpr Site here(const char* f = __builtin_FILE(), uint32_t l = __builtin_LINE()) {
        return {f, l};
    }
    std::string str() const;  // "file.cpp:42" (file name without directories)
};

// Whose code a site is in, so that a finding can name the user's line first: the program's Catlass checkout,
// evgcheck's own headers, or the user's (any other file). The directories are registered by the program
// (kernel_operator.h registers evgcheck's include directory and the EVGCHECK_CATLASS_ROOT it was built with);
// with none registered (evgcheck's own harnesses) every site is `unknown`.
enum class SiteOwner : uint8_t { unknown, user, catlass, evgcheck };
bool register_code_dir(const std::string& dir, SiteOwner owner);
SiteOwner site_owner(const Site& site);
// The owner of a file by its path (a call chain's frame, call_chain.hpp); not cached. Files of the system's
// headers and libraries (/usr/include, /usr/lib) are `unknown`, not the user's.
SiteOwner path_owner(std::string_view path);
bool code_dirs_registered() noexcept;  // whether any directory is registered (a program, not a harness)
std::string_view site_owner_name(SiteOwner o);  // "", "user", "catlass", "evgcheck"

// The text of the site's line, blanks at both ends dropped, read from its file (once per file and process);
// empty when the file cannot be read or has no such line.
std::string source_text(const Site& site);

// The source text of argument `index` (from 0) of the call of `callee` on the site's line, template arguments
// skipped: for `SetFlag<MTE1_M>(l0CEventList[l0CListId]);` and callee "SetFlag", argument 0 is
// "l0CEventList[l0CListId]". The statement is read from the site's line on, over up to 3 more lines until a
// `;`. Empty when it holds no such call or the call goes on past them.
std::string call_argument_text(const Site& site, std::string_view callee, size_t index);

}  // namespace evg::hw
