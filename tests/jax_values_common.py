# tests/jax_values_common.py — what the *_jax_values.py scripts share: the deterministic inputs
# the C++ tests rebuild (st::testing::sin_sequence / sin_squares) and the printer of one
# st::testing::JaxCase line. Imported by the scripts (not run by the tests).
import numpy as np


def seq(shape, a, b):
    """sin(a·i + b) over the elements in row-major order (sin_sequence), a JAX array."""
    import jax.numpy as jnp

    n = int(np.prod(shape))
    return jnp.asarray(np.sin(a * np.arange(n) + b).reshape(shape))


def sq(shape, a, b):
    """sin(a·i² + b): full-rank matrices (sin_squares), a JAX array."""
    import jax.numpy as jnp

    n = int(np.prod(shape))
    i = np.arange(n, dtype=np.float64)
    return jnp.asarray(np.sin(a * i * i + b).reshape(shape))


def num(t):
    """A C++ literal of one value (INFINITY, NAN for the non-finite)."""
    t = float(t)
    return "INFINITY" if t == np.inf else "-INFINITY" if t == -np.inf else "NAN" if t != t else repr(t)


def values(v):
    """The values, a complex array's as (re, im) pairs, as C++ literals."""
    v = np.asarray(v)
    if np.iscomplexobj(v):
        v = np.stack([v.real, v.imag], -1)
    return ", ".join(num(x) for x in v.ravel())


def show(cpp, v, real_imag=False):
    """One JaxCase line: the expression, its value (wrapped in real_imag(...) when asked, whose
    complex results gain a trailing dimension of 2), JAX's values and shape."""
    v = np.asarray(v)
    shape = v.shape + ((2,) if np.iscomplexobj(v) else ())
    esc = cpp.replace('"', '\\"')
    got = f"real_imag({cpp})" if real_imag else cpp
    print(f'    {{"{esc}", {got}, {{{values(v)}}}, {{{", ".join(map(str, shape))}}}}},')
