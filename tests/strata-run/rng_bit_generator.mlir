// StableHLO's rng_bit_generator (THREE_FRY, PHILOX and DEFAULT, as XLA expands them:
// lowering/RngBitGeneratorLowering) and reduce_precision. Expected values: JAX 0.10.2 on CPU
// (jax.lax.rng_bit_generator; the three-word PHILOX state through XLA's compiler directly;
// jax.lax.reduce_precision), bit for bit.
// RUN: strata-run %s --split-input-file | FileCheck %s

// 32-bit words from both halves of each counter, split along the even dimension.
// CHECK: PASS rng_bit_generator.mlir:[[@LINE+1]] @u32_3x2 (2 checks)
func.func @u32_3x2() {
  %s = stablehlo.constant dense<[0, 0]> : tensor<2xui64>
  %state, %bits = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x2xui32>)
  check.expect_eq_const %state, dense<[0, 3]> : tensor<2xui64>
  check.expect_eq_const %bits, dense<[[1797259609, 2579123966], [1351547692, 3235790642], [1688610540, 4229293427]]> : tensor<3x2xui32>
  func.return
}

// -----

// No even dimension: the largest one is halved (rounded up) and the extra word dropped;
// generic form.
// CHECK: PASS rng_bit_generator.mlir:[[@LINE+1]] @u32_odd_generic (4 checks)
func.func @u32_odd_generic() {
  %s = stablehlo.constant dense<[1311768467463790320, 42]> : tensor<2xui64>
  %r:2 = "stablehlo.rng_bit_generator"(%s) <{rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<7xui32>)
  check.expect_eq_const %r#0, dense<[1311768467463790320, 46]> : tensor<2xui64>
  check.expect_eq_const %r#1, dense<[655646994, 487076328, 1896695128, 664557070, 2948533539, 1447576271, 8210681]> : tensor<7xui32>
  %t = stablehlo.constant dense<[3, 1]> : tensor<2xui64>
  %q:2 = "stablehlo.rng_bit_generator"(%t) <{rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x3xui32>)
  check.expect_eq_const %q#0, dense<[3, 7]> : tensor<2xui64>
  check.expect_eq_const %q#1, dense<[[3355017305, 2702651620, 1185596879], [3960069500, 828483657, 779968594], [555017538, 1109507171, 3802093305]]> : tensor<3x3xui32>
  func.return
}

// -----

// 64-bit: one counter an element, its two words joined; the counter crosses 2^32 and wraps.
// CHECK: PASS rng_bit_generator.mlir:[[@LINE+1]] @u64 (6 checks)
func.func @u64() {
  %s = stablehlo.constant dense<[0, 0]> : tensor<2xui64>
  %state, %bits = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui64>)
  check.expect_eq_const %state, dense<[0, 5]> : tensor<2xui64>
  check.expect_eq_const %bits, dense<[11077253088097075545, 13897614985444391724, 18164676955841373932, 376028057765135569, 12082511028297777851]> : tensor<5xui64>
  %t = stablehlo.constant dense<[9223372036854775813, 4294967295]> : tensor<2xui64>
  %state2, %bits2 = stablehlo.rng_bit_generator %t, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui64>)
  check.expect_eq_const %state2, dense<[9223372036854775813, 4294967298]> : tensor<2xui64>
  check.expect_eq_const %bits2, dense<[2001322547987326387, 9823971743849192886, 7462005851273975430]> : tensor<3xui64>
  %w = stablehlo.constant dense<[1, 18446744073709551615]> : tensor<2xui64>
  %state3, %bits3 = stablehlo.rng_bit_generator %w, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui64>)
  check.expect_eq_const %state3, dense<[1, 3]> : tensor<2xui64>
  check.expect_eq_const %bits3, dense<[[5935036730470049944, 10874829180423743482], [3280001176275675250, 9236835810183407956]]> : tensor<2x2xui64>
  func.return
}

// -----

// 8 and 16 bits: the low bits of the 32-bit words; scalars.
// CHECK: PASS rng_bit_generator.mlir:[[@LINE+1]] @narrow_and_scalar (8 checks)
func.func @narrow_and_scalar() {
  %s = stablehlo.constant dense<[0, 0]> : tensor<2xui64>
  %s8, %b8 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui8>)
  check.expect_eq_const %s8, dense<[0, 3]> : tensor<2xui64>
  check.expect_eq_const %b8, dense<[[89, 44, 236], [254, 50, 115]]> : tensor<2x3xui8>
  %k = stablehlo.constant dense<[11, 12]> : tensor<2xui64>
  %s16, %b16 = stablehlo.rng_bit_generator %k, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui16>)
  check.expect_eq_const %s16, dense<[11, 15]> : tensor<2xui64>
  check.expect_eq_const %b16, dense<[50735, 23108, 11054, 47816, 60076]> : tensor<5xui16>
  %s3, %b3 = stablehlo.rng_bit_generator %k, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x1x5xui8>)
  check.expect_eq_const %s3, dense<[11, 21]> : tensor<2xui64>
  check.expect_eq_const %b3, dense<[[[47, 68, 46, 200, 172]], [[245, 3, 177, 132, 67]], [[245, 192, 253, 104, 63]]]> : tensor<3x1x5xui8>
  %z = stablehlo.constant dense<[3, 1]> : tensor<2xui64>
  %s0, %b0 = stablehlo.rng_bit_generator %z, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<ui64>)
  check.expect_eq_const %s0, dense<[3, 2]> : tensor<2xui64>
  check.expect_eq_const %b0, dense<17008368995742089305> : tensor<ui64>
  func.return
}

// -----

// CHECK: PASS rng_bit_generator.mlir:[[@LINE+1]] @scalar_u32 (2 checks)
func.func @scalar_u32() {
  %s = stablehlo.constant dense<[0, 0]> : tensor<2xui64>
  %state, %bits = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<ui32>)
  check.expect_eq_const %state, dense<[0, 1]> : tensor<2xui64>
  check.expect_eq_const %bits, dense<1797259609> : tensor<ui32>
  func.return
}

// -----

// reduce_precision to f16's, bf16's and narrower formats: rounding to nearest even, overflow to
// inf, no subnormals, nans unchanged.
// CHECK: PASS rng_bit_generator.mlir:[[@LINE+1]] @reduce_precision (4 checks)
func.func @reduce_precision() {
  %x = stablehlo.constant dense<[1.0, 1.00146484375, 3.14159265, -65519.0, 65520.0, 1.0e-5, 6.2e-5, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 1.0e30, 2.5e-38, 1.00048828125]> : tensor<14xf32>
  %a = stablehlo.reduce_precision %x, format = e5m10 : tensor<14xf32>
  %ai = stablehlo.bitcast_convert %a : (tensor<14xf32>) -> tensor<14xui32>
  check.expect_eq_const %ai, dense<[0x3f800000, 0x3f804000, 0x40490000, 0xc77fe000, 0x7f800000, 0x0, 0x38820000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800000, 0x0, 0x3f800000]> : tensor<14xui32>
  %b = "stablehlo.reduce_precision"(%x) <{exponent_bits = 8 : i32, mantissa_bits = 7 : i32}> : (tensor<14xf32>) -> tensor<14xf32>
  %bi = stablehlo.bitcast_convert %b : (tensor<14xf32>) -> tensor<14xui32>
  check.expect_eq_const %bi, dense<[0x3f800000, 0x3f800000, 0x40490000, 0xc7800000, 0x47800000, 0x37280000, 0x38820000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x714a0000, 0x1080000, 0x3f800000]> : tensor<14xui32>
  %c = stablehlo.reduce_precision %x, format = e3m0 : tensor<14xf32>
  %ci = stablehlo.bitcast_convert %c : (tensor<14xf32>) -> tensor<14xui32>
  check.expect_eq_const %ci, dense<[0x3f800000, 0x3f800000, 0x40800000, 0xff800000, 0x7f800000, 0x0, 0x0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800000, 0x0, 0x3f800000]> : tensor<14xui32>
  %h = stablehlo.constant dense<[1.0, 1.0009765625, 3.0, 65504.0, 1.0e-4]> : tensor<5xf16>
  %d = stablehlo.reduce_precision %h, format = e4m3 : tensor<5xf16>
  check.expect_eq_const %d, dense<[1.0, 1.0, 3.0, 0x7C00, 0.0]> : tensor<5xf16>
  func.return
}

// -----

// PHILOX: four 32-bit words per 128-bit counter, whose high word is the key with a two-word
// state; DEFAULT is PHILOX (XLA's CPU default). Floats take the bits.
// CHECK: PASS rng_bit_generator.mlir:[[@LINE+1]] @philox (12 checks)
func.func @philox() {
  %s = stablehlo.constant dense<[11150031900141442680, 9756277977048271785]> : tensor<2xui64>
  %s1, %b1 = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui32>)
  check.expect_eq_const %s1, dense<[11150031900141442680, 9756277977048271787]> : tensor<2xui64>
  check.expect_eq_const %b1, dense<[615903769, 1917516873, 1873322213, 661864336, 2819177401]> : tensor<5xui32>
  %s2, %b2 = stablehlo.rng_bit_generator %s, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x3xui32>)
  check.expect_eq_const %s2, dense<[11150031900141442680, 9756277977048271788]> : tensor<2xui64>
  check.expect_eq_const %b2, dense<[[615903769, 1917516873, 1873322213], [661864336, 2819177401, 4141081500], [599463017, 3127864427, 3413600443]]> : tensor<3x3xui32>
  %s3, %b3 = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui64>)
  check.expect_eq_const %s3, dense<[11150031900141442680, 9756277977048271788]> : tensor<2xui64>
  check.expect_eq_const %b3, dense<[[8235672259679089177, 2842685679382077669, 17785809615389801401], [13434075420886242409, 112715407142906043, 15239495695248110993]]> : tensor<2x3xui64>
  %s4, %b4 = stablehlo.rng_bit_generator %s, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<7xui8>)
  check.expect_eq_const %s4, dense<[11150031900141442680, 9756277977048271787]> : tensor<2xui64>
  check.expect_eq_const %b4, dense<[25, 73, 229, 144, 185, 156, 105]> : tensor<7xui8>
  %s5, %b5 = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<ui16>)
  check.expect_eq_const %s5, dense<[11150031900141442680, 9756277977048271786]> : tensor<2xui64>
  check.expect_eq_const %b5, dense<61977> : tensor<ui16>
  %s6, %f6 = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xf32>)
  %b6 = stablehlo.bitcast_convert %f6 : (tensor<5xf32>) -> tensor<5xui32>
  check.expect_eq_const %b6, dense<[615903769, 1917516873, 1873322213, 661864336, 2819177401]> : tensor<5xui32>
  check.expect_eq_const %s6, dense<[11150031900141442680, 9756277977048271787]> : tensor<2xui64>
  func.return
}

// -----

// The counter's low word wraps: with two words the high word (the key) is not advanced, with
// three the carry reaches the third.
// CHECK: PASS rng_bit_generator.mlir:[[@LINE+1]] @philox_carry (6 checks)
func.func @philox_carry() {
  %s = stablehlo.constant dense<[17179869187, 18446744073709551614]> : tensor<2xui64>
  %s1, %b1 = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<11xui32>)
  check.expect_eq_const %s1, dense<[17179869187, 1]> : tensor<2xui64>
  check.expect_eq_const %b1, dense<[4223629417, 905247413, 2530372659, 1260194835, 626496924, 2239892759, 1707544137, 978689254, 3909226126, 2523396654, 1146688573]> : tensor<11xui32>
  %s2, %b2 = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui64>)
  check.expect_eq_const %s2, dense<[17179869187, 0]> : tensor<2xui64>
  check.expect_eq_const %b2, dense<[3888008037847234665, 5412495605443488819, 9620266147078706588, 4203438340584181321]> : tensor<4xui64>
  %t = stablehlo.constant dense<[7, 18446744073709551614, 9]> : tensor<3xui64>
  %s3, %b3 = "stablehlo.rng_bit_generator"(%t) <{rng_algorithm = #stablehlo<rng_algorithm PHILOX>}> : (tensor<3xui64>) -> (tensor<3xui64>, tensor<6xui32>)
  check.expect_eq_const %s3, dense<[7, 0, 10]> : tensor<3xui64>
  check.expect_eq_const %b3, dense<[0xb3d3c2ca, 0x434bbb9f, 0xf06d7566, 0x4fe1e875, 0x3282737c, 0x95362b70]> : tensor<6xui32>
  func.return
}

// CHECK: 8 passed, 0 failed
