# tests/api/optimize_jax_values.py — prints the JAX values tests/api/test_optimize.cpp pastes:
# JAX 0.10.2's BFGS and line search (x64) with the zoom's failure guard of jax-ml/jax#40228
# (|a_hi - a_lo| <= eps(dtype) max(|a_lo|, |a_hi|)), which strata uses: without it JAX's BFGS
# stops with status 3 on Rosenbrock's function. Not run by the tests (it needs jax):
#   /work/venv-jax/bin/python tests/api/optimize_jax_values.py
import inspect

import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp
import jax._src.scipy.optimize.bfgs as bfgs
import jax._src.scipy.optimize.line_search as ls_module

src = inspect.getsource(ls_module)
old = "state = state._replace(failed=state.failed | (dalpha <= threshold))"
assert old in src, "JAX's zoom changed; check the patch"
src = src.replace(old, "state = state._replace(failed=state.failed | (jnp.abs(dalpha) <= "
                  "dtypes.finfo(dalpha.dtype).eps * jnp.maximum(jnp.abs(state.a_lo), jnp.abs(state.a_hi))))")
exec(compile(src, ls_module.__file__, "exec"), ls_module.__dict__)
bfgs.line_search = ls_module.line_search
import jax._src.scipy.optimize._lbfgs as lbfgs
lbfgs.line_search = ls_module.line_search
from jax.scipy.optimize import minimize


def rosen(x):
    return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


A = jnp.array([4, 1, 0, 0.5, 1, 3, 0.2, 0, 0, 0.2, 2, 0.1, 0.5, 0, 0.1, 1.5]).reshape(4, 4)
b = jnp.array([1.0, -2.0, 0.5, 3.0])
quartic = lambda x: 0.5 * jnp.sum(x * (A @ x)) - jnp.sum(b * x) + 0.05 * jnp.sum(x ** 4)


def show(tag, r):
    print(tag, "x", [repr(float(v)) for v in r.x], "fun", repr(float(r.fun)), "nit", int(r.nit), "nfev",
          int(r.nfev), "njev", int(r.njev), "status", int(r.status), "success", bool(r.success))


r = minimize(rosen, jnp.array([1.3, 0.7, 0.8, 1.9, 1.2]), method="BFGS")
show("rosen5", r)
print("rosen5 hess_inv diag", [repr(float(v)) for v in jnp.diag(r.hess_inv)])
show("rosen2", minimize(rosen, jnp.array([-1.2, 1.0]), method="BFGS"))
show("rosen5 maxiter=3", minimize(rosen, jnp.array([1.3, 0.7, 0.8, 1.9, 1.2]), method="BFGS", options=dict(maxiter=3)))
show("rosen2 f32", minimize(rosen, jnp.array([-1.2, 1.0], jnp.float32), method="BFGS"))
show("quartic from 0", minimize(quartic, jnp.zeros(4), method="BFGS"))
s = ls_module.line_search(rosen, jnp.array([-1.2, 1.0]), jnp.array([1.0, 0.5]))
print("line_search", repr(float(s.a_k)), repr(float(s.f_k)), [repr(float(v)) for v in s.g_k], int(s.nfev), int(s.nit),
      bool(s.failed), int(s.status))
s = ls_module.line_search(rosen, jnp.array([-1.2, 1.0]), jnp.array([-1.0, 0.0]))
print("line_search uphill", repr(float(s.a_k)), bool(s.failed), int(s.status), int(s.nfev))
L = "l-bfgs-experimental-do-not-rely-on-this"
show("lbfgs rosen5", minimize(rosen, jnp.array([1.3, 0.7, 0.8, 1.9, 1.2]), method=L))
show("lbfgs rosen2", minimize(rosen, jnp.array([-1.2, 1.0]), method=L))
show("lbfgs quartic maxcor=3", minimize(quartic, jnp.zeros(4), method=L, options=dict(maxcor=3)))
show("lbfgs rosen5 maxiter=4", minimize(rosen, jnp.array([1.3, 0.7, 0.8, 1.9, 1.2]), method=L, options=dict(maxiter=4)))
