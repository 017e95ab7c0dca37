;; Hamming distances between sign-bit vectors, 128 bits at a time with SIMD (sign-bit-distances.ts).
;; hamming(bits, n, query, blocks, out): for each of the n vectors laid end to end at `bits`, each
;; `blocks` 16-byte blocks long (blocks >= 1), the number of bits that differ from the vector at
;; `query`, stored as a u16 at out, out + 2, ...
(module
  (memory (export "memory") 1)
  (func (export "hamming") (param $bits i32) (param $n i32) (param $query i32) (param $blocks i32) (param $out i32)
    (local $end i32) (local $q i32) (local $left i32) (local $acc v128) (local $sum v128)
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 1))))
    (block $done
      (loop $vector
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $acc (v128.const i64x2 0 0))
        (local.set $q (local.get $query))
        (local.set $left (local.get $blocks))
        (loop $block
          ;; popcount of each byte of the XOR, widened to u16 lanes so any length fits
          (local.set $acc
            (i16x8.add (local.get $acc)
              (i16x8.extadd_pairwise_i8x16_u
                (i8x16.popcnt (v128.xor (v128.load (local.get $bits)) (v128.load (local.get $q)))))))
          (local.set $bits (i32.add (local.get $bits) (i32.const 16)))
          (local.set $q (i32.add (local.get $q) (i32.const 16)))
          (br_if $block (local.tee $left (i32.sub (local.get $left) (i32.const 1)))))
        (local.set $sum (i32x4.extadd_pairwise_i16x8_u (local.get $acc)))
        (i32.store16 (local.get $out)
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $sum)) (i32x4.extract_lane 1 (local.get $sum)))
            (i32.add (i32x4.extract_lane 2 (local.get $sum)) (i32x4.extract_lane 3 (local.get $sum)))))
        (local.set $out (i32.add (local.get $out) (i32.const 2)))
        (br $vector)))))
