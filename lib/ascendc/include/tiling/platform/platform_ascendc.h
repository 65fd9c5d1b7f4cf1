// CANN's platform query for host code (PlatformAscendC), as Catlass's example programs use it: the core
// counts and on-chip memory sizes of the chip the program is built for, from the model's arch table
// (evg/hw/arch.hpp: one SKU per arch, docs/hardware-model.md §4.2).
//
// The chip is the build's (__NPU_ARCH__, set by evg::ascendc_device_<arch>); in a translation unit built
// without it, the chip of the process-wide device's configuration.
#pragma once
#include <cstdint>

#include "evg/hw/arch.hpp"
#include "evg/hw/device.hpp"

namespace platform_ascendc {

enum class CoreMemType : uint8_t { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };

enum class SocVersion : uint8_t { ASCEND910B = 0, ASCEND950 = 1, RESERVED_VERSION };

class PlatformAscendC {
  public:
    uint32_t GetCoreNumAic() const { return static_cast<uint32_t>(spec().aic_cores); }
    uint32_t GetCoreNumAiv() const { return static_cast<uint32_t>(spec().aiv_cores); }
    // The AI cores a mixed kernel can be launched on (one AIC with its AIVs each).
    uint32_t GetCoreNum() const { return GetCoreNumAic(); }
    SocVersion GetSocVersion() const {
        return arch() == ::evg::hw::ArchId::AtlasA2 ? SocVersion::ASCEND910B : SocVersion::ASCEND950;
    }
    void GetCoreMemSize(CoreMemType type, uint64_t& size) const {
        const auto& a = spec();
        switch (type) {
            case CoreMemType::L0_A:
                size = a.l0a_size;
                return;
            case CoreMemType::L0_B:
                size = a.l0b_size;
                return;
            case CoreMemType::L0_C:
                size = a.l0c_size;
                return;
            case CoreMemType::L1:
                size = a.l1_size;
                return;
            case CoreMemType::UB:
                size = a.ub_size;
                return;
            default:
                size = 0;  // L2 and HBM: the model has no such figure
                return;
        }
    }

  private:
    static ::evg::hw::ArchId arch() {
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2201
        return ::evg::hw::ArchId::AtlasA2;
#elif defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
        return ::evg::hw::ArchId::Ascend950;
#else
        return ::evg::hw::device().config().arch;
#endif
    }
    static const ::evg::hw::ArchSpec& spec() {
        return ::evg::hw::arch_spec(arch());
    }
};

class PlatformAscendCManager {
  public:
    static PlatformAscendC* GetInstance() {
        static PlatformAscendC instance;
        return &instance;
    }
};

}  // namespace platform_ascendc
