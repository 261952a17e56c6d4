// strata/strata.h — the whole public API. Users write `namespace st = strata;`.
#pragma once

#include "strata/array.h"
#include "strata/composites.h"
#include "strata/collectives.h"  // issue 18
#include "strata/control_flow.h"
#include "strata/custom_solve.h"  // custom_linear_solve, custom_root, closure_convert
#include "strata/conv.h"
#include "strata/creation.h"
#include "strata/device.h"
#include "strata/distributed.h"  // issue 18
#include "strata/dtype.h"
#include "strata/errors.h"
#include "strata/fft.h"  // jax.numpy.fft
#include "strata/grad.h"
#include "strata/image.h"  // jax.image, jax.scipy.ndimage
#include "strata/indexing.h"
#include "strata/initializers.h"  // jax.nn.initializers
#include "strata/jacobian.h"  // jacfwd, jacrev, hessian
#include "strata/jaxpr.h"
#include "strata/interpolate.h"  // jax.scipy.interpolate (RegularGridInterpolator)
#include "strata/lax_utils.h"  // lax.map, select_n, *_in_dim, collapse, lax.pad, sort_key_val, reduce_and/or/xor, ...
#include "strata/jit.h"
#include "strata/linalg.h"  // linear algebra (issue 14)
#include "strata/linalg_tridiagonal.h"  // tridiagonal_solve, eigh_tridiagonal
#include "strata/ops.h"
#include "strata/ode.h"  // jax.experimental.ode (odeint)
#include "strata/optimize.h"  // jax.scipy.optimize (st::optimize)
#include "strata/pytree.h"
#include "strata/ragged_dot.h"  // jax.lax.ragged_dot (grouped matmul)
#include "strata/random.h"
#include "strata/reduce.h"  // jax.lax.reduce with a user combiner
#include "strata/associative_scan.h"  // jax.lax.associative_scan
#include "strata/searching.h"  // searchsorted, interp, histogram
#include "strata/statistics.h"  // quantiles, nan-reductions, isclose
#include "strata/sparse_linalg.h"  // jax.scipy.sparse.linalg (cg, bicgstab, gmres)
#include "strata/spatial.h"  // jax.scipy.spatial.transform (Rotation, Slerp)
#include "strata/special.h"  // jax.scipy.special (st::special)
#include "strata/segment.h"  // jax.ops.segment_sum and relatives
#include "strata/selection.h"
#include "strata/signal.h"  // jax.scipy.signal (st::signal)
#include "strata/set_ops.h"  // unique, isin, union1d, intersect1d, setdiff1d, setxor1d
#include "strata/shape.h"
#include "strata/stablehlo.h"
#include "strata/stats.h"  // jax.scipy.stats (st::stats)
#include "strata/npy.h"
#include "strata/sorting.h"
#include "strata/transforms.h"
#include "strata/array_utils.h"  // result_type, can_cast, put, fromfunction, ...
#include "strata/aliases.h"  // jnp spellings: arccos, absolute, amax, concat, bitwise_and, right_shift, ...
#include "strata/vectorize.h"  // jnp.vectorize
#include "strata/vmap.h"
#include "strata/callbacks.h"  // pure_callback, io_callback, debug::callback, debug::print
#include "strata/optimizers.h"  // optim::adam, sgd, chain, clip_by_global_norm, schedules (optax)
