# Writes the inputs of the CLI tests in tests/cli/cases.txt and what
# NumPy / SciPy answer for them: `gpuprim convolve` against scipy.ndimage's
# filters of the same names, `gpuprim scan --op min|max|nanmin|nanmax`
# against numpy.minimum / maximum / fmin / fmax .accumulate.
# Run from this folder with numpy and scipy installed: python3 make_expected.py
import os
import struct
import zlib

import numpy as np
import scipy.ndimage as ndi

rng = np.random.default_rng(30)
os.makedirs('expected', exist_ok=True)


def save(name, a):
    np.save(name, a)


def write_gray_png(name, pixels):
    """An 8-bit gray PNG (no filtering, one IDAT), without an imaging library."""
    rows, cols = pixels.shape
    raw = b''.join(b'\x00' + bytes(pixels[r].astype(np.uint8)) for r in range(rows))

    def chunk(kind, data):
        return (struct.pack('>I', len(data)) + kind + data +
                struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff))

    with open(name, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n')
        f.write(chunk(b'IHDR', struct.pack('>IIBBBBB', cols, rows, 8, 0, 0, 0, 0)))
        f.write(chunk(b'IDAT', zlib.compress(raw, 9)))
        f.write(chunk(b'IEND', b''))


def convert_scale_abs(v):
    """What the CLI writes to a PNG: |v| rounded to nearest (ties to even), saturated."""
    return np.clip(np.rint(np.abs(v)), 0, 255).astype(np.uint8)


# ---- convolve -----------------------------------------------------------------
# Small integers, so the derivative filters are exact in float32.
f32 = rng.integers(0, 10, (6, 7)).astype(np.float32)
f64 = rng.standard_normal((5, 8))
weights = np.array([[1.0, -2.0], [0.5, 3.0], [0.0, -1.0]])  # not symmetric: the flip shows
save('image_f32.npy', f32)
save('image_f64.npy', f64)
save('weights_3x2.npy', weights)

modes = ['constant', 'nearest', 'reflect', 'mirror', 'wrap']
for mode in modes:
    save(f'expected/sobel_x_{mode}.npy', ndi.sobel(f32, axis=1, mode=mode))
    save(f'expected/laplace_{mode}.npy', ndi.laplace(f64, mode=mode))
save('expected/sobel_y_reflect.npy', ndi.sobel(f32, axis=0))
save('expected/uniform_3_nearest.npy', ndi.uniform_filter(f64, 3, mode='nearest'))
save('expected/gaussian_1_mirror.npy', ndi.gaussian_filter(f64, 1.0, mode='mirror'))
save('expected/gaussian_1.5_r2_constant.npy',
     ndi.gaussian_filter(f32, 1.5, mode='constant', radius=2))
save('expected/weights_convolve_reflect.npy', ndi.convolve(f64, weights))
save('expected/weights_correlate_wrap.npy', ndi.correlate(f64, weights, mode='wrap'))

# A dark-to-bright step (20 on the left, 80 on the right) and a smooth ramp.
step = np.where(np.arange(6) < 3, 20, 80)[None, :].repeat(5, axis=0).astype(np.uint8)
write_gray_png('step.png', step)
as_float = step.astype(np.float32)
save('expected/step_sobel_x.npy', convert_scale_abs(ndi.sobel(as_float, axis=1)))
save('expected/step_sobel_y.npy', convert_scale_abs(ndi.sobel(as_float, axis=0)))
save('expected/step_laplace.npy', convert_scale_abs(ndi.laplace(as_float)))

# ---- scan -------------------------------------------------------------------------
nan = np.nan
with_nan = np.array([3.0, nan, 1.0, 2.0, nan, 0.5, 4.0])
leading_nan = np.array([nan, nan, 2.0, 1.0, nan, 3.0, 0.0], dtype=np.float32)
save('scan_nan_f64.npy', with_nan)
save('scan_leading_nan_f32.npy', leading_nan)
ops = {'min': np.minimum, 'max': np.maximum, 'nanmin': np.fmin, 'nanmax': np.fmax}
for name, ufunc in ops.items():
    for stem, a in (('nan_f64', with_nan), ('leading_nan_f32', leading_nan)):
        save(f'expected/scan_{name}_{stem}.npy', ufunc.accumulate(a))
        # Exclusive: out[0] = the operator's identity (+inf for min, -inf for
        # max, NaN for nanmin / nanmax, which every number beats), out[i]
        # combines it with a[0..i-1]: the inclusive scan's out[i-1].
        init = np.nan if name.startswith('nan') else np.inf if 'min' in name else -np.inf
        shifted = np.concatenate([[init], a[:-1]]).astype(a.dtype)
        save(f'expected/scan_exclusive_{name}_{stem}.npy', ufunc.accumulate(shifted))

# Segmented: every segment scanned on its own (heads at 0, 3 and 5).
heads = np.zeros(len(leading_nan), dtype=bool)
heads[[0, 3, 5]] = True
save('scan_heads.npy', heads)
for name, ufunc in ops.items():
    parts = np.split(leading_nan, [3, 5])
    save(f'expected/scan_segmented_{name}_leading_nan_f32.npy',
         np.concatenate([ufunc.accumulate(p) for p in parts]))

# Filters wider than the image: the border extends it over several periods.
tiny = np.random.default_rng(31).standard_normal((3, 4))
save('tiny_f64.npy', tiny)
for mode in modes:
    save(f'expected/tiny_gaussian_1.5_{mode}.npy', ndi.gaussian_filter(tiny, 1.5, mode=mode))

# ---- reduce of float16 --------------------------------------------------------------
# NumPy sums float16 in float32 and returns float16; the CLI prints that
# float16 as the shortest text that reads back as it (no trailing ".0").
def shortest(x):
    if np.isnan(x):
        return 'nan'
    return np.format_float_positional(np.float16(x), unique=True, trim='-')


f16 = np.array([0.1, 0.2, 0.3, 1000.0, -1.5, 0.7, 3.14159, 2049.0, -0.25], dtype=np.float16)
f16_nan = f16.copy()
f16_nan[2] = np.nan
f16_tenths = np.array([0.3, 0.1, 0.7], dtype=np.float16)  # not exact: printed as float16
save('f16.npy', f16)
save('f16_nan.npy', f16_nan)
save('f16_tenths.npy', f16_tenths)
with open('expected/reduce_float16.txt', 'w') as out:
    for stem, a in (('f16', f16), ('f16_nan', f16_nan), ('f16_tenths', f16_tenths)):
        for op in ('sum', 'min', 'max', 'nansum', 'nanmin', 'nanmax'):
            out.write(f'{stem} {op} {shortest(getattr(np, op)(a))}\n')
        for op in ('argmin', 'argmax', 'nanargmin', 'nanargmax'):
            i = int(getattr(np, op)(a))
            out.write(f'{stem} {op} {shortest(a[i])} {i}\n')

# ---- matmul operands (the tf32-on-the-host refusal) ------------------------------------
save('mat_a.npy', rng.standard_normal((2, 3)).astype(np.float32))
save('mat_b.npy', rng.standard_normal((3, 2)).astype(np.float32))
