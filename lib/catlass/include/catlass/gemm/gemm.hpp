// Umbrella include of the GEMM side: cross-core flags, dispatch policies, block swizzle, BlockMmad, the three
// visitor kernels and DeviceGemm.
#pragma once
#include "catlass/arch/cross_core_sync.hpp"
#include "catlass/gemm/block/block_mmad.hpp"
#include "catlass/gemm/block/block_swizzle.hpp"
#include "catlass/gemm/device/device_gemm.hpp"
#include "catlass/gemm/dispatch_policy.hpp"
#include "catlass/gemm/kernel/basic_matmul_tla_ub_visitor.hpp"
#include "catlass/gemm/kernel/basic_matmul_tla_visitor.hpp"
#include "catlass/gemm/kernel/matmul_visitor.hpp"
