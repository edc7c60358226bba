# Writes the .npy fixtures of tests/host/npy_test.cpp with NumPy: files in
# Fortran order and big-endian as numpy.save writes them, each with a
# C-ordered little-endian twin (NAME.c.npy) holding what numpy.load returns.
# Run from this folder: python3 make_fixtures.py
import numpy as np

rng = np.random.default_rng(7)
cases = {
    'f_1d_float32': np.asfortranarray(rng.standard_normal(7).astype(np.float32)),
    'f_2d_int16': np.asfortranarray(rng.integers(-30000, 30000, (5, 3)).astype(np.int16)),
    'f_2d_float64_T': rng.standard_normal((4, 9)).T,  # .T of a C array is Fortran-ordered
    'f_3d_uint8': np.asfortranarray(rng.integers(0, 255, (3, 4, 5)).astype(np.uint8)),
    'f_3d_float32': np.asfortranarray(rng.standard_normal((2, 3, 4)).astype(np.float32)),
    'f_4d_int64': np.asfortranarray(rng.integers(-2**62, 2**62, (2, 3, 1, 4)).astype(np.int64)),
    'f_2d_bool': np.asfortranarray(rng.integers(0, 2, (3, 6)).astype(bool)),
    'b_2d_float64': rng.standard_normal((3, 4)).astype('>f8'),
    'b_1d_int32': rng.integers(-2**31, 2**31 - 1, 6).astype('>i4'),
    'bf_3d_uint16': np.asfortranarray(rng.integers(0, 65535, (2, 5, 3)).astype('>u2')),
    'f_2d_float32_empty': np.asfortranarray(np.zeros((0, 4), np.float32)),
}
import os
os.makedirs("expected", exist_ok=True)
for name, a in cases.items():
    np.save(name + '.npy', a)
    np.save(name + '.c.npy', np.ascontiguousarray(a).astype(a.dtype.newbyteorder('<')))

# What the commands write for some of them (numpy's answers, C order).
np.save('expected/cumsum_f_2d_int16.npy', np.cumsum(np.load('f_2d_int16.npy')))
np.save('expected/sort_bf_3d_uint16.npy', np.sort(np.load('bf_3d_uint16.npy'), axis=None).astype('<u2'))
