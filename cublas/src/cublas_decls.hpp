// The cuBLAS declarations this library is written against: types, enum values and
// prototypes only; nothing here links libcublas (real_cublas.hpp finds it at run time).
#pragma once

// The project builds with hidden visibility; the cuBLAS entry points defined here must
// be visible (exports.map then narrows the export list to the ones we answer).
#pragma GCC visibility push(default)
#include <cublas_v2.h>
#pragma GCC visibility pop
