"""gpuprim.ndimage on CuPy arrays: the exact N-D path (SciPy's bits) against
the 2-D tiled kernels, per call (gpuprim.bench.device_ms: the median of 20
after a warm-up, CUDA events).
Run by lab/probes/ndimage_device_check.sh; prints one line per case."""

import cupy
import gpuprim as gp
import numpy as np
from gpuprim import _core
from gpuprim.bench import device_ms
from gpuprim import ndimage as gnd


def tiled(f, *args):
    """f(*args) with CuPy float64 images on the 2-D tiled kernels."""
    gnd._TILED_FLOAT64 = True
    try:
        return f(*args)
    finally:
        gnd._TILED_FLOAT64 = False


def main():
    rng = np.random.default_rng(0)
    x32 = cupy.asarray(rng.standard_normal((2048, 2048)).astype(np.float32))
    x64 = x32.astype(cupy.float64)
    u8 = cupy.asarray(rng.integers(0, 256, (2048, 2048)).astype(np.uint8))
    vol = cupy.asarray(rng.standard_normal((256, 256, 256)).astype(np.float32))
    line = cupy.asarray(rng.standard_normal(1 << 20).astype(np.float32))
    taps = gnd._gaussian_weights(2.0, 8)
    w5 = np.ones((5, 5)) / 25
    box5 = (0.2,) * 5
    reflect = gnd._REFLECT
    cases = [
        ("gaussian_filter s=2 f32 2048^2, N-D exact", lambda: gp.ndimage.gaussian_filter(x32, 2.0)),
        (
            "gaussian_filter s=2 f32 2048^2, 2-D kernels (before)",
            lambda: _core._filter2d_separable("g", x32, taps, taps, reflect, False, None, None),
        ),
        ("gaussian_filter s=2 f64 2048^2, N-D exact", lambda: gp.ndimage.gaussian_filter(x64, 2.0)),
        (
            "gaussian_filter s=2 f64 2048^2, 2-D kernels (_TILED_FLOAT64)",
            lambda: tiled(gp.ndimage.gaussian_filter, x64, 2.0),
        ),
        ("correlate 5x5 f64 2048^2, N-D exact", lambda: gp.ndimage.correlate(x64, w5)),
        (
            "correlate 5x5 f64 2048^2, 2-D kernels (_TILED_FLOAT64)",
            lambda: tiled(gp.ndimage.correlate, x64, w5),
        ),
        ("uniform_filter 5 f32 2048^2, N-D exact", lambda: gp.ndimage.uniform_filter(x32, 5)),
        (
            "uniform_filter 5 f32 2048^2, 2-D kernels (before)",
            lambda: _core._filter2d_separable("u", x32, box5, box5, reflect, False, None, None),
        ),
        ("correlate 5x5 f32 2048^2, N-D exact", lambda: gp.ndimage.correlate(x32, w5)),
        (
            "correlate 5x5 f32 2048^2, 2-D kernels (before)",
            lambda: _core._filter2d(
                "c", x32, w5.ravel().tolist(), 5, 5, reflect, False, None, None
            ),
        ),
        (
            "correlate1d k=9 axis 0 f32 2048^2",
            lambda: gp.ndimage.correlate1d(x32, np.ones(9), axis=0),
        ),
        (
            "uniform_filter1d 9 axis 1 f32 2048^2",
            lambda: gp.ndimage.uniform_filter1d(x32, 9, axis=1),
        ),
        ("gaussian_filter s=2 uint8 2048^2", lambda: gp.ndimage.gaussian_filter(u8, 2.0)),
        ("gaussian_filter s=2 f32 256^3", lambda: gp.ndimage.gaussian_filter(vol, 2.0)),
        ("uniform_filter1d 9 f32 2^20 (one line)", lambda: gp.ndimage.uniform_filter1d(line, 9)),
    ]
    for name, f in cases:
        print(f"{name}: {device_ms(f, ('cupy', cupy), 20):.3f} ms")


if __name__ == "__main__":
    main()
