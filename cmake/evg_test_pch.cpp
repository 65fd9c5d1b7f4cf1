// The translation unit of evg_test_pch, whose only product is the precompiled header every test binary reuses
// (cmake/evg_test.cmake); it has no code of its own.
