// FNV-1a, 64 bits: evgcheck's one short content hash, written as 16 hex digits. It names what is stored by
// its content (a fuzz finding's folder, a cached upstream library) and fingerprints a Catlass checkout's
// headers (acl/catlass_checkout.hpp). Not a cryptographic hash: it tells contents apart, it does not
// authenticate them.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace evg::hw {

class Fnv1a64 {
  public:
    Fnv1a64& add(std::string_view bytes) {
        for (const char c : bytes) {
            h_ ^= static_cast<unsigned char>(c);
            h_ *= 1099511628211ull;
        }
        return *this;
    }
    uint64_t value() const { return h_; }
    std::string hex() const {
        static constexpr char digits[] = "0123456789abcdef";
        std::string out(16, '0');
        for (int i = 15, shift = 0; i >= 0; --i, shift += 4)
            out[static_cast<size_t>(i)] = digits[(h_ >> shift) & 15];
        return out;
    }

  private:
    uint64_t h_ = 14695981039346656037ull;
};

inline std::string fnv1a64_hex(std::string_view bytes) {
    return Fnv1a64().add(bytes).hex();
}

}  // namespace evg::hw
