# tests/api/signal_jax_values.py — prints the JAX values that tests/api/test_signal.cpp pastes:
# jax.scipy.signal (JAX 0.10.2, x64) on the inputs defined below (the same in the test), one
# JaxCase per C++ expression. Not run by the tests (it needs jax):
#   /work/venv-jax/bin/python tests/api/signal_jax_values.py
import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp
import jax.scipy.signal as S
import numpy as np

n = np.arange(64.0)
X = jnp.asarray(np.sin(0.3 * n) + 0.5 * np.cos(1.7 * n) + 0.01 * n)           # [64]
Y = jnp.asarray(np.cos(0.3 * n + 0.4) - 0.2 * np.sin(2.2 * n))                  # [64]
X2 = jnp.stack([X, 2 * Y - 1])                                                   # [2, 64]
A = jnp.asarray(np.sin(np.arange(30.0)).reshape(5, 6))                           # [5, 6]
K = jnp.asarray(np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]]))                 # [2, 3]
V = jnp.asarray(np.array([0.5, -1.0, 2.0, 0.25]))
Z = jnp.asarray(np.arange(12.0).reshape(4, 3) ** 1.5 - 3)                        # [4, 3]


def show(cpp, v):
    v = np.asarray(v)
    if np.iscomplexobj(v):
        v = np.stack([v.real, v.imag], -1)  # the test compares real and imaginary parts
    esc = cpp.replace('"', '\\"')
    print(f'    {{"{esc}", real_imag({cpp}), {{{", ".join(repr(float(x)) for x in v.ravel())}}}, {{{", ".join(map(str, v.shape))}}}}},')


for mode in ["full", "same", "valid"]:
    show(f'sg::convolve(A, K, "{mode}")', S.convolve(A, K, mode))
    show(f'sg::convolve(K, A, "{mode}")', S.convolve(K, A, mode))
    show(f'sg::correlate(A, K, "{mode}")', S.correlate(A, K, mode))
    show(f'sg::convolve2d(A, K, "{mode}")', S.convolve2d(A, K, mode))
    show(f'sg::correlate2d(A, K, "{mode}")', S.correlate2d(A, K, mode))
    show(f'sg::correlate2d(K, A, "{mode}")', S.correlate2d(K, A, mode))
    show(f'sg::fftconvolve(A, K, "{mode}")', S.fftconvolve(A, K, mode))
    show(f'sg::convolve(X, V, "{mode}", "fft")', S.convolve(X, V, mode, method="fft"))
show('sg::fftconvolve(X2, st::stack({V, -V}), "same", std::vector<int>{1})', S.fftconvolve(X2, jnp.stack([V, -V]), "same", axes=[1]))
show('sg::detrend(X)', S.detrend(X))
show('sg::detrend(X, -1, "constant")', S.detrend(X, type="constant"))
show('sg::detrend(Z, 0, "linear", {2})', S.detrend(Z, axis=0, type="linear", bp=2))
show('sg::welch(X, {.nperseg = 16}).first', S.welch(X, nperseg=16)[0])
show('sg::welch(X, {.nperseg = 16}).second', S.welch(X, nperseg=16)[1])
show('sg::welch(X2, {.fs = 10.0, .window = "hamming", .nperseg = 20, .noverlap = 5, .nfft = 32, .detrend = "linear", .scaling = "spectrum"}).second',
     S.welch(X2, fs=10.0, window="hamming", nperseg=20, noverlap=5, nfft=32, detrend="linear", scaling="spectrum")[1])
show('sg::welch(X, {.nperseg = 16, .average = "median"}).second', S.welch(X, nperseg=16, average="median")[1])
show('sg::welch(X, {.nperseg = 15, .return_onesided = false}).second', S.welch(X, nperseg=15, return_onesided=False)[1])
show('sg::csd(X, Y, {.nperseg = 16}).second', S.csd(X, Y, nperseg=16)[1])
show('sg::csd(X, Y, {.window = "blackman", .nperseg = 24, .detrend = "none"}).second', S.csd(X, Y, window="blackman", nperseg=24, detrend=False)[1])
f, t, zxx = S.stft(X, nperseg=16)
show('std::get<0>(sg::stft(X, {.nperseg = 16}))', f)
show('std::get<1>(sg::stft(X, {.nperseg = 16}))', t)
show('std::get<2>(sg::stft(X, {.nperseg = 16}))', zxx)
show('std::get<2>(sg::stft(X2, {.fs = 4.0, .nperseg = 12, .noverlap = 9, .boundary = "odd"}))', S.stft(X2, fs=4.0, nperseg=12, noverlap=9, boundary="odd")[2])
show('std::get<2>(sg::stft(X, {.nperseg = 10, .boundary = "even", .padded = false}))', S.stft(X, nperseg=10, boundary="even", padded=False)[2])
show('std::get<1>(sg::stft(X, {.nperseg = 10, .boundary = "none", .padded = false}))', S.stft(X, nperseg=10, boundary=None, padded=False)[1])
show('std::get<2>(sg::stft(X, {.nperseg = 10, .boundary = "constant"}))', S.stft(X, nperseg=10, boundary="constant")[2])
tt, xr = S.istft(zxx, nperseg=16)
show('sg::istft(std::get<2>(sg::stft(X, {.nperseg = 16})), {.nperseg = 16}).second', xr)
show('sg::istft(std::get<2>(sg::stft(X, {.nperseg = 16})), {.nperseg = 16}).first', tt)
show('sg::istft(std::get<2>(sg::stft(X, {.window = "hamming", .nperseg = 20, .noverlap = 15})), {.window = "hamming", .nperseg = 20, .noverlap = 15}).second',
     S.istft(S.stft(X, window="hamming", nperseg=20, noverlap=15)[2], window="hamming", nperseg=20, noverlap=15)[1])
