;; Turns UTF-8 (as TextEncoder writes it) into UTF-16 code units (2 bytes each, little-endian),
;; the form the number scan and the JSON tape read. The source of utf16-units-wasm.ts:
;; `pnpm build:wasm` compiles this file with wabt and a core test fails when the two differ.
;;
;; It exists so core copies a string into WebAssembly memory without Node's Buffer: a browser
;; has TextEncoder, which writes UTF-8, and no way to write a string's UTF-16 units other than
;; one charCodeAt per unit, several times slower. The input must be well-formed UTF-8, which
;; TextEncoder guarantees (it writes a lone surrogate as U+FFFD, one unit for one unit, so the
;; units line up with the string's indices). Runs of ASCII are widened 16 bytes at a time.
(module
  ;; The caller makes the memory, sized for the text from the start: JavaScript views of a
  ;; memory that grows are detached, and one detach in a process slows every typed-array loop in
  ;; it (V8 then checks each access).
  (import "env" "memory" (memory 1))

  ;; Decodes the UTF-8 in bytes [$p, $end) to units written from $out on, and returns the byte
  ;; offset after the last unit written.
  (func (export "widen") (param $p i32) (param $end i32) (param $out i32) (result i32)
    (local $v v128) (local $c i32) (local $point i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        ;; Sixteen ASCII bytes at once.
        (if (i32.le_u (i32.add (local.get $p) (i32.const 16)) (local.get $end))
          (then
            (local.set $v (v128.load (local.get $p)))
            (if (i32.eqz (i8x16.bitmask (local.get $v)))
              (then
                (v128.store (local.get $out) (i16x8.extend_low_i8x16_u (local.get $v)))
                (v128.store offset=16 (local.get $out) (i16x8.extend_high_i8x16_u (local.get $v)))
                (local.set $p (i32.add (local.get $p) (i32.const 16)))
                (local.set $out (i32.add (local.get $out) (i32.const 32)))
                (br $next)))))
        (local.set $c (i32.load8_u (local.get $p)))
        (if (i32.lt_u (local.get $c) (i32.const 0x80))
          (then
            (i32.store16 (local.get $out) (local.get $c))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (local.set $out (i32.add (local.get $out) (i32.const 2)))
            (br $next)))
        (if (i32.lt_u (local.get $c) (i32.const 0xe0))
          (then
            (i32.store16 (local.get $out)
              (i32.or
                (i32.shl (i32.and (local.get $c) (i32.const 0x1f)) (i32.const 6))
                (i32.and (i32.load8_u offset=1 (local.get $p)) (i32.const 0x3f))))
            (local.set $p (i32.add (local.get $p) (i32.const 2)))
            (local.set $out (i32.add (local.get $out) (i32.const 2)))
            (br $next)))
        (if (i32.lt_u (local.get $c) (i32.const 0xf0))
          (then
            (i32.store16 (local.get $out)
              (i32.or
                (i32.or
                  (i32.shl (i32.and (local.get $c) (i32.const 0x0f)) (i32.const 12))
                  (i32.shl (i32.and (i32.load8_u offset=1 (local.get $p)) (i32.const 0x3f))
                    (i32.const 6)))
                (i32.and (i32.load8_u offset=2 (local.get $p)) (i32.const 0x3f))))
            (local.set $p (i32.add (local.get $p) (i32.const 3)))
            (local.set $out (i32.add (local.get $out) (i32.const 2)))
            (br $next)))
        ;; Four bytes: a code point beyond U+FFFF, written as a surrogate pair.
        (local.set $point
          (i32.sub
            (i32.or
              (i32.or
                (i32.shl (i32.and (local.get $c) (i32.const 0x07)) (i32.const 18))
                (i32.shl (i32.and (i32.load8_u offset=1 (local.get $p)) (i32.const 0x3f))
                  (i32.const 12)))
              (i32.or
                (i32.shl (i32.and (i32.load8_u offset=2 (local.get $p)) (i32.const 0x3f))
                  (i32.const 6))
                (i32.and (i32.load8_u offset=3 (local.get $p)) (i32.const 0x3f))))
            (i32.const 0x10000)))
        (i32.store16 (local.get $out)
          (i32.or (i32.const 0xd800) (i32.shr_u (local.get $point) (i32.const 10))))
        (i32.store16 offset=2 (local.get $out)
          (i32.or (i32.const 0xdc00) (i32.and (local.get $point) (i32.const 0x3ff))))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $next)))
    (local.get $out))
)
