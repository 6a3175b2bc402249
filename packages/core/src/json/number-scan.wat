;; Finds the number tokens of a valid JSON text that a JavaScript number might not reproduce
;; exactly. The source of number-scan-wasm.ts: `pnpm build:wasm` compiles this file with wabt and
;; a core test fails when the two differ.
;;
;; The text is given as UTF-16 code units (2 bytes each, little-endian), as JavaScript holds it,
;; so every offset this module reports is a byte offset whose half is a string index. The text
;; must already have passed JSON.parse: the scan relies on it being valid and never validates.
;; The 32 bytes after the text must be zero (16-unit vector loads read past its end).
;;
;; Outside strings only three kinds of unit matter: a quote opens a string, and a minus or a
;; digit opens a number. Everything else (whitespace, brackets, commas, colons, the letters of
;; true/false/null) is skipped 16 units at a time: two 8-lane loads are narrowed to one 16-lane
;; byte vector (units above 0xFF saturate, so no non-ASCII unit can look like an ASCII one), and
;; a lane mask finds the first unit of interest. Strings are skipped the same way, stopping only
;; at a quote or a backslash; a backslash skips the unit after it.
;;
;; A number is reported when its shape allows loss: an exponent, 15 or more digits, a fraction
;; ending in 0, `-0`, or a fraction starting `0.` with more than 6 digits (small enough for
;; exponent notation). The caller checks each reported token exactly; every other token is known
;; to round-trip through a JavaScript number.
(module
  ;; The caller makes the memory, sized for the text from the start: JavaScript views of a
  ;; memory that grows are detached, and one detach in a process slows every typed-array loop in
  ;; it (V8 then checks each access).
  (import "env" "memory" (memory 1))

  ;; Spans written by the last `scan` call.
  (global $count (export "count") (mut i32) (i32.const 0))
  ;; Number tokens and strings (keys included) seen since the caller last set these to 0. A
  ;; reported span carries the ordinal of its token among all number tokens, which lets a caller
  ;; find the token's value in a parsed tree; both totals let it check that the tree holds every
  ;; token in source order (duplicate keys would drop some).
  (global $numbers (export "numbers") (mut i32) (i32.const 0))
  (global $strings (export "strings") (mut i32) (i32.const 0))

  ;; Scans units from byte offset $p to $end, writing each reported token as three i32 (its start
  ;; and end byte offsets and its ordinal among the number tokens) at $out, at most $cap of them.
  ;; Returns the offset where the scan stopped: $end (or beyond) when done, or the start of the
  ;; token that found the output full, so a caller that has read the spans can call again from
  ;; there. Sets `count` to the spans written.
  (func (export "scan") (param $p i32) (param $end i32) (param $out i32) (param $cap i32)
    (result i32)
    (local $v v128) (local $mask i32) (local $c i32) (local $n i32)
    (local $start i32) (local $minus i32) (local $first i32) (local $last i32)
    (local $digits i32) (local $dot i32) (local $exponent i32) (local $slot i32)
    (block $done
      (loop $next
        ;; Skip to the next quote, minus or digit.
        (block $found
          (loop $skip
            (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $v
              (i8x16.narrow_i16x8_u
                (v128.load (local.get $p))
                (v128.load offset=16 (local.get $p))))
            (local.set $mask
              (i8x16.bitmask
                (v128.or
                  (v128.or
                    (i8x16.eq (local.get $v) (i8x16.splat (i32.const 34)))
                    (i8x16.eq (local.get $v) (i8x16.splat (i32.const 45))))
                  (i8x16.lt_u
                    (i8x16.sub (local.get $v) (i8x16.splat (i32.const 48)))
                    (i8x16.splat (i32.const 10))))))
            (br_if $found (local.get $mask))
            (local.set $p (i32.add (local.get $p) (i32.const 32)))
            (br $skip)))
        (local.set $p
          (i32.add (local.get $p) (i32.shl (i32.ctz (local.get $mask)) (i32.const 1))))
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $c (i32.load16_u (local.get $p)))

        ;; A string: skip to its closing quote.
        (if (i32.eq (local.get $c) (i32.const 34))
          (then
            (global.set $strings (i32.add (global.get $strings) (i32.const 1)))
            (local.set $p (i32.add (local.get $p) (i32.const 2)))
            (loop $string
              (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
              (local.set $v
                (i8x16.narrow_i16x8_u
                  (v128.load (local.get $p))
                  (v128.load offset=16 (local.get $p))))
              (local.set $mask
                (i8x16.bitmask
                  (v128.or
                    (i8x16.eq (local.get $v) (i8x16.splat (i32.const 34)))
                    (i8x16.eq (local.get $v) (i8x16.splat (i32.const 92))))))
              (if (i32.eqz (local.get $mask))
                (then
                  (local.set $p (i32.add (local.get $p) (i32.const 32)))
                  (br $string)))
              (local.set $p
                (i32.add (local.get $p) (i32.shl (i32.ctz (local.get $mask)) (i32.const 1))))
              ;; A backslash: skip it and the unit it escapes.
              (if (i32.eq (i32.load16_u (local.get $p)) (i32.const 92))
                (then
                  (local.set $p (i32.add (local.get $p) (i32.const 4)))
                  (br $string))))
            (local.set $p (i32.add (local.get $p) (i32.const 2)))
            (br $next)))

        ;; A number: read the whole token, noting the features that allow loss.
        (local.set $start (local.get $p))
        (local.set $minus (i32.eq (local.get $c) (i32.const 45)))
        (local.set $p (i32.add (local.get $p) (i32.shl (local.get $minus) (i32.const 1))))
        (local.set $first (i32.load16_u (local.get $p)))
        (local.set $last (i32.const 0))
        (local.set $digits (i32.const 0))
        (local.set $dot (i32.const 0))
        (local.set $exponent (i32.const 0))
        (global.set $numbers (i32.add (global.get $numbers) (i32.const 1)))
        (block $token_end
          (loop $token
            (local.set $c (i32.load16_u (local.get $p)))
            (if (i32.lt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 10))
              (then
                (local.set $digits (i32.add (local.get $digits) (i32.const 1)))
                (local.set $last (local.get $c))
                (local.set $p (i32.add (local.get $p) (i32.const 2)))
                (br $token)))
            (if (i32.eq (local.get $c) (i32.const 46))
              (then
                (local.set $dot (i32.const 1))
                (local.set $p (i32.add (local.get $p) (i32.const 2)))
                (br $token)))
            ;; e, E, + and - appear in a number only in its exponent.
            (br_if $token_end
              (i32.eqz
                (i32.or
                  (i32.or
                    (i32.eq (local.get $c) (i32.const 101))
                    (i32.eq (local.get $c) (i32.const 69)))
                  (i32.or
                    (i32.eq (local.get $c) (i32.const 43))
                    (i32.eq (local.get $c) (i32.const 45))))))
            (local.set $exponent (i32.const 1))
            (local.set $p (i32.add (local.get $p) (i32.const 2)))
            (br $token)))
        (br_if $next
          (i32.eqz
            (i32.or
              (i32.or
                (i32.or
                  (local.get $exponent)
                  (i32.ge_u (local.get $digits) (i32.const 15)))
                (i32.and (local.get $dot) (i32.eq (local.get $last) (i32.const 48))))
              (i32.or
                ;; -0
                (i32.and
                  (local.get $minus)
                  (i32.and
                    (i32.eq (local.get $digits) (i32.const 1))
                    (i32.eq (local.get $first) (i32.const 48))))
                ;; 0.0000001 prints as 1e-7
                (i32.and
                  (local.get $dot)
                  (i32.and
                    (i32.eq (local.get $first) (i32.const 48))
                    (i32.gt_u (local.get $digits) (i32.const 6))))))))
        ;; Output full: stop before this token, so the next call reads it again.
        (if (i32.ge_u (local.get $n) (local.get $cap))
          (then
            (global.set $numbers (i32.sub (global.get $numbers) (i32.const 1)))
            (local.set $p (local.get $start))
            (br $done)))
        (local.set $slot (i32.add (local.get $out) (i32.mul (local.get $n) (i32.const 12))))
        (i32.store (local.get $slot) (local.get $start))
        (i32.store offset=4 (local.get $slot) (local.get $p))
        (i32.store offset=8 (local.get $slot) (i32.sub (global.get $numbers) (i32.const 1)))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (br $next)))
    (global.set $count (local.get $n))
    (local.get $p))
)
