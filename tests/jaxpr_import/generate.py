#!/usr/bin/env python3
"""tests/jaxpr_import/generate.py — writes the programs of this folder as JAX prints them.

For each program: NAME.jaxpr (str(jax.make_jaxpr(f)(*args)), JAX's own text), NAME.in<i>.npy
(its arguments) and NAME.out<i>.npy (what JAX computed, its results flattened in order).
tests/tracer/test_jax_printed_jaxprs.cpp parses each text, runs it eagerly and under jit, and
compares with JAX's results. Run by hand with JAX installed (the tests never need it):

    /work/venv-jax/bin/python tests/jaxpr_import/generate.py   # written with jax 0.10.2
"""
import os

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

x = jnp.arange(32., dtype=jnp.float32).reshape(4, 8) / 10
w = jnp.ones((8, 16)) / 8
b = jnp.ones((16,))
idx = jnp.array([2, 0, 1], dtype=jnp.int32)
img = jnp.arange(2 * 6 * 6 * 3, dtype=jnp.float32).reshape(2, 6, 6, 3) / 100
ker = jnp.ones((3, 3, 3, 4), jnp.float32) / 27

PROGRAMS = {
 'mlp': (lambda x,w,b: jax.nn.relu(x@w+b), (x,w,b)),
 'softmax': (jax.nn.softmax, (x,)),
 'logsumexp': (lambda x: jax.nn.logsumexp(x, axis=1), (x,)),
 'layernorm': (lambda x: (x - x.mean(-1, keepdims=True))/jnp.sqrt(x.var(-1, keepdims=True)+1e-5), (x,)),
 'gelu': (lambda x: jax.nn.gelu(x), (x,)),
 'grad_mlp': (jax.grad(lambda w,x,b: jnp.sum(jax.nn.relu(x@w+b)**2)), (w,x,b)),
 'slice_pad': (lambda x: jnp.pad(x[1:3, ::2], ((1,2),(0,1))), (x,)),
 'concat_reshape': (lambda x: jnp.concatenate([x, x*2], axis=0).reshape(8,4,2).transpose(2,0,1), (x,)),
 'argmax_iota': (lambda x: (jnp.argmax(x, axis=1), jnp.arange(4)+jnp.argmin(x,axis=1)), (x,)),
 'cumsum_where': (lambda x: jnp.where(x>1.0, jnp.cumsum(x,axis=1), -x), (x,)),
 'fori': (lambda x: lax.fori_loop(0,3,lambda i,c: c*2.0+i, x), (x,)),
 'while': (lambda x: lax.while_loop(lambda c: c[0]<5, lambda c: (c[0]+1, c[1]*1.5), (0, x))[1], (x,)),
 'cond': (lambda x: lax.cond(x.sum()>0, lambda y: y+1, lambda y: y-1, x), (x,)),
 'intpow_convert': (lambda x: (x**3).astype(jnp.int32) + 1, (x,)),
 'sort': (lambda x: jnp.sort(x, axis=1)[:, ::-1], (x,)),
 'gather': (lambda x, i: x[i], (x, idx)),
 'dynamic_slice': (lambda x, i: lax.dynamic_slice(x, (i[0], 0), (2, 8)), (x, idx)),
 'clamp_square': (lambda x: jnp.clip(x, 0.5, 2.0)**2 + jnp.square(x), (x,)),
 'einsum_batched': (lambda a, b: jnp.einsum('bij,bjk->bik', a, b), (x.reshape(2,4,4), x.reshape(2,4,4))),
 'scan_cumprod': (lambda x: lax.scan(lambda c, r: (c*r, c.sum()), jnp.ones(8), x), (x,)),
 'expm1_log1p': (lambda x: jnp.expm1(x) + jnp.log1p(x) + jax.nn.sigmoid(x) + jnp.abs(-x), (x,)),
 'max_min_reduce': (lambda x: (x.max(), x.min(axis=0), jnp.prod(x[:2], axis=1), jnp.all(x>0), jnp.any(x>3)), (x,)),
 'split': (lambda x: jnp.split(x, 2, axis=1), (x,)),
 'rem_sign': (lambda x: jnp.sign(x-1.5) * jnp.fmod(x, 0.7) + jnp.floor(x) + jnp.round(x), (x,)),

 'conv_nhwc': (lambda a,k: lax.conv_general_dilated(a,k,(1,1),'SAME',dimension_numbers=('NHWC','HWIO','NHWC')), (img,ker)),
 'max_pool': (lambda a: lax.reduce_window(a, -jnp.inf, lax.max, (1,2,2,1), (1,2,2,1), 'VALID'), (img,)),
 'scatter_add': (lambda x,i: x.at[i].add(1.0), (x, idx)),
 'bf16_dot': (lambda a,b: jnp.dot(a.astype(jnp.bfloat16), b.astype(jnp.bfloat16), preferred_element_type=jnp.float32), (x, x.T)),
 'argsort': (lambda x: jnp.argsort(x[:, ::-1], axis=1), (x,)),
 'checkpoint': (jax.checkpoint(lambda x: jnp.sin(x)*2), (x,)),
 'custom_vjp_grad': (jax.grad(lambda x: jnp.sum(jax.nn.softplus(x)*jax.nn.silu(x))), (x,)),
 'cumlogsumexp': (lambda x: lax.cumlogsumexp(x, axis=1) + lax.cummax(x, axis=0), (x,)),
 'squeeze_expand': (lambda x: jnp.squeeze(x[:1], 0) + jnp.expand_dims(x[1], 0)[0], (x,)),
 'mean_var_std': (lambda x: (jnp.mean(x), jnp.var(x, axis=0), jnp.std(x, axis=1)), (x,)),
 'one_hot_take': (lambda x, i: jax.nn.one_hot(i, 8) @ x.T + jnp.take(x, i, axis=1, mode='clip').T.sum(), (x, idx)),
 'take_fill': (lambda x, ii, k: (jnp.take(x, ii, axis=1), jnp.take(k, ii), jnp.take(x > 1, ii, axis=1),
                                 x.at[ii].get(mode='fill', fill_value=-2.5)),
               (x, jnp.array([1, 9, -1, 3], dtype=jnp.int32), jnp.arange(5, dtype=jnp.int32))),
}

if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    for name, (f, args) in PROGRAMS.items():
        with open(os.path.join(here, name + ".jaxpr"), "w") as out:
            out.write(str(jax.make_jaxpr(f)(*args)) + "\n")
        for i, a in enumerate(args):
            np.save(os.path.join(here, f"{name}.in{i}.npy"), np.asarray(a))
        for i, r in enumerate(jax.tree_util.tree_leaves(f(*args))):
            np.save(os.path.join(here, f"{name}.out{i}.npy"), np.asarray(r))
    print(f"{len(PROGRAMS)} programs written (jax {jax.__version__})")
