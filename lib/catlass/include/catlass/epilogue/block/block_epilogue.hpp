// Umbrella include for the epilogue block layer: the dispatch policies and BlockEpilogue for EVGs.
#pragma once
#include "catlass/epilogue/block/block_epilogue_visitor.hpp"
#include "catlass/epilogue/dispatch_policy.hpp"
