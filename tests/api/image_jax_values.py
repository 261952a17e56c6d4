# tests/api/image_jax_values.py — prints the JAX values that tests/api/test_image.cpp pastes:
# jax.image.resize / scale_and_translate and jax.scipy.ndimage.map_coordinates (JAX 0.10.2,
# x64) on the inputs defined below (the same in the test). Not run by the tests (it needs jax):
#   /work/venv-jax/bin/python tests/api/image_jax_values.py
import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp
import numpy as np
from jax.scipy.ndimage import map_coordinates

img = jnp.asarray(np.sin(np.arange(35.0) * 0.7).reshape(5, 7) * 3 + np.arange(35.0).reshape(5, 7) * 0.1)
batch = jnp.stack([img, -2 * img], -1)[None]  # [1, 5, 7, 2]


def show(cpp, v):
    """One JaxCase: the C++ expression (in test_image.cpp's names) and JAX's value."""
    v = np.asarray(v)
    esc = cpp.replace('"', '\\"')
    print(f'    {{"{esc}", {cpp}, {{{", ".join(repr(float(x)) for x in v.ravel())}}}, {{{", ".join(map(str, v.shape))}}}}},')


for method in ["nearest", "linear", "lanczos3", "lanczos5", "cubic", "cubic-pytorch", "area"]:
    for shape in [(3, 4), (9, 11), (5, 3)]:
        for aa in [True, False]:
            if method == "nearest" and not aa:
                continue  # antialias does not apply
            show(f'img::resize(IMG, {{{shape[0]}, {shape[1]}}}, "{method}", {str(aa).lower()})',
                 jax.image.resize(img, shape, method, antialias=aa))
show('img::resize(BATCH, {1, 3, 10, 2}, "linear")', jax.image.resize(batch, (1, 3, 10, 2), "linear"))
show('img::scale_and_translate(IMG, {6, 8}, {0, 1}, {1.3, 0.8}, {0.5, -1.0}, "cubic")',
     jax.image.scale_and_translate(img, (6, 8), (0, 1), jnp.array([1.3, 0.8]), jnp.array([0.5, -1.0]), "cubic"))
show('img::scale_and_translate(IMG, {4, 9}, {0, 1}, {0.7, 1.4}, {-0.3, 0.6}, "lanczos3", false)',
     jax.image.scale_and_translate(img, (4, 9), (0, 1), jnp.array([0.7, 1.4]), jnp.array([-0.3, 0.6]), "lanczos3", antialias=False))
ys = jnp.array([[-1.2, 0.0, 0.4], [2.5, 3.7, 4.6], [5.3, -0.5, 1.5]])
xs = jnp.array([[0.3, 6.8, -2.1], [1.5, 2.5, 7.9], [3.3, 4.0, 0.5]])
for order in [0, 1]:
    for mode in ["constant", "nearest", "wrap", "mirror", "reflect"]:
        show(f'nd::map_coordinates(IMG, {{YS, XS}}, {order}, "{mode}", -7.0)', map_coordinates(img, [ys, xs], order, mode, cval=-7.0))
imgi = jnp.asarray((np.arange(35).reshape(5, 7) * 7) % 11, jnp.int32)
show('nd::map_coordinates(IMGI, {YS, XS}, 1, "nearest")', map_coordinates(imgi, [ys, xs], 1, "nearest"))
print()
# Gradients in scale and translation (the weights depend on them).
loss = lambda s, t: jnp.sum(jax.image.scale_and_translate(img, (6, 8), (0, 1), s, t, "linear") ** 2)
g = jax.grad(loss, argnums=(0, 1))(jnp.array([1.3, 0.8]), jnp.array([0.5, -1.0]))
print("grad scale", [repr(float(v)) for v in g[0]], "grad translation", [repr(float(v)) for v in g[1]])
