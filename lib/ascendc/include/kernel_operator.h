// The AscendC kernel API on the evgcheck machine. Kernel code includes this exactly as on device.
#pragma once
#include "ascendc/cache.hpp"
#include "ascendc/cube.hpp"
#include "ascendc/data_copy.hpp"
#include "ascendc/dtypes_ext.hpp"
#include "ascendc/micro_api.hpp"
#include "ascendc/std_utils.hpp"
#include "ascendc/sync.hpp"
#include "ascendc/system.hpp"
#include "ascendc/tensor.hpp"
#include "ascendc/types.hpp"
#include "ascendc/unmodelled.hpp"
#include "ascendc/vector.hpp"
#include "ascendc/vector_level0.hpp"
#include "ascendc/vector_mask.hpp"
#include "ascendc/vector_reduce.hpp"
#include "ascendc/vector_select.hpp"

// Last, after every standard header the ones above include: device code sees the model's assert.
#include "ascendc/device_assert.hpp"
