// Cube-side instructions of the AIC, with the hardware's fractal data layouts (docs/hardware-model.md §16):
//   GM -> L1        DataCopy(..., Nd2NzParams)                 PIPE_MTE2   ND -> zN (data_copy.hpp)
//   L1 -> L0A/L0B   LoadData(..., LoadData2DParams[V2])         PIPE_MTE1   fractal copies, optional
//   transpose L0A x L0B -> L0C  Mmad(..., MmadParams)                     PIPE_M      zZ (AtlasA2) / zN
//   (Ascend950) x nZ L0C -> GM / UB  Fixpipe(..., FixpipeParamsV220/C310),        PIPE_FIX    NZ -> ND, dtype
//   conversion
//                   DataCopy(..., DataCopyCO12DstParams)
// Layouts in Catlass's names, for an R x C matrix of element size s, C0 = 32 / s elements:
//   zN (L1, L0A on Ascend950): element (r, c) at (c / C0) * RoundUp(R, 16) * C0 + r * C0 + c % C0
//   zZ (L0A on AtlasA2):       element (r, c) at (r / 16) * RoundUp(C, C0) * 16 + (c / C0) * 16 * C0
//                                                + (r % 16) * C0 + c % C0
//   nZ (L0B):                  element (r, c) at (r / C0) * RoundUp(C, 16) * C0 + c * C0 + r % C0
//   L0C (NZ, 16 x 16 blocks):  element (r, c) at (c / 16) * RoundUp(R, 16) * 16 + r * 16 + c % 16
// Every operand address is checked against its memory's alignment (L1 32 B, L0A/L0B 512 B, L0C 64 B).
#pragma once
#include "ascendc/cube_load.hpp"
#include "ascendc/fixpipe.hpp"
#include "ascendc/mmad.hpp"
